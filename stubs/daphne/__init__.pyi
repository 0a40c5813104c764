__version__: str
PY38_WIN: bool
