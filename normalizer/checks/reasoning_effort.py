"""`reasoning-effort-unsupported`: a reasoning effort or thinking setting sent to a model that
does not reason (the models the rule names): Chat `reasoning_effort`, Responses
`reasoning.effort`, Gemini's `generationConfig.thinkingConfig`, Anthropic thinking enabled or
adaptive (normalizer.thinking_options.thinking_field).

`effort-unsupported`: Anthropic's output_config.effort, at any level, sent to a model that
takes no effort (it may still think, with a budget).

`reasoning-effort-value-unsupported`: an effort level the model does not take
(params.supported; normalizer/effort_levels.py): OpenAI's effort, Gemini 3's thinkingLevel,
Anthropic's output_config.effort.

`reasoning-effort-with-tools`: a Chat request with function tools that runs at a reasoning
effort other than none, sent or the model's own (params.default), where the model takes the
pair on the Responses API only.

`verbosity-value-unsupported`: a verbosity level the model does not take (params.supported:
the OpenAI models before GPT-5 take medium only).

`prompt-mode-unsupported`: Mistral's `prompt_mode: "reasoning"` (the Magistral models' switch)
sent to a model that takes reasoning_effort instead."""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping
from typing import Any

from normalizer.check import Detector, Finding
from normalizer.checks.openai_chat_walk import declared_tools
from normalizer.effort_levels import (
    effort_beside_tools,
    effort_level,
    listed,
    null_effort,
    refused_level,
    verbosity_level,
)
from normalizer.json_values import value_at
from normalizer.profiles import Rule
from normalizer.thinking_options import thinking_field


def _detector(protocol: str) -> Detector:
    def detect(body: Mapping[str, Any], rule: Rule, model: str | None) -> Iterator[Finding]:
        found = thinking_field(body, protocol) if isinstance(body, Mapping) else None
        if found is not None:
            # Anthropic names the model it refuses for ("'{model}' does not support thinking.")
            yield Finding(found[0], {"field": found[0], "model": model or body.get("model")})

    detect.__doc__ = f"A thinking setting in a {protocol} request."
    return detect


chat_effort = _detector("openai_chat")
responses_effort = _detector("openai_responses")
gemini_thinking = _detector("gemini")
anthropic_thinking = _detector("anthropic")


def anthropic_effort(body: Mapping[str, Any], rule: Rule, model: str | None
                     ) -> Iterator[Finding]:
    """An Anthropic output_config.effort, whatever its value (the model takes no effort)."""
    sent = value_at(body, ("output_config", "effort")) if isinstance(body, Mapping) else None
    if sent is not None:
        yield Finding("output_config.effort", {"value": sent, "model": model or body.get("model")})


def _level_detector(protocol: str, read: Callable[[Mapping[str, Any], str],
                                                  tuple[str, str] | None] = effort_level,
                    what: str = "reasoning effort") -> Detector:
    def detect(body: Mapping[str, Any], rule: Rule, model: str | None) -> Iterator[Finding]:
        found = read(body, protocol) if isinstance(body, Mapping) else None
        supported = tuple(rule.params.get("supported") or ())
        value = refused_level(found[1], supported) if found is not None else None
        where = null_effort(body, protocol) if found is None and isinstance(body, Mapping) \
            and rule.params.get("null_refused") else None
        if where is not None:
            found, value = (where, "null"), "null"
        if found is not None and value is not None:
            # Gemini names the level as its enum does ("Thinking level MEDIUM ..."),
            # Anthropic lists the levels in alphabetical order ("high, low, max, medium"),
            # OpenAI a null bare ("does not support null") and a level quoted.
            shown = "null" if where is not None else f"'{value}'"
            yield Finding(found[0], {"value": value, "shown": shown, "level": value.upper(),
                                     "supported": listed(supported),
                                     "levels": ", ".join(sorted(supported)),
                                     "model": model or body.get("model")})

    detect.__doc__ = f"A {protocol} {what} level not in params.supported."
    return detect


chat_effort_level = _level_detector("openai_chat")
responses_effort_level = _level_detector("openai_responses")
gemini_thinking_level = _level_detector("gemini")
anthropic_effort_level = _level_detector("anthropic")


def chat_prompt_mode(body: Mapping[str, Any], rule: Rule, model: str | None
                     ) -> Iterator[Finding]:
    """A Chat body's `prompt_mode: "reasoning"` (null or absent is the plain mode)."""
    if isinstance(body, Mapping) and body.get("prompt_mode") == "reasoning":
        yield Finding("prompt_mode", {"value": "reasoning", "model": model or body.get("model")})


def chat_effort_with_tools(body: Mapping[str, Any], rule: Rule, model: str | None
                           ) -> Iterator[Finding]:
    """A Chat body that declares a function tool and runs at an effort other than none."""
    if not isinstance(body, Mapping) or not any(
            t.get("type", "function") == "function" for _, t in declared_tools(body)):
        return
    effort = effort_beside_tools(body, rule.params.get("default"))
    if effort is not None:
        yield Finding("reasoning_effort", {"effort": effort, "model": model or body.get("model")})


chat_verbosity = _level_detector("openai_chat", verbosity_level, "verbosity")
responses_verbosity = _level_detector("openai_responses", verbosity_level, "verbosity")
