"""Observed vendor answers (`evidence/<vendor>/<slug>.yaml`): the format, the loader, and the
agreement of `check()` with each observation."""
