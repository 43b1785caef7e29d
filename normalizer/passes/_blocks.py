"""Turn-block queries shared by the pairing and ordering passes.

A *call turn* is an assistant message holding tool calls; its *answer block* is the run of
tool messages right after it. Results pair with calls of the call turn right before their
block: by id, or (for Gemini calls without ids) by tool name in order.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace

from normalizer.model import Message, Part, ToolCall, ToolResult

Slot = tuple[int, int]  # (message index, part index)


@dataclass(frozen=True, slots=True)
class Block:
    """A call turn (`call_at`, None for tool messages with no call turn before them) and the
    indexes of the tool messages answering it."""

    call_at: int | None
    tools: tuple[int, ...]


def blocks(messages: Sequence[Message]) -> tuple[Block, ...]:
    """Every run of tool messages, and every call turn (with its run, possibly empty)."""
    found: list[Block] = []
    i = 0
    while i < len(messages):
        is_call = messages[i].role == "assistant" and bool(messages[i].tool_calls)
        start = i + 1 if is_call else i
        end = start
        while end < len(messages) and messages[end].role == "tool":
            end += 1
        if is_call or end > start:
            found.append(Block(i if is_call else None, tuple(range(start, end))))
        i = max(end, i + 1)
    return tuple(found)


def result_slots(messages: Sequence[Message], indexes: Sequence[int]) -> tuple[Slot, ...]:
    return tuple((m, p) for m in indexes for p, part in enumerate(messages[m].parts)
                 if isinstance(part, ToolResult))


def match(calls: Sequence[ToolCall], results: Sequence[ToolResult]) -> tuple[int | None, ...]:
    """For each result, the index of the call it answers (each call answered at most once):
    the first free call with its id, or for a result without id the first free id-less call
    of the same name."""
    free = list(range(len(calls)))
    out: list[int | None] = []
    for result in results:
        hit = next((c for c in free if _answers(result, calls[c])), None)
        if hit is not None:
            free.remove(hit)
        out.append(hit)
    return tuple(out)


def _answers(result: ToolResult, call: ToolCall) -> bool:
    if result.call_id is not None:
        return call.id == result.call_id
    return call.id is None and result.name in (None, call.name)


def block_matches(messages: Sequence[Message], block: Block) -> dict[Slot, int | None]:
    """Slot of each result in the block -> index of the call it answers (None: orphan)."""
    slots = result_slots(messages, block.tools)
    calls = messages[block.call_at].tool_calls if block.call_at is not None else ()
    results = [messages[m].parts[p] for m, p in slots]
    return dict(zip(slots, match(calls, results), strict=True))  # type: ignore[arg-type]


def describe_result(result: ToolResult) -> str:
    name = f" of {result.name}" if result.name else ""
    return f"result{name} for call {result.call_id or '(no id)'}"


def with_parts(message: Message, parts: Sequence[Part]) -> Message:
    """The message with new parts; a tool message left without results becomes a user
    message (its remaining text is what the user side said)."""
    role = message.role
    if role == "tool" and not any(isinstance(p, ToolResult) for p in parts):
        role = "user"
    return replace(message, role=role, parts=tuple(parts))
