"""The test stack is the real one: PostgreSQL, Redis channel layer, Django."""

import asyncio
import uuid

import pytest
from channels.layers import get_channel_layer
from channels_redis.pubsub import RedisPubSubChannelLayer
from django.conf import settings
from django.db import connection

pytestmark = pytest.mark.stack


def test_test_settings_are_loaded():
    assert settings.SETTINGS_MODULE == "config.settings.test"
    assert settings.ASGI_APPLICATION == "config.asgi.application"
    assert settings.INSTALLED_APPS[0] == "daphne"
    assert {"channels", "events", "tables", "relay"} <= set(settings.INSTALLED_APPS)


@pytest.mark.django_db
def test_database_is_postgresql():
    assert connection.vendor == "postgresql"
    with connection.cursor() as cursor:
        cursor.execute("SELECT current_database(), 6 * 7, version()")
        name, answer, version = cursor.fetchone()
    assert name.startswith("test_")
    assert answer == 42
    assert version.startswith("PostgreSQL")


async def test_redis_channel_layer_group_round_trip():
    layer = get_channel_layer()
    # channels-redis's pub/sub layer, through config/patches/channels_redis.py (reliable resubscription)
    assert isinstance(layer, RedisPubSubChannelLayer) and type(layer).__module__ == "config.patches.channels_redis"
    group = f"stack-{uuid.uuid4().hex}"
    channel = await layer.new_channel()
    await layer.group_add(group, channel)
    try:
        await layer.group_send(group, {"type": "table.update", "seq": 1})
        message = await asyncio.wait_for(layer.receive(channel), timeout=5)
    finally:
        await layer.group_discard(group, channel)
        await layer.flush()
    assert message == {"type": "table.update", "seq": 1}


@pytest.mark.django_db  # /healthz checks the database (and Redis)
def test_healthz_returns_ok(client):
    response = client.get("/healthz")
    assert response.status_code == 200
    assert response.json() == {"ok": True}
    assert client.post("/healthz").status_code == 405
