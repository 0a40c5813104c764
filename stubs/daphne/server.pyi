from typing import Any

from daphne import http_protocol

# The name daphne.server imported, which `Server.run` calls to build its factory: a
# variable, since config/patches/daphne.py assigns its own subclass to it.
HTTPFactory: type[http_protocol.HTTPFactory]

class Server:
    application: Any
    endpoints: list[str]
    listeners: list[Any]
    listening_addresses: list[Any]
    http_timeout: int | None
    ping_interval: int
    ping_timeout: int
    request_buffer_size: int
    websocket_timeout: int
    websocket_connect_timeout: int
    websocket_handshake_timeout: int
    application_close_timeout: int
    root_path: str
    verbosity: int
    server_name: str
    connections: dict[Any, dict[str, Any]]
    def __init__(self, application: Any, endpoints: list[str] | None = None, **kwargs: Any) -> None: ...
    def run(self) -> None: ...
    def listen_success(self, port: Any) -> None: ...
    def listen_error(self, failure: Any) -> None: ...
    def stop(self) -> None: ...
    def protocol_connected(self, protocol: Any) -> None: ...
    def protocol_disconnected(self, protocol: Any) -> None: ...
    def create_application(self, protocol: Any, scope: dict[str, Any]) -> Any: ...
    def application_checker(self) -> None: ...
    def timeout_checker(self) -> None: ...
