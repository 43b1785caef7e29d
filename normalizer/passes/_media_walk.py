"""Media parts of a history, in messages and in tool results' content, rewritten one at a
time: the walk the media passes share (fix_image_media_types, replace_empty_images)."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace

from normalizer.model import Change, Media, Message, Part, ToolResult
from normalizer.passes import Draft

# (media part, where it is) -> its replacement and the change, or None to keep it.
MediaFn = Callable[[Media, str], "tuple[Part, Change] | None"]


def map_media(draft: Draft, fn: MediaFn) -> tuple[Draft, tuple[Change, ...]]:
    """`draft` with `fn` applied to every media part; messages with none are shared."""
    messages = draft.history.messages
    out: list[Message] | None = None
    changes: list[Change] = []
    for m, message in enumerate(messages):
        if not _holds_media(message):  # nearly every message: one look at its parts
            continue
        fixed = _message(message, f"messages[{m}]", fn, changes)
        if fixed is not message:
            out = out if out is not None else list(messages)
            out[m] = fixed
    if out is None:
        return draft, ()
    return replace(draft, history=replace(draft.history, messages=tuple(out))), tuple(changes)


def _holds_media(message: Message) -> bool:
    for part in message.parts:  # a loop, not any(): no generator per message
        kind = type(part)
        if kind is Media:
            return True
        if kind is ToolResult and not isinstance(part.content, str):  # type: ignore[union-attr]
            for inner in part.content:  # type: ignore[union-attr]
                if type(inner) is Media:
                    return True
    return False


def _message(message: Message, where: str, fn: MediaFn, changes: list[Change]) -> Message:
    parts: list[Part] | None = None
    for j, part in enumerate(message.parts):
        new = _part(part, f"{where}.parts[{j}]", fn, changes)
        if new is not part:
            parts = parts if parts is not None else list(message.parts)
            parts[j] = new
    return message if parts is None else message.with_parts(tuple(parts))


def _part(part: Part, where: str, fn: MediaFn, changes: list[Change]) -> Part:
    if isinstance(part, Media):
        return _apply(part, where, fn, changes)
    if isinstance(part, ToolResult) and not isinstance(part.content, str):
        content = tuple(_apply(inner, f"{where}.content[{n}]", fn, changes)
                        if isinstance(inner, Media) else inner
                        for n, inner in enumerate(part.content))
        if any(a is not b for a, b in zip(content, part.content, strict=True)):
            return replace(part, content=content)  # type: ignore[arg-type]
    return part


def _apply(media: Media, where: str, fn: MediaFn, changes: list[Change]) -> Part:
    done = fn(media, where)
    if done is None:
        return media
    changes.append(done[1])
    return done[0]
