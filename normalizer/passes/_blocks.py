"""Turn-block queries shared by the pairing and ordering passes.

A *call turn* is an assistant message holding tool calls; its *answer block* is the run of
tool messages right after it. Results pair with calls of the call turn right before their
block: by id, or (for Gemini calls without ids) by tool name in order.
"""

from __future__ import annotations

import threading
from collections.abc import Sequence
from dataclasses import dataclass, replace
from typing import NamedTuple

from normalizer.model import Message, Part, ToolCall, ToolResult

Slot = tuple[int, int]  # (message index, part index)


class Block(NamedTuple):
    """A call turn (`call_at`, None for tool messages with no call turn before them) and the
    indexes of the tool messages answering it; a named tuple, since a long history has
    thousands, built each time the pairing is indexed."""

    call_at: int | None
    tools: range


def blocks(messages: Sequence[Message]) -> tuple[Block, ...]:
    """Every run of tool messages, and every call turn (with its run, possibly empty). The
    plain form of what `pairing` builds (the passes use that); tests compare the two."""
    found: list[Block] = []
    roles = [m.role for m in messages]  # read once: this walk runs in every pairing pass
    n = len(roles)
    i = 0
    while i < n:
        is_call = roles[i] == "assistant" and any(
            isinstance(p, ToolCall) for p in messages[i].parts)
        start = i + 1 if is_call else i
        end = start
        while end < n and roles[end] == "tool":
            end += 1
        if is_call or end > start:
            found.append(Block(i if is_call else None, range(start, end)))
        i = max(end, i + 1)
    return tuple(found)


def match(calls: Sequence[ToolCall], results: Sequence[ToolResult]) -> tuple[int | None, ...]:
    """For each result, the index of the call it answers (each call answered at most once):
    the first free call with its id, or for a result without id the first free id-less call
    of the same name."""
    # Each call's id, or _TAKEN once answered: the first free call with an id is then one
    # `list.index`, and a free id-less call is one whose entry is still None.
    ids: list[object] = [c.id for c in calls]
    out: list[int | None] = []
    for result in results:
        hit: int | None = None
        if result.call_id is not None:
            if result.call_id in ids:
                hit = ids.index(result.call_id)
        else:
            hit = next((c for c, cid in enumerate(ids)
                        if cid is None and result.name in (None, calls[c].name)), None)
        if hit is not None:
            ids[hit] = _TAKEN
        out.append(hit)
    return tuple(out)


_TAKEN = object()


def block_matches(messages: Sequence[Message], block: Block) -> dict[Slot, int | None]:
    """Slot of each result in the block -> index of the call it answers (None: orphan)."""
    slots: list[Slot] = []
    results: list[ToolResult] = []
    for m in block.tools:  # result_slots and the parts in one walk
        for p, part in enumerate(messages[m].parts):
            if isinstance(part, ToolResult):
                slots.append((m, p))
                results.append(part)
    calls = messages[block.call_at].tool_calls if block.call_at is not None else ()
    return dict(zip(slots, match(calls, results), strict=True))


@dataclass(frozen=True, slots=True)
class Pairing:
    """Every block of a message tuple and, per block, its result slots -> matched call: what
    the pairing and ordering passes all start from. Built once per tuple (`pairing`), so that
    passes that find nothing to do, and the confirming round, share one walk."""

    messages: tuple[Message, ...]
    blocks: tuple[Block, ...]
    # Per block, its matches (read-only: shared between passes), or None for a *settled*
    # block: one tool message holding only results, which answer the calls one each, in
    # order, by id (most blocks of a long history; `hits` spells its matches out).
    matches: tuple[dict[Slot, int | None] | None, ...]

    def hits(self, k: int) -> dict[Slot, int | None]:
        """Block `k`'s result slots -> the call each answers (None: an orphan)."""
        found = self.matches[k]
        if found is not None:
            return found
        block = self.blocks[k]
        return {(block.tools[0], p): p for p in range(len(self.messages[block.tools[0]].parts))}

    def orphans(self) -> list[Slot]:
        return [slot for hits in self.matches if hits is not None
                for slot, hit in hits.items() if hit is None]


# The last tuple's pairing, per thread: passes hand each other the same tuple object while
# they change nothing, and a tuple never changes, so identity is a safe key.
_LAST = threading.local()


def pairing(messages: tuple[Message, ...]) -> Pairing:
    """The blocks and matches of `messages` (a tuple: lists are not remembered); the same
    as `blocks` and `block_matches` of each, in one walk."""
    last: Pairing | None = getattr(_LAST, "pairing", None)
    if last is not None and last.messages is messages:
        return last
    found: list[Block] = []
    matches: list[dict[Slot, int | None] | None] = []
    n = len(messages)
    i = 0
    while i < n:
        message = messages[i]
        calls = message.tool_calls if message.role == "assistant" else ()
        start = i + 1 if calls else i
        end = start
        while end < n and messages[end].role == "tool":
            end += 1
        if calls or end > start:
            found.append(Block(i if calls else None, range(start, end)))
            matches.append(_block_hits(messages, start, end, calls))
        i = max(end, i + 1)
    made = Pairing(messages, tuple(found), tuple(matches))
    _LAST.pairing = made
    return made


def _block_hits(messages: Sequence[Message], start: int, end: int,
                calls: Sequence[ToolCall]) -> dict[Slot, int | None] | None:
    if end == start + 1 and calls:  # one tool message: settled when its results answer
        found = messages[start].tool_results  # the calls in order, one each, by id (so
        ids = [c.id for c in calls]  # match would give result p -> call p)
        if len(found) == len(messages[start].parts) and None not in ids \
                and [r.call_id for r in found] == ids:
            return None
    slots: list[Slot] = []
    results: list[ToolResult] = []
    for m in range(start, end):
        message = messages[m]
        found = message.tool_results
        if len(found) == len(message.parts):  # the common case: results only
            slots.extend([(m, p) for p in range(len(found))])
            results.extend(found)
            continue
        for p, part in enumerate(message.parts):
            if isinstance(part, ToolResult):
                slots.append((m, p))
                results.append(part)
    if not results:
        return {}
    return dict(zip(slots, match(calls, results), strict=True))


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
