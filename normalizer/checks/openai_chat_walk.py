"""Reading an OpenAI Chat Completions request body defensively.

Detectors run on whatever reaches the emulator, so every accessor here skips what does not
have the expected type instead of raising: a message that is not an object is `None`, a
tool call without a string id has id `None`, and so on.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

Entry = Mapping[str, Any] | None


def entries(body: Mapping[str, Any]) -> list[Entry]:
    """The `messages` list, with every element that is not an object replaced by None
    (indexes stay those of the body, which is what vendors report)."""
    raw = body.get("messages") if isinstance(body, Mapping) else None
    if not isinstance(raw, Sequence) or isinstance(raw, str | bytes):
        return []
    return [m if isinstance(m, Mapping) else None for m in raw]


def indexed(body: Mapping[str, Any]) -> Iterator[tuple[int, Mapping[str, Any]]]:
    """Each message of `messages` that is a JSON object, with its index."""
    for i, msg in enumerate(entries(body)):
        if msg is not None:
            yield i, msg


def role(msg: Entry) -> str | None:
    """The message's role, or None when it is not a string."""
    value = msg.get("role") if msg is not None else None
    return value if isinstance(value, str) else None


def text_or_none(obj: Any, key: str) -> str | None:
    """obj[key] when it is a string, else None."""
    value = obj.get(key) if isinstance(obj, Mapping) else None
    return value if isinstance(value, str) else None


def tool_calls(msg: Entry) -> list[tuple[int, Mapping[str, Any]]]:
    """(position, call) for each tool call object of an assistant message."""
    raw = msg.get("tool_calls") if msg is not None else None
    if not isinstance(raw, Sequence) or isinstance(raw, str | bytes):
        return []
    return [(j, c) for j, c in enumerate(raw) if isinstance(c, Mapping)]


def has_calls(msg: Entry) -> bool:
    """Whether an assistant message carries a non-empty `tool_calls` list."""
    return role(msg) == "assistant" and bool(tool_calls(msg))


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
    calls: tuple[tuple[int, Mapping[str, Any]], ...]
    results: tuple[tuple[int, Mapping[str, Any]], ...]
    end: int  # index of the first message after the results (len(messages) at the end)

    @property
    def call_ids(self) -> tuple[str, ...]:
        """The ids of the block's calls that have one, in order."""
        return tuple(i for i in (call_id(c) for _, c in self.calls) if i is not None)


def call_blocks(body: Mapping[str, Any]) -> Iterator[CallBlock]:
    """Each assistant message with tool calls and the run of tool messages after it."""
    msgs = entries(body)
    for i, msg in enumerate(msgs):
        if not has_calls(msg):
            continue
        end = i + 1
        while end < len(msgs) and role(msgs[end]) == "tool":
            end += 1
        results = tuple((k, msgs[k]) for k in range(i + 1, end) if msgs[k] is not None)
        yield CallBlock(index=i, calls=tuple(tool_calls(msg)), results=results, end=end)


def block_of(msgs: list[Entry], index: int) -> int | None:
    """For a tool message at `index`: the index of the assistant message with tool calls
    its run of tool messages follows, or None when the run follows anything else."""
    k = index - 1
    while k >= 0 and role(msgs[k]) == "tool":
        k -= 1
    return k if k >= 0 and has_calls(msgs[k]) else None


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
