"""`reasoning-effort-unsupported`: a reasoning effort sent to a model that does not reason
(the models the rule names). Chat: `reasoning_effort`; Responses: `reasoning.effort`;
Gemini: any `generationConfig.thinkingConfig`; Anthropic: thinking enabled or adaptive."""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from typing import Any

from normalizer.check import Finding
from normalizer.profiles import Rule
from normalizer.thinking_budget import gemini_config


def chat_effort(body: Mapping[str, Any], rule: Rule, model: str | None) -> Iterator[Finding]:
    """A `reasoning_effort`, whatever its value ("none" too: the field itself is refused)."""
    if isinstance(body, Mapping) and body.get("reasoning_effort") is not None:
        yield Finding("reasoning_effort", {"field": "reasoning_effort"})


def responses_effort(body: Mapping[str, Any], rule: Rule,
                     model: str | None) -> Iterator[Finding]:
    """A `reasoning.effort`."""
    reasoning = body.get("reasoning") if isinstance(body, Mapping) else None
    if isinstance(reasoning, Mapping) and reasoning.get("effort") is not None:
        yield Finding("reasoning.effort", {"field": "reasoning.effort"})


def gemini_thinking(body: Mapping[str, Any], rule: Rule,
                    model: str | None) -> Iterator[Finding]:
    """A thinkingConfig with any field (a budget, a level or includeThoughts alike)."""
    if isinstance(body, Mapping) and gemini_config(body):
        yield Finding("generationConfig.thinkingConfig",
                      {"field": "generationConfig.thinkingConfig"})


def anthropic_thinking(body: Mapping[str, Any], rule: Rule,
                       model: str | None) -> Iterator[Finding]:
    """Thinking switched on (enabled or adaptive); `model` is the one the vendor names."""
    thinking = body.get("thinking") if isinstance(body, Mapping) else None
    if isinstance(thinking, Mapping) and thinking.get("type") in ("enabled", "adaptive"):
        yield Finding("thinking", {"field": "thinking", "model": model or body.get("model")})
