"""Content pass: content parts sent without a type."""

from __future__ import annotations

from normalizer.crossing import typed_part
from normalizer.model import Change, Message, Opaque, Part, ToolResult
from normalizer.passes import Draft, Policy
from normalizer.passes._content_walk import map_content_parts
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
    return map_content_parts(draft, Opaque, _typed)


def _typed(part: Opaque, where: str) -> tuple[Part, Change] | None:
    return typed_part(part, _NAME, where) if _untyped(part) else None


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
