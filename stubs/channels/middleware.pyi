from typing import Any

from channels.consumer import _ASGIApp, _Receive, _Scope, _Send

class BaseMiddleware:
    inner: _ASGIApp
    def __init__(self, inner: _ASGIApp) -> None: ...
    async def __call__(self, scope: _Scope, receive: _Receive, send: _Send) -> Any: ...
