"""Which extras keys a renderer writes: its own protocol's and unnamed vendor fields, never
another protocol's (`protocols.foreign_extras`) nor the neutral model's reserved keys
(`model.STREAM_MARKERS`). Private to `normalizer.wire`.
"""

from __future__ import annotations

import functools
from typing import Any

from normalizer.model import EMPTY, STREAM_MARKERS, WIRE_MARKERS, JsonMap, thaw
from normalizer.protocols import foreign_extras


@functools.lru_cache(maxsize=256)  # a few (protocol, handled) pairs, read for every part
def skipped(protocol: str, *handled: str) -> frozenset[str]:
    """The extras keys `protocol`'s renderer leaves out of a generic extras write: other
    protocols' keys, reserved markers, and `handled` (keys the renderer writes itself)."""
    return foreign_extras(protocol) | STREAM_MARKERS | WIRE_MARKERS | frozenset(handled)


def written(extras: JsonMap, protocol: str, handled: tuple[str, ...]) -> dict[str, Any]:
    """Extras as wire fields; they never overwrite a field the renderer itself defines
    (`handled`)."""
    if extras is EMPTY or not extras:
        return {}
    skip = skipped(protocol, *handled)
    return {k: thaw(v) for k, v in extras.items() if k not in skip}
