"""The production image without Docker: the Dockerfile's build, step by step, on this
machine (tests/test_image.py).

- The build context is the repository less what `.dockerignore` leaves out, matched as
  Docker does: patterns in order, the last one that matches a path (or a folder above
  it) decides, `!` takes a path back in; `*` and `?` stay within one path segment,
  `**` spans any number of them.
- `WORKDIR /app` is a directory of the test's; `COPY <src>... <dest>` copies from the
  context into it; `ENV` sets the build's environment (an `/app` in a value is that
  directory).
- `RUN` runs its shell command there, with a fresh virtualenv standing for the image's
  Python (its bin first on PATH), so `pip install .` installs the tree into it as the
  image does: from the package index pip is set up to use, or its local wheel cache
  and find-links when the index cannot be reached.
- What the base image's system does is not redone: `apt-get` (the fonts the printables
  embed: Debian's fonts-dejavu-core, which this machine has) and `useradd`/`chown` (the
  user the container runs as). Every other RUN must run.
- `CMD` is returned as words, for whoever starts the image's server.
"""

from __future__ import annotations

import json
import os
import re
import shlex
import shutil
import subprocess
import sys
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
NOT_REDONE = ("apt-get", "useradd")  # the base image's system, not the project's build


def ignore_patterns(text: str) -> list[tuple[bool, re.Pattern[str]]]:
    """`.dockerignore` as (takes back in, regex) pairs, in order."""
    patterns = []
    for raw in text.splitlines():
        line = raw.strip()
        if not line or line.startswith("#"):
            continue
        keep = line.startswith("!")
        line = os.path.normpath(line.lstrip("!").strip().lstrip("/"))
        out, i = "", 0
        while i < len(line):
            if line.startswith("**", i):
                out += ".*"
                i += 2
                if line.startswith("/", i):  # `**/x` also matches `x` at the top
                    out = out[:-2] + "(?:.*/)?"
                    i += 1
            elif line[i] == "*":
                out, i = out + "[^/]*", i + 1
            elif line[i] == "?":
                out, i = out + "[^/]", i + 1
            else:
                out, i = out + re.escape(line[i]), i + 1
        patterns.append((keep, re.compile(out + r"\Z")))
    return patterns


def ignored(path: str, patterns: list[tuple[bool, re.Pattern[str]]]) -> bool:
    """Whether the context leaves out `path` (relative, with /): the last pattern that
    matches it or a folder above it decides."""
    parts = path.split("/")
    prefixes = ["/".join(parts[: i + 1]) for i in range(len(parts))]
    out = False
    for keep, pattern in patterns:
        if any(pattern.match(p) for p in prefixes):
            out = not keep
    return out


def context_files(root: Path = REPO, dockerignore: str | None = None) -> list[str]:
    """Every file of the build context, relative to `root`."""
    patterns = ignore_patterns((root / ".dockerignore").read_text() if dockerignore is None else dockerignore)
    any_keep = any(keep for keep, _ in patterns)
    found = []
    for here, dirs, files in os.walk(root):
        rel = Path(here).relative_to(root).as_posix()
        rel = "" if rel == "." else rel + "/"
        if not any_keep:  # nothing can be taken back in below an ignored folder
            dirs[:] = [d for d in dirs if not ignored(rel + d, patterns)]
        found += [rel + f for f in files if not ignored(rel + f, patterns)]
    return sorted(found)


def instructions(dockerfile: str) -> Iterator[tuple[str, str]]:
    """(INSTRUCTION, arguments), continuation lines joined and comments dropped."""
    pending = ""
    for raw in dockerfile.splitlines():
        line = raw.strip()
        if line.startswith("#") or (not line and not pending):
            continue
        if line.endswith("\\"):
            pending += line[:-1] + " "
            continue
        whole = (pending + line).strip()
        pending = ""
        word, _, rest = whole.partition(" ")
        yield word.upper(), rest.strip()


@dataclass
class ImageTree:
    """The image built here: its /app (`app`), its Python (`bin`), its ENV and CMD."""

    root: Path
    app: Path
    bin: Path
    env: dict[str, str] = field(default_factory=dict)
    cmd: list[str] = field(default_factory=list)
    ran: list[str] = field(default_factory=list)
    skipped: list[str] = field(default_factory=list)

    def environment(self, extra: dict[str, str] | None = None) -> dict[str, str]:
        """The image's environment, for a process of this machine's."""
        env = {k: v for k, v in os.environ.items() if not k.startswith(("DJANGO_", "PYTHON", "VIRTUAL_ENV"))}
        env.update(self.env)
        env["PATH"] = f"{self.bin}:{env.get('PATH', '/usr/bin:/bin')}"
        env.update(extra or {})
        return env

    def run(self, words: list[str], extra: dict[str, str] | None = None, timeout: float = 120):
        return subprocess.run(
            words, cwd=self.app, env=self.environment(extra), capture_output=True, text=True, timeout=timeout
        )


def build(root: Path, *, context: Path = REPO, dockerignore: str | None = None) -> ImageTree:
    """Lay out and build the image under `root` as the Dockerfile says."""
    app = root / "app"
    venv = root / "python"
    subprocess.run([sys.executable, "-m", "venv", str(venv)], check=True, capture_output=True)
    image = ImageTree(root=root, app=app, bin=venv / "bin")
    files = context_files(context, dockerignore)
    workdir = Path("/")
    for word, args in instructions((context / "Dockerfile").read_text()):
        if word == "WORKDIR":
            workdir = Path(args)
            _inside(image, workdir).mkdir(parents=True, exist_ok=True)
        elif word == "ENV":
            for pair in shlex.split(args):
                key, _, value = pair.partition("=")
                image.env[key] = value.replace("/app", str(app))
        elif word == "COPY":
            *sources, dest = shlex.split(args)
            target = _inside(image, workdir / dest)
            for source in sources:
                _copy(context, files, os.path.normpath(source), target, many=len(sources) > 1 or dest.endswith("/"))
        elif word == "RUN":
            if args.split()[0] in NOT_REDONE:
                image.skipped.append(args)
                continue
            done = subprocess.run(
                ["sh", "-c", args],
                cwd=_inside(image, workdir),
                env=_without(image.environment(), "PIP_NO_CACHE_DIR"),  # the cache: this machine's wheels
                capture_output=True,
                text=True,
                timeout=600,
            )
            if done.returncode != 0:
                raise AssertionError(
                    f"RUN {args}\nexited {done.returncode}:\n{done.stdout[-3000:]}{done.stderr[-3000:]}"
                )
            image.ran.append(args)
        elif word == "CMD":
            image.cmd = [str(w) for w in json.loads(args)]
    return image


def _without(env: dict[str, str], key: str) -> dict[str, str]:
    return {k: v for k, v in env.items() if k != key}


def _inside(image: ImageTree, path: Path) -> Path:
    """An absolute path of the image, here."""
    if path == Path("/app") or Path("/app") in path.parents:
        return image.app / path.relative_to("/app")
    return image.root / "rootfs" / path.relative_to("/")


def _copy(context: Path, files: list[str], source: str, target: Path, *, many: bool) -> None:
    """COPY one source of the context: a folder's contents, or a file."""
    if source == ".":
        chosen = files
        prefix = ""
    elif source in files:
        dest = target / Path(source).name if many or target.is_dir() else target
        dest.parent.mkdir(parents=True, exist_ok=True)
        shutil.copy2(context / source, dest)
        return
    else:
        prefix = source.rstrip("/") + "/"
        chosen = [f for f in files if f.startswith(prefix)]
        if not chosen:
            raise AssertionError(f"COPY {source}: not in the build context")
    for rel in chosen:
        dest = target / rel[len(prefix) :]
        dest.parent.mkdir(parents=True, exist_ok=True)
        shutil.copy2(context / rel, dest)
