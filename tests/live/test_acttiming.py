"""events/acttiming.py: with HEIST_ACT_TIMING on, each acknowledged act leaves one line
of its phases (bench/party.py --act-timing reads them back); a client cannot forge its
arrival time; off, nothing is written."""

import pytest
from asgiref.sync import sync_to_async

from events import acttiming
from tests import shorthand
from tests.live.clients import Phone

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.stack]


async def _seated_turn():
    party, host_token = await sync_to_async(shorthand.party_create)(name="Timing")
    tokens = []
    for name in ["Alex", "Bea", "Cam"]:
        _, token, _ = await sync_to_async(shorthand.guest_join)(code=party.code, name=name, description="a gift")
        tokens.append(token)
    host = await Phone(party.code).connect()
    await host.hello("host", host_token)
    phones = [await Phone(party.code).connect() for _ in tokens]
    for p, t in zip(phones, tokens, strict=True):
        await p.hello("guest", t)
    assert (await host.command("seat"))["type"] == "ok"
    for p in phones:
        snap = await p.until(lambda m: m.get("type") == "snapshot" and m.get("table"))
    active = snap["table"]["view"]["active"]
    return host, phones, next(p for p in phones if p.snapshot["me"]["seat"] == active)


@pytest.mark.parametrize("on", [True, False])
async def test_an_acknowledged_act_leaves_one_line_of_its_phases_only_when_asked(monkeypatch, capsys, on):
    monkeypatch.setattr(acttiming, "ON", on)
    monkeypatch.setattr(acttiming, "_sampling", None)
    host, phones, phone = await _seated_turn()
    capsys.readouterr()
    # A forged arrival time is overwritten, never used (nor a crash of the socket).
    await phone.send({"type": "act", "action": {"type": "regroup", "cards": []}, "re": "t1", "_arrived": "forged"})
    assert (await phone.reply("t1"))["type"] == "ok"
    lines = [line for line in capsys.readouterr().err.splitlines() if line.startswith("acttiming act")]
    if on:
        assert len(lines) == 1, lines
        parts = lines[0].split()
        assert parts[3] in ("loop", "threads")
        fields = dict(p.split("=") for p in parts[4:])
        assert set(fields) == {"q", "write", "send", "total"}
        assert float(fields["total"]) >= float(fields["write"]) >= 0
    else:
        assert lines == []
    for p in [*phones, host]:
        await p.close()
    if on:  # the per-process sampler, started by the first socket: stopped with this loop
        assert acttiming._sampling is not None
        acttiming._sampling.cancel()
        acttiming.gc.callbacks.remove(acttiming._on_gc)
