"""WebSocket routes. Consumers register here, e.g.

    path("ws/tables/<str:code>/", TableConsumer.as_asgi()),

config/asgi.py wraps this list in AllowedHostsOriginValidator(URLRouter(...)).
"""

websocket_urlpatterns = []
