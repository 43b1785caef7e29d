"""Content pass: images sent with no data."""

from __future__ import annotations

from dataclasses import replace

from normalizer.model import Change, Media, Message, Part, Text, ToolResult
from normalizer.passes import Draft, Policy
from normalizer.profiles import Profile

_NAME = "replace_empty_images"
EMPTY_IMAGE_TEXT = "[an image was attached here with no data]"


def replace_empty_images(
    draft: Draft, profile: Profile, policy: Policy
) -> tuple[Draft, tuple[Change, ...]]:
    """Fixes inline images with no data (rule image-data-empty), in messages and in tool
    results' content: each becomes a short text saying an image was attached with no data,
    so the model still knows one was meant. Lossless: there was nothing to see.

    Rejected by: OpenAI Responses "Invalid 'input[101].content[1].image_url'. Expected a
    base64-encoded data URL with an image MIME type (e.g. 'data:image/png;base64,
    aW1nIGJ5dGVzIGhlcmU='), but got empty base64-encoded bytes." (anomalyco/opencode#23983).

    Before: user [text "see", image(data_url "data:image/png;base64,")]
    After:  user [text "see", text "[an image was attached here with no data]"]
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
        return _as_text(part, where, changes)
    if isinstance(part, ToolResult) and not isinstance(part.content, str):
        content = tuple(_as_text(inner, f"{where}.content[{n}]", changes)
                        if isinstance(inner, Media) else inner
                        for n, inner in enumerate(part.content))
        if any(a is not b for a, b in zip(content, part.content, strict=True)):
            return replace(part, content=content)
    return part


def _as_text(media: Media, where: str, changes: list[Change]) -> Text | Media:
    if media.kind != "image" or media.data is None or media.data.strip():
        return media
    changes.append(Change(_NAME, "replace-empty-image",
                          f"an image ({media.media_type or 'no type'}) with no data sent as a "
                          "text saying so: the target refuses an image without bytes",
                          where, True))
    return Text(EMPTY_IMAGE_TEXT)
