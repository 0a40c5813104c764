from typing import Any, ParamSpec, TypeVar

from asgiref.sync import SyncToAsync

_P = ParamSpec("_P")
_R = TypeVar("_R")

class DatabaseSyncToAsync(SyncToAsync[_P, _R]):
    """SyncToAsync that closes stale connections before and after the call, in its thread."""

    def thread_handler(self, loop: Any, *args: Any, **kwargs: Any) -> Any: ...

# The class itself, used as a decorator: database_sync_to_async(fn, thread_sensitive=..., executor=...).
database_sync_to_async = DatabaseSyncToAsync

async def aclose_old_connections() -> None: ...
