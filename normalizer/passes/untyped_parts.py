"""Content pass: content parts sent without a type."""

from __future__ import annotations

from dataclasses import replace

from normalizer.crossing import typed_part
from normalizer.model import Change, Message, Opaque, Part, ToolResult
from normalizer.passes import Draft, Policy
from normalizer.profiles import Profile

RULE = "content-part-type-missing"
_NAME = "type_untyped_parts"


def type_untyped_parts(
    draft: Draft, profile: Profile, policy: Policy
) -> tuple[Draft, tuple[Change, ...]]:
    """Fixes content parts without a `type` (rule content-part-type-missing), in messages
    and in tool results' content: a bare {"text": ...} becomes a text part, its other fields
    kept (lossless); a whole message put where a part goes ({role, content}: crewAI sent its
    system and user messages inside a user message's content) gives its content's words,
    its role lost (lossy); anything else goes as JSON text (lossy). Parts from another
    protocol are typed the same way on the way across (normalizer/passes/crossing.py).

    Rejected by: OpenAI "Missing required parameter: 'messages[1].content[0].type'."
    (crewAIInc/crewAI's recorded test_custom_llm_within_crew cassette, 2025-03).

    Before: user [{role: system, content: "Say hi."}, {text: "Hello"}]
    After:  user [text "Say hi.", text "Hello"]
    """
    if not _any_untyped(draft.history.messages):  # nearly every history: one quick look
        return draft, ()
    messages = list(draft.history.messages)
    changes: list[Change] = []
    for m, message in enumerate(messages):
        typed = _typed_message(message, f"messages[{m}]", changes)
        if typed is not message:
            messages[m] = typed
    if not changes:
        return draft, ()
    return replace(draft, history=replace(draft.history, messages=tuple(messages))), \
        tuple(changes)


def _typed_message(message: Message, where: str, changes: list[Change]) -> Message:
    parts: list[Part] | None = None
    for j, part in enumerate(message.parts):
        new = _typed(part, f"{where}.parts[{j}]", changes)
        if new is not part:
            parts = parts if parts is not None else list(message.parts)
            parts[j] = new
    return message if parts is None else message.with_parts(tuple(parts))


def _typed(part: Part, where: str, changes: list[Change]) -> Part:
    if _untyped(part):
        text, change = typed_part(part, _NAME, where)  # type: ignore[arg-type]
        changes.append(change)
        return text
    if isinstance(part, ToolResult) and not isinstance(part.content, str) \
            and any(map(_untyped, part.content)):
        content = []
        for n, inner in enumerate(part.content):
            if _untyped(inner):
                inner, change = typed_part(inner, _NAME, f"{where}.content[{n}]")  # type: ignore[arg-type]
                changes.append(change)
            content.append(inner)
        return replace(part, content=tuple(content))
    return part


def _any_untyped(messages: tuple[Message, ...]) -> bool:
    """Whether any part (or a tool result's part) was sent without a type: exact types
    first, with no call per part (the pass runs for every provider, on every history)."""
    for message in messages:
        for part in message.parts:
            kind = type(part)
            if kind is Opaque:
                if part.kind == "":  # type: ignore[union-attr]
                    return True
            elif kind is ToolResult and type(part.content) is not str \
                    and any(map(_untyped, part.content)):  # type: ignore[union-attr]
                return True
    return False


def _untyped(part: object) -> bool:
    return isinstance(part, Opaque) and part.kind == "" and part.slot == "part"
