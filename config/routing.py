"""WebSocket routes; config/asgi.py wraps them in AllowedHostsOriginValidator."""

from django.urls import re_path

from events.consumers import PartyConsumer

websocket_urlpatterns = [
    re_path(r"^ws/party/(?P<code>[A-Za-z0-9]{1,12})/$", PartyConsumer.as_asgi()),
]
