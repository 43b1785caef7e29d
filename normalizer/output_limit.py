"""The output limit of a request: the field a model takes it in, and the most it takes.

OpenAI's reasoning models (the o-series, GPT-5 and later) take the limit in Chat
Completions' `max_completion_tokens` only, and refuse the older `max_tokens` that every
other OpenAI-compatible vendor reads: "Unsupported parameter: 'max_tokens' is not supported
with this model. Use 'max_completion_tokens' instead." (griptape-ai/ComfyUI-Griptape#312,
gpt-5). A conversion writes `max_tokens`, the field the whole wire shares, so a limit that
crossed from Anthropic or Gemini reaches such a model in the field it refuses.

Every model writes at most so many tokens, and most vendors refuse a limit above that
rather than cap it: "max_tokens: 200000 > 64000, which is the maximum allowed number of
output tokens for claude-sonnet-4-5-20250929" (BerriAI/litellm#15715). Apps keep one limit
for every model (Claude Code's 32,000, Sonnet's 64,000), so a vendor switch carries it to a
model that writes less (gpt-4o: 16,384).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, NamedTuple

from normalizer.json_values import value_at
from normalizer.options import ALIASES, OPTION_PATHS

Path = tuple[str, ...]


class OldField(NamedTuple):
    """The limit sent in a field the model refuses, and the field it takes instead."""

    field: str
    sent: Any
    use: str


class OutOfRange(NamedTuple):
    """A limit above the most the model writes, or below the least the endpoint takes."""

    path: Path  # where the request keeps it: ("max_tokens",), ("generationConfig", ...)
    sent: int
    bound: int  # the one crossed: the most, or the least


def old_field(request: Mapping[str, Any], params: Mapping[str, Any]) -> OldField | None:
    """The limit in params.field (not null), with params.use; None when the request does
    not send that field."""
    field, use = str(params["field"]), str(params["use"])
    sent = request.get(field)
    return None if sent is None else OldField(field, sent, use)


def limit_paths(protocol: str) -> tuple[Path, ...]:
    """Every field `protocol` takes the output limit in (Chat Completions has two)."""
    main = OPTION_PATHS["max_tokens"].get(protocol)
    alias = ALIASES.get(protocol, {}).get("max_tokens")
    return tuple(p for p in (main, alias) if p is not None)


def over_limit(request: Mapping[str, Any], protocol: str,
               params: Mapping[str, Any]) -> list[OutOfRange]:
    """Each limit field of the request above params.maximum, in limit_paths' order. A value
    that is not a whole number is another rule's business (or the SDK's)."""
    maximum = int(params["maximum"])
    return [OutOfRange(path, value, maximum) for path, value in _limits(request, protocol)
            if value > maximum]


def under_limit(request: Mapping[str, Any], protocol: str,
                params: Mapping[str, Any]) -> list[OutOfRange]:
    """Each limit field of the request below params.minimum (OpenAI's Responses API: 16)."""
    minimum = int(params["minimum"])
    return [OutOfRange(path, value, minimum) for path, value in _limits(request, protocol)
            if value < minimum]


def _limits(request: Mapping[str, Any], protocol: str) -> list[tuple[Path, int]]:
    """(path, value) of each limit field the request sends as a whole number."""
    values = ((path, value_at(request, path)) for path in limit_paths(protocol))
    return [(path, value) for path, value in values
            if isinstance(value, int) and not isinstance(value, bool)]
