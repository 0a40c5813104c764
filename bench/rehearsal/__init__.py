"""The full-size rehearsal behind bench/party.py, one module per part (see bench/README.md)."""
