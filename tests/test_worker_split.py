"""How `pytest -n 2` shares the suite (tests/worker_split.py): a test taking a fixture
its module builds once is grouped with its file; the slowest kinds are handed out first;
without xdist's loadgroup nothing changes."""

from __future__ import annotations

from types import SimpleNamespace
from typing import cast

import pytest

from tests import worker_split

pytest_plugins = ["pytester"]

MODULE = """
import pytest


@pytest.fixture(scope="module")
def built():
    return object()


@pytest.fixture(scope="session")
def per_worker():
    return object()


def test_quick():
    pass


def test_uses_the_module_fixture(built):
    pass


@pytest.mark.browser
def test_on_a_screen(per_worker):
    pass


@pytest.mark.slow
def test_long_with_the_module_fixture(built):
    pass


@pytest.mark.parametrize("n", [1, 2])
def test_quick_again(n, tmp_path):
    pass
"""


def _items(pytester: pytest.Pytester, source: str) -> list[pytest.Item]:
    pytester.makeini(
        "[pytest]\nasyncio_default_fixture_loop_scope = function\nmarkers =\n    slow: long\n    browser: a screen\n"
    )
    return pytester.getitems(source)


def _config(loadgroup: bool) -> pytest.Config:
    return cast(pytest.Config, SimpleNamespace(getoption=lambda name, default=None: loadgroup))


def _split(items: list[pytest.Item], loadgroup: bool) -> None:
    """What the hooks do in a worker: each item as it is collected, then the list."""
    config = _config(loadgroup)
    for item in items:
        worker_split.pytest_itemcollected(
            cast(
                pytest.Item,
                SimpleNamespace(
                    config=config,
                    get_closest_marker=item.get_closest_marker,
                    add_marker=item.add_marker,
                    nodeid=item.nodeid,
                    path=item.path,
                    _fixtureinfo=getattr(item, "_fixtureinfo", None),
                ),
            )
        )
    for _ in worker_split.pytest_collection_modifyitems(config, items):
        pass  # the wrapper sorts once the other plugins' hooks have run


def _groups(item: pytest.Item) -> list[str]:
    return [str(mark.args[0]) for mark in item.iter_markers("xdist_group")]


def test_module_fixture_users_share_their_file_and_slowest_kinds_go_first(pytester: pytest.Pytester):
    items = _items(pytester, MODULE)
    _split(items, loadgroup=True)

    assert [item.name for item in items] == [
        "test_long_with_the_module_fixture",
        "test_on_a_screen",
        "test_quick",
        "test_uses_the_module_fixture",
        "test_quick_again[1]",
        "test_quick_again[2]",
    ]
    file = items[0].nodeid.split("::", 1)[0]
    groups = {item.name: _groups(item) for item in items}
    assert groups["test_long_with_the_module_fixture"] == [file]
    assert groups["test_uses_the_module_fixture"] == [file]
    # a session fixture is built once per worker whatever the split: no group
    assert groups["test_on_a_screen"] == []
    assert groups["test_quick"] == groups["test_quick_again[1]"] == groups["test_quick_again[2]"] == []


def test_a_group_the_test_names_is_kept(pytester: pytest.Pytester):
    items = _items(
        pytester,
        """
import pytest

@pytest.fixture(scope="module")
def built():
    return object()

@pytest.mark.xdist_group("its own")
def test_named(built):
    pass
""",
    )
    _split(items, loadgroup=True)
    assert _groups(items[0]) == ["its own"]


def test_without_loadgroup_the_collection_is_left_as_it_is(pytester: pytest.Pytester):
    items = _items(pytester, MODULE)
    before = [item.nodeid for item in items]
    _split(items, loadgroup=False)
    assert [item.nodeid for item in items] == before
    assert not any(_groups(item) for item in items)
