"""Content pass: images sent with no data."""

from __future__ import annotations

from normalizer.model import Change, Media, Part, Text
from normalizer.passes import Draft, Policy
from normalizer.passes._content_walk import map_content_parts
from normalizer.profiles import Profile

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
    return map_content_parts(draft, Media, _as_text)


def _as_text(media: Media, where: str) -> tuple[Part, Change] | None:
    if media.kind != "image" or media.data is None or media.data.strip():
        return None
    return Text(EMPTY_IMAGE_TEXT), Change(
        "replace_empty_images", "replace-empty-image",
        f"an image ({media.media_type or 'no type'}) with no data sent as a text saying so: "
        "the target refuses an image without bytes", where, True)
