"""Who gets in, for the socket and HTTP alike: the gate of every route that takes a
party's code, rate limits per address, and which connections proved a secret."""
