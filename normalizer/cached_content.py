"""What a Gemini request that names a cache (`cachedContent`) may not set beside it, read
the same way by the detector and the repair: the cache carries its own system instruction,
tools and tool config, and Gemini refuses a request that sets them again."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

# (camelCase, snake_case): Google's JSON mapping reads both spellings of a field.
CACHE_FIELD = ("cachedContent", "cached_content")
PROMPT_FIELDS = (("systemInstruction", "system_instruction"), ("tools", "tools"),
                 ("toolConfig", "tool_config"))


def _get(obj: Mapping[str, Any], spellings: tuple[str, str]) -> Any:
    return obj.get(spellings[0], obj.get(spellings[1]))


def names_cache(fields: Mapping[str, Any]) -> bool:
    """Whether a request body (or its options) names a cache: a non-empty resource name."""
    name = _get(fields, CACHE_FIELD)
    return isinstance(name, str) and name != ""


def set_beside_cache(fields: Mapping[str, Any]) -> list[str]:
    """The keys of `fields` that a named cache rules out and that are set: present and not
    null, and for `tools` not empty (a repeated field is unset when empty, by proto3's rules;
    an empty list beside a cache was not seen either way)."""
    return [key for spellings in PROMPT_FIELDS for key in dict.fromkeys(spellings)
            if key in fields and fields[key] is not None and fields[key] != []]
