"""What the server says reaches each screen in its own language (issue 32): a socket's
errors in the language its handshake and hello decide, a notice broadcast to a table
re-said by each socket, the rules the screens read, the engine's refusals. English is
unchanged, and the engine still imports no Django."""

from __future__ import annotations

import subprocess
import sys

import pytest
from asgiref.sync import sync_to_async
from channels.testing import WebsocketCommunicator
from django.test import RequestFactory
from django.utils import translation
from django.utils.translation import gettext

from config.asgi import application
from events.models import Guest
from games.blinks.definition import BLINKS
from games.blinks.errors import ClaimedError
from games.errors import OutOfTurnError
from games.registry import DEFAULT_GAME
from games.royal.definition import ROYAL
from games.royal.errors import NotInsideError
from games.yankee.definition import YANKEE
from games.yankee.errors import CardNotInHandError
from tables.context_processors import rules_for_screens, screen_rules
from tables.errors import RULE_TEXT, Illegal
from tests import shorthand
from tests.live.clients import Phone


def _in(language: str, msgid: str, params: dict | None = None) -> str:
    with translation.override(language):
        text = gettext(msgid)
    assert text != msgid, f"no {language} translation for {msgid!r} (compile the catalogues)"
    return text % params if params else text


class LocalPhone(Phone):
    """A phone whose browser speaks `accept` (or whose switch's cookie says `cookie`)."""

    def __init__(self, code: str, *, accept: str = "", cookie: str | None = None):
        super().__init__(code)
        headers = [(b"origin", b"http://localhost"), (b"host", b"localhost")]
        if accept:
            headers.append((b"accept-language", accept.encode()))
        if cookie:
            headers.append((b"cookie", f"heist_language={cookie}".encode()))
        self.comm = WebsocketCommunicator(application, f"/ws/party/{code}/", headers=headers)


async def _party(guests: int, language: str = "en"):
    party, host_token = await sync_to_async(shorthand.party_create)(name="Familia", language=language)
    tokens = {}
    for i in range(guests):
        guest, token, _ = await sync_to_async(shorthand.guest_join)(
            code=party.code, name=f"Guest {i + 1}", description=f"gift {i + 1}"
        )
        tokens[guest.pk] = token
    return party, host_token, tokens


@pytest.mark.django_db(transaction=True)
@pytest.mark.stack
async def test_a_socket_error_in_spanish_for_a_phone_that_speaks_it():
    party, _host, tokens = await _party(2)
    token, other_token = list(tokens.values())
    by_header = await LocalPhone(party.code, accept="es-ES,es;q=0.9,en;q=0.5").connect()
    by_cookie = await LocalPhone(party.code, accept="de-DE", cookie="es").connect()
    english = await LocalPhone(party.code).connect()
    try:
        # Before the hello: the handshake's guess (the party read with it).
        early = await by_header.command("offer_seat")
        assert early["code"] == "hello_first"
        assert early["message"] == _in("es", "say hello (with your secret) first")
        # A frame refused unread (no language set while parsing: the text is said when sent).
        await by_header.send("not json")
        unread = await by_header.until(lambda m: m.get("type") == "error")
        assert unread["code"] == "malformed" and unread["message"] == _in("es", "that frame is not JSON")
        await by_header.send({"type": "ping", "re": "x" * 65})
        long_re = await by_header.until(lambda m: m.get("type") == "error")
        assert long_re["message"] == _in(
            "es", "re must be a printable string of at most %(limit)s characters", {"limit": 64}
        )
        # After it, an error raised in the database thread: the language went with it.
        await by_header.hello("guest", token)
        refused = await by_header.command("offer_seat")
        assert refused["type"] == "error" and refused["code"] == "forbidden"
        assert refused["message"] == _in("es", "only a seated guest can offer their own seat")
        await by_cookie.hello("guest", other_token)
        assert (await by_cookie.command("offer_seat"))["message"] == refused["message"]
        # English, byte for byte as before.
        await english.hello("guest", token)
        assert (await english.command("offer_seat"))["message"] == "only a seated guest can offer their own seat"
    finally:
        for phone in (by_header, by_cookie, english):
            await phone.close()


@pytest.mark.django_db(transaction=True)
@pytest.mark.stack
async def test_a_notice_reaches_each_phone_at_the_table_in_its_language():
    party, host_token, tokens = await _party(3)
    host = await Phone(party.code).connect()
    await host.hello("host", host_token)
    phones: dict[int, Phone] = {}
    accepts = ["en-US,en;q=0.9", "de-DE,de;q=0.9", "en"]
    for (gid, token), accept in zip(tokens.items(), accepts, strict=True):
        phones[gid] = await LocalPhone(party.code, accept=accept).connect()
        await phones[gid].hello("guest", token)
    try:
        assert (await host.command("seat"))["type"] == "ok"
        for phone in phones.values():
            await phone.until(lambda m: m.get("type") == "snapshot" and m.get("table"))
        guests = await sync_to_async(lambda: {g.pk: g for g in Guest.objects.filter(party=party)})()
        gids = list(tokens)
        leaving = guests[gids[2]]
        assert (await phones[leaving.pk].command("offer_seat"))["type"] == "ok"
        params = {"name": leaving.name, "seat": leaving.seat + 1}
        msgid = "%(name)s (seat %(seat)s) offers their seat to a substitute."

        def offer(m):
            return m.get("type") == "notice" and m.get("kind") == "offer"

        heard_en = await phones[gids[0]].until(offer)
        heard_de = await phones[gids[1]].until(offer)
        heard_host = await host.until(offer)
        assert (
            heard_en["message"]
            == msgid % params
            == f"{leaving.name} (seat {leaving.seat + 1}) offers their seat to a substitute."
        )
        assert heard_de["message"] == _in("de", msgid, params)
        assert heard_host["message"] == heard_en["message"]  # the host's laptop said nothing: the party's English
        assert {k: v for k, v in heard_de.items() if k != "message"} == {
            k: v for k, v in heard_en.items() if k != "message"
        }
        assert "_said" not in heard_en and "_said" not in heard_de
    finally:
        await host.close()
        for phone in phones.values():
            await phone.close()


def test_the_screens_read_the_rules_in_german():
    with translation.override("de"):
        rules = screen_rules(RequestFactory().get("/"))["screen_rules"]
        royal = rules_for_screens("royal")
    snatch = rules["cards"]["SNATCH"]
    assert snatch["title"] == "SNATCH"  # as printed
    assert snatch["effect"] == _in("de", "Swap your gift with one other player's gift.")
    assert rules["rounds"]["1"] == "THE SNOOP"
    assert royal["cards"]["7D"]["title"] == _in("de", "%(rank)s of diamonds", {"rank": "7"})
    assert royal["danger_ranks"]["Q"] == _in("de", "Queen")
    # English as the engine states it, and one dict per language (cached).
    with translation.override("en"):
        english = rules_for_screens(DEFAULT_GAME)
        assert english["cards"]["SNATCH"]["effect"] == "Swap your gift with one other player's gift."
        assert rules_for_screens("royal")["cards"]["QS"]["title"] == "Queen of spades"
        assert rules_for_screens(DEFAULT_GAME) is english


def test_an_illegal_action_says_its_rule_in_spanish_and_its_detail_in_english():
    error = CardNotInHandError("card 7 is not in seat 2's hand")
    with translation.override("en"):
        assert str(Illegal(error, YANKEE)) == "card 7 is not in seat 2's hand"
    with translation.override("es"):
        refused = Illegal(error, YANKEE)
    assert refused.code == "illegal.hand"
    assert str(refused) == _in("es", "That card is not in your hand.")


def test_each_game_words_its_own_rules_and_the_host_only_the_shared_ones():
    """Issue 38: the host's table of refusals held Yankee Heist's cards and reaction
    window and Royal Heist's rooms; a game's own rule is now its own to word
    (NamesRules), and Blinks Heist's, once said in the host's plain words, are its own."""
    with translation.override("de"):
        royal = str(Illegal(NotInsideError("seat 2 is out of this heist"), ROYAL))
        blinks = str(Illegal(ClaimedError("blink 3 is claimed"), BLINKS))
        shared = str(Illegal(OutOfTurnError("not seat 1's turn"), ROYAL))
        unworded = str(Illegal(CardNotInHandError("card 7 is not in seat 2's hand")))  # no game: the host's words
    assert royal == _in("de", "That seat is out of this heist.")
    assert blinks == _in("de", "That Blink is claimed already: it has left the vault.")
    assert shared == _in("de", "It is not your turn to do that.")
    assert unworded == _in("de", "The rules do not allow that now.")
    assert not {"hand", "target", "card", "window", "answered", "inside", "decided"} & set(RULE_TEXT)


def test_the_engine_still_imports_no_django():
    code = (
        "import sys, games.registry, games.yankee, games.royal\n"
        "games.yankee.rules_for_screens(); games.royal.rules_for_screens()\n"
        "bad = sorted(m for m in sys.modules if m == 'django' or m.startswith('django.'))\n"
        "assert not bad, bad\n"
    )
    run = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60)
    assert run.returncode == 0, run.stderr
