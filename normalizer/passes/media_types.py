"""Content pass: inline images labelled with another type than their bytes."""

from __future__ import annotations

from dataclasses import replace

from normalizer.image_bytes import mismatched
from normalizer.model import Change, Media, Message, Part, ToolResult
from normalizer.passes import Draft, Policy
from normalizer.profiles import Profile

_NAME = "fix_image_media_types"


def fix_image_media_types(
    draft: Draft, profile: Profile, policy: Policy
) -> tuple[Draft, tuple[Change, ...]]:
    """Fixes inline (base64) images whose bytes are a PNG, JPEG, GIF or WebP other than
    their media type says (rule image-media-type-mismatch), in messages and in tool results'
    content: the media type becomes the one the bytes are. Lossless: the image is the same,
    its label is now true. Tools that assume every screenshot is a PNG, or every paste a
    JPEG, label them so, and a history keeps the label across vendors.

    Rejected by: Anthropic "messages.18.content.1.image.source.base64.data: Image does not
    match the provided media type image/png" (anthropics/claude-code#13131).

    Before: user [image(media_type image/png, data "/9j/4AAQ…")]
    After:  user [image(media_type image/jpeg, data "/9j/4AAQ…")]
    """
    messages = list(draft.history.messages)
    changes: list[Change] = []
    for m, message in enumerate(messages):
        if not any(type(p) is Media or type(p) is ToolResult for p in message.parts):
            continue
        fixed = _fixed_message(message, f"messages[{m}]", changes)
        if fixed is not message:
            messages[m] = fixed
    if not changes:
        return draft, ()
    return replace(draft, history=replace(draft.history, messages=tuple(messages))), \
        tuple(changes)


def _fixed_message(message: Message, where: str, changes: list[Change]) -> Message:
    parts: list[Part] | None = None
    for j, part in enumerate(message.parts):
        new = _fixed(part, f"{where}.parts[{j}]", changes)
        if new is not part:
            parts = parts if parts is not None else list(message.parts)
            parts[j] = new
    return message if parts is None else message.with_parts(tuple(parts))


def _fixed(part: Part, where: str, changes: list[Change]) -> Part:
    if isinstance(part, Media):
        return _relabelled(part, where, changes)
    if isinstance(part, ToolResult) and not isinstance(part.content, str):
        content = tuple(_relabelled(inner, f"{where}.content[{n}]", changes)
                        if isinstance(inner, Media) else inner
                        for n, inner in enumerate(part.content))
        if any(a is not b for a, b in zip(content, part.content, strict=True)):
            return replace(part, content=content)
    return part


def _relabelled(media: Media, where: str, changes: list[Change]) -> Media:
    real = mismatched(media.media_type, media.data) if media.kind == "image" else None
    if real is None:
        return media
    changes.append(Change(_NAME, "correct-image-media-type",
                          f"image labelled {media.media_type} holds {real} data: labelled "
                          f"{real}, as its bytes are", where, True))
    return replace(media, media_type=real)
