"""Join codes and bearer secrets.

Join codes are short and meant to be read aloud: six characters from an alphabet with
no vowels (no accidental words) and no look-alikes (0/O, 1/I/L, 5/S, 2/Z, 8/B, U/V).
Secrets (host, seat) are 256-bit random tokens kept in the browser; the server stores
only their SHA-256 and looks them up by it, comparing in constant time.
"""

from __future__ import annotations

import hashlib
import hmac
import secrets

CODE_ALPHABET = "CDFGHJKMNPQRTWXY34679"
CODE_LENGTH = 6


def new_code() -> str:
    return "".join(secrets.choice(CODE_ALPHABET) for _ in range(CODE_LENGTH))


def normalize_code(raw: str) -> str | None:
    """A typed or scanned code, case-insensitive, spaces and dashes ignored; None if it
    cannot be a code (so bad input never reaches the database)."""
    if not isinstance(raw, str):
        return None
    code = raw.strip().upper().replace(" ", "").replace("-", "")
    if len(code) != CODE_LENGTH or any(c not in CODE_ALPHABET for c in code):
        return None
    return code


def new_token() -> str:
    return secrets.token_urlsafe(32)


def token_hash(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


def token_matches(token: str, stored_hash: str) -> bool:
    return hmac.compare_digest(token_hash(token), stored_hash)


def plausible_token(token: object) -> bool:
    """Cheap shape check before any lookup: our tokens are 43 URL-safe characters."""
    return isinstance(token, str) and 20 <= len(token) <= 64 and token.replace("-", "").replace("_", "").isalnum()


def new_claim_code() -> str:
    """A one-time hand-over code: 8 characters from the join-code alphabet (~35 bits),
    valid for minutes, hashed at rest, for one seat."""
    return "".join(secrets.choice(CODE_ALPHABET) for _ in range(8))
