"""Settings modules: embedded (laptop default), production, test."""
