from games.royal.definition import RoyalDefinition


class BareDefinition(RoyalDefinition):
    name = "bare"
    title = "Bare Caper"


DEFINITION = BareDefinition()
