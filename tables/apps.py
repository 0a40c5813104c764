from django.apps import AppConfig
from django.conf import settings


class TablesConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "tables"

    def ready(self) -> None:
        # A game the settings add beyond the registry's own list (a test-only game,
        # docs/GAMES.md) is registered before any request asks for it by name.
        from games import registry

        for package in settings.HEIST_GAME_PACKAGES:
            registry.install(package)
