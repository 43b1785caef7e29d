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
    # With no model given the body goes out with the profile's (as `render` writes it), and
    # the vendor reads thinking off that one.
    model = policy.model or profile.default_model
    if not thinking_on_by_default(draft.options, rule.params, model):
        return draft, ()
    filler = _filler(placeholders[0], profile.protocol)
    messages = list(draft.history.messages)
    changes: list[Change] = []
    pairs: list[tuple[Message, Message]] = []  # (old, new): see `same_pairing`
    first = _first_of_turn(messages) if rule.params.get("current_turn") else 0
    for i, message in enumerate(messages[first:], start=first):
        if message.role != "assistant" or not _calls_without_reasoning(message.parts):
            continue
        messages[i] = message.with_parts((filler, *message.parts))
        pairs.append((message, messages[i]))
        changes.append(Change(
            _PASS, "fill-reasoning-content",
            f"assistant turn calling {_names(message.parts)} had no reasoning"
            f"{_from(message)}; sent with {_FIELD.get(profile.protocol, _FIELD['openai_chat'])}"
            f" {filler.text!r}, which the target takes for none while thinking is on",
            f"messages[{i}]", True))
    if not changes:
        return draft, ()
    # The filled turns hold the same calls in the same order: they pair as before.
    same_pairing(pairs)
    return replace(draft, history=History(tuple(messages), draft.history.extras)), tuple(changes)


# Where the filler goes on each wire: Chat's message field, a Responses reasoning item's
# reasoning_text content (DeepSeek reads that, not the summary).
_FIELD = {"openai_chat": "reasoning_content", "openai_responses": "a reasoning item's "
          "reasoning_text"}


def _filler(text: str, protocol: str) -> Thinking:
    """The thinking part that renders as `text` in the target's reasoning field."""
    if protocol == "openai_responses":
        return Thinking(text, extras={"summary": (), "content": (
            {"type": "reasoning_text", "text": text},)})
    return Thinking(text)


def _first_of_turn(messages: list[Message]) -> int:
    """The index after the last user message: the turn in progress (0 with none)."""
    return next((i + 1 for i in range(len(messages) - 1, -1, -1)
                 if messages[i].role == "user"), 0)


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
