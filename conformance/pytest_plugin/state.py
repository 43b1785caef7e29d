"""What the plugin keeps for a run, in `config.stash` (no module globals, no attributes on
`config`). Read by hooks.py and collect.py; imports only pytest and the standard library,
so the plugin stays cheap to load where no scenario is collected."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Any

import pytest

if TYPE_CHECKING:
    from conformance.backends import Backends
    from conformance.providers import Provider
    from conformance.pytest_plugin.published import Warmup

# The folders named by the `conformance_scenarios` ini option; absent: the plugin is off.
SCENARIO_DIRS = pytest.StashKey[tuple[Path, ...]]()
# Set once a scenario file is collected: only then do the live question and report apply.
COLLECTED = pytest.StashKey[bool]()
BACKENDS: pytest.StashKey[Backends] = pytest.StashKey()
PROVIDERS: pytest.StashKey[list[Provider]] = pytest.StashKey()
# Every item's result as JSON; on the xdist controller they arrive through user_properties.
RESULTS = pytest.StashKey[list[dict[str, Any]]]()
PROPERTY = "conformance-result"
# The ini option naming the folder of the published strictness pages (hooks.py checks them).
PUBLISHED_INI = "conformance_published"
# Loads what that check needs besides the results, from the first scenario result on.
WARMUP: pytest.StashKey[Warmup] = pytest.StashKey()
