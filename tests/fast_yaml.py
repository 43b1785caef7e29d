"""Test data read with libyaml. `yaml.safe_load` is the pure-Python loader, ~7x slower, and
the data files are read at collection (for parametrize) in every xdist worker."""

from __future__ import annotations

from typing import Any

import yaml

from conformance.sized_yaml import with_sized_strings

# With the tag for long base64 data, as the project's own loaders (conformance/sized_yaml.py).
LOADER: type[yaml.SafeLoader] = with_sized_strings(getattr(yaml, "CSafeLoader", yaml.SafeLoader))


def load(text: str) -> Any:
    """What `yaml.safe_load(text)` gives, through libyaml when it is there."""
    return yaml.load(text, Loader=LOADER)  # a safe loader
