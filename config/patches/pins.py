"""What a patch of a third-party library was written against, checked before it applies.

A `Pin` names the library (its distribution name, as pyproject.toml pins it), the exact
version the patch was written for, and a digest of the source of every function the
patch replaces, overrides or relies on the inside of. Any difference is a reason to
refuse: the patch was reasoned about against that code and no other. A digest is of
`inspect.getsource`, so it follows the installed files, whatever the version says.
"""

from __future__ import annotations

import hashlib
import importlib.metadata
import inspect
import pkgutil
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from types import ModuleType


class PatchRefused(RuntimeError):
    """A library differs from what a patch of it was written for: the process must not
    start with the patch half-right, nor silently without it."""


def digest(obj: ModuleType | type | Callable[..., object]) -> str:
    """The digest a Pin records for `obj` (a function, a class or a module)."""
    return hashlib.sha256(inspect.getsource(obj).encode()).hexdigest()[:16]


@dataclass(frozen=True)
class Pin:
    library: str  # the distribution, as pyproject.toml spells it
    version: str
    # "package.module:Qual.name" (pkgutil.resolve_name's form) -> digest() when written
    sources: Mapping[str, str]
    patch: str  # the module that patches it, for the message

    def problems(self) -> list[str]:
        """What differs from what the patch was written against (empty: nothing)."""
        found = []
        installed = importlib.metadata.version(self.library)
        if installed != self.version:
            found.append(f"{self.library} {installed} is installed, {self.patch} was written for {self.version}")
        for name, recorded in self.sources.items():
            try:
                now = digest(pkgutil.resolve_name(name))
            except (ImportError, AttributeError, OSError, TypeError) as exc:
                found.append(f"{self.patch}: {name} is gone ({exc!r})")
                continue
            if now != recorded:
                found.append(f"{self.patch}: the source of {name} changed ({recorded} when written, {now} now)")
        return found

    def current(self) -> dict[str, str]:
        """The digests as installed now: what a patch updated for a new version records."""
        return {name: digest(pkgutil.resolve_name(name)) for name in self.sources}


def refuse(problems: list[str]) -> None:
    if problems:
        raise PatchRefused("third-party patches (config/patches/) cannot apply: " + "; ".join(problems))
