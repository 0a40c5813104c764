"""The daphne options every test server uses, as bin/serve, the Dockerfile and compose
do: autobahn refuses a WebSocket message over 4096 bytes (close 1009) before buffering
it (its default is 1 MiB); events/consumers.py checks the same limit again."""

DAPHNE_ARGS = ["--websocket-max-message-size", "4096"]
