"""The party languages' word lists, kept on disk between server starts. Making a list
reads wordfreq's packaged lists and parses Hunspell's dictionaries for the proper nouns
(games/word/party/dictionary.py): 2-5 s of CPU per process, paid by every daphne, the
Celery worker and `bin/serve` at each start (a restart on party night included). The
list a start makes is written here and the next start reads it back in milliseconds.

A kept list is used only when everything it was made from is unchanged: the code that
makes it (these modules' source), wordfreq's version, the Hunspell files it read (size and
modification time) and the cuts. Anything else makes it afresh. The cache is a
convenience, never a dependency: a folder that cannot be read or written (a read-only
image) only means the list is made, as without it.

Where: $HEIST_CACHE_DIR, else $XDG_CACHE_HOME/heist, else ~/.cache/heist.
"""

from __future__ import annotations

import hashlib
import os
import tempfile
from collections.abc import Callable, Iterable
from pathlib import Path

FORMAT = 1  # bump when the file's layout changes


def folder() -> Path:
    chosen = os.environ.get("HEIST_CACHE_DIR")
    if chosen:
        return Path(chosen)
    base = os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
    return Path(base) / "heist"


def key_of(*, name: str, sources: Iterable[Path], files: Iterable[Path], settings: Iterable[object]) -> str:
    """A digest of what a list is made from: the source files' text, the read files'
    size and modification time, and the settings' reprs."""
    digest = hashlib.sha256(f"{FORMAT}\0{name}".encode())
    for source in sources:
        digest.update(b"\0source\0" + source.read_bytes())
    for path in files:
        try:
            stat = path.stat()
            digest.update(f"\0file\0{path}\0{stat.st_size}\0{stat.st_mtime_ns}".encode())
        except OSError:
            digest.update(f"\0file\0{path}\0missing".encode())
    for setting in settings:
        digest.update(f"\0setting\0{setting!r}".encode())
    return digest.hexdigest()[:24]


def kept_list(*, name: str, key: str, make: Callable[[], list[str]]) -> list[str]:
    """The list `make` returns, read from the cache when one was kept under `key`, else
    made and kept (written whole to a temporary file, then renamed over: two processes
    starting together each write a whole file, and a reader never sees half of one)."""
    path = folder() / f"{name}-{key}.txt"
    try:
        text = path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError):
        pass
    else:
        head, _, body = text.partition("\n")
        words = body.split("\n") if body else []
        if head == f"{name} {key} {len(words)}":  # a whole file, of this list
            return words
    words = make()
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        fd, temporary = tempfile.mkstemp(dir=path.parent, prefix=f".{name}-", suffix=".tmp")
        try:
            with os.fdopen(fd, "w", encoding="utf-8") as out:
                out.write(f"{name} {key} {len(words)}\n" + "\n".join(words))
            os.replace(temporary, path)
        except BaseException:
            Path(temporary).unlink(missing_ok=True)
            raise
        for older in path.parent.glob(f"{name}-*.txt"):  # made from what has changed since
            if older != path:
                older.unlink(missing_ok=True)
    except OSError:
        pass  # not writable here: the list was made, it is only not kept
    return words


__all__ = ["FORMAT", "folder", "kept_list", "key_of"]
