"""The simulator's command line, the same for every game: lists of numbers."""

from __future__ import annotations


def int_list(text: str) -> list[int]:
    """'2-10' or '4,6,8' or '2-4,10' (empty: none); ValueError for anything else."""
    out: list[int] = []
    try:
        for part in text.split(","):
            if not part.strip():
                continue
            if "-" in part:
                a, b = part.split("-", 1)
                out.extend(range(int(a), int(b) + 1))
            else:
                out.append(int(part))
    except ValueError:
        raise ValueError(f"not a list of numbers: {text!r} (e.g. 2-10 or 4,6,8)") from None
    return out
