"""Settings for the daphne subprocess that tests/browser/ starts: the test settings,
pointed at the database pytest-django created for the test run (test_<name>), so the
server sees what a `django_db(transaction=True)` test commits and vice versa.

HEIST_BROWSER_DB names that database (the fixture passes the exact name it sees);
HEIST_TEST_RUN_ID keeps the channel-layer prefix of the run that started it.
"""

import os

from .test import *  # noqa: F403
from .test import ALLOWED_HOSTS, DATABASES

DATABASES = {
    "default": {
        **DATABASES["default"],
        "NAME": os.environ.get("HEIST_BROWSER_DB") or "test_" + DATABASES["default"]["NAME"],
    }
}

# A name that maps to the loopback test server in Chromium (--host-resolver-rules): a page
# from it is not a secure context, as a phone's page from the venue's 192.168.x.x is not
# (tests/browser/test_awake_browser.py).
ALLOWED_HOSTS = [*ALLOWED_HOSTS, "party.lan"]

# No nginx in front of the test server: the app serves /static/ itself.
SERVE_STATIC = True

# A browser test may lower a limit for its own server (tests/browser/test_venue_browser.py):
# JSON {"bucket": [count, seconds]}.
if os.environ.get("HEIST_BROWSER_RATE_LIMITS"):
    import json

    from .test import RATE_LIMITS

    RATE_LIMITS = {
        **RATE_LIMITS,
        **{k: tuple(v) for k, v in json.loads(os.environ["HEIST_BROWSER_RATE_LIMITS"]).items()},
    }

# A real server sweeps the step clocks from its loop, as bin/serve does (events/live/clockloop.py).
CLOCK_SWEEP_SECONDS = 1.0
