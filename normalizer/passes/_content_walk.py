"""The parts of one type in a history, in messages and in tool results' content, rewritten
one at a time (and parts found otherwise put back in place: `with_parts_replaced`): the walk
the content passes share (fix_image_media_types and
replace_empty_images on Media parts, type_untyped_parts on Opaque ones); every media part
with its place; and how many media parts a message tuple holds, remembered for the next
pass that asks."""

from __future__ import annotations

import threading
from collections.abc import Callable
from dataclasses import replace
from typing import Any

from normalizer.model import Change, Media, Message, Part, ToolResult
from normalizer.passes import Draft

# (part, where it is) -> its replacement and the change, or None to keep it.
PartFn = Callable[[Any, str], "tuple[Part, Change] | None"]


def map_content_parts(draft: Draft, kind: type, fn: PartFn) -> tuple[Draft, tuple[Change, ...]]:
    """`draft` with `fn` applied to every part of exactly type `kind`, in messages and in
    tool results' content; messages with none are shared."""
    messages = draft.history.messages
    out: list[Message] | None = None
    changes: list[Change] = []
    for m, message in enumerate(messages):
        if not _holds(message, kind):  # nearly every message: one look at its parts
            continue
        fixed = _message(message, f"messages[{m}]", kind, fn, changes)
        if fixed is not message:
            out = out if out is not None else list(messages)
            out[m] = fixed
    if out is None:
        return draft, ()
    return replace(draft, history=replace(draft.history, messages=tuple(out))), tuple(changes)


def with_parts_replaced(draft: Draft, new: dict[tuple[int, int], Part]) -> Draft:
    """`draft` with the parts at (message index, part index) replaced by `new`'s; the
    messages with none are shared."""
    if not new:
        return draft
    by_message: dict[int, list[Part]] = {}
    for (m, j), part in new.items():  # one pass over the replacements, not one per message
        parts = by_message.get(m)
        if parts is None:
            parts = by_message[m] = list(draft.history.messages[m].parts)
        parts[j] = part
    messages = list(draft.history.messages)
    for m, parts in by_message.items():
        messages[m] = messages[m].with_parts(tuple(parts))
    return replace(draft, history=replace(draft.history, messages=tuple(messages)))


def _holds(message: Message, kind: type) -> bool:
    for part in message.parts:  # a loop, not any(): no generator per message
        found = type(part)
        if found is kind:
            return True
        if found is ToolResult and not isinstance(part.content, str):  # type: ignore[union-attr]
            for inner in part.content:  # type: ignore[union-attr]
                if type(inner) is kind:
                    return True
    return False


def _message(message: Message, where: str, kind: type, fn: PartFn,
             changes: list[Change]) -> Message:
    parts: list[Part] | None = None
    for j, part in enumerate(message.parts):
        new = _part(part, f"{where}.parts[{j}]", kind, fn, changes)
        if new is not part:
            parts = parts if parts is not None else list(message.parts)
            parts[j] = new
    return message if parts is None else message.with_parts(tuple(parts))


def _part(part: Part, where: str, kind: type, fn: PartFn, changes: list[Change]) -> Part:
    if type(part) is kind:
        return _apply(part, where, fn, changes)
    if isinstance(part, ToolResult) and not isinstance(part.content, str):
        content = tuple(_apply(inner, f"{where}.content[{n}]", fn, changes, part.call_id)
                        if type(inner) is kind else inner
                        for n, inner in enumerate(part.content))
        if any(a is not b for a, b in zip(content, part.content, strict=True)):
            return replace(part, content=content)  # type: ignore[arg-type]
    return part


def _apply(part: Any, where: str, fn: PartFn, changes: list[Change],
           call_id: str | None = None) -> Part:
    done = fn(part, where)
    if done is None:
        return part
    change = done[1]
    # A place in a result's content moves as later passes move messages: the call it
    # answers is what a reader can find it by.
    changes.append(change if call_id is None else
                   replace(change, what=f"in the result of call {call_id!r}: {change.what}"))
    return done[0]


def placed_media(messages: tuple[Message, ...]) -> list[tuple[str, Media]]:
    """Every media part, in messages and in tool results' content, oldest first, with where
    it is (`messages[m].parts[j]`, `…parts[j].content[n]`: map_content_parts's places)."""
    found: list[tuple[str, Media]] = []
    for m, message in enumerate(messages):
        for j, part in enumerate(message.parts):
            if type(part) is Media:
                found.append((f"messages[{m}].parts[{j}]", part))  # type: ignore[arg-type]
            elif type(part) is ToolResult and not isinstance(part.content, str):  # type: ignore[union-attr]
                found += [(f"messages[{m}].parts[{j}].content[{n}]", inner)
                          for n, inner in enumerate(part.content)  # type: ignore[union-attr]
                          if type(inner) is Media]
    return found


_LAST = threading.local()


def media_count(messages: tuple[Message, ...]) -> int:
    """How many media parts `messages` hold, in messages and in tool results' content. Two
    passes that run in every round on the whole history ask it (leave_out_oldest_media,
    replace_oversized_images), and nearly every history holds none: the count of the last
    tuple asked about is kept (a tuple never changes, so identity is a safe key), which
    spares a walk wherever no pass changed the history in between (the confirming round),
    and the walk is a plain loop."""
    last: tuple[tuple[Message, ...], int] | None = getattr(_LAST, "count", None)
    if last is not None and last[0] is messages:
        return last[1]
    found = 0
    for message in messages:
        for part in message.parts:
            kind = type(part)
            if kind is Media:
                found += 1
            elif kind is ToolResult and type(part.content) is not str:  # type: ignore[union-attr]
                for inner in part.content:  # type: ignore[union-attr]
                    if type(inner) is Media:
                        found += 1
    _LAST.count = (messages, found)
    return found


def forget_media_count() -> None:
    """Drop this thread's remembered count (and the tuple it belongs to)."""
    _LAST.count = None
