from typing import Any

from channels.layers import BaseChannelLayer

class RedisChannelLayer(BaseChannelLayer):
    prefix: str
    def __init__(
        self,
        hosts: Any = None,
        prefix: str = "asgi",
        expiry: int = 60,
        group_expiry: int = 86400,
        capacity: int = 100,
        channel_capacity: dict[str, int] | None = None,
        symmetric_encryption_keys: list[str] | None = None,
        random_prefix_length: int = 12,
        serializer_format: str = "msgpack",
    ) -> None: ...
    async def new_channel(self, prefix: str = "specific") -> str: ...
    async def close_pools(self) -> None: ...
    async def wait_received(self) -> None: ...
