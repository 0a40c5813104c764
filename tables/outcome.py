"""What every service that changes state returns, and what a transport does with it.

`Outcome(data, messages)`: `data` is what changed, for the sender's reply (JSON
values only: the socket replies `{"type": "ok", "re": ..., **data}`, the HTTP views
answer with it); `messages` are the (group, payload) pairs to send to the screens once
the transaction that produced them has committed (events/broadcast/groups.py sends them).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from .groups import Message


@dataclass
class Outcome:
    data: dict[str, Any] = field(default_factory=dict)
    messages: list[Message] = field(default_factory=list)
