"""What every pass works on and returns (`Draft`), the repair choices (`Policy`) and the
pass signature (`Pass`)."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Literal

from normalizer.model import EMPTY, Change, History, JsonMap, ToolSpec
from normalizer.profiles import Profile


@dataclass(frozen=True, slots=True)
class Draft:
    """What a pass works on: the history, the tools declared with it, the request's other
    options (in the target protocol's shape), and the id and tool-name maps built so far
    (new -> original), and per tool the property names rewritten, so that responses can be
    mapped back."""

    history: History
    tools: tuple[ToolSpec, ...] = ()
    options: JsonMap = EMPTY
    id_map: JsonMap = EMPTY
    name_map: JsonMap = EMPTY
    # Per tool (its name as sent), the property names rewritten: new -> original.
    key_map: JsonMap = EMPTY


@dataclass(frozen=True, slots=True)
class Policy:
    """Choices where more than one repair is sound. Defaults favour least loss."""

    orphan_results: Literal["keep-as-text", "drop"] = "keep-as-text"
    unanswered_calls: Literal["synthesize", "drop"] = "synthesize"
    foreign_thinking: Literal["drop", "as-text"] = "drop"
    # Whether the request will have thinking on (e.g. Anthropic `thinking.type: enabled`).
    # None: read from the request's options (`normalizer.options.thinking_enabled`); "on" or
    # "off" overrides what the options say.
    thinking: Literal["off", "on"] | None = None
    # The model the request is for, where known: some rules hold for some models only
    # (Gemini 3 thought signatures). None: unknown, and such rules are assumed to hold.
    model: str | None = None
    interrupted_text: str = field(
        default="[tool call interrupted: no result was recorded for this call]"
    )


Pass = Callable[[Draft, Profile, Policy], tuple[Draft, tuple[Change, ...]]]
