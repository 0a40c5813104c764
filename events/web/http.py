"""HTTP's one mapping of the error family (tables/errors.py): a status and a JSON body
{"error": code, "message": ...}. Every view that refuses a request answers through here."""

from __future__ import annotations

from django.http import JsonResponse

from tables.errors import ErrorCode, ServiceError

# Codes with their own status; every other refusal is a bad request. (Keyed by members
# of a StrEnum: a code read as a plain string finds its entry all the same.)
STATUS: dict[str, int] = {
    ErrorCode.FORBIDDEN: 403,
    ErrorCode.NO_PARTY: 404,
    ErrorCode.EXPIRED: 410,
    ErrorCode.CLOSED: 409,
    ErrorCode.FULL: 409,
    ErrorCode.NOT_OVER: 409,
    ErrorCode.NOT_SEATED: 409,
    ErrorCode.TOO_LARGE: 413,
    ErrorCode.RATE_LIMITED: 429,
}


def error_response(exc: ServiceError, status: int | None = None) -> JsonResponse:
    """`status` overrides the code's own (a printable of a kind that does not exist is a 404)."""
    return JsonResponse({"error": exc.code, "message": str(exc)}, status=status or STATUS.get(exc.code, 400))
