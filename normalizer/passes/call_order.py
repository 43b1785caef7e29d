"""An assistant turn's text sent ahead of its calls, for a vendor that ends a call turn at the
first message item (DeepSeek's Responses endpoint)."""

from __future__ import annotations

from dataclasses import replace

from normalizer.model import Change, Message, Opaque, Part, ToolCall
from normalizer.passes import Draft, Policy
from normalizer.profiles import Profile

NAME = "move_text_before_calls"


def move_text_before_calls(
    draft: Draft, profile: Profile, policy: Policy
) -> tuple[Draft, tuple[Change, ...]]:
    """Fixes an assistant turn whose text (or reasoning, or media) comes after one of its
    tool calls, where the target reads the turn's items as chat messages (rule
    missing-tool-result with params.adjacent): on the Responses wire that text is a message
    item between a function_call and its output, and the vendor reports the call
    unanswered although its output follows. The turn's other parts move ahead of its first
    call, in their order; the calls keep theirs; hosted-tool items stay where they are.

    Rejected by: DeepSeek "No tool output found for tool call call-a." (recorded,
    pydantic/pydantic-ai's cassette, 2026-08; deepseek-ai/DeepSeek-V3#1588).

    Before: assistant [text "look at a", call a, text "look at b", call b]; tool [a, b]
    After:  assistant [text "look at a", text "look at b", call a, call b]; tool [a, b]
    Lossless: every part is sent, in another order (the recorded accept of this shape).
    """
    if not profile.param("missing-tool-result", "adjacent"):
        return draft, ()
    changes: list[Change] = []
    out: list[Message] = []
    for i, message in enumerate(draft.history.messages):
        moved = _content_first(message) if message.role == "assistant" else None
        if moved is None:
            out.append(message)
            continue
        out.append(moved[0])
        changes.append(Change(NAME, "move-text-before-calls",
                              f"moved {moved[1]} part(s) written after a tool call ahead of "
                              "the turn's first call, so no message comes between a call "
                              "and its output", f"messages[{i}]", lossless=True))
    if not changes:
        return draft, ()
    return replace(draft, history=replace(draft.history, messages=tuple(out))), tuple(changes)


def _content_first(message: Message) -> tuple[Message, int] | None:
    """The message with its non-call parts ahead of its first call, and how many moved;
    None when none comes after a call."""
    first = next((k for k, p in enumerate(message.parts) if isinstance(p, ToolCall)), None)
    if first is None:
        return None
    late = [p for p in message.parts[first:] if _moves(p)]
    if not late:
        return None
    head: list[Part] = list(message.parts[:first]) + late
    rest = [p for p in message.parts[first:] if not _moves(p)]
    return message.with_parts((*head, *rest)), len(late)


def _moves(part: Part) -> bool:
    """Parts sent as (or inside) message items, and reasoning beside them; not calls, and
    not hosted-tool items, which are items of their own kind in their own place."""
    if isinstance(part, ToolCall):
        return False
    return not (isinstance(part, Opaque) and part.hosted)
