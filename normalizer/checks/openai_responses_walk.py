"""Reading an OpenAI Responses body once for all its detectors (normalizer/shared_reading.py):
the `input` items that are objects, each with its kind and call id."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from normalizer.shared_reading import Rows, shared


def kind(item: Mapping[str, Any]) -> str:
    """An item's `type`; an item without one is a message when it has a role."""
    found = item.get("type")
    if isinstance(found, str):
        return found
    return "message" if "role" in item else ""


def call_id(item: Mapping[str, Any]) -> str | None:
    """An item's `call_id`, or None when absent or not a string."""
    found = item.get("call_id")
    return found if isinstance(found, str) else None


@shared
def items(body: Mapping[str, Any]) -> Rows:
    """Rows (index, item, kind, call id) of each `input` item that is an object."""
    raw = body.get("input")
    if not isinstance(raw, list):
        return Rows((), (), (), ())
    kept = tuple(i for i, item in enumerate(raw)
                 if type(item) is dict or isinstance(item, Mapping))
    found = tuple(raw[i] for i in kept)
    return Rows(kept, found, tuple(map(kind, found)), tuple(map(call_id, found)))
