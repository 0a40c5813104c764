__version__: str
DEFAULT_CHANNEL_LAYER: str
