"""Test data read with libyaml and the project's one tag: conformance/sized_yaml.py's
loader. `yaml.safe_load` is the pure-Python loader, ~7x slower, and the data files are read
at collection (for parametrize) in every xdist worker."""

from __future__ import annotations

from conformance.sized_yaml import safe_load as load

__all__ = ["load"]
