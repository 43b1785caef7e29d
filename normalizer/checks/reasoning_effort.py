"""`reasoning-effort-unsupported`: a reasoning effort or thinking setting sent to a model that
does not reason (the models the rule names): Chat `reasoning_effort`, Responses
`reasoning.effort`, Gemini's `generationConfig.thinkingConfig`, Anthropic thinking enabled or
adaptive (normalizer.thinking_options.thinking_field)."""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from typing import Any

from normalizer.check import Detector, Finding
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
