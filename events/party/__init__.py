"""The party's rules: its writes (lobby, seating, tablets, hand-over), its reads,
who may see and do what, its secrets and the address phones are given."""
