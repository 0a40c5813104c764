"""The screens take the rules from the engine, not from a copy in the JavaScript.

In Chromium, on a real page: Yankee Heist's words (games/yankee/static/yankee/words.js:
its target counts for every card and 2 to 10 players, card texts, round names, gift
labels) equal the engine's; and when the page's embedded rules are changed on the way to
the browser, they follow the changed rules, so nothing of them is left in the scripts
themselves."""

from __future__ import annotations

import json
import re

import pytest

from games.yankee import Card, gift_label, rules_for_screens, target_count

from .helpers import new_page

pytestmark = [pytest.mark.browser, pytest.mark.stack, pytest.mark.django_db(transaction=True)]

EMBEDDED = re.compile(r'(<script id="heist-rules" type="application/json">)(.*?)(</script>)', re.S)

# What the game's words do with the rules, for every card and table size, read in the page.
PROBE = """async ([players, gifts]) => {
  const src = document.querySelector('script[type=module][src]').src;
  const words = await import(new URL('../yankee/words.js', src).href);
  const embedded = JSON.parse(document.getElementById('heist-rules').textContent);
  const out = { embedded, targets: {}, effects: {}, labels: {} };
  for (const name of Object.keys(embedded.cards)) {
    out.targets[name] = players.map((n) => words.targetCount(name, n));
    const face = words.cardFace({ id: 0, card: name, kind: embedded.cards[name].kind, title: name });
    out.effects[name] = face.querySelector('.card-effect').textContent;
  }
  for (const g of gifts) out.labels[g] = words.giftLabel(g);
  out.round = words.roundName(1);
  return out;
}"""

PLAYERS = list(range(rules_for_screens()["players"]["min"], rules_for_screens()["players"]["max"] + 1))
GIFTS = [1, 7, 99, 999, 1000, 1001, 1003, 1010]


def probe(page):
    return page.evaluate(PROBE, [PLAYERS, GIFTS])


def test_the_games_words_follow_the_engines_rules(asgi_server, browser):
    errors: list[str] = []
    page = new_page(browser, 800, 900, errors, "rules")
    page.goto(f"{asgi_server}/")
    got = probe(page)
    assert got["embedded"] == rules_for_screens()
    for card in Card:
        assert got["targets"][card.name] == [target_count(card, n) for n in PLAYERS], card
        assert got["effects"][card.name] == card.effect, card
    assert got["targets"]["YANKEE_HEIST"][:2] == [1, 2]  # two players name one, three name two
    assert got["labels"] == {str(g): gift_label(g) for g in GIFTS}
    assert got["labels"]["1003"] == "V3"
    assert got["round"] == "THE SNOOP"
    assert not errors, errors


def test_the_games_words_keep_no_copy_of_the_rules(asgi_server, browser):
    """Other rules in the page, other behaviour: the script reads them, it does not
    know them."""
    changed = rules_for_screens()
    for i, entry in enumerate(changed["cards"].values()):
        entry["targets"] = 3 + i
        entry["targets_two_players"] = 20 + i
        entry["effect"] = f"changed text {i}"
    changed["vault"]["id_base"] = 500
    changed["rounds"]["1"] = "THE CHANGED ROUND"

    def rewrite(route):
        response = route.fetch()
        body = response.text()
        assert len(EMBEDDED.findall(body)) == 1
        new = EMBEDDED.sub(lambda m: m.group(1) + json.dumps(changed) + m.group(3), body)
        route.fulfill(response=response, body=new)

    errors: list[str] = []
    page = new_page(browser, 800, 900, errors, "changed rules")
    page.route(f"{asgi_server}/", rewrite)
    page.goto(f"{asgi_server}/")
    got = probe(page)
    assert got["embedded"] == changed
    for i, name in enumerate(changed["cards"]):
        assert got["targets"][name] == [20 + i] + [3 + i] * (len(PLAYERS) - 1), name
        assert got["effects"][name] == f"changed text {i}", name
    assert got["labels"]["7"] == "7" and got["labels"]["999"] == "V499" and got["labels"]["1003"] == "V503"
    assert got["round"] == "THE CHANGED ROUND"
    assert not errors, errors
