"""Reading an Anthropic Messages body once for all its detectors (normalizer/shared_reading.py):
the messages that are objects, the content blocks by type, and the turns.

Anthropic documents that consecutive `user` or `assistant` turns are combined into one turn
(API reference, `messages`), so pairing is checked on *turns*: runs of consecutive messages
of one role (a message whose role is not a string is skipped, not a turn break). Indexes are
those of the messages as sent. Whatever cannot be read (a message that is not an object,
content that is not a list, a block without a string type) is skipped, never raised on.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from itertools import accumulate
from typing import Any

from normalizer.shared_reading import Rows, shared


@dataclass(frozen=True, slots=True)
class Turns:
    """The turns' roles, and the tool calls and tool results that carry a string id (tool_use
    `id`, tool_result `tool_use_id`) as rows (message index, block index, id) in body order:
    turn t's are rows `call_at[t]` to `call_at[t + 1]` (and `result_at` likewise)."""

    roles: tuple[str, ...]
    calls: Rows
    results: Rows
    call_at: tuple[int, ...]
    result_at: tuple[int, ...]

    def has_calls(self, turn: int) -> bool:
        """Whether the turn has a tool call with a string id (no slicing)."""
        return self.call_at[turn] < self.call_at[turn + 1]

    def has_results(self, turn: int) -> bool:
        """Whether the turn has a tool result with a string id (no slicing)."""
        return self.result_at[turn] < self.result_at[turn + 1]

    def calls_of(self, turn: int) -> Rows:
        """(message, block, id) of each tool call of the turn."""
        return self.calls.between(self.call_at[turn], self.call_at[turn + 1])

    def results_of(self, turn: int) -> Rows:
        """(message, block, id) of each tool result of the turn."""
        return self.results.between(self.result_at[turn], self.result_at[turn + 1])

    def call_ids(self, turn: int) -> tuple[str, ...]:
        """The ids of the turn's tool calls alone: the pairing detectors ask every turn,
        and need the rows only where one breaks a rule."""
        return self.calls.columns[2][self.call_at[turn]:self.call_at[turn + 1]]

    def result_ids(self, turn: int) -> tuple[str, ...]:
        """The tool_use_ids of the turn's tool results alone (see call_ids)."""
        return self.results.columns[2][self.result_at[turn]:self.result_at[turn + 1]]


@shared
def messages(body: Mapping[str, Any]) -> Rows:
    """Rows (index, message) for each element of `messages` that is an object."""
    raw = body.get("messages")
    if not isinstance(raw, list):
        return Rows((), ())
    if all(type(m) is dict for m in raw):  # the common case: every index, no copy per row
        return Rows(range(len(raw)), tuple(raw))
    kept = [i for i, m in enumerate(raw) if type(m) is dict or isinstance(m, Mapping)]
    return Rows(tuple(kept), tuple(raw[i] for i in kept))


@shared
def blocks_by_type(body: Mapping[str, Any]) -> Mapping[str, Rows]:
    """Rows (message index, block index, block) of every content block that is an object
    with a string `type`, grouped by type, each group in body order."""
    columns: dict[str, tuple[list[int], list[int], list[Mapping[str, Any]]]] = {}
    for i, message in messages(body):
        content = message.get("content")
        if not isinstance(content, list):
            continue
        for j, block in enumerate(content):
            if type(block) is dict or isinstance(block, Mapping):
                kind = block.get("type")
                if isinstance(kind, str):
                    if kind not in columns:
                        columns[kind] = ([], [], [])
                    at, position, blocks = columns[kind]
                    at.append(i)
                    position.append(j)
                    blocks.append(block)
    return {kind: Rows(*(tuple(c) for c in cols)) for kind, cols in columns.items()}


def result_parts(by_type: Mapping[str, Rows]
                 ) -> Iterator[tuple[int, int, int, Mapping[str, Any], str]]:
    """(message index, block index, part index, part, its type) for each object with a
    string `type` in a tool_result block's content list, in body order."""
    for i, j, block in by_type.get("tool_result", ()):
        inner = block.get("content")
        for k, part in enumerate(inner if isinstance(inner, list) else ()):
            kind = part.get("type") if isinstance(part, Mapping) else None
            if isinstance(kind, str):
                yield i, j, k, part, kind


def typed(body: Mapping[str, Any], kind: str) -> Rows:
    """Rows (message index, block index, block) of the blocks of type `kind`."""
    return blocks_by_type(body).get(kind) or Rows((), (), ())


def ids(blocks: Rows, key: str) -> Rows:
    """Rows (message index, block index, id) of the blocks whose `key` is a string."""
    kept = [k for k, block in enumerate(blocks.columns[2]) if isinstance(block.get(key), str)]
    at, position, found = blocks.columns
    return Rows(tuple(at[k] for k in kept), tuple(position[k] for k in kept),
                tuple(found[k][key] for k in kept))


@shared
def turns(body: Mapping[str, Any]) -> Turns:
    """Runs of consecutive same-role messages, as the API combines them."""
    roles: list[str] = []
    turn_of: dict[int, int] = {}  # message index -> its turn
    for i, message in messages(body):
        role = message.get("role")
        if not isinstance(role, str):
            continue
        if not roles or roles[-1] != role:
            roles.append(role)
        turn_of[i] = len(roles) - 1
    calls, call_at = _by_turn(ids(typed(body, "tool_use"), "id"), turn_of, len(roles))
    results, result_at = _by_turn(ids(typed(body, "tool_result"), "tool_use_id"), turn_of,
                                  len(roles))
    return Turns(tuple(roles), calls, results, call_at, result_at)


def _by_turn(rows: Rows, turn_of: Mapping[int, int], count: int
             ) -> tuple[Rows, tuple[int, ...]]:
    """The rows in a turn (a block of a message without a string role is in none), and
    where each turn's rows start."""
    kept = [k for k, i in enumerate(rows.columns[0]) if i in turn_of]
    sizes = [0] * (count + 1)
    for k in kept:
        sizes[turn_of[rows.columns[0][k]] + 1] += 1
    return (Rows(*(tuple(c[k] for k in kept) for c in rows.columns)),
            tuple(accumulate(sizes)))
