"""The party socket's parts, each a small object the consumer (events/live/consumers.py)
owns, and the two classes it is built on (closing.py, standing.py):

- frames.py: what a frame must look like before it is handled (size, JSON, `re`).
- limits.py: the socket's frame budget (FRAME_RATE) and its places in the process's
  counts of open sockets (per seat, per address, on probation, per party pass).
- queue.py: the socket's requests, handled one at a time, in order, in its own task.
- hello.py: the clock a hello must come within, and the proof of a hello's secret.
- snapshots.py: a resync's read, the snapshot it was last sent (a flood of resyncs is
  answered from it), the one a `resubscribe` promised it, and a snapshot's replay of
  what followed it.
- seat.py: the proof that its secret still opens its seat or tablet.
- subscriptions.py: the channel-layer groups it has joined.
- liveness.py: its heartbeat (each ping's pong), its guest's presence row, its close
  when it went silent.
- closing.py: how it sends and closes (ClosingSocket, the close codes it may use).
- standing.py: its actor kept true to the database, and its groups (Standing).
- handshake.py and selectors.py: what the handshake carried and whether it is let in,
  and the reads the socket makes.
- db.py: the typed way into a database thread.

Fan-out (events/broadcast/fanout.py) sees the consumer only as its `Listener`
(standing.py).
"""
