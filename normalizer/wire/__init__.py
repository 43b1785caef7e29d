"""Wire protocols: one module per protocol, each with `parse(body) -> History` and
`render(history, *, tools=(), model=..., options=None) -> dict`.

Render is faithful: a broken history renders as a broken request. Repairs live in
`normalizer.passes`.
"""

from __future__ import annotations

import importlib
from collections.abc import Mapping, Sequence
from types import ModuleType
from typing import Any

from normalizer.collector import collector_paused
from normalizer.errors import UnknownProtocolError
from normalizer.model import History, ToolSpec
from normalizer.protocols import DEFAULT_MODEL, PROTOCOLS

__all__ = ["PROTOCOLS", "parse", "protocol_module", "render"]



def protocol_module(protocol: str) -> ModuleType:
    """The module implementing `protocol`; UnknownProtocolError lists the known ones."""
    if protocol not in PROTOCOLS:
        raise UnknownProtocolError(protocol, PROTOCOLS)
    return importlib.import_module(f"normalizer.wire.{protocol}")


def parse(body: Mapping[str, Any], protocol: str) -> History:
    """A request body as the protocol's SDK would send it -> neutral History."""
    module = protocol_module(protocol)
    with collector_paused(_length(body)):
        return module.parse(body)


def _length(body: Mapping[str, Any]) -> int:
    """How many messages (contents, input items) a body holds, as far as a glance tells."""
    if not isinstance(body, Mapping):
        return 0  # the protocol's parse says what is wrong with it
    turns = body.get("messages") or body.get("contents") or body.get("input")
    return len(turns) if isinstance(turns, list) else 0


def render(
    history: History,
    protocol: str,
    *,
    tools: Sequence[ToolSpec] = (),
    model: str | None = None,
    options: Mapping[str, Any] | None = None,
) -> dict[str, Any]:
    """Neutral History -> the request body the protocol's SDK would send (faithfully)."""
    module = protocol_module(protocol)
    with collector_paused(len(history.messages)):
        return module.render(history, tools=tools, model=model or DEFAULT_MODEL[protocol],
                             options=options)
