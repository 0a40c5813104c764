"""Issue 31: a Royal Heist party's story page tells each table's play heist by heist, as
the game tells it from the replay of the stored actions (games/royal/party/story.py):
who got out with what, who was caught, the retired card, each game's banks; the seat a
late arrival played named by who played it; no gift swap's words."""

from __future__ import annotations

import pytest
from django.core.cache import cache
from django.test import Client

from games.royal import ROYAL
from games.royal.party.story import STORY
from tables.models import Table
from tests.party.test_royal_result import _royal_party

pytestmark = pytest.mark.django_db


def test_the_story_of_a_royal_party_adds_up_to_its_tables_banks_heist_by_heist():
    party, _, _ = _royal_party(6, games=2)
    story = STORY.tell(party)
    (table,) = Table.objects.filter(party=party)
    (told,) = story["tables"]
    assert [g["game"] for g in told["games"]] == [1, 2]
    final = ROYAL.from_dict(table.state)
    lena_seat = next(s for s, e in enumerate(table.roster) if e["name"] == "Lena")
    running = [0] * 6
    for game in told["games"]:
        assert [x["heist"] for x in game["heists"]] == [1, 2, 3, 4, 5]
        banked = [0] * 6
        for x in game["heists"]:
            assert x["rooms"] and x["ended"] in ("caught", "all_out")
            # A heist ends with its second danger (which retires) or with everybody out.
            assert (x["ended"] == "caught") == bool(x["caught"]) == (x["retired"] is not None)
            if x["retired"]:
                assert x["card"] == x["retired"] and x["rooms"][-1] == x["retired"]
            for o in x["got_out"]:
                banked[o["seat"]] += o["banked"]
            for c in x["caught"]:
                banked[c["seat"]] -= c["bank"]
            # Lena played G0's seat from the deal: every entry of it is hers.
            assert all(e["name"] == "Lena" for e in x["got_out"] + x["caught"] if e["seat"] == lena_seat)
        running = [r + b for r, b in zip(running, banked, strict=True)]
        assert [s["bank"] for s in game["seats"]] == banked
        assert [s["total"] for s in game["seats"]] == running
    assert running == final.running_totals()
    # The game's end names the seat's guest, who sat down there.
    assert told["games"][-1]["seats"][lena_seat]["name"] == "G0"
    assert told["seats"][lena_seat]["played_by"] == ["G0", "Lena"]
    assert story["result"]["champions"]


def test_the_story_page_of_a_royal_party_tells_the_heists_in_its_own_words():
    party, _, _ = _royal_party(5, games=1)
    cache.clear()
    client = Client()
    page = client.get(f"/story/{party.code}/")
    assert page.status_code == 200
    text = page.content.decode()
    assert "Table by table, heist by heist" in text and "Heist 5" in text and "Champion" in text
    told = text.split('id="story"')[1].split("<script")[0]  # the page's own words
    assert "Heist 1" in told
    for gift_swap in ("Most-stolen", "Yankee", "gift", "Round"):
        assert gift_swap not in told and gift_swap not in text.split("<title>")[1].split("</title>")[0]
    data = client.get(f"/story/{party.code}/story.json")
    assert data.status_code == 200 and data.json()["tables"][0]["table"] == "A"
    assert f"royal-heist-{party.code}-story.json" in data["Content-Disposition"]
    assert client.get(f"/story/{party.code}/flow.svg").status_code == 404  # a gift swap's picture


@pytest.mark.parametrize(("language", "of_spades", "king"), [("es", "de picas", "Rey"), ("de", "Pik", "König")])
def test_the_royal_story_names_the_cards_in_the_readers_language(language, of_spades, king):
    """Issue 40: the Spanish and German story said "El segundo King of spades"."""
    from django.utils import translation

    party, _, _ = _royal_party(6, games=2)
    cache.clear()
    with translation.override(language):
        story = STORY.tell(party)
        page = Client(headers={"accept-language": language}).get(f"/story/{party.code}/").content.decode()
    cards = [
        card
        for told in story["tables"]
        for game in told["games"]
        for x in game["heists"]
        for card in [*x["rooms"], x["card"], x["retired"]]
        if card
    ]
    assert cards
    english = ("Jack", "Queen", "King", "Ace", " of ", " and ") + (
        ("Joker",) if language == "es" else ()
    )  # German says Joker
    assert not [c for c in cards if any(word in c for word in english)], cards
    assert any(of_spades in c or king in c for c in cards)
    told = page.split('id="story"')[1].split("<script")[0]
    assert not [w for w in ("King of", "Queen of", "Jack of", "Ace of", "of hearts", "of diamonds") if w in told]


def test_the_royal_storys_contents_lead_to_each_table_heist_and_guest():
    """Issue 40: the story's table of contents: every table, each game's heists, every
    guest with their table, each link to an anchor the page has."""
    import re

    party, _, _ = _royal_party(6, games=2)
    cache.clear()
    text = Client().get(f"/story/{party.code}/").content.decode()
    toc = text.split('id="story-toc"')[1].split("</nav>")[0]
    links = re.findall(r'href="#([^"]+)"', toc)
    assert "table-A" in links and "table-A-game-2-heist-5" in links and "story-result" in links
    assert len([x for x in links if "-heist-" in x]) == 10
    for anchor in set(links):
        assert f'id="{anchor}"' in text, anchor
    for name in ("G0", "Lena"):  # who sat down, and who played the seat after
        assert f'<span class="toc-name">{name}</span>' in toc
