"""Content pass: inline images labelled with another type than their bytes."""

from __future__ import annotations

from dataclasses import replace

from normalizer.image_bytes import mismatched
from normalizer.model import Change, Media, Part
from normalizer.passes import Draft, Policy
from normalizer.passes._content_walk import map_content_parts
from normalizer.profiles import Profile


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
    return map_content_parts(draft, Media, _relabelled)


def _relabelled(media: Media, where: str) -> tuple[Part, Change] | None:
    real = mismatched(media.media_type, media.data) if media.kind == "image" else None
    if real is None:
        return None
    return replace(media, media_type=real), Change(
        "fix_image_media_types", "correct-image-media-type",
        f"image labelled {media.media_type} holds {real} data: labelled {real}, as its bytes "
        "are", where, True)
