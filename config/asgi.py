"""ASGI entry point for daphne: HTTP goes to Django, WebSockets to Channels."""

import gc
import os
import sys
from typing import Any

from django.core.asgi import get_asgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings.embedded")

# Set up Django (apps, models) before importing anything that touches models.
django_asgi_app = get_asgi_application()

from channels.routing import ProtocolTypeRouter, URLRouter  # noqa: E402
from channels.security.websocket import AllowedHostsOriginValidator  # noqa: E402
from django.conf import settings  # noqa: E402

from config.routing import websocket_urlpatterns  # noqa: E402

if settings.SERVE_STATIC:
    # The embedded box (bin/serve runs daphne directly) has no nginx in front: serve
    # /static/ from the app itself. Production leaves this off; nginx serves /static/.
    from django.contrib.staticfiles.handlers import ASGIStaticFilesHandler

    django_asgi_app = ASGIStaticFilesHandler(django_asgi_app)

from config.admission import HttpAdmission, Receive, Scope, Send  # noqa: E402
from config.watchdog import ensure_watching  # noqa: E402
from events.live.clockloop import ensure_sweeping  # noqa: E402


class SweepingRouter(ProtocolTypeRouter):
    """The process sweeps the step clocks from its loop once anything connects
    (events/live/clockloop.py): daphne has no start-up hook, and a restarted server is
    reached again by the screens that reconnect (and by Celery beat in production)."""

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> Any:
        ensure_sweeping()
        ensure_watching(settings.LOOP_WATCHDOG_SECONDS)  # a stalled loop exits the process
        return await super().__call__(scope, receive, send)


application = SweepingRouter(
    {
        # At most HTTP_CONCURRENCY requests in Django's threads at once; the rest wait
        # their turn on the loop, not for a pooled connection (config/admission.py).
        "http": HttpAdmission(
            django_asgi_app,
            limit=settings.HTTP_CONCURRENCY,
            wait=settings.HTTP_ADMISSION_WAIT,
            exempt=(settings.STATIC_URL,),
        ),
        "websocket": AllowedHostsOriginValidator(URLRouter(websocket_urlpatterns)),
    }
)

# The patches of third-party libraries (config/patches/): autobahn's debug-log arguments
# made only when logged, and a frame written to its socket at once when nothing waits
# before it. Refused, and the process stopped, when a library differs from its pin.
from config import patches  # noqa: E402

patches.apply()

if settings.FRONT_DOOR:
    # bin/serve faces the LAN directly: a whole request within a few seconds, and a cap
    # per address on connections without a secret (config/front_door.py; its patch of
    # daphne goes through config/patches/ too).
    from config import front_door

    front_door.install(
        request_seconds=float(settings.FRONT_DOOR["request_seconds"]),
        per_address=int(settings.FRONT_DOOR["per_address"]),
    )

# The games' party data (a dictionary), read now rather than by the first act that needs
# it: acts are applied on the event loop (tables/loopwrite.py), and a file read there
# stalls every socket of the process; read before the freeze below, it is frozen too.
from games import registry  # noqa: E402

registry.warm()

# Everything loaded so far (Django, the apps, the URL conf: about 130,000 objects) lives
# as long as the process. Moved out of the collector's reach, a full collection during
# play walks only what play made: in bench/live.py (10 tables, 250 ms think) its pause
# went from 60-78 ms to 27 ms, and every screen waiting on that process waits it out.
gc.freeze()

# The event loop (every socket, and every act since tables/loopwrite.py) shares the
# interpreter lock with Django's HTTP threads. A thread that waits for the lock gets it
# only when the holder releases it or asks to switch, after `switchinterval` (5 ms by
# default): in a join burst, each time the loop came back from a system call it could
# wait that long behind a join request's view, for every frame. Ten 100-guest parties
# at once (bench/party.py, two runs each): ack p99 from 320-377 to 89-145 ms, resyncs
# from 575 to 41-54, the join burst from 59-67 to 41-50 s
# (bench/README.md, seventh session).
sys.setswitchinterval(settings.SWITCH_INTERVAL_SECONDS)
