"""Fit a history into a budget of messages or tokens without breaking it.

`fit` keeps the leading system messages, cuts only between *units* (a call turn stays with
every message up to its last result, so a window never splits a call from its results —
the seed's Anthropic tail bug after a 20-message window), starts where the profile allows
(no tool result first; no call turn first where call-turn-placement is enforced; only
`first-message-role` params.allowed roles where that rule is enforced) and keeps the
longest recent stretch that fits.

Tokens are counted by a pluggable `Counter` (Message -> int). The default,
`estimate_tokens`, needs no download at run time: tiktoken fetches its BPE files at first
use and fails offline. Its error against a real tokenizer is measured in
docs/vendor-switches-and-windows.md.
"""

from __future__ import annotations

import json
import math
import re
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, replace

from normalizer.errors import BudgetError, BudgetTypeError
from normalizer.model import Change, History, Message, Text, Thinking, ToolCall, ToolResult, thaw
from normalizer.profiles import Profile

Counter = Callable[[Message], int]

# Word pieces, in the spirit of the BPE pre-tokenizers: a letter run with an optional leading
# space, digit runs of up to three, whitespace runs, runs of anything else. The divisors were
# fitted against Mistral's Tekken tokenizer (docs/vendor-switches-and-windows.md): a long
# letter run splits about every 8 letters, punctuation merges in pairs, non-ASCII text
# (Hangul, CJK, accents) costs about one token per 1.5 characters.
_PIECES = re.compile(r" ?[A-Za-z]+| ?[0-9]{1,3}|\s+|[^\sA-Za-z0-9]+")
_LETTERS_PER_TOKEN = 8
_SYMBOLS_PER_TOKEN = 2
_NON_ASCII_PER_TOKEN = 1.5
_MESSAGE_OVERHEAD = 4  # role and separators, as chat formats add per message


@dataclass(frozen=True, slots=True)
class Budget:
    """At most `messages` messages and/or `tokens` tokens (system prompt included)."""

    messages: int | None = None
    tokens: int | None = None

    def __post_init__(self) -> None:
        for name in ("messages", "tokens"):
            value = getattr(self, name)
            if value is not None and value < 1:
                raise BudgetError(f"Budget.{name} must be at least 1, got {value}")


def estimate_text(text: str) -> int:
    """Offline token estimate of one string (see the constants above)."""
    count = 0
    for piece in _PIECES.findall(text):
        word = piece.lstrip(" ")
        if word.isascii() and (word.isalpha() or word.isdigit()):
            count += math.ceil(len(word) / _LETTERS_PER_TOKEN) if word.isalpha() else 1
        elif piece.isspace():
            count += piece != " "  # a single space rides on the next word
        else:
            ascii_chars = sum(ch.isascii() for ch in word)
            count += math.ceil(ascii_chars / _SYMBOLS_PER_TOKEN)
            count += math.ceil((len(word) - ascii_chars) / _NON_ASCII_PER_TOKEN)
    return count


def message_text(message: Message) -> str:
    """Everything a message sends that costs tokens: texts, call names and arguments,
    results, reasoning."""
    chunks: list[str] = []
    for part in message.parts:
        if isinstance(part, Text | Thinking):
            chunks.append(part.text)
        elif isinstance(part, ToolCall):
            args = part.arguments if isinstance(part.arguments, str) else json.dumps(
                thaw(part.arguments), ensure_ascii=False)
            chunks.append(f"{part.name} {args}")
        elif isinstance(part, ToolResult):
            chunks.append(part.text)
    return "\n".join(chunks)


def estimate_tokens(message: Message) -> int:
    """The default counter: `estimate_text` of the message plus a fixed per-message cost."""
    return _MESSAGE_OVERHEAD + estimate_text(message_text(message))


def as_budget(budget: Budget | int | None) -> Budget | None:
    """A bare int is a message budget (the seed's "20-message window")."""
    if budget is None or isinstance(budget, Budget):
        return budget
    if isinstance(budget, bool) or not isinstance(budget, int):
        raise BudgetTypeError(f"budget must be a Budget or an int (messages), got {budget!r}")
    return Budget(messages=budget)


def units(messages: Sequence[Message], head: int) -> list[tuple[int, int]]:
    """[start, end) spans covering messages[head:] that a cut must not enter: a call turn
    through its last result (matched by id to the latest call before it with that id, and
    the tool messages right after it for id-less results), merged where spans overlap."""
    ends = _call_ends(messages, head)
    spans: list[tuple[int, int]] = []
    for i in range(head, len(messages)):
        end = ends.get(i, i + 1)
        if spans and i < spans[-1][1]:
            spans[-1] = (spans[-1][0], max(spans[-1][1], end))
        else:
            spans.append((i, end))
    return spans


def _call_ends(messages: Sequence[Message], head: int) -> dict[int, int]:
    """Call-turn index -> one past the last message holding one of its results."""
    latest: dict[str, int] = {}
    ends: dict[int, int] = {}
    for i in range(head, len(messages)):
        message = messages[i]
        for result in message.tool_results:
            at = latest.get(result.call_id) if result.call_id is not None else None
            if at is not None:
                ends[at] = max(ends.get(at, at + 1), i + 1)
        if message.tool_calls:
            end = i + 1
            while end < len(messages) and messages[end].role == "tool":
                end += 1
            ends[i] = max(ends.get(i, i + 1), end)
            latest.update((c.id, i) for c in message.tool_calls if c.id is not None)
    return ends


def _may_start(message: Message, profile: Profile, after: str | None) -> bool:
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


def fit(
    history: History,
    budget: Budget | int | None,
    profile: Profile,
    counter: Counter | None = None,
) -> tuple[History, tuple[Change, ...]]:
    """The longest recent part of `history` within `budget` that starts where `profile`
    allows, after the leading system messages (always kept). When even the newest allowed
    start does not fit, that start is kept anyway and a change says the budget is exceeded
    (an empty conversation is never returned). Lossy: the messages cut are gone."""
    limit = as_budget(budget)
    messages = history.messages
    if limit is None or (limit.messages is None and limit.tokens is None):
        return history, ()
    count = counter or estimate_tokens
    costs = [count(m) for m in messages] if limit.tokens is not None else [0] * len(messages)
    head = next((i for i, m in enumerate(messages) if m.role != "system"), len(messages))
    if _fits(limit, len(messages), sum(costs)):
        return history, ()
    start = _choose(units(messages, head), messages, costs, head, limit, profile)
    kept = messages[:head] + messages[start:]
    changes: list[Change] = []
    if start > head:
        changes.append(Change("window", "window-cut", f"cut {start - head} message(s) before "
                              f"the window (messages[{head}:{start}])",
                              f"messages[{head}:{start}]", False))
    if not _fits(limit, len(kept), sum(costs[:head]) + sum(costs[start:])):
        changes.append(Change("window", "window-over-budget", "the newest place the window may "
                              "start at does not fit the budget; kept it anyway",
                              f"messages[{start}:]", True))
    return (replace(history, messages=kept) if start > head else history), tuple(changes)


def _fits(limit: Budget, n_messages: int, tokens: int) -> bool:
    return ((limit.messages is None or n_messages <= limit.messages)
            and (limit.tokens is None or tokens <= limit.tokens))


def _choose(spans: list[tuple[int, int]], messages: Sequence[Message], costs: list[int],
            head: int, limit: Budget, profile: Profile) -> int:
    """The earliest allowed unit start whose suffix fits; else the newest allowed start;
    else (the profile allows none) the earliest start that fits; else `head` (no cut)."""
    base_tokens = sum(costs[:head])
    suffix = [0] * (len(messages) + 1)
    for i in range(len(messages) - 1, -1, -1):
        suffix[i] = suffix[i + 1] + costs[i]
    after = messages[head - 1].role if head else None
    allowed = [s for s, _ in spans if _may_start(messages[s], profile, after)]
    fitting = [s for s, _ in spans
               if _fits(limit, head + len(messages) - s, base_tokens + suffix[s])]
    fits_at = set(fitting)
    best = next((s for s in allowed if s in fits_at), None)
    if best is None and allowed:
        best = allowed[-1]
    if best is None and fitting:
        best = fitting[0]
    return head if best is None else best
