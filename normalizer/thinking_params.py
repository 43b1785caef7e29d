"""Thinking parameters in a form or combination a vendor refuses.

Vendors that copy the Chat wire add their own thinking switch (Moonshot: `thinking:
{"type": "enabled" | "disabled"}`), and apps send what another vendor takes: a boolean
`thinking: true`, the switch together with OpenAI's `reasoning_effort`, or thinking off for
a model that always thinks. Each rule copy names one such form in params.check:
- `object`: the switch must be an object ("the thinking field in the request (expected
  type object) is illegal, and bool is not acceptable");
- `with_effort`: not both the switch and `reasoning_effort` ("cannot specify both
  'thinking' and 'reasoning_effort'");
- `always_on`: not a switch value in params.refused (default ["disabled"]) ("invalid
  thinking: only type=enabled is allowed for this model").
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, NamedTuple


class Conflict(NamedTuple):
    """One refused form: which check found it, the request field to name, and what the
    field holds (a boolean switch is named by its JSON type, as the vendor does)."""

    check: str
    field: str
    sent: Any


def conflicts(request: Mapping[str, Any], params: Mapping[str, Any]) -> list[Conflict]:
    """The refused forms of `request`'s thinking parameters, for the checks params.check
    lists, in that order."""
    thinking = request.get("thinking")
    found: list[Conflict] = []
    for check in params.get("check") or ():
        if check == "object" and isinstance(thinking, bool):
            found.append(Conflict(check, "thinking", thinking))
        elif check == "with_effort" and thinking is not None \
                and request.get("reasoning_effort") is not None:
            found.append(Conflict(check, "reasoning_effort", request["reasoning_effort"]))
        elif check == "always_on" and isinstance(thinking, Mapping) \
                and thinking.get("type") in (params.get("refused") or ("disabled",)):
            found.append(Conflict(check, "thinking.type", thinking["type"]))
    return found


def resolved(request: Mapping[str, Any], found: Conflict) -> dict[str, Any]:
    """`request` with one conflict resolved: a boolean switch written as the object
    (lossless), `reasoning_effort` left out beside the switch (the switch is the vendor's
    own), the refused switch left out (the model thinks, as it would anyway)."""
    out = dict(request)
    if found.check == "object":
        out["thinking"] = {"type": "enabled" if found.sent else "disabled"}
    elif found.check == "with_effort":
        del out["reasoning_effort"]
    else:
        del out["thinking"]
    return out
