"""The error codes are one list: `ErrorCode` (tables/errors.py).

docs/PROTOCOL.md's "Error codes" table names exactly its members, and no module of
events/, tables/ or relay/ hands the error family a code as a bare string: a code
there is a member of the enumeration (a StrEnum, so the wire carries the same text).
"""

import ast
import re

from tables.errors import ErrorCode

# The error family's classes whose first argument is a code (Forbidden takes only a
# message; Illegal an engine error).
FAMILY = {"ServiceError"}


def _documented(repo_root) -> list[str]:
    text = (repo_root / "docs" / "PROTOCOL.md").read_text()
    start = text.index("\n## Error codes\n")
    end = text.find("\n## ", start + 1)
    section = text[start : end if end != -1 else len(text)]
    codes = [m.group(1) for m in re.finditer(r"^\| `([^`]+)` \|", section, re.MULTILINE)]
    assert len(codes) > 20, "the table of error codes was not found"
    # `illegal.<rule>`: the member is the prefix, the engine's rule follows it.
    return [c.removesuffix(".<rule>") for c in codes]


def test_protocol_lists_every_error_code_once(repo_root):
    documented = _documented(repo_root)
    assert len(documented) == len(set(documented)), "a code is listed twice"
    assert set(documented) == {c.value for c in ErrorCode}


def test_every_error_code_is_documented(repo_root):
    missing = sorted({c.value for c in ErrorCode} - set(_documented(repo_root)))
    assert missing == []


def test_codes_are_their_strings_on_the_wire():
    import json

    assert json.dumps({"code": ErrorCode.NO_PARTY}) == '{"code": "no_party"}'
    assert f"{ErrorCode.ILLEGAL}.turn" == "illegal.turn"


def _bare_codes(tree: ast.AST) -> list[tuple[int, str]]:
    """(line, code) of every string literal passed as a code: the first argument of a
    ServiceError, the code of the socket's `_error`, or a `code=` keyword of any call."""
    found = []
    for node in ast.walk(tree):
        if not isinstance(node, ast.Call):
            continue
        func = node.func
        name = func.id if isinstance(func, ast.Name) else func.attr if isinstance(func, ast.Attribute) else None
        if name in FAMILY and node.args:
            first = node.args[0]
            if isinstance(first, ast.Constant) and isinstance(first.value, str):
                found.append((node.lineno, first.value))
        if name == "_error" and len(node.args) > 1:  # the socket's error frame: (re, code, message)
            second = node.args[1]
            if isinstance(second, ast.Constant) and isinstance(second.value, str):
                found.append((node.lineno, second.value))
        for keyword in node.keywords:
            value = keyword.value
            if keyword.arg == "code" and isinstance(value, ast.Constant) and isinstance(value.value, str):
                found.append((node.lineno, value.value))
    return found


def test_no_bare_string_is_passed_as_an_error_code(repo_root):
    bare = []
    checked = 0
    for folder in ("events", "tables", "relay"):
        for path in sorted((repo_root / folder).rglob("*.py")):
            rel = path.relative_to(repo_root).as_posix()
            if "/migrations/" in rel:
                continue
            checked += 1
            bare += [f"{rel}:{line} {code!r}" for line, code in _bare_codes(ast.parse(path.read_text()))]
    assert checked > 30
    assert bare == [], "use ErrorCode members: " + ", ".join(bare)


def test_the_check_sees_a_bare_code():
    # The check itself: it catches the forms it is meant to.
    tree = ast.parse(
        'raise ServiceError("stale", "x")\nerrors.ServiceError(\n "no_party", "y")\nf(code="z")\n'
        'await self._error(re, "already", "m")'
    )
    assert sorted(code for _, code in _bare_codes(tree)) == ["already", "no_party", "stale", "z"]
    assert _bare_codes(ast.parse('raise ServiceError(ErrorCode.STALE, "x")')) == []
