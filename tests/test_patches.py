"""config/patches/: every patch of a third-party library is pinned to what it was written
for, the pins agree with pyproject.toml, and a difference is refused before anything is
patched."""

from __future__ import annotations

import pkgutil
import re
import subprocess
import sys
import tomllib

import pytest
from channels.layers import InMemoryChannelLayer
from channels_redis import pubsub
from daphne import http_protocol
from daphne import server as daphne_server
from twisted.internet import _newtls, tcp

from config import front_door, patches
from config.patches import autobahn, channels, channels_redis, daphne, twisted
from config.patches.pins import PatchRefused, Pin, digest

# --- pinned to what is installed, and to pyproject.toml -------------------------------------


def test_every_library_is_what_its_patch_was_written_for():
    """Fails when a library changes under its patch: its version, or the source of a
    function the patch replaces or relies on. Read the patch again against the new
    source, then record the new version and PIN.current()."""
    for pin in patches.pins():
        assert pin.problems() == [], pin.patch
    assert patches.check(http_factory=front_door.FrontDoorFactory) == []


def test_the_pins_are_pyproject_tomls(repo_root):
    deps = tomllib.loads((repo_root / "pyproject.toml").read_text())["project"]["dependencies"]
    pinned = dict(re.fullmatch(r"([A-Za-z0-9_.-]+)(?:\[[^]]*\])?==(\S+)", dep).groups() for dep in deps)
    for pin in patches.pins():
        assert pinned.get(pin.library) == pin.version, pin.patch


def test_one_pin_per_library_and_module():
    pins = patches.pins()
    assert len({pin.library for pin in pins}) == len({pin.patch for pin in pins}) == len(pins) == 5
    modules = {p.name for p in pkgutil.iter_modules(patches.__path__)}
    assert modules == {"pins", "twisted", "autobahn", "daphne", "channels_redis", "channels"}


def test_every_pinned_name_resolves_and_is_recorded_as_a_digest():
    for pin in patches.pins():
        assert pin.sources and all(re.fullmatch(r"[0-9a-f]{16}", d) for d in pin.sources.values())
        assert pin.current() == dict(pin.sources)


# --- a planted difference is refused -------------------------------------------------------


def test_a_different_version_is_refused():
    pin = Pin(library="Twisted", version="9.9.9", sources={}, patch="config/patches/twisted.py")
    installed = twisted.PIN.version
    assert pin.problems() == [f"Twisted {installed} is installed, config/patches/twisted.py was written for 9.9.9"]


def test_a_gone_function_is_refused():
    pin = Pin(library="daphne", version="4.2.3", sources={"daphne.server:Server.gone": "0" * 16}, patch="x.py")
    [problem] = pin.problems()
    assert problem.startswith("x.py: daphne.server:Server.gone is gone")


def _changed(monkeypatch, owner, name):
    """Plant a function of different source in `owner` under `name`."""

    def changed(self, *args, **kwargs):  # not the library's code
        return None

    monkeypatch.setattr(owner, name, changed)
    return f"the source of {owner.__module__}:{owner.__qualname__}.{name} changed"


@pytest.mark.parametrize(
    ("owner", "name", "module"),
    [
        (_newtls.ConnectionMixin, "write", twisted),
        (tcp.Connection, "writeSomeData", twisted),
        (http_protocol.WebRequest, "process", daphne),
        (daphne_server.Server, "run", daphne),
        (pubsub.RedisSingleShardConnection, "_do_receiving", channels_redis),
        (pubsub.RedisPubSubChannelLayer, "_get_layer", channels_redis),
        (InMemoryChannelLayer, "_clean_expired", channels),
        (InMemoryChannelLayer, "receive", channels),
    ],
)
def test_a_changed_function_is_refused_before_anything_is_patched(monkeypatch, owner, name, module):
    before = (tcp.Connection.write, daphne_server.HTTPFactory)
    monkeypatch.setattr(tcp.Connection, "write", twisted._twisted_write)  # as before any patch
    monkeypatch.setattr(daphne_server, "HTTPFactory", http_protocol.HTTPFactory)
    what = _changed(monkeypatch, owner, name)
    problems = patches.check(http_factory=front_door.FrontDoorFactory)
    assert len(problems) == 1 and what in problems[0] and module.PIN.patch in problems[0]
    with pytest.raises(PatchRefused, match=re.escape(what)):
        patches.apply(http_factory=front_door.FrontDoorFactory)
    with pytest.raises(PatchRefused, match=re.escape(what)):
        front_door.install(request_seconds=10, per_address=256)
    assert daphne_server.HTTPFactory is http_protocol.HTTPFactory, "daphne not patched"
    assert tcp.Connection.write is twisted._twisted_write, "Twisted not patched"
    monkeypatch.undo()
    assert (tcp.Connection.write, daphne_server.HTTPFactory) == before


def test_a_changed_autobahn_module_is_refused(monkeypatch):
    monkeypatch.setitem(autobahn.PIN.sources, "autobahn.websocket.protocol", "0" * 16)
    [problem] = patches.check()
    assert "autobahn.websocket.protocol changed (0000000000000000 when written" in problem
    with pytest.raises(PatchRefused):
        patches.apply()


def test_daphnes_factory_replaced_by_someone_else_is_refused(monkeypatch):
    class Other(http_protocol.HTTPFactory):
        pass

    monkeypatch.setattr(daphne_server, "HTTPFactory", Other)
    assert patches.check(http_factory=front_door.FrontDoorFactory) == [
        "config/patches/daphne.py: daphne.server.HTTPFactory is not daphne's own"
    ]


def test_twisteds_write_no_longer_the_mixins_is_refused(monkeypatch):
    def write(self, data):
        return None

    monkeypatch.setattr(tcp.Connection, "write", write)
    assert patches.check() == [
        "config/patches/twisted.py: tcp.Connection.write is no longer _newtls.ConnectionMixin.write"
    ]


def test_a_process_naming_the_layer_stops_when_channels_redis_differs():
    """The layer applies where settings name it: its import refuses."""
    code = (
        "import importlib.metadata as m; real = m.version;"
        "m.version = lambda d: '0.0.1' if d == 'channels-redis' else real(d);"
        "import config.patches.channels_redis"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert out.returncode != 0
    assert "PatchRefused: third-party patches (config/patches/) cannot apply: channels-redis 0.0.1 is installed" in (
        out.stderr
    )


def test_digest_is_of_the_source():
    def a():
        return 1

    def b():
        return 2

    assert digest(a) != digest(b) and digest(a) == digest(a)


def test_daphnes_process_does_not_start_with_a_changed_twisted():
    """config/asgi.py, what daphne loads, refuses before it patches anything."""
    code = (
        "import os; os.environ['DJANGO_SETTINGS_MODULE'] = 'config.settings.test';"
        "import importlib.metadata as m; real = m.version;"
        "m.version = lambda d: '0.0.1' if d == 'Twisted' else real(d);"
        "import config.asgi"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert out.returncode != 0
    assert "PatchRefused: third-party patches (config/patches/) cannot apply: Twisted 0.0.1 is installed" in out.stderr
