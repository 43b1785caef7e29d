"""What a Gemini request that names a cache (`cachedContent`) may not set beside it, read
the same way by the detector and the repair: the cache carries its own system instruction,
tools and tool config, and Gemini refuses a request that sets them again."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from normalizer.request_fields import spellings

CACHE_FIELD = spellings("cachedContent")
PROMPT_FIELDS = tuple(spellings(name) for name in ("systemInstruction", "tools", "toolConfig"))


def names_cache(fields: Mapping[str, Any]) -> bool:
    """Whether a request body (or its options) names a cache: a non-empty resource name."""
    camel, snake = CACHE_FIELD
    name = fields.get(camel, fields.get(snake))
    return isinstance(name, str) and name != ""


def set_beside_cache(fields: Mapping[str, Any]) -> list[str]:
    """The keys of `fields` that a named cache rules out and that are set: present and not
    null, and for `tools` not empty (a repeated field is unset when empty, by proto3's rules;
    an empty list beside a cache was not seen either way)."""
    return [key for pair in PROMPT_FIELDS for key in dict.fromkeys(pair)
            if key in fields and fields[key] is not None and fields[key] != []]
