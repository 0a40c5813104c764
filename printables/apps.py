from django.apps import AppConfig


class PrintablesConfig(AppConfig):
    name = "printables"
    verbose_name = "Printables (PDF)"
