"""How `pytest -n 2` (.ci/run) shares the suite between its two workers.

pyproject's addopts run xdist with `--dist=loadgroup --no-loadscope-reorder`: a test is
its own unit of work unless it carries an `xdist_group` mark, and units are handed out
in collection order, each to whichever worker runs low first. Whole files as units
(`--dist=loadfile`) left a file of long tests (the 100-guest and many-table browser
tests, the rehearsals) on one worker while the other sat idle at the end of the run.

Two things are decided here, in the workers' collection, before xdist reads it:

- A test that takes a fixture its module (or class) builds once, e.g. test_image.py's
  built image, is grouped with the rest of its file: split across two workers the
  fixture would be built on each. Session fixtures are per worker in any case.
- The slowest kinds of test are handed out first (marked `slow`, then `browser`), so the
  run ends on short tests that fill both workers evenly instead of on one long test.
  Within each kind the collection order is kept, and so is each file's own order.
"""

from __future__ import annotations

import inspect
from collections.abc import Generator
from pathlib import Path

import pytest

TESTS = Path(__file__).resolve().parent

# Scopes of a fixture that is built once for many tests of one file.
SHARED_SCOPES = {"module", "class", "package"}
# Handed out first to last; a test with none of these marks comes after them all.
SLOWEST_FIRST = ("slow", "browser")


def shared_fixture_file(item: pytest.Item) -> str | None:
    """The file of `item` when it takes a module- or class-scoped fixture of the suite's
    own (a plugin's, pytest-django's say, is left aside), else None."""
    info = getattr(item, "_fixtureinfo", None)
    if info is None:
        return None
    for definitions in info.name2fixturedefs.values():
        fixture = definitions[-1]
        if fixture.scope in SHARED_SCOPES and _of_the_suite(Path(inspect.getfile(fixture.func)).resolve(), item):
            return item.nodeid.split("::", 1)[0]
    return None


def _of_the_suite(path: Path, item: pytest.Item) -> bool:
    """Defined by the test's own module, a conftest, or a helper module of tests/."""
    return path == item.path.resolve() or path.name == "conftest.py" or TESTS in path.parents


def kind(item: pytest.Item) -> int:
    for rank, name in enumerate(SLOWEST_FIRST):
        if item.get_closest_marker(name) is not None:
            return rank
    return len(SLOWEST_FIRST)


def pytest_itemcollected(item: pytest.Item) -> None:
    """Groups `item`, as it is collected: before any pytest_collection_modifyitems, so
    before xdist's appends the group to its node id."""
    if not item.config.getoption("loadgroup", default=False):  # set in xdist's workers only
        return
    if item.get_closest_marker("xdist_group") is None:
        group = shared_fixture_file(item)
        if group is not None:
            item.add_marker(pytest.mark.xdist_group(group))


@pytest.hookimpl(wrapper=True)  # after every plugin's reordering (pytest-django's puts db tests first)
def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> Generator[None]:
    yield
    if config.getoption("loadgroup", default=False):
        items.sort(key=kind)  # stable: each kind keeps the order the plugins gave it
