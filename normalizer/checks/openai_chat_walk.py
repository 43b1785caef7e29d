"""Reading an OpenAI Chat Completions request body defensively, once for all detectors.

Detectors run on whatever reaches the emulator, so every accessor here skips what does not
have the expected type instead of raising: a message that is not an object is `None`, a
tool call without a string id has id `None`, and so on. The readings marked `@shared`
(entries, roles, calls, call blocks, owners) are computed once per body while check() runs
(normalizer/shared_reading.py), as columns rather than a tuple per message.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from normalizer.shared_reading import Rows, shared

Entry = Mapping[str, Any] | None


@shared
def entries(body: Mapping[str, Any]) -> tuple[Entry, ...]:
    """The `messages` list, with every element that is not an object replaced by None
    (indexes stay those of the body, which is what vendors report)."""
    raw = body.get("messages") if isinstance(body, Mapping) else None
    if not isinstance(raw, Sequence) or isinstance(raw, str | bytes):
        return ()
    return tuple(m if type(m) is dict or isinstance(m, Mapping) else None for m in raw)


def role(msg: Entry) -> str | None:
    """The message's role, or None when it is not a string."""
    value = msg.get("role") if msg is not None else None
    return value if isinstance(value, str) else None


@shared
def roles(body: Mapping[str, Any]) -> tuple[str | None, ...]:
    """The role of each entry (None: not a string, or not an object)."""
    return tuple(map(role, entries(body)))


@dataclass(frozen=True, slots=True)
class Calls:
    """Every tool-call object of every message (whatever its role), as rows (message index,
    position, call) in body order, with each call's id (None: absent or not a string);
    message i's rows are rows `at[i]` to `at[i + 1]`."""

    rows: Rows
    ids: tuple[str | None, ...]
    at: tuple[int, ...]

    def ids_of(self, index: int) -> tuple[str | None, ...]:
        """The id of each tool call of message `index`."""
        return self.ids[self.at[index]:self.at[index + 1]]

    def has(self, index: int) -> bool:
        """Whether message `index` has any tool-call object."""
        return self.at[index] < self.at[index + 1]


@shared
def calls(body: Mapping[str, Any]) -> Calls:
    """The tool-call objects of the body's messages (see Calls)."""
    message: list[int] = []
    position: list[int] = []
    found: list[Mapping[str, Any]] = []
    at = [0]
    for i, msg in enumerate(entries(body)):
        for j, call in tool_calls(msg):
            message.append(i)
            position.append(j)
            found.append(call)
        at.append(len(found))
    return Calls(Rows(tuple(message), tuple(position), tuple(found)),
                  tuple(map(call_id, found)), tuple(at))


@shared
def result_ids(body: Mapping[str, Any]) -> tuple[str | None, ...]:
    """Each entry's `tool_call_id` (None: absent, not a string, or not an object)."""
    return tuple(map(result_id, entries(body)))


def with_calls(body: Mapping[str, Any]) -> Iterator[int]:
    """The index of each assistant message carrying a non-empty `tool_calls` list."""
    kinds, table = roles(body), calls(body)
    return (i for i, kind in enumerate(kinds) if kind == "assistant" and table.has(i))


def text_or_none(obj: Any, key: str) -> str | None:
    """obj[key] when it is a string, else None."""
    value = obj.get(key) if type(obj) is dict or isinstance(obj, Mapping) else None
    return value if isinstance(value, str) else None


def tool_calls(msg: Entry) -> list[tuple[int, Mapping[str, Any]]]:
    """(position, call) for each tool call object of an assistant message."""
    raw = msg.get("tool_calls") if msg is not None else None
    if raw is None:  # most messages: no ABC check (a profiled hot spot at 100,000 messages)
        return []
    if type(raw) is not list and (not isinstance(raw, Sequence) or isinstance(raw, str | bytes)):
        return []  # a list asked first: the ABC check ran for every message
    return [(j, c) for j, c in enumerate(raw) if type(c) is dict or isinstance(c, Mapping)]


def call_id(call: Mapping[str, Any]) -> str | None:
    """A tool call's `id`, or None when absent or not a string."""
    return text_or_none(call, "id")


def result_id(msg: Entry) -> str | None:
    """A tool message's `tool_call_id`, or None when absent or not a string."""
    return text_or_none(msg, "tool_call_id")


def call_name(call: Mapping[str, Any]) -> str | None:
    """A tool call's `function.name`, or None when absent or not a string."""
    return text_or_none(call.get("function"), "name")


@dataclass(frozen=True, slots=True)
class CallBlock:
    """An assistant message with tool calls and the tool messages right after it."""

    index: int
    end: int  # index of the first message after the results (len(messages) at the end)
    calls: tuple[str | None, ...]  # the id of each call (None: absent or not a string)

    @property
    def call_ids(self) -> tuple[str, ...]:
        """The ids of the block's calls that have one, in order."""
        return tuple(i for i in self.calls if i is not None)

    @property
    def results(self) -> range:
        """The indexes of the block's tool messages."""
        return range(self.index + 1, self.end)


@shared
def block_spans(body: Mapping[str, Any]) -> Rows:
    """Rows (index, end) of each call block: the assistant message with tool calls, and
    the index of the first message after its run of tool messages."""
    kinds = roles(body)
    starts = tuple(with_calls(body))
    ends = []
    for i in starts:
        end = i + 1
        while end < len(kinds) and kinds[end] == "tool":
            end += 1
        ends.append(end)
    return Rows(starts, tuple(ends))


def call_blocks(body: Mapping[str, Any]) -> Iterator[CallBlock]:
    """Each assistant message with tool calls and the run of tool messages after it."""
    table = calls(body)
    for i, end in block_spans(body):
        yield CallBlock(index=i, end=end, calls=table.ids_of(i))


@shared
def owners(body: Mapping[str, Any]) -> tuple[int | None, ...]:
    """For each tool message: the index of the assistant message with tool calls its run
    of tool messages follows (None when the run follows anything else); None elsewhere."""
    kinds, table = roles(body), calls(body)
    found: list[int | None] = []
    owner = None
    for i, kind in enumerate(kinds):
        if kind == "tool":
            found.append(owner)
            continue
        owner = i if kind == "assistant" and table.has(i) else None
        found.append(None)
    return tuple(found)


def declared_tools(body: Mapping[str, Any]) -> list[tuple[int, Mapping[str, Any]]]:
    """The body's `tools` entries that are JSON objects, with their index."""
    raw = body.get("tools") if isinstance(body, Mapping) else None
    if not isinstance(raw, Sequence) or isinstance(raw, str | bytes):
        return []
    return [(i, t) for i, t in enumerate(raw) if isinstance(t, Mapping)]


def param(rule_params: Mapping[str, Any], name: str, default: Any) -> Any:
    """A rule parameter, or `default` when the profile does not set it."""
    value = rule_params.get(name, default)
    return default if value is None else value
