"""Royal Heist (../shared/seeds/004): pure rules, no Django, no I/O, seeded."""
