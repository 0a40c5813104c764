"""README's layout table names what is in the repository, and nothing that is not.

Read from the files: every path in the table's first column exists; every top-level
entry of the checkout (less what .gitignore keeps out, and the README itself) is in
the first column; every script in bin/ and every page in docs/ is named in the table.
"""

import fnmatch
import re

import pytest

NOT_LISTED = {"README.md", ".gitignore"}  # the table is in one, the other is plumbing


def _layout_section(repo_root) -> str:
    text = (repo_root / "README.md").read_text()
    start = text.index("\n## Layout\n")
    end = text.index("\n## ", start + 1)
    return text[start:end]


def _first_column_paths(repo_root) -> list[str]:
    paths = []
    for line in _layout_section(repo_root).splitlines():
        if line.startswith("| `"):
            paths += re.findall(r"`([^`]+)`", line.split("|")[1])
    assert len(paths) > 10, "the layout table was not found"
    return paths


def _ignored(repo_root, name: str) -> bool:
    if name.startswith(".") and name not in {".ci", ".gitignore"}:
        return True  # .git, .venv, tool caches
    patterns = [p.strip().rstrip("/") for p in (repo_root / ".gitignore").read_text().splitlines()]
    return any(p and not p.startswith("#") and fnmatch.fnmatch(name, p) for p in patterns)


def test_every_path_in_the_layout_table_exists(repo_root):
    missing = [p for p in _first_column_paths(repo_root) if not (repo_root / p).exists()]
    assert not missing, f"README's layout table names paths that do not exist: {missing}"


def test_every_top_level_entry_is_in_the_layout_table(repo_root):
    listed = _first_column_paths(repo_root)
    unlisted = []
    for entry in sorted(repo_root.iterdir()):
        name = entry.name + ("/" if entry.is_dir() else "")
        if entry.name in NOT_LISTED or _ignored(repo_root, entry.name):
            continue
        if not any(p == name or p.startswith(name if entry.is_dir() else f"{name}/") for p in listed):
            unlisted.append(name)
    assert not unlisted, f"README's layout table does not list: {unlisted}"


@pytest.mark.parametrize("folder, pattern", [("bin", "*"), ("docs", "*.md")])
def test_every_script_and_doc_is_named_in_the_layout_table(repo_root, folder, pattern):
    section = _layout_section(repo_root)
    files = sorted(p for p in (repo_root / folder).glob(pattern) if p.is_file())
    assert files
    unnamed = [
        f"{folder}/{p.name}" for p in files if f"`{p.name}`" not in section and f"`{folder}/{p.name}`" not in section
    ]
    assert not unnamed, f"README's layout table does not name: {unnamed}"
