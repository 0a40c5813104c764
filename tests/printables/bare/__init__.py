"""A game registered by these tests only, with no party parts (no `party/` folder): the
host must print and tell it with its fallbacks. Its rules are Royal Heist's under
another name and title, so a page naming either real game is caught."""
