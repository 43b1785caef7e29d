"""Top-level request fields a vendor does not know (rule unknown-request-field): what
check() flags and the repair leaves out, renames or moves, read one way for both."""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any


def unknown_fields(request: Mapping[str, Any], params: Mapping[str, Any]) -> list[str]:
    """The request's top-level fields that are neither in params.known nor in
    params.elsewhere (refused the same way but reported and repaired under a rule of their
    own: Mistral's max_completion_tokens), in request order, then the unknown keys inside the
    objects params.known_within lists; none where the params list no known fields."""
    known = params.get("known") or ()
    if not known:
        return []
    taken = {*known, *(params.get("elsewhere") or ())}
    found = [str(k) for k in request if k not in taken]
    # A known object whose own keys are listed (params.known_within: Mistral parses
    # stream_options and refuses its include_usage): its other keys, as "object.key".
    for outer, keys in (params.get("known_within") or {}).items():
        inner = request.get(outer)
        if isinstance(inner, Mapping) and outer not in found:
            found.extend(f"{outer}.{key}" for key in inner if key not in keys)
    return found


def moved_fields(request: Mapping[str, Any], params: Mapping[str, Any]
                 ) -> list[tuple[str, str]]:
    """The request's top-level fields that params.moved names (field -> its new path, a name
    or "object.name"), with that path, in request order; a field sent as null is not sent."""
    moved = params.get("moved") or {}
    return [(str(k), str(moved[k])) for k, v in request.items() if k in moved and v is not None]


def spellings(name: str) -> tuple[str, str]:
    """A proto JSON field name's two spellings, lowerCamelCase and snake_case
    (generationConfig, generation_config): Gemini's parser reads both as one field."""
    snake = re.sub(r"(?<!^)([A-Z])", lambda m: "_" + m.group(1).lower(), name)
    camel = re.sub(r"_([a-z0-9])", lambda m: m.group(1).upper(), snake)
    return camel, snake
