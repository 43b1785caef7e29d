"""Reasoning effort levels a model does not take, and the nearest one it does.

OpenAI's models each take some of the levels: gpt-5.1 takes none, low, medium and high
("Unsupported value: 'minimal' is not supported with the 'gpt-5.1' model. Supported values
are: 'none', 'low', 'medium', and 'high'.", openai/openai-agents-python#2089), gpt-5.2-chat
medium only (egoist/chatwise-releases#1257). A level crossed from another vendor (Claude's
max as xhigh, Gemini 3's minimal) or kept in an app's one setting meets them.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final

# From least to most reasoning (OpenAI's levels).
ORDER: Final = ("none", "minimal", "low", "medium", "high", "xhigh")


def refused_level(value: object, supported: Sequence[str]) -> str | None:
    """`value` when it is a level string that `supported` does not hold, else None."""
    return value if isinstance(value, str) and supported and value not in supported else None


def nearest_level(value: str, supported: Sequence[str]) -> str:
    """The supported level nearest `value` in ORDER; of two as near, the one with more
    reasoning (the caller asked for some). A level ORDER does not know: the middle one."""
    known = [s for s in supported if s in ORDER]
    if not known:
        return supported[0]
    at = ORDER.index(value) if value in ORDER else ORDER.index("medium")
    return min(known, key=lambda s: (abs(ORDER.index(s) - at), -ORDER.index(s)))


def listed(levels: Sequence[str]) -> str:
    """Levels as OpenAI lists them: "'none', 'low', 'medium', and 'high'"."""
    quoted = [f"'{level}'" for level in levels]
    if len(quoted) < 3:
        return " and ".join(quoted)
    return ", ".join(quoted[:-1]) + ", and " + quoted[-1]
