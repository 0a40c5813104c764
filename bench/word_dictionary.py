"""Word Heist's dictionaries measured: which wordfreq cut to keep, and the stemmer's roots.

For each party language and each frequency cut (Zipf scale), on hand-made samples that do
not come from wordfreq: the share of common words the dictionary knows (a miss sends a
good word to the table's vote), of inflected forms it knows, of proper nouns, of
common misspellings and of the other languages' everyday words it knows (a wrongly
known one needs a challenge to fall), with and without the foreign gap (a word another
party language's corpora use that much more often, in Zipf, is dropped); and for the roots: the share of
inflection pairs the stemmer joins (the Word Gallery refuses SHELLS after SHELL) and of
different-word pairs it wrongly joins. docs/RULES.md ("Word Heist", "The dictionary")
holds the figures of the cut chosen.

    .venv/bin/python bench/word_dictionary.py                          # every cut and gap
    .venv/bin/python bench/word_dictionary.py --cuts 3.0 --gaps 1.0    # the dictionary kept
    .venv/bin/python bench/word_dictionary.py --load    # each language's load: seconds, memory kept
    .venv/bin/python bench/word_dictionary.py --dropped # the proper nouns Hunspell drops from the cut kept

Every row is with the proper nouns dropped (games/word/party/propernouns.py) unless
`--proper-nouns` keeps them (the figures before that filter).
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from games.word.party.dictionary import stemmer, words_of
from games.word.spelling import fold

COMMON = {
    "en": (
        "house water bread apple chair table window garden friend mother river stone cloud "
        "winter summer green yellow happy quiet narrow ladder kettle pillow blanket basket "
        "candle pepper onion carrot lemon thimble ladle walrus hedgehog anchor lantern puzzle "
        "whisper thunder gravel orchard harbor pebble shovel saddle"
    ),
    "es": (
        "casa agua pan manzana silla mesa ventana jardín amigo madre río piedra nube invierno "
        "verano verde amarillo feliz tranquilo estrecho escalera tetera almohada manta cesta "
        "vela pimienta cebolla zanahoria limón dedal cucharón morsa erizo ancla linterna "
        "susurro trueno grava huerto puerto guijarro pala montura"
    ),
    "de": (
        "Haus Wasser Brot Apfel Stuhl Tisch Fenster Garten Freund Mutter Fluss Stein Wolke "
        "Winter Sommer grün gelb glücklich ruhig schmal Leiter Kessel Kissen Decke Korb Kerze "
        "Pfeffer Zwiebel Karotte Zitrone Fingerhut Schöpflöffel Walross Igel Anker Laterne "
        "Flüstern Donner Kies Obstgarten Hafen Kiesel Schaufel Sattel"
    ),
}
PROPER = {
    "en": (
        "london paris berlin texas boston chicago sydney dublin oxford kevin sarah john "
        "michael jessica smith johnson google amazon microsoft toyota disney netflix "
        "europe africa obama trump shakespeare beethoven einstein"
    ),
    "es": (
        "madrid barcelona sevilla valencia méxico argentina colombia perú juan maría josé "
        "carlos lucía garcía martínez rodríguez google amazon telefónica zara seat "
        "europa áfrica cervantes picasso goya dalí"
    ),
    "de": (
        "berlin münchen hamburg köln dresden bayern sachsen österreich thomas stefan anna "
        "müller schmidt schneider fischer google amazon siemens volkswagen adidas "
        "europa afrika goethe schiller beethoven merkel"
    ),
}
MISSPELT = {
    # common misspellings: a known one scores until a challenge votes it out
    "en": (
        "recieve definately seperate wierd untill occured accomodate tommorow beleive "
        "goverment calender enviroment neccessary truely arguement existance"
    ),
    "es": (
        "hechar nadien estubo hiba bolver desicion aprovar haci exepto preveer asique cocreto enserio haiga dijistes"
    ),
    "de": (
        "nähmlich Standart Rhytmus Addresse Maschiene Reperatur Gallerie Vorraus "
        "wiederrum tolleranz Entgültig Resourcen Hobbies ziehmlich seid"
    ),
}
FOREIGN = {
    # everyday words of the other two languages, which the corpora quote
    "en": "que para pero porque muy donde der und nicht auch aber casa haus gracias danke bitte",
    "es": "the and you with love show party house what this that have from they would about",
    "de": "the and you with love what this that have from they would que para pero muy porque",
}
INFLECTIONS = {
    # (inflected form, its base): the form must be known, and share the base's root
    "en": (
        "shells:shell houses:house walked:walk running:run stones:stone happier:happy "
        "quietly:quiet gardens:garden friends:friend rivers:river clouds:cloud cried:cry "
        "parties:party stolen:steal baskets:basket candles:candle carrots:carrot "
        "lanterns:lantern whispered:whisper thundering:thunder harbors:harbor saddled:saddle"
    ),
    "es": (
        "casas:casa ventanas:ventana amigos:amigo piedras:piedra nubes:nube verdes:verde "
        "cantaba:cantar comimos:comer vivieron:vivir hablando:hablar ladrones:ladrón "
        "robaron:robar escaleras:escalera mantas:manta cestas:cesta velas:vela "
        "cebollas:cebolla limones:limón linternas:linterna susurros:susurro puertos:puerto"
    ),
    "de": (
        "Häuser:Haus Fenstern:Fenster Gärten:Garten Freunde:Freund Flüsse:Fluss Steine:Stein "
        "Wolken:Wolke grüne:grün ruhiger:ruhig ging:gehen gestohlen:stehlen lachte:lachen "
        "Kissen:Kissen Körbe:Korb Kerzen:Kerze Zwiebeln:Zwiebel Zitronen:Zitrone "
        "Laternen:Laterne Häfen:Hafen Sattels:Sattel Diebe:Dieb"
    ),
}
DIFFERENT = {
    # pairs of different words a stemmer must not join
    "en": "shell:shelf wander:wonder organ:organize general:generous universe:university news:new",
    "es": "casa:caso peso:pesa puerto:puerta cuento:cuenta moda:modo libro:libre",
    "de": "Mut:Mutter Kost:Kosten Haus:hausen Wal:Wahl Stadt:Staat Rat:Rate",
}
CUTS = (2.5, 3.0, 3.5, 4.0)
GAPS = (None, 0.5, 1.0, 2.0)


def share(hits: int, total: int) -> str:
    return f"{hits}/{total} ({100 * hits / total:.0f} %)"


def folded(text: str, language: str) -> list[str]:
    return [w for w in (fold(t, language) for t in text.split()) if w is not None]


def pairs(text: str, language: str) -> list[tuple[str, str]]:
    out = []
    for pair in text.split():
        a, b = pair.split(":")
        fa, fb = fold(a, language), fold(b, language)
        assert fa is not None and fb is not None, pair
        out.append((fa, fb))
    return out


def load() -> int:
    """What a server process pays for each language's dictionary, on the first table
    that plays in it (the registry hands the loader in, games/word/definition.py): the
    seconds of the read with nothing kept (the list made from wordfreq and Hunspell) and
    with the list kept by an earlier start (games/word/party/listcache.py, in a fresh
    temporary folder here), then the memory it keeps (traced, on another read)."""
    import gc
    import os
    import tempfile
    import time
    import tracemalloc

    from games.word.party.dictionary import lexicon

    os.environ["HEIST_CACHE_DIR"] = tempfile.mkdtemp(prefix="heist-bench-cache-")
    print(
        "| language | words | made (s) | its CPU (s) | kept: read back (s) | its CPU (s) | again (µs) "
        "| memory kept (MiB) | peak while reading (MiB) |"
    )
    print("|---|---|---|---|---|---|---|---|---|")
    for language in ("en", "es", "de"):
        times = []
        for _ in ("made", "kept"):
            lexicon.cache_clear()
            t, cpu = time.perf_counter(), time.process_time()
            words = len(lexicon(language))  # type: ignore[arg-type]
            times += [time.perf_counter() - t, time.process_time() - cpu]
        t = time.perf_counter()
        lexicon(language)
        again = time.perf_counter() - t
        lexicon.cache_clear()
        gc.collect()
        tracemalloc.start()
        kept = lexicon(language)
        gc.collect()
        current, peak = tracemalloc.get_traced_memory()
        tracemalloc.stop()
        del kept
        print(
            f"| {language} | {words:,} | " + " | ".join(f"{x:.2f}" for x in times) + f" | {again * 1e6:.0f} "
            f"| {current / 2**20:.1f} | {peak / 2**20:.1f} |"
        )
    return 0


def dropped(count: int) -> int:
    """How many words of the dictionary kept the Hunspell filter drops as proper nouns,
    and the `count` most common of them (to judge by hand how many are common words)."""
    print("| language | words kept | dropped as proper nouns | the most common dropped |")
    print("|---|---|---|---|")
    for language in ("en", "es", "de"):
        kept = words_of(language)
        every = words_of(language, proper_nouns=True)
        gone = [w for w in every if w not in set(kept)]
        print(f"| {language} | {len(kept):,} | {len(gone):,} | {' '.join(gone[:count])} |")
    return 0


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--cuts", type=float, nargs="*", default=list(CUTS))
    parser.add_argument("--gaps", type=float, nargs="*", help="foreign gaps (default: none, 0.5, 1.0, 2.0)")
    parser.add_argument("--load", action="store_true", help="measure each language's load instead")
    parser.add_argument("--dropped", type=int, nargs="?", const=60, help="list the proper nouns dropped instead")
    parser.add_argument("--proper-nouns", action="store_true", help="keep the proper nouns (no Hunspell filter)")
    args = parser.parse_args()
    if args.load:
        return load()
    if args.dropped:
        return dropped(args.dropped)
    gaps = GAPS if args.gaps is None else tuple(args.gaps)
    print(
        "| language | Zipf cut | foreign gap | words | common words known | inflections known "
        "| proper nouns known | misspellings known | foreign words known |"
    )
    print("|---|---|---|---|---|---|---|---|---|")
    for language, cut, gap in ((lang, c, g) for lang in ("en", "es", "de") for c in args.cuts for g in gaps):
        common = folded(COMMON[language], language)
        proper = folded(PROPER[language], language)
        inflected = [a for a, _ in pairs(INFLECTIONS[language], language)]
        misspelt = folded(MISSPELT[language], language)
        foreign = folded(FOREIGN[language], language)
        known = set(words_of(language, cut, gap, proper_nouns=args.proper_nouns))
        print(
            f"| {language} | {cut} | {'-' if gap is None else gap} | {len(known):,} "
            f"| {share(sum(w in known for w in common), len(common))} "
            f"| {share(sum(w in known for w in inflected), len(inflected))} "
            f"| {share(sum(w in known for w in proper), len(proper))} "
            f"| {share(sum(w in known for w in misspelt), len(misspelt))} "
            f"| {share(sum(w in known for w in foreign), len(foreign))} |"
        )
    print()
    print("| language | inflection pairs joined | different words joined | missed | wrongly joined |")
    print("|---|---|---|---|---|")
    for language in ("en", "es", "de"):
        stem = stemmer(language).stemWord
        same = pairs(INFLECTIONS[language], language)
        other = pairs(DIFFERENT[language], language)
        missed = [f"{a}/{b}" for a, b in same if stem(a.lower()) != stem(b.lower())]
        joined = [f"{a}/{b}" for a, b in other if stem(a.lower()) == stem(b.lower())]
        print(
            f"| {language} | {share(len(same) - len(missed), len(same))} | {share(len(joined), len(other))} "
            f"| {', '.join(missed) or '-'} | {', '.join(joined) or '-'} |"
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
