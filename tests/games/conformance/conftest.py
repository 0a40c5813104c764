"""The one parameter source of the conformance suite: every test takes `definition`."""

from __future__ import annotations

import pytest

from games.definition import Definition
from tests.games.conformance.definitions import DEFINITIONS


@pytest.fixture(params=DEFINITIONS, ids=[d.name for d in DEFINITIONS])
def definition(request: pytest.FixtureRequest) -> Definition:
    return request.param
