from collections.abc import Awaitable, Callable
from typing import Any, ClassVar

from channels.layers import ChannelLayer

_Scope = dict[str, Any]
_Message = dict[str, Any]
_Receive = Callable[[], Awaitable[_Message]]
_Send = Callable[[_Message], Awaitable[None]]
_ASGIApp = Callable[[_Scope, _Receive, _Send], Awaitable[None]]

def get_handler_name(message: _Message) -> str: ...

class AsyncConsumer:
    _sync: ClassVar[bool]
    channel_layer_alias: ClassVar[str]
    scope: _Scope
    channel_layer: ChannelLayer
    channel_name: str
    channel_receive: Callable[[], Awaitable[_Message]]
    base_send: _Send
    async def __call__(self, scope: _Scope, receive: _Receive, send: _Send) -> None: ...
    async def dispatch(self, message: _Message) -> None: ...
    async def send(self, message: _Message) -> None: ...
    @classmethod
    def as_asgi(cls, **initkwargs: Any) -> _ASGIApp: ...

class SyncConsumer(AsyncConsumer):
    def dispatch(self, message: _Message) -> None: ...  # type: ignore[override]
    def send(self, message: _Message) -> None: ...  # type: ignore[override]
