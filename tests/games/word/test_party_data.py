"""Word Heist's dictionary is handed in by the host: the registry gives the definition the
party part's loader (games.definition.TakesPartyData), and a table plays in its party's
language (SpeaksLanguage). The rules never open a file nor import a party part."""

from __future__ import annotations

import subprocess
import sys

import pytest

from games.definition import Setup, SpeaksLanguage, TakesPartyData
from games.registry import game_named
from games.word.definition import WordDefinition
from games.word.party import dictionary


def test_the_registered_definition_reads_the_party_parts_dictionary_once_per_language():
    word = game_named("word")
    assert isinstance(word, TakesPartyData) and word.data_part == "dictionary"
    spanish = word.lexicon("es")  # type: ignore[attr-defined]
    assert spanish.language == "es" and spanish.knows("CASA") and not spanish.knows("THE")
    assert word.lexicon("es") is spanish  # type: ignore[attr-defined]
    assert dictionary.DATA("es") is spanish


def test_a_definition_nobody_handed_a_dictionary_says_so_and_deals_nothing():
    bare = WordDefinition()
    with pytest.raises(LookupError, match="no dictionary"):
        bare.setup(Setup(players=3, seed=1, gate=False, options={"language": "en"}))
    bare.take_party_data(dictionary.DATA)
    game, _ = bare.setup(Setup(players=3, seed=1, gate=False, options={"language": "en"}))
    assert game.language == "en"


@pytest.mark.parametrize(("party", "table"), [("en", "en"), ("es", "es"), ("de", "de"), ("fr", "en")])
def test_a_table_plays_in_its_partys_language_or_english_without_a_dictionary_for_it(party, table):
    word = game_named("word")
    assert isinstance(word, SpeaksLanguage)
    options = word.language_options(party)
    assert options == {"language": table}
    game, _ = word.setup(Setup(players=4, seed=7, gate=False, options=options))
    assert game.language == table


def test_the_server_process_reads_every_dictionary_at_start_not_in_its_first_act():
    """config/asgi.py warms the games' party data (games.registry.warm -> the part's WARM):
    acts are applied on the event loop, and a dictionary first read there stalled every
    socket of the daphne for seconds (the Word Heist rehearsal's first writes: 4-5 s)."""
    code = (
        "import os; os.environ['DJANGO_SETTINGS_MODULE'] = 'config.settings.test';"
        "import config.asgi; from games.word.party import dictionary;"
        "info = dictionary.lexicon.cache_info(); print(info.currsize, info.misses)"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True, timeout=300)
    size, misses = map(int, out.stdout.strip().splitlines()[-1].split())
    assert size == misses == len(dictionary.STEMMERS)  # every language, read once
