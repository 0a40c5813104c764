"""HTTP: the views, the error family's one HTTP mapping, and what /healthz checks."""
