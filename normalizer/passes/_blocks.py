"""Turn-block queries shared by the pairing and ordering passes.

A *call turn* is an assistant message holding tool calls; its *answer block* is the run of
tool messages right after it. Results pair with calls of the call turn right before their
block: by id, or (for Gemini calls without ids) by tool name in order.
"""

from __future__ import annotations

import threading
from bisect import bisect_left
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass, replace
from itertools import chain, repeat
from typing import cast

from normalizer.model import Message, Opaque, Part, ToolCall, ToolResult
from normalizer.passes._stretches import stretches, stretches_by_map

Slot = tuple[int, int]  # (message index, part index)
# A block's results as flat (message, part, call) triples, in order: the message counted
# from the block's first tool message, the call the result answers (None: an orphan). One
# flat tuple of ints: the collector stops tracking it at its first look, where a dict keyed
# by fresh slot tuples (or a tuple of tuples, untracked one level per collection) is
# promoted into the oldest generation; relative messages let a shifted block keep it.
Matched = tuple[int | None, ...]


# A call turn's index (None for tool messages with no call turn before them) and the
# indexes of the tool messages answering it. A plain tuple, not a named one: a long history
# has thousands, built each time the pairing is indexed, and the collector stops tracking a
# plain tuple of untracked values (ints, ranges) at its first look, while a named tuple
# stays tracked and is promoted with the index into the oldest generation, whose growth
# sets off the full collections that made 100k-message histories super-linear.
Block = tuple[int | None, range]


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
            found.append((i if is_call else None, range(start, end)))
        i = max(end, i + 1)
    return tuple(found)


def match(calls: Sequence[ToolCall], results: Sequence[ToolResult]) -> tuple[int | None, ...]:
    """For each result, the index of the call it answers (each call answered at most once):
    the first free call with its id, or for a result without id the first free id-less call
    of the same name."""
    if len(calls) > _FEW_CALLS:
        return _match_many(calls, results)
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
# Above this many calls in a turn, `match` looks calls up by id and by name instead of
# scanning the turn's calls for each result, which grows with the square of the turn.
_FEW_CALLS = 16


def _match_many(calls: Sequence[ToolCall], results: Sequence[ToolResult]
                ) -> tuple[int | None, ...]:
    """`match`, with each call found in a map: for every id its free calls (the first at the
    end of its list), and the id-less calls through a `picker` by name."""
    by_id: dict[str, list[int]] = {}
    idless: list[int] = []
    for c, call in enumerate(calls):
        if call.id is not None:
            by_id.setdefault(call.id, []).append(c)
        else:
            idless.append(c)
    for free in by_id.values():
        free.reverse()
    take = picker([calls[c].name for c in idless])
    out: list[int | None] = []
    for result in results:
        hit: int | None = None
        if result.call_id is not None:
            free = by_id.get(result.call_id)
            if free:
                hit = free.pop()
        else:
            k = take(result.name)
            hit = None if k is None else idless[k]
        out.append(hit)
    return tuple(out)


def picker(names: Sequence[str]) -> Callable[[str | None], int | None]:
    """Takes from items named `names`, in order: each call takes the first item not taken
    yet that has the name asked (any name, for None) and returns its index, or None. Each
    name's items are read from a cursor that passes over those taken since, so that k takes
    cost about k steps together, where scanning the items for each costs k squared."""
    by_name: dict[str, list[int]] = {}
    for k, name in enumerate(names):
        by_name.setdefault(name, []).append(k)
    everyone = range(len(names))
    taken: set[int] = set()
    cursors: dict[str | None, int] = {}  # name (None: any) -> where its items are read from

    def take(name: str | None) -> int | None:
        pending: Sequence[int] = everyone if name is None else by_name.get(name, ())
        at = cursors.get(name, 0)
        while at < len(pending) and pending[at] in taken:
            at += 1
        found = pending[at] if at < len(pending) else None
        if found is not None:
            taken.add(found)
            at += 1
        cursors[name] = at
        return found

    return take


def wire_call(part: Part) -> bool:
    """Whether `part` goes in a Chat message's `tool_calls` list: a function call, or a call
    kept verbatim (a custom tool call)."""
    return isinstance(part, ToolCall) or (isinstance(part, Opaque) and part.slot == "call")


def tools_end(messages: Sequence[Message], start: int) -> int:
    """The end of the run of tool messages from `start`: a call turn's answer block is
    messages[turn + 1:tools_end(messages, turn + 1)]."""
    end = start
    while end < len(messages) and messages[end].role == "tool":
        end += 1
    return end


def block_matches(messages: Sequence[Message], block: Block) -> dict[Slot, int | None]:
    """Slot of each result in the block -> index of the call it answers (None: orphan)."""
    slots: list[Slot] = []
    results: list[ToolResult] = []
    call_at, tools = block
    for m in tools:  # result_slots and the parts in one walk
        for p, part in enumerate(messages[m].parts):
            if isinstance(part, ToolResult):
                slots.append((m, p))
                results.append(part)
    calls = messages[call_at].tool_calls if call_at is not None else ()
    return dict(zip(slots, match(calls, results), strict=True))


@dataclass(frozen=True, slots=True)
class Pairing:
    """Every block of a message tuple and, per block, its result slots -> matched call: what
    the pairing and ordering passes all start from. Built once per tuple (`pairing`), so that
    passes that find nothing to do, and the confirming round, share one walk."""

    messages: tuple[Message, ...]
    blocks: tuple[Block, ...]
    # Per block, its matches (shared between passes and with the next tuple's index), or
    # None for a *settled* block: one tool message holding only results, which answer the
    # calls one each, in order, by id (most blocks of a long history; `hits` spells its
    # matches out).
    matches: tuple[Matched | None, ...]

    def hits(self, k: int) -> dict[Slot, int | None]:
        """Block `k`'s result slots -> the call each answers (None: an orphan)."""
        found = self.matches[k]
        first = self.blocks[k][1].start
        if found is None:
            return {(first, p): p for p in range(len(self.messages[first].parts))}
        return {(m + first, p): hit for m, p, hit in triples(found)}

    def orphans(self) -> list[Slot]:
        return [(m + tools.start, p)
                for (_, tools), found in zip(self.blocks, self.matches, strict=True)
                if found and None in found  # messages and parts are ints: None is a hit
                for m, p, hit in triples(found) if hit is None]


def triples(found: Matched) -> Iterator[tuple[int, int, int | None]]:
    """A block's (message counted from its first tool message, part, call) triples."""
    it = iter(found)
    return cast(Iterator[tuple[int, int, int | None]], zip(it, it, it, strict=True))


def answers(found: Matched) -> tuple[int | None, ...]:
    """The call each result of a block answers (None: an orphan), in order."""
    return found[2::3]


# The last tuple's pairing, per thread: passes hand each other the same tuple object while
# they change nothing, and a tuple never changes, so identity is a safe key.
_LAST = threading.local()


def forget_pairing() -> None:
    """Drop this thread's remembered index, so that it does not keep the last history (and
    every message of it) alive after `normalize` has returned."""
    _LAST.pairing = None
    _LAST.renamed = None


def same_pairing(pairs: Iterable[tuple[Message, Message]]) -> None:
    """Tell the index that each `new` message of `pairs` pairs as its `old` one did: the
    same role; for a call turn, the same calls in the same order; for a tool message, the
    same results at the same part indexes; in both, ids either kept or renamed by one map
    applied to every call and result of the history, one to one (no two ids get the same
    new id, no new id was in use). A block of such messages has the old block's extent and
    matches, so the next index takes them instead of walking it again: Mistral renames
    nearly every id of a history and splits the text off its call turns. Kept until the
    next index is built: a map from id(new) to the id of the message the index knows, and
    the messages themselves, held so that no other message can take one of those ids."""
    last: Pairing | None = getattr(_LAST, "pairing", None)
    if last is None:  # no index to take blocks from: nothing worth keeping
        return
    known: tuple[dict[int, int], list[tuple[Message, Message]]] | None = getattr(
        _LAST, "renamed", None)
    if known is None:
        known = _LAST.renamed = ({}, [])
    ids, held = known
    if len(held) > 4 * len(last.messages):  # passes called again and again with no index
        ids.clear()  # built in between (outside normalize): forget, rather than grow
        held.clear()
    for old, new in pairs:
        ids[id(new)] = ids.get(id(old), id(old))  # changed twice: the one the index knows
        held.append((old, new))


def pairing(messages: tuple[Message, ...]) -> Pairing:
    """The blocks and matches of `messages` (a tuple: lists are not remembered); the same
    as `blocks` and `block_matches` of each, in one walk. Blocks whose messages the last
    indexed tuple held in the same order are taken from its index (`_reused`)."""
    last: Pairing | None = getattr(_LAST, "pairing", None)
    if last is not None and last.messages is messages:
        return last
    found: list[Block] = []
    matches: list[Matched | None] = []
    at = 0
    if last is not None:
        for start, end, delta, k, stop in _reused(last, messages):
            if _walk(messages, at, start, found, matches) > start:  # cannot happen (see
                found, matches, at = [], [], 0  # `_reused`); a full walk is always right
                break
            _shifted(last, k, stop, delta, found, matches)
            at = end
    _walk(messages, at, len(messages), found, matches)
    made = Pairing(messages, tuple(found), tuple(matches))
    if type(messages) is tuple:  # a list could change under the index and its reuse
        _LAST.pairing = made
        _LAST.renamed = None  # relative to the index just replaced
    return made


def _walk(messages: Sequence[Message], i: int, stop: int, found: list[Block],
          matches: list[Matched | None]) -> int:
    """Index the blocks starting at `i` up to `stop`; where the walk ended (a block's tool
    run may reach past `stop`)."""
    n = len(messages)
    while i < stop:
        message = messages[i]
        calls = message.tool_calls if message.role == "assistant" else ()
        start = i + 1 if calls else i
        end = start
        while end < n and messages[end].role == "tool":
            end += 1
        if calls or end > start:
            found.append((i if calls else None, range(start, end)))
            matches.append(_block_hits(messages, start, end, calls))
        i = max(end, i + 1)
    return i


# Below this many messages a plain walk costs less than finding what can be reused.
_REUSE_FROM = 256


def _reused(last: Pairing, messages: tuple[Message, ...]
            ) -> list[tuple[int, int, int, int, int]]:
    """Runs of old blocks that `messages` holds unchanged: (new start, new end, shift, first
    old block, old block after the last), in order. A block is the same when its messages
    are the same objects in the same order and so are the messages either side of it: a
    call turn or a tool run after a message that is neither starts a block, a message that
    is no tool message ends it, and matches depend only on the block's messages."""
    old = last.messages
    if len(messages) < _REUSE_FROM or not last.blocks:
        return []
    keys = list(map(id, messages))
    known: tuple[dict[int, int], list[tuple[Message, Message]]] | None = getattr(
        _LAST, "renamed", None)
    if known is not None:  # such a message stands for its old one (`same_pairing`)
        keys = list(map(known[0].get, keys, keys))
    starts = [tools.start if at is None else at for at, tools in last.blocks]
    out: list[tuple[int, int, int, int, int]] = []
    n = len(messages)
    old_keys = list(map(id, old))
    runs = stretches(keys, old_keys)
    for i, i1, j0 in stretches_by_map(keys, old_keys) if runs is None else runs:
        closed = i1 == n or messages[i1].role != "tool"
        out.extend(_run_blocks(last, starts, i, i1, j0, closed))
    return out


def _run_blocks(last: Pairing, starts: list[int], i: int, i1: int, j0: int, closed: bool
                ) -> list[tuple[int, int, int, int, int]]:
    """The old blocks wholly inside the run messages[i:i1] is old[j0:j1] (see `_reused`).
    `closed`: no tool message follows the run in the new tuple, so an old block whose tool
    run ended where the run ends (the old tuple had no tool message there either) ends
    there again; else such a block could go on, and is walked again."""
    j1 = j0 + (i1 - i)
    k = bisect_left(starts, j0)
    blocks = last.blocks
    if k < len(starts) and starts[k] == j0 and blocks[k][0] is None:
        k += 1  # a tool run at the start of the run: what came before it changed
    first = k
    while k < len(starts) and (blocks[k][1].stop < j1
                               or (closed and blocks[k][1].stop == j1)):
        k += 1
    if k == first:
        return []
    delta = i - j0
    return [(starts[first] + delta, blocks[k - 1][1].stop + delta, delta, first, k)]


def _shifted(last: Pairing, k: int, stop: int, delta: int, found: list[Block],
             matches: list[Matched | None]) -> None:
    """Old blocks k..stop-1, moved by `delta` messages (their matches are relative)."""
    matches.extend(last.matches[k:stop])
    if delta == 0:
        found.extend(last.blocks[k:stop])
        return
    for at, tools in last.blocks[k:stop]:
        found.append((None if at is None else at + delta,
                      range(tools.start + delta, tools.stop + delta)))


def _block_hits(messages: Sequence[Message], start: int, end: int,
                calls: Sequence[ToolCall]) -> Matched | None:
    if end == start + 1 and calls:  # one tool message: settled when its results answer
        found = messages[start].tool_results  # the calls in order, one each, by id (so
        ids = [c.id for c in calls]  # match would give result p -> call p)
        if len(found) == len(messages[start].parts) and None not in ids \
                and [r.call_id for r in found] == ids:
            return None
    ms: list[int] = []  # message (from the block's first tool message) and part of each
    ps: list[int] = []  # result, in order
    results: list[ToolResult] = []
    for m in range(end - start):
        message = messages[start + m]
        found = message.tool_results
        if len(found) == len(message.parts):  # the common case: results only
            ms.extend(repeat(m, len(found)))
            ps.extend(range(len(found)))
            results.extend(found)
            continue
        for p, part in enumerate(message.parts):
            if isinstance(part, ToolResult):
                ms.append(m)
                ps.append(p)
                results.append(part)
    return tuple(chain.from_iterable(zip(ms, ps, match(calls, results), strict=True)))


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
