"""Reasoning a thinking-mode target demands back on every tool-call turn, for turns that
never had any.

DeepSeek's thinking mode (on by default for deepseek-v4* and deepseek-reasoner) refuses a
request whose assistant turns with tool calls lack `reasoning_content` ("The
`reasoning_content` in the thinking mode must be passed back to the API."): every such turn
of a history from another vendor, or one whose foreign reasoning was dropped. The reasoning
cannot be made up; what can be sent is a value the vendor takes for "none", and only a
profile that names one (the rule's `params.placeholders`, the first is used) gets the
repair: DeepSeek's and Moonshot's name a single space (their profiles say why not "").
A profile without it is left as it was.
"""

from __future__ import annotations

from dataclasses import replace

from normalizer.model import Change, History, Message, Opaque, Part, Thinking, ToolCall
from normalizer.options import thinking_on_by_default
from normalizer.passes import Draft, Policy
from normalizer.passes._blocks import same_pairing, wire_call
from normalizer.profiles import Profile

_RULE = "reasoning-content-required"
_PASS = "fill_reasoning_content"


def fill_reasoning_content(
    draft: Draft, profile: Profile, policy: Policy
) -> tuple[Draft, tuple[Change, ...]]:
    """Fixes assistant turns with tool calls and no reasoning while thinking is on (rule
    reasoning-content-required, thinking read as its check reads it: the request's
    `thinking.type`, else the rule's `default_on_model` against `policy.model`): each gets
    an empty reasoning part holding the profile's placeholder, which renders as the field.
    Lossless: nothing is removed, and the change says the turn had no reasoning.
    Before: assistant [ToolCall get_weather] (from OpenAI) for deepseek-v4-flash. After:
    assistant [Thinking(" "), ToolCall get_weather], sent with `reasoning_content: " "`."""
    rule = profile.rule(_RULE)
    if rule is None or not rule.enforced:
        return draft, ()
    placeholders = rule.params.get("placeholders") or ()
    if not placeholders or not isinstance(placeholders[0], str):
        return draft, ()
    if not thinking_on_by_default(draft.options, rule.params, policy.model):
        return draft, ()
    filler = placeholders[0]
    messages = list(draft.history.messages)
    changes: list[Change] = []
    pairs: list[tuple[Message, Message]] = []  # (old, new): see `same_pairing`
    for i, message in enumerate(messages):
        if message.role != "assistant" or not _calls_without_reasoning(message.parts):
            continue
        messages[i] = message.with_parts((Thinking(filler), *message.parts))
        pairs.append((message, messages[i]))
        changes.append(Change(
            _PASS, "fill-reasoning-content",
            f"assistant turn calling {_names(message.parts)} had no reasoning"
            f"{_from(message)}; sent with reasoning_content {filler!r}, which the target "
            "takes for none while thinking is on", f"messages[{i}]", True))
    if not changes:
        return draft, ()
    # The filled turns hold the same calls in the same order: they pair as before.
    same_pairing(pairs)
    return replace(draft, history=History(tuple(messages), draft.history.extras)), tuple(changes)


def _calls_without_reasoning(parts: tuple[Part, ...]) -> bool:
    """Whether `parts` hold a call that renders into `tool_calls` and no thinking, which
    renders as the reasoning field."""
    calls = False
    for part in parts:
        if isinstance(part, Thinking):
            return False
        calls = calls or wire_call(part)
    return calls


def _names(parts: tuple[Part, ...]) -> str:
    names: list[str] = []
    for part in parts:
        if isinstance(part, ToolCall):
            names.append(repr(part.name))
        elif isinstance(part, Opaque) and part.slot == "call":
            names.append(f"a {part.kind} call")
    return ", ".join(names)


def _from(message: Message) -> str:
    return f" (from {message.origin})" if message.origin else ""
