"""Content pass: images whose bytes are of a format the target does not take."""

from __future__ import annotations

from normalizer.image_bytes import KNOWN, bytes_type, sniffed_content_type
from normalizer.model import Change, Media, Part, Text
from normalizer.passes import Draft, Policy
from normalizer.passes._content_walk import map_content_parts
from normalizer.profiles import Profile

RULE = "image-format-unsupported"


def replace_unsupported_images(
    draft: Draft, profile: Profile, policy: Policy
) -> tuple[Draft, tuple[Change, ...]]:
    """Fixes inline images whose bytes are not an image of a format the target takes (rule
    image-format-unsupported, params.images), in messages and in tool results' content: an
    SVG or a BMP a tool read, a data URL that is not base64. Each becomes a short text
    naming what was left out, so the model knows an image was there. Lossy: the image is
    not sent. An image whose declared type is wrong but whose bytes are a taken format is
    kept (the bytes decide).

    Rejected by: OpenAI Responses "The image data you provided does not represent a valid
    image. Please check your input and try again with one of the supported image formats:
    ['image/jpeg', 'image/png', 'image/gif', 'image/webp']." (openai/codex#7459, an SVG).

    Before: user [text "see", image(image/svg+xml, data "PHN2Zy…")]
    After:  user [text "see", text "[an image (image/svg+xml) was left out here: its bytes
            are not an image of a format the target takes (image/jpeg, …)]"]
    """
    taken = tuple(str(t) for t in profile.param(RULE, "images") or KNOWN)

    def as_text(media: Media, where: str) -> tuple[Part, Change] | None:
        if media.kind != "image" or not _unsupported(media, taken):
            return None
        kind = media.media_type or "no type"
        return Text(f"[an image ({kind}) was left out here: its bytes are not an image of a "
                    f"format the target takes ({', '.join(taken)})]"), Change(
            "replace_unsupported_images", "replace-unsupported-image",
            f"an image ({kind}) whose bytes are not {', '.join(taken)} sent as a text saying "
            "so: the target refuses the image", where, False)

    return map_content_parts(draft, Media, as_text)


def _unsupported(media: Media, taken: tuple[str, ...]) -> bool:
    """Whether the image's inline bytes are of none of the `taken` types: base64 data, or a
    data URL, read off its first bytes (one that is not base64 holds none). Images by URL or
    file id are the vendor's to fetch, and empty data is image-data-empty's."""
    if media.data is not None:
        return bool(media.data.strip()) and sniffed_content_type(media.data) not in taken
    found = bytes_type(media.url or "")
    return found is not None and found not in taken
