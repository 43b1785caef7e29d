"""Ordering passes: results back next to their calls, and in the order of the calls."""

from __future__ import annotations

from bisect import bisect_right
from collections.abc import Sequence
from dataclasses import replace

from normalizer.model import Change, Message, Part, ToolCall, ToolResult
from normalizer.passes import Draft, Policy
from normalizer.passes._blocks import (
    Block,
    Slot,
    answers,
    describe_result,
    pairing,
    tools_end,
    with_parts,
)
from normalizer.profiles import Profile


def move_results_next_to_calls(
    draft: Draft, profile: Profile, policy: Policy
) -> tuple[Draft, tuple[Change, ...]]:
    """Fixes results separated from their call by other messages (a user message typed while
    the tool ran, an assistant remark, a retry): the result is moved back into the answer
    block right after its call turn, and the wedged messages now follow it. A result with an
    id is found anywhere later; an id-less one (Gemini) only before the next call turn, by
    tool name.

    Rejected by: OpenAI "An assistant message with 'tool_calls' must be followed by tool
    messages responding to each 'tool_call_id'. …" (and the orphan text for the result);
    Anthropic "`tool_use` ids were found without `tool_result` blocks immediately after" —
    see the profiles' texts.

    Before: [assistant(call_1), user "still there?", tool(result call_1)]
    After:  [assistant(call_1), tool(result call_1), user "still there?"]
    Lossless: nothing is removed, the user message keeps its words and its order relative to
    every other non-result message (seed 003's fix deleted it instead).
    """
    messages = draft.history.messages
    moves = _plan_moves(messages)
    if not moves:
        return draft, ()
    return _apply_moves(draft, moves)


def _plan_moves(messages: Sequence[Message]) -> dict[Slot, int]:
    """Slot of a misplaced result -> index of the call turn it answers."""
    index = pairing(messages)
    found = index.blocks
    # the matches hold every result slot of every block, in order: the loose ones are those
    # matched to no call
    loose = index.orphans()
    if not loose:
        return {}
    turns = [at for at, _ in found if at is not None]  # ascending
    # Loose results indexed by call id (id-less ones apart), so that pairing stays linear.
    by_id: dict[str, list[Slot]] = {}
    idless: list[Slot] = []
    for slot in loose:
        cid = _result(messages, slot).call_id
        (by_id.setdefault(cid, []) if cid is not None else idless).append(slot)
    moves: dict[Slot, int] = {}
    for (call_at, tools), matched in zip(found, index.matches, strict=True):
        if call_at is None or matched is None:  # a settled block answers every call
            continue
        answered = set(answers(matched))
        end = tools[-1] if tools else call_at
        # an id-less result is only claimed before the next call turn: past it, it could as
        # well answer a later call of the same name
        later = bisect_right(turns, call_at)
        stop = turns[later] if later < len(turns) else len(messages)
        for c, call in enumerate(messages[call_at].tool_calls):
            if c in answered:
                continue
            candidates = by_id.get(call.id, []) if call.id is not None else idless
            slot = next((s for s in candidates if s[0] > end and s not in moves
                         and _homes(_result(messages, s), call, s[0] < stop)), None)
            if slot is not None:
                moves[slot] = call_at
    return moves


def _homes(result: ToolResult, call: ToolCall, near: bool) -> bool:
    if call.id is not None:
        return result.call_id == call.id
    return near and result.call_id is None and result.name in (None, call.name)


def _result(messages: Sequence[Message], slot: Slot) -> ToolResult:
    part = messages[slot[0]].parts[slot[1]]
    assert isinstance(part, ToolResult)
    return part


def _apply_moves(draft: Draft, moves: dict[Slot, int]) -> tuple[Draft, tuple[Change, ...]]:
    messages = draft.history.messages
    arriving: dict[int, list[ToolResult]] = {}
    changes: list[Change] = []
    for slot, home in sorted(moves.items()):
        result = _result(messages, slot)
        arriving.setdefault(home, []).append(result)
        changes.append(Change("move_results_next_to_calls", "move-tool-result",
                              f"moved the {describe_result(result)} back right after its call "
                              f"in messages[{home}]; the messages between now follow it",
                              f"messages[{slot[0]}].parts[{slot[1]}]", lossless=True))
    answer_end: dict[int, list[int]] = {}
    for home in arriving:
        answer_end.setdefault(_block_end(messages, home), []).append(home)
    out: list[Message] = []
    leaving = {m for m, _ in moves}
    for m, message in enumerate(messages):
        if m not in leaving:  # most messages: kept as they are, nothing arrives after them
            out.append(message)
        else:
            parts = [p for i, p in enumerate(message.parts) if (m, i) not in moves]
            if len(parts) != len(message.parts):
                if parts:
                    out.append(with_parts(message, parts))
            else:
                out.append(message)
        if m in answer_end:
            out.extend(_arrivals(m, messages, arriving, answer_end, out))
    history = replace(draft.history, messages=tuple(out))
    return replace(draft, history=history), tuple(changes)


def _block_end(messages: Sequence[Message], home: int) -> int:
    """The last message of the call turn at `home`'s answer block (`home` when empty)."""
    return tools_end(messages, home + 1) - 1


def _arrivals(m: int, messages: Sequence[Message], arriving: dict[int, list[ToolResult]],
              answer_end: dict[int, list[int]], out: list[Message]) -> list[Message]:
    """After the last message of a call turn's answer block, the results coming home: added
    to that block's last tool message, or as a new tool message when it has none."""
    homes = answer_end.get(m, [])
    if not homes:
        return []
    results = tuple(r for h in homes for r in arriving[h])
    if messages[m].role == "tool" and out and out[-1].role == "tool":
        out[-1] = replace(out[-1], parts=out[-1].parts + results)
        return []
    return [Message("tool", results)]


def order_results_like_calls(
    draft: Draft, profile: Profile, policy: Policy
) -> tuple[Draft, tuple[Change, ...]]:
    """Fixes results of parallel calls given in another order than the calls: the results of
    an answer block are put in call order, in the same places (message boundaries and text
    parts stay where they were).

    Rejected by: providers whose profile enforces `tool-results-out-of-order` (the text is in
    the profile); no built-in profile lists the rule today.

    Before: [assistant(call_1, call_2), tool(result call_2), tool(result call_1)]
    After:  [assistant(call_1, call_2), tool(result call_1), tool(result call_2)]
    Lossless.
    """
    index = pairing(draft.history.messages)
    messages = list(draft.history.messages)
    changes: list[Change] = []
    for k, (block, matched) in enumerate(zip(index.blocks, index.matches, strict=True)):
        if block[0] is not None and matched is not None:  # a settled block is in order
            changes.extend(_sort_block(messages, block, index.hits(k)))
    if not changes:
        return draft, ()
    return replace(draft, history=replace(draft.history, messages=tuple(messages))), tuple(changes)


def _sort_block(messages: list[Message], block: Block,
                hits: dict[Slot, int | None]) -> list[Change]:
    slots = list(hits)
    call_at, tools = block
    unmatched = len(messages[call_at or 0].tool_calls)
    # stable: results answering the same call (or none) keep their order
    wanted = sorted(slots, key=lambda s: hits[s] if hits[s] is not None else unmatched)
    if wanted == slots:
        return []
    results = {s: _result(messages, s) for s in slots}
    placed: dict[int, list[Part]] = {m: list(messages[m].parts) for m in tools}
    changes: list[Change] = []
    for target, source in zip(slots, wanted, strict=True):
        placed[target[0]][target[1]] = results[source]
        if target != source:
            changes.append(Change("order_results_like_calls", "reorder-tool-results",
                                  f"moved the {describe_result(results[source])} into call "
                                  "order", f"messages[{source[0]}].parts[{source[1]}]",
                                  lossless=True))
    for m, parts in placed.items():
        messages[m] = replace(messages[m], parts=tuple(parts))
    return changes

