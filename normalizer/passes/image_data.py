"""Content pass: an image's data that is not base64 text."""

from __future__ import annotations

from dataclasses import replace

from normalizer.image_bytes import data_url, not_base64
from normalizer.model import Change, Media, Part, Text
from normalizer.passes import Draft, Policy
from normalizer.passes._content_walk import map_content_parts
from normalizer.profiles import Profile

NAME = "repair_image_data"
# How much of the data a placeholder quotes: enough to name a URL or a path.
_SHOWN = 200


def repair_image_data(
    draft: Draft, profile: Profile, policy: Policy
) -> tuple[Draft, tuple[Change, ...]]:
    """Fixes inline images whose data is not base64 text (rule image-data-not-base64), in
    messages and in tool results' content. A whole data URL written where the bare base64
    goes loses its header (lossless: the bytes are the same, and its type fills a missing
    media type). Anything else (an https URL, a file path) becomes a text naming what the
    data held, so the model still sees where the image was (lossy: no image is sent).

    Rejected by: Anthropic "messages.2.content.0.tool_result.content.0.image.source.base64:
    invalid base64 data" (anthropics/anthropic-sdk-typescript#603); Gemini "Invalid value
    at 'contents[0].parts[2].inline_data.data' (TYPE_BYTES), Base64 decoding failed for
    "https://…"" (danny-avila/LibreChat#6593).

    Gemini's check is of every inline data, not images only (its JSON parser decodes the
    bytes field whatever the MIME type), so for Gemini a document's or a sound's data is
    repaired the same way.

    Before: user [image(image/png, data "data:image/png;base64,iVBORw0KGgo…")]
    After:  user [image(image/png, data "iVBORw0KGgo…")]
    """
    if profile.protocol == "gemini":
        return map_content_parts(draft, Media, _repaired_any)
    return map_content_parts(draft, Media, _repaired)


def _repaired_any(media: Media, where: str) -> tuple[Part, Change] | None:
    return _repair(media, where)


def _repaired(media: Media, where: str) -> tuple[Part, Change] | None:
    return _repair(media, where) if media.kind == "image" else None


def _repair(media: Media, where: str) -> tuple[Part, Change] | None:
    data = media.data
    if data is None or not not_base64(data):
        return None
    what = "an image" if media.kind == "image" else f"a {media.kind}"
    split = data_url(data)
    head, rest = split if split is not None else ("", "")
    if head.endswith(";base64") and not not_base64(rest):
        declared = head[5:].split(";", 1)[0] or None
        return replace(media, data=rest, media_type=media.media_type or declared), Change(
            NAME, "strip-data-url-header",
            f"{what}'s data was a whole data URL ({head},…): sent as its bare base64",
            where, True)
    shown = data if len(data) <= _SHOWN else data[:_SHOWN] + "…"
    return Text(f"[{what} was attached here whose data was not base64 but: {shown}]"), \
        Change(NAME, "replace-unreadable-image" if media.kind == "image"
               else "replace-unreadable-media",
               f"{what} ({media.media_type or 'no type'}) whose data is not base64 sent as a "
               "text naming what it held: the target refuses it", where, False)
