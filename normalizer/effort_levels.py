"""Reasoning effort levels a model does not take, and the nearest one it does.

OpenAI's models each take some of the levels: gpt-5.1 takes none, low, medium and high
("Unsupported value: 'minimal' is not supported with the 'gpt-5.1' model. Supported values
are: 'none', 'low', 'medium', and 'high'.", openai/openai-agents-python#2089), gpt-5.2-chat
medium only (egoist/chatwise-releases#1257). Gemini 3's thinkingLevel is the same kind of
setting: Gemini 3 Pro takes low and high ("Thinking level MEDIUM is not supported for this
model. Please retry with other thinking level.", egoist/chatwise-releases#1206), and so is
Claude's output_config.effort: Sonnet 4.6 and Opus 4.6 take low, medium, high and max, not
xhigh ("This model does not support effort level 'xhigh'. Supported levels: high, low,
max, medium.", diegosouzapw/OmniRoute#7276). A level crossed from another vendor (Claude's
max as xhigh, Gemini 3's minimal) or kept in an app's one setting meets them.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, Final

from normalizer.json_values import set_at, value_at
from normalizer.options import OPTION_PATHS
from normalizer.thinking_budget import LEVEL, config_field, gemini_config, with_thinking_config

# From least to most reasoning (OpenAI's levels, then Anthropic's max).
ORDER: Final = ("none", "minimal", "low", "medium", "high", "xhigh", "max")


def refused_level(value: object, supported: Sequence[str]) -> str | None:
    """`value` when it is a level string that `supported` does not hold (in any case:
    Gemini's enum is upper case in the proto spelling), else None."""
    return value if isinstance(value, str) and supported \
        and value.lower() not in supported else None


def nearest_level(value: str, supported: Sequence[str]) -> str:
    """The supported level nearest `value` in ORDER; of two as near, the one with more
    reasoning (the caller asked for some). A level ORDER does not know: the middle one."""
    known = [s for s in supported if s in ORDER]
    if not known:
        return supported[0]
    value = value.lower()
    at = ORDER.index(value) if value in ORDER else ORDER.index("medium")
    return min(known, key=lambda s: (abs(ORDER.index(s) - at), -ORDER.index(s)))


def listed(levels: Sequence[str]) -> str:
    """Levels as OpenAI lists them: "'none', 'low', 'medium', and 'high'"."""
    quoted = [f"'{level}'" for level in levels]
    if len(quoted) < 3:
        return " and ".join(quoted)
    return ", ".join(quoted[:-1]) + ", and " + quoted[-1]


def effort_level(request: Mapping[str, Any], protocol: str) -> tuple[str, str] | None:
    """(where, level) of the effort level a request in `protocol` sends: Chat
    `reasoning_effort`, Responses `reasoning.effort`, Gemini's thinkingLevel (either
    spelling, as sent: google-genai writes it upper case), Anthropic's
    `output_config.effort`; None where it sends none."""
    if protocol == "openai_chat":
        found: Any = request.get("reasoning_effort")
        where = "reasoning_effort"
    elif protocol == "openai_responses":
        found, where = value_at(request, ("reasoning", "effort")), "reasoning.effort"
    elif protocol == "anthropic":
        found, where = value_at(request, ("output_config", "effort")), "output_config.effort"
    elif protocol == "gemini":
        field = config_field(gemini_config(request), LEVEL)
        if field is None:
            return None
        where, found = f"generationConfig.thinkingConfig.{field[0]}", field[1]
    else:
        return None
    return (where, found) if isinstance(found, str) else None


def null_effort(request: Mapping[str, Any], protocol: str) -> str | None:
    """Where a Chat request sends `reasoning_effort: null` (gpt-5.1 refused it: "Unsupported
    value: 'reasoning_effort' does not support null with this model. ...",
    livekit/agents#3966); None where the field is absent or holds a value. Other
    protocols' null efforts were not seen refused."""
    if protocol == "openai_chat" and "reasoning_effort" in request \
            and request["reasoning_effort"] is None:
        return "reasoning_effort"
    return None


def with_effort_level(request: Mapping[str, Any], where: str, level: str) -> dict[str, Any]:
    """`request` with `level` at `where` (a place effort_level named)."""
    if where == "reasoning_effort":
        return {**request, "reasoning_effort": level}
    if where in ("reasoning.effort", "output_config.effort"):
        outer = where.split(".", 1)[0]
        return {**request, outer: {**request[outer], "effort": level}}
    name = where.rsplit(".", 1)[1]
    return with_thinking_config(request, {**gemini_config(request), name: level})


def off_at_level(request: Mapping[str, Any], levels: Sequence[str]) -> tuple[str, str] | None:
    """(where, level) when an Anthropic request switches thinking off (`thinking.type`
    disabled) at an effort level of `levels`, at which the model cannot stop thinking
    (Claude Opus 5: "output_config.effort 'xhigh' is not supported when thinking is
    disabled on this model. Use effort 'high' or below, or enable thinking.",
    anthropics/claude-code#81084); else None."""
    if value_at(request, ("thinking", "type")) != "disabled":
        return None
    found = effort_level(request, "anthropic")
    return found if found is not None and found[1].lower() in levels else None


def effort_beside_tools(request: Mapping[str, Any], default: object) -> str | None:
    """The reasoning effort a Chat request runs at, when it is not "none": the
    `reasoning_effort` sent, else the model's own (`default`, params.default of
    reasoning-effort-with-tools); None where it runs at "none". GPT-5.4 on Chat Completions
    takes function tools only without reasoning ("Function tools with reasoning_effort are
    not supported for gpt-5.4 in /v1/chat/completions. Please use /v1/responses instead.",
    pipecat-ai/pipecat#4043), and GPT-5.6 reasons at medium unless told none
    (laurent22/joplin#16451)."""
    sent = request.get("reasoning_effort")
    effort = sent if isinstance(sent, str) else default
    return effort if isinstance(effort, str) and effort.lower() != "none" else None


def verbosity_level(request: Mapping[str, Any], protocol: str) -> tuple[str, str] | None:
    """(where, level) of the verbosity a request in `protocol` sends (Chat `verbosity`,
    Responses `text.verbosity`: OPTION_PATHS); None where it sends none. GPT-5 takes low,
    medium and high, the models before it medium only ("Unsupported value: 'verbosity' does
    not support 'low' with this model. Supported values are: 'medium'.", gpt-4o,
    google-deepmind/concordia#164)."""
    path = OPTION_PATHS["verbosity"].get(protocol)
    found = value_at(request, path) if path else None
    return (".".join(path), found) if path and isinstance(found, str) else None


def with_verbosity_level(request: Mapping[str, Any], where: str, level: str) -> dict[str, Any]:
    """`request` (a plain dict, thawed) with `level` at `where` (a place verbosity_level
    named)."""
    out = dict(request)
    outer, *inner = where.split(".")
    if inner:
        out[outer] = dict(out[outer])
    set_at(out, (outer, *inner), level)
    return out
