from django.apps import AppConfig


class RelayConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "relay"
