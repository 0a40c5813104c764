"""The live-server benchmark behind bench/live.py, one module per part (see bench/README.md)."""
