"""Every patch of a third-party library, one module per library, applied from `apply()`.

- twisted.py: a frame written to its socket at once when nothing waits before it;
- autobahn.py: debug-log arguments built only when a line is logged;
- daphne.py: the HTTP factory daphne's server builds (bin/serve's front door only);
- channels_redis.py: the pub/sub channel layer that survives a Redis restart (settings
  name its class, so it applies where it is imported: the import checks its pin);
- channels.py: the pin of Channels' in-memory layer, which events/broadcast/locallayer.py (the
  laptop stack's layer) overrides.

Each module pins the version it was written for and a digest of the source of what it
replaces or relies on (pins.py). `apply()`, called by config/asgi.py in the daphne
process (and by config/front_door.py with its factory), checks the pins before it
changes anything and refuses loudly (PatchRefused) on any difference: the process does
not start. tests/test_patches.py fails when an installed library differs, and when a
pin disagrees with pyproject.toml. A patch brought to a new version records
`PIN.current()` once its code has been read again against the new source.

The library modules are imported here only when called: importing daphne.server
installs Twisted's asyncio reactor, which only a daphne process may do.
"""

from __future__ import annotations

from django.conf import settings

from config.patches.pins import PatchRefused, Pin, refuse

__all__ = ["PatchRefused", "apply", "check", "pins"]


def pins() -> tuple[Pin, ...]:
    from config.patches import autobahn, channels, channels_redis, daphne, twisted

    return (twisted.PIN, autobahn.PIN, daphne.PIN, channels_redis.PIN, channels.PIN)


def check(*, http_factory: type | None = None) -> list[str]:
    """What differs from what the patches `apply` would apply were written against
    (empty: nothing). The channel layer's pin is checked too, so a server with a changed
    channels or channels-redis stops at start-up, not at its first socket; channels-redis
    only where settings name its layer (importing it took about a second here, which
    bin/serve, on the in-memory layer, need not pay)."""
    from config.patches import autobahn, channels, twisted

    found = [*twisted.problems(), *autobahn.problems(), *channels.problems()]
    layer = str(settings.CHANNEL_LAYERS["default"]["BACKEND"])
    if layer.startswith(f"{__name__}.channels_redis."):
        from config.patches import channels_redis

        found += channels_redis.PIN.problems()
    if http_factory is not None:
        from config.patches import daphne

        found += daphne.problems(http_factory)
    return found


def apply(*, http_factory: type | None = None) -> None:
    """Check, then apply the patches this process takes (again: no change): Twisted's
    and autobahn's always, daphne's when bin/serve's front door gives its factory."""
    refuse(check(http_factory=http_factory))
    from config.patches import autobahn, twisted

    twisted.apply()
    autobahn.apply()
    if http_factory is not None:
        from config.patches import daphne

        daphne.apply(http_factory)
