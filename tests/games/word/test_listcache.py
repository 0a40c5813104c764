"""The word lists kept between server starts (games/word/party/listcache.py): a kept list
is the list the code makes, read back only while what it was made from is unchanged, and
a cache that cannot be used only means the list is made."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from games.word.party import dictionary, listcache


@pytest.fixture
def cache(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    folder = tmp_path / "cache"
    monkeypatch.setenv("HEIST_CACHE_DIR", str(folder))
    return folder


def _maker(words: list[str]):
    made: list[int] = []

    def make() -> list[str]:
        made.append(1)
        return list(words)

    return make, made


def test_a_kept_list_is_read_back_without_making_it(cache: Path) -> None:
    make, made = _maker(["HOUSE", "SHELL", "LILIES"])
    assert listcache.kept_list(name="word-xx", key="k1", make=make) == ["HOUSE", "SHELL", "LILIES"]
    assert listcache.kept_list(name="word-xx", key="k1", make=make) == ["HOUSE", "SHELL", "LILIES"]
    assert made == [1]
    assert [p.name for p in cache.iterdir()] == ["word-xx-k1.txt"]


def test_an_empty_list_is_kept_too(cache: Path) -> None:
    make, made = _maker([])
    assert listcache.kept_list(name="word-xx", key="k", make=make) == []
    assert listcache.kept_list(name="word-xx", key="k", make=make) == []
    assert made == [1]


def test_a_new_key_makes_the_list_afresh_and_drops_the_old_one(cache: Path) -> None:
    listcache.kept_list(name="word-xx", key="old", make=lambda: ["OLD"])
    listcache.kept_list(name="word-yy", key="other", make=lambda: ["OTHER"])
    assert listcache.kept_list(name="word-xx", key="new", make=lambda: ["NEW"]) == ["NEW"]
    assert sorted(p.name for p in cache.iterdir()) == ["word-xx-new.txt", "word-yy-other.txt"]


def test_a_cut_short_or_foreign_file_is_not_believed(cache: Path) -> None:
    listcache.kept_list(name="word-xx", key="k", make=lambda: ["ONE", "TWO", "THREE"])
    path = cache / "word-xx-k.txt"
    path.write_text(path.read_text(encoding="utf-8").rsplit("\n", 1)[0], encoding="utf-8")  # a lost tail
    assert listcache.kept_list(name="word-xx", key="k", make=lambda: ["ONE", "TWO", "THREE"]) == ["ONE", "TWO", "THREE"]
    path.write_text("word-xx other 1\nSTRAY", encoding="utf-8")  # another key's header
    assert listcache.kept_list(name="word-xx", key="k", make=lambda: ["MADE"]) == ["MADE"]
    path.write_bytes(b"\xff\xfe\x00")
    assert listcache.kept_list(name="word-xx", key="k", make=lambda: ["AGAIN"]) == ["AGAIN"]


def test_a_cache_that_cannot_be_written_still_gives_the_list(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    blocker = tmp_path / "a-file"
    blocker.write_text("not a folder", encoding="utf-8")
    monkeypatch.setenv("HEIST_CACHE_DIR", str(blocker / "cache"))
    make, made = _maker(["HOUSE"])
    assert listcache.kept_list(name="word-xx", key="k", make=make) == ["HOUSE"]
    assert listcache.kept_list(name="word-xx", key="k", make=make) == ["HOUSE"]
    assert made == [1, 1]


def test_the_folder_follows_the_environment(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("HEIST_CACHE_DIR", raising=False)
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "xdg"))
    assert listcache.folder() == tmp_path / "xdg" / "heist"
    monkeypatch.setenv("HEIST_CACHE_DIR", str(tmp_path / "mine"))
    assert listcache.folder() == tmp_path / "mine"


def test_the_key_changes_with_the_code_the_files_and_the_cuts(tmp_path: Path) -> None:
    source, read = tmp_path / "maker.py", tmp_path / "en_US.dic"
    source.write_text("CUT = 3\n", encoding="utf-8")
    read.write_text("2\nParis\nhouse\n", encoding="utf-8")

    def key(settings: tuple[object, ...] = (3.0,)) -> str:
        return listcache.key_of(name="word-en", sources=[source], files=[read], settings=settings)

    first = key()
    assert key() == first
    assert key((3.5,)) != first
    source.write_text("CUT = 4\n", encoding="utf-8")
    second = key()
    assert second != first
    stat = read.stat()
    os.utime(read, ns=(stat.st_atime_ns, stat.st_mtime_ns + 1_000_000_000))  # a new dictionary package
    assert key() != second
    read.unlink()
    assert key() not in (first, second)


@pytest.mark.parametrize("language", ["en", "de"])
def test_the_kept_dictionary_is_the_one_the_code_makes(cache: Path, language: str) -> None:
    made = dictionary.words_of(language)
    assert dictionary.kept_words_of(language) == made  # made, kept
    assert len(list(cache.iterdir())) == 1
    assert dictionary.kept_words_of(language) == made  # read back
