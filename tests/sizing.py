"""How big the property tests are. The default (`ci`) keeps the README's test command within
its one-minute budget on two cores; `CONFORMANCE_TEST_DEPTH=thorough pytest` runs each
property test with its thorough number of examples (the figures the notes quote)."""

from __future__ import annotations

import os

DEPTH = os.environ.get("CONFORMANCE_TEST_DEPTH", "ci")


def examples(ci: int, thorough: int) -> int:
    """The number of Hypothesis examples for this run's depth."""
    return thorough if DEPTH == "thorough" else ci
