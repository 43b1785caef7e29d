"""Where `window.fit` cuts, found by walking back from the end of the history.

The cost is that of the window, not of the history: messages are read (and counted) from
the newest back to the first one that no longer fits, plus, for the fallbacks, back to the
newest allowed start. A cut may not fall strictly inside a *unit* (`window.units`): a call
turn through the tool messages right after it and through every later result whose id it is
the latest call of. Walking back, the results seen so far whose call is not yet met are
*pending*; a position is inside a unit when a pending result has its call before it, or
when it is a tool message in the run right after a call turn. Only a pending id whose call
is never met (an orphan result) makes the walk read further back, once, to learn that no
call has its id.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Protocol

from normalizer.model import Message
from normalizer.profiles import Profile

Counter = Callable[[Message], int]


class Budget(Protocol):
    """What the walk reads of `window.Budget` (a Protocol: window imports this module)."""

    @property
    def messages(self) -> int | None:
        """At most this many messages (None: no limit)."""

    @property
    def tokens(self) -> int | None:
        """At most this many tokens (None: no limit)."""


@dataclass
class _Calls:
    """Call ids before a position, read lazily backward from wherever it was first asked."""

    messages: Sequence[Message]
    head: int
    next_at: int | None = None
    lowest: dict[str, int] = field(default_factory=dict)  # id -> lowest index read so far

    def before(self, call_id: str, at: int) -> bool:
        """Whether a message before `at` (and at or after `head`) holds a call with this id."""
        if self.next_at is None:
            self.next_at = at - 1
        while self.lowest.get(call_id, at) >= at and self.next_at >= self.head:
            for call in self.messages[self.next_at].tool_calls:
                if call.id is not None:
                    self.lowest[call.id] = self.next_at
            self.next_at -= 1
        return self.lowest.get(call_id, at) < at

    def exhausted(self) -> bool:
        return self.next_at is not None and self.next_at < self.head


@dataclass
class _Walk:
    """Reads messages from the end back, one at a time, and says which are unit starts."""

    messages: Sequence[Message]
    head: int
    pending: set[str] = field(default_factory=set)
    run_owned: bool | None = None  # the tool run holding the previous (newer) message
    calls: _Calls = field(init=False)

    def __post_init__(self) -> None:
        self.calls = _Calls(self.messages, self.head)

    def is_start(self, at: int) -> bool:
        """Read messages[at] (the walk goes one message back per call) and say whether a
        window may begin there without entering a unit."""
        message = self.messages[at]
        calls = message.tool_calls
        if calls and self.pending:
            self.pending.difference_update(c.id for c in calls if c.id is not None)
        self.pending.update(r.call_id for r in message.tool_results if r.call_id is not None)
        return not (self._in_tool_run(at) or self._answers_earlier_call(at))

    def _in_tool_run(self, at: int) -> bool:
        if self.messages[at].role != "tool":
            self.run_owned = None
            return False
        if self.run_owned is None:  # first message of this run met (its newest one)
            before = at - 1
            while before >= self.head and self.messages[before].role == "tool":
                before -= 1
            self.run_owned = before >= self.head and bool(self.messages[before].tool_calls)
        return self.run_owned

    def _answers_earlier_call(self, at: int) -> bool:
        """Whether a pending result's call is before `at`. The walk has not met the call of
        a pending id, so its call, if it has one, is before `at`: the first such id answers
        (asking every pending id at every message cost the square of a long walk), and an
        id found to have no call at all is an orphan and leaves the pending set for good."""
        found = False
        orphans: list[str] = []
        for call_id in self.pending:
            if self.calls.before(call_id, at):
                found = True
                break
            if self.calls.exhausted():
                orphans.append(call_id)
        self.pending.difference_update(orphans)
        return found


def may_start(message: Message, profile: Profile, after: str | None) -> bool:
    """Whether the window may open on `message`, right after a message of role `after`
    (the last system message, or None)."""
    if message.role == "tool":
        return False
    if message.tool_calls and profile.enforces("call-turn-placement"):
        return False
    table = profile.param("role-order", "allowed_after")
    if after is not None and isinstance(table, Mapping) and after in table \
            and message.role not in tuple(table[after]):
        return False
    if profile.enforces("first-message-role"):
        allowed = profile.param("first-message-role", "allowed", ("user",))
        return message.role in tuple(allowed)
    return True


def find_cut(messages: Sequence[Message], head: int, limit: Budget, profile: Profile,
             count: Counter) -> tuple[int, bool] | None:
    """(start, fits): the earliest allowed unit start whose suffix fits; else the newest
    allowed start; else the earliest unit start that fits; else `head`. None when the whole
    history fits (no cut)."""
    after = messages[head - 1].role if head else None
    walk = _Walk(messages, head)
    tokens = sum(count(m) for m in messages[:head]) if limit.tokens is not None else 0
    best_allowed = best_any = None
    at = len(messages) - 1
    while at >= head:
        if limit.tokens is not None:
            tokens += count(messages[at])
        if not _fits(limit, head + len(messages) - at, tokens):
            break
        if walk.is_start(at):
            best_any = at
            if may_start(messages[at], profile, after):
                best_allowed = at
        at -= 1
    else:
        return None
    if best_allowed is not None:
        return best_allowed, True
    while at >= head:  # nothing allowed fits: the newest allowed start, over budget
        if walk.is_start(at) and may_start(messages[at], profile, after):
            return at, False
        at -= 1
    return (best_any, True) if best_any is not None else (head, False)


def _fits(limit: Budget, n_messages: int, tokens: int) -> bool:
    return ((limit.messages is None or n_messages <= limit.messages)
            and (limit.tokens is None or tokens <= limit.tokens))
