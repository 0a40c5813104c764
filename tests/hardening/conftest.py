"""The fault tests' fixtures (a real daphne, a private Redis, closing the worker
threads' database connections) serve these tests too."""

from tests.faults.conftest import (  # noqa: F401
    _close_thread_connections,
    _second_daphne,
    _shared_daphne,
    daphne,
    private_redis,
    second_server,
    server,
)
