"""Each browser test keeps its own server log, and a failure names it (serverlog.py).

The hooks run in a pytest session of their own (pytester) whose fixture writes a log
per test the way tests/browser/conftest.py's asgi_server does."""

import pytest

from tests.browser import serverlog

pytest_plugins = ["pytester"]

INNER_TESTS = """
import pytest

from tests.browser.serverlog import SERVER_LOG, log_name


@pytest.fixture
def server(request, tmp_path_factory):
    path = tmp_path_factory.getbasetemp() / "logs" / log_name(request.node.nodeid)
    path.parent.mkdir(exist_ok=True)
    path.write_text("".join(f"line {i} of {request.node.name}\\n" for i in range(100)))
    request.node.stash[SERVER_LOG] = path


def test_fails(server):
    assert False, "the screen showed the wrong thing"


@pytest.mark.parametrize("n", [1, 2])
def test_passes(server, n):
    pass


def test_no_server():
    assert False
"""


def test_a_failed_test_names_its_own_log_and_shows_its_tail(pytester: pytest.Pytester):
    pytester.makepyfile(test_inner=INNER_TESTS)
    result = pytester.runpytest("-p", "no:cacheprovider", "-p", "no:django", "-p", "no:asyncio", plugins=[serverlog])
    result.assert_outcomes(passed=2, failed=2)
    out = result.stdout.str()
    failed_log = serverlog.log_name("test_inner.py::test_fails")
    assert failed_log == "test_inner.py-test_fails.log"
    # The report of the failure: the path, then the log's last lines (not its first).
    result.stdout.fnmatch_lines(
        ["*- server log -*", f"the whole log: */logs/{failed_log}", "...", "line 60 of test_fails"]
    )
    assert "line 59 of test_fails" not in out and "line 99 of test_fails" in out
    # The summary lists the failed test's log, and only tests that had a server.
    result.stdout.fnmatch_lines(
        ["*server logs of the failed browser tests*", f"test_inner.py::test_fails: */logs/{failed_log}"]
    )
    assert "test_no_server:" not in out and "of test_passes" not in out


def test_log_names_are_distinct_per_test_and_parameter():
    names = {
        serverlog.log_name("tests/browser/test_party_browser.py::test_two_table_party_with_the_relay"),
        serverlog.log_name("tests/browser/test_x.py::test_y[a b]"),
        serverlog.log_name("tests/browser/test_x.py::test_y[a/b]"),
        serverlog.log_name("tests/browser/test_x.py::test_y[2]"),
    }
    assert len(names) == 4
    assert "tests-browser-test_party_browser.py-test_two_table_party_with_the_relay.log" in names
    assert serverlog.log_name("tests/browser/test_x.py::test_y[2]").startswith("tests-browser-test_x.py-test_y-2-")
    assert all("/" not in n and " " not in n for n in names)
