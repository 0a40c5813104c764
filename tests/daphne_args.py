"""The daphne options every test server uses, as bin/serve, the Dockerfile and compose
do. Autobahn refuses an incoming WebSocket frame over 4096 bytes (the largest legal
frame is a few hundred) before buffering it, and a message (frames joined) over
256 KiB; its defaults are 1 MiB each. The message limit also caps what the server
sends, so it must stay well above the largest snapshot (a 100-guest host snapshot is
measured in tests/hardening/test_deploy.py). events/consumers.py checks 4096 again."""

DAPHNE_ARGS = ["--websocket-max-frame-size", "4096", "--websocket-max-message-size", "262144"]
