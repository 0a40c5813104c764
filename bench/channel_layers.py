"""Burst test of the two Redis channel layers of channels_redis, for choosing one.

    .venv/bin/python bench/channel_layers.py [--messages 2000] [--receivers 10]
                                            [--size 1500] [--redis redis://127.0.0.1:6379/]

For `channels_redis.core.RedisChannelLayer` and `channels_redis.pubsub.
RedisPubSubChannelLayer`, in one process (as one daphne holds many sockets): one group
of R receiving channels, a burst of N group messages sent one after another as fast as
the sender can, and every receiver counting what it gets until it has all N, has heard
nothing for --idle seconds, or --deadline seconds after the burst was sent. Printed per case: how long the burst
took to send, how long until the last message arrived, messages delivered per second
(N x R deliveries over that time) and the loss.

Cases:
  live     receivers read while the burst is sent (sockets keeping up)
  stalled  receivers start reading only after the whole burst was sent (a slow process,
           a blocked event loop): the core layer's inbox holds `capacity` messages
           (default 100) per process, the rest is dropped without an error
  core with capacity=N+1 is also run, to show the loss is the capacity and nothing else.

Loopback Redis only; every key and channel carries a prefix unique to the run, and the
layers are flushed at the end. Bounded: N <= 20000, R <= 50, at most --deadline seconds
of receiving after each burst.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import sys
import time
import uuid
from dataclasses import dataclass
from urllib.parse import urlsplit

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings.test")  # channels imports django.conf

from channels_redis.core import RedisChannelLayer
from channels_redis.pubsub import RedisPubSubChannelLayer

LOOPBACK = {"127.0.0.1", "::1", "localhost"}


@dataclass
class Result:
    layer: str
    case: str
    sent_s: float  # time to send the whole burst
    done_s: float  # from the first send until the last message arrived
    delivered: int
    expected: int

    @property
    def loss(self) -> float:
        return 100.0 * (1 - self.delivered / self.expected)

    @property
    def rate(self) -> float:
        return self.delivered / self.done_s if self.done_s > 0 else 0.0


async def run_case(
    name: str, make_layer, *, case: str, messages: int, receivers: int, size: int, idle: float, deadline: float
) -> Result:
    layer = make_layer()
    group = f"bench-{uuid.uuid4().hex[:8]}"
    channels = [await layer.new_channel() for _ in range(receivers)]
    for ch in channels:
        await layer.group_add(group, ch)
    await asyncio.sleep(0.3)  # pub/sub: let the SUBSCRIBEs reach Redis before publishing
    counts = [0] * receivers
    last_arrival = [0.0]
    go = asyncio.Event()
    if case == "live":
        go.set()

    stop_at = [float("inf")]  # set once the burst is sent: receive at most `deadline` more

    async def receive(i: int, ch: str) -> None:
        await go.wait()
        while counts[i] < messages:
            left = min(idle, stop_at[0] - time.monotonic())
            if left <= 0:
                return
            try:
                await asyncio.wait_for(layer.receive(ch), timeout=left)
            except TimeoutError:
                return
            counts[i] += 1
            last_arrival[0] = time.monotonic()

    tasks = [asyncio.create_task(receive(i, ch)) for i, ch in enumerate(channels)]
    await asyncio.sleep(0)
    payload = "x" * size  # about the size of a table update
    t0 = time.monotonic()
    for seq in range(messages):
        await layer.group_send(group, {"type": "deliver", "seq": seq, "payload": payload})
    sent = time.monotonic() - t0
    stop_at[0] = time.monotonic() + deadline
    go.set()
    await asyncio.gather(*tasks)
    done = (last_arrival[0] or time.monotonic()) - t0
    for ch in channels:
        await layer.group_discard(group, ch)
    await layer.flush()
    return Result(name, case, sent, done, sum(counts), messages * receivers)


async def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--messages", type=int, default=2000)
    ap.add_argument("--receivers", type=int, default=10)
    ap.add_argument("--size", type=int, default=1500, help="payload bytes per message")
    ap.add_argument("--idle", type=float, default=2.0, help="a receiver stops after this long with nothing")
    ap.add_argument("--deadline", type=float, default=30.0, help="receiving stops after this long, per case")
    ap.add_argument("--redis", default=os.environ.get("HEIST_TEST_REDIS_URL", "redis://127.0.0.1:6379/"))
    args = ap.parse_args()
    if urlsplit(args.redis).hostname not in LOOPBACK:
        sys.exit("this benchmark only talks to a Redis on the loopback interface")
    if not (1 <= args.messages <= 20000 and 1 <= args.receivers <= 50):
        sys.exit("keep it bounded: 1-20000 messages, 1-50 receivers")

    run = uuid.uuid4().hex[:8]
    hosts = [args.redis]
    layers = {
        "core (capacity 100)": lambda: RedisChannelLayer(hosts=hosts, prefix=f"bench-core-{run}"),
        f"core (capacity {args.messages + 1})": lambda: RedisChannelLayer(
            hosts=hosts, prefix=f"bench-corebig-{run}", capacity=args.messages + 1
        ),
        "pubsub": lambda: RedisPubSubChannelLayer(hosts=hosts, prefix=f"bench-pubsub-{run}"),
    }
    print(
        f"{args.messages} group messages of {args.size} B to {args.receivers} receivers in one process, "
        f"Redis {args.redis}, Python {sys.version.split()[0]}"
    )
    print(f"{'layer':<24} {'case':<8} {'send s':>7} {'done s':>7} {'deliveries/s':>13} {'delivered':>11} {'loss %':>7}")
    for case in ("live", "stalled"):
        for name, make in layers.items():
            r = await run_case(
                name,
                make,
                case=case,
                messages=args.messages,
                receivers=args.receivers,
                size=args.size,
                idle=args.idle,
                deadline=args.deadline,
            )
            print(
                f"{r.layer:<24} {r.case:<8} {r.sent_s:7.2f} {r.done_s:7.2f} {r.rate:13,.0f} "
                f"{r.delivered:>5}/{r.expected:<5} {r.loss:7.1f}"
            )


if __name__ == "__main__":
    asyncio.run(main())
