"""HTTP's one mapping of the error family (tables/errors.py): a status and a JSON body
{"error": code, "message": ...}. Every view that refuses a request answers through here."""

from __future__ import annotations

from django.http import JsonResponse

from tables.errors import ServiceError

# Codes with their own status; every other refusal is a bad request.
STATUS = {
    "forbidden": 403,
    "no_party": 404,
    "expired": 410,
    "closed": 409,
    "full": 409,
    "not_over": 409,
    "not_seated": 409,
    "too_large": 413,
    "rate_limited": 429,
}


def error_response(exc: ServiceError, status: int | None = None) -> JsonResponse:
    """`status` overrides the code's own (a printable of a kind that does not exist is a 404)."""
    return JsonResponse({"error": exc.code, "message": str(exc)}, status=status or STATUS.get(exc.code, 400))
