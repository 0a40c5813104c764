"""WebSocket routes; config/asgi.py wraps them in AllowedHostsOriginValidator."""

from django.urls import re_path

from events.live.consumers import PartyConsumer

websocket_urlpatterns = [
    # django-stubs types re_path for HTTP views only; Channels routes ASGI apps with it.
    re_path(r"^ws/party/(?P<code>[A-Za-z0-9]{1,12})/$", PartyConsumer.as_asgi()),  # type: ignore[arg-type]
]
