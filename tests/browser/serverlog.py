"""One server log per browser test, and its path in a failed test's report.

tests/browser/conftest.py starts a daphne per test with its output in
`<run directory>/<log_name(node id)>`, and records that path on the test item
(`item.stash[SERVER_LOG]`). The two hooks below, registered by that conftest, add the
path and the log's last lines to a failed test's report, and list the paths again at
the end of the run.
"""

from __future__ import annotations

import hashlib
import re
from pathlib import Path

import pytest

SECTION = "server log"
SERVER_LOG = pytest.StashKey[Path]()
TAIL_LINES = 40


def log_name(nodeid: str) -> str:
    """A file name for a test's server log, read off its node id: "/" and "::" become
    "-" ("tests-browser-test_x.py-test_y.log"). Other characters (a parameter's) become
    "-" too, and then a short hash of the node id keeps two such names apart."""
    plain = re.sub(r"/|::", "-", nodeid)
    name = re.sub(r"[^A-Za-z0-9._-]+", "-", plain).strip("-")[:180]
    if name != plain:
        name += "-" + hashlib.sha1(nodeid.encode()).hexdigest()[:8]
    return name + ".log"


@pytest.hookimpl(wrapper=True)
def pytest_runtest_makereport(item, call):
    """A failed test's report names its server log and shows the log's last lines."""
    report = yield
    log_path = item.stash.get(SERVER_LOG, None)
    if report.failed and log_path is not None:
        try:
            tail = log_path.read_text(errors="replace").splitlines()[-TAIL_LINES:]
        except OSError as exc:
            tail = [f"(unreadable: {exc})"]
        report.sections.append((SECTION, "\n".join([f"the whole log: {log_path}", "...", *tail])))
        report.user_properties.append(("server_log", str(log_path)))
    return report


def pytest_terminal_summary(terminalreporter):
    """After the run, one line per failed test with the path of its server log."""
    seen = {}
    for report in terminalreporter.stats.get("failed", []) + terminalreporter.stats.get("error", []):
        for key, value in getattr(report, "user_properties", []):
            if key == "server_log":
                seen[report.nodeid] = value
    if seen:
        terminalreporter.section("server logs of the failed browser tests")
        for nodeid, path in seen.items():
            terminalreporter.write_line(f"{nodeid}: {path}")
