"""events/live/acttiming.py: with HEIST_ACT_TIMING on, each acknowledged act leaves one line
of its phases (bench/party.py --act-timing reads them back); a client cannot forge its
arrival time; off, nothing is written."""

import pytest

from events.live import acttiming
from tests.live.tables import connect, game_of, seated

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.stack]


@pytest.mark.parametrize("on", [True, False])
async def test_an_acknowledged_act_leaves_one_line_of_its_phases_only_when_asked(monkeypatch, capsys, on):
    monkeypatch.setattr(acttiming, "ON", on)
    monkeypatch.setattr(acttiming, "_sampling", None)
    s = await connect(await seated(3, name="Timing"))
    phone = s.phones[(await game_of(s.table_id)).active]
    capsys.readouterr()
    # A forged arrival time is overwritten, never used (nor a crash of the socket).
    frame = {"type": "act", "action": {"type": "regroup", "cards": []}, "re": "t1", "version": phone.shows()}
    await phone.send({**frame, "_arrived": "forged"})
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
    await s.close()
    if on:  # the per-process sampler, started by the first socket: stopped with this loop
        assert acttiming._sampling is not None
        acttiming._sampling.cancel()
        acttiming.gc.callbacks.remove(acttiming._on_gc)


def test_a_full_collection_is_counted_apart_from_the_young_ones(monkeypatch):
    monkeypatch.setattr(acttiming, "_gc_pauses", [])
    monkeypatch.setattr(acttiming, "_gc_full", [])
    for generation in (0, 2, 1):
        acttiming._on_gc("start", {"generation": generation})
        acttiming._on_gc("stop", {"generation": generation})
    assert len(acttiming._gc_pauses) == 3
    assert len(acttiming._gc_full) == 1 and acttiming._gc_full[0] >= 0
