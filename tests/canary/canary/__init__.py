"""Canary Heist: the tiny game the tests alone register, written from docs/GAMES.md
to prove the doc is enough to add a game. Each seat draws one card; the highest wins."""
