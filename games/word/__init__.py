"""The Word Heist rules engine: pure Python, no Django, no I/O, no clock.

    game, events = new_game(seed=..., players=4, lexicon=lexicon)
    game, events = apply(game, Write(seat=0, word="lilies"), lexicon)

Everything random comes from the game's own seeded generator; the dictionary is the
`Lexicon` handed in (games/word/lexicon.py). `WORD` is the game behind the party's seam.
"""
