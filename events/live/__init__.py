"""The party socket's own work in each server process: presence, the heartbeat,
quiet sockets, per-socket limits, the acts' threads and timing, the per-frame reads,
and the step clocks' sweep on the event loop."""
