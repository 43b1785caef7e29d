"""Content pass: inline images larger than the target takes, in bytes or in pixels."""

from __future__ import annotations

from dataclasses import dataclass

from normalizer.image_bytes import image_dimensions
from normalizer.model import Change, Media, Message, Part, Text
from normalizer.passes import Draft, Policy
from normalizer.passes._content_walk import map_content_parts, media_count, placed_media
from normalizer.profiles import Profile


@dataclass(frozen=True, slots=True)
class _Image:
    where: str  # messages[m].parts[j], or …parts[j].content[n] inside a tool result
    size: tuple[int, int] | None  # (width, height) of an inline image whose header says
    length: int  # of its base64 data (0: not inline)


def replace_oversized_images(
    draft: Draft, profile: Profile, policy: Policy
) -> tuple[Draft, tuple[Change, ...]]:
    """Fixes inline images larger than the target takes: base64 data too long (rule
    image-too-large), or too wide or tall (rules image-dimensions-too-large,
    many-image-dimensions-too-large), in messages and in tool results' content: each such
    image becomes a short text saying what was left out and why. An image stays in the
    history once sent, so until then every later request is refused with it ("the session
    is permanently bricked", NousResearch/hermes-agent#25837); no image library is at hand
    to scale it down. Lossy: the picture is gone.

    Where a request holds more images than the many-image limit allows at full size, the
    fewest images are left out: either those over that limit's pixels, or, where fewer,
    the oldest images until the count is within the limit (the others then only need to
    meet the single-image limit).

    Rejected by: Anthropic "messages.0.content.1.image.source.base64: image exceeds 5 MB
    maximum: 5327908 bytes > 5242880 bytes" (nraiden/cofounder#53; 10 MB since mid-2026),
    "messages.86.content.2.image.source.base64.data: At least one of the image dimensions
    exceed max allowed size: 8000 pixels" (cline/cline#3308), and
    "…exceed max allowed size for many-image requests: 2000 pixels" with more than 20
    images (anthropics/claude-code#17513).

    Before: tool result [image(8570 px tall screenshot)]
    After:  tool result [text "[an image of 1440x8570 pixels was left out here: …]"]
    """
    # None where the rule is off (profiles/validate.py makes these positive integers)
    single = profile.param("image-dimensions-too-large", "max_pixels")
    many = profile.param("many-image-dimensions-too-large", "max_pixels")
    max_bytes = profile.param("image-too-large", "max_bytes")
    if single is None and many is None and max_bytes is None:
        return draft, ()
    messages = draft.history.messages
    if not media_count(messages):  # nearly every history (the count is shared: see there)
        return draft, ()
    images = _images(messages)
    if not images:
        return draft, ()
    left_out = _too_long(images, max_bytes)
    left_out.update(_left_out([i for i in images if i.where not in left_out], single, many,
                              profile.param("many-image-dimensions-too-large", "max_items")))
    if not left_out:
        return draft, ()

    def replaced(media: Media, where: str) -> tuple[Part, Change] | None:
        why = left_out.get(where)
        if why is None:
            return None
        return Text(why[0]), Change("replace_oversized_images", "replace-oversized-image",
                                    why[1], where, False)

    return map_content_parts(draft, Media, replaced)


def _too_long(images: list[_Image], max_bytes: int | None) -> dict[str, tuple[str, str]]:
    """The images whose base64 data is longer than `max_bytes` characters."""
    if max_bytes is None:
        return {}
    return {i.where: (f"[an image was left out here: its data, {i.length:,} characters of "
                      f"base64, is over the target's limit of {max_bytes:,}]",
                      f"image with {i.length:,} characters of base64 data left out: the "
                      f"target refuses more than {max_bytes:,}")
            for i in images if i.length > max_bytes}


def _left_out(images: list[_Image], single: int | None, many: int | None,
              count: object) -> dict[str, tuple[str, str]]:
    """Where each image to leave out is: the text that takes its place, and the change's."""
    out: dict[str, tuple[str, str]] = {}
    kept: list[_Image] = []
    for image in images:
        if single is not None and image.size is not None and max(image.size) > single:
            out[image.where] = _said(image, single, "")
        else:
            kept.append(image)
    if many is None or not isinstance(count, int) or len(kept) <= count:
        return out
    over = [i for i in kept if i.size is not None and max(i.size) > many]
    excess = len(kept) - count
    if not over:
        return out
    if len(over) <= excess:
        for image in over:
            out[image.where] = _said(image, many, f" in a request of more than {count} images")
    else:
        for image in kept[:excess]:
            out[image.where] = (
                _OLDEST.format(count=count, limit=many),
                f"image left out (one of the {excess} oldest): the request held {len(kept)} "
                f"images, {len(over)} of them over {many} pixels a side, which the target "
                f"takes only in a request of at most {count} images")
    return out


_OLDEST = ("[an image was left out here: the target takes at most {count} images in a "
           "request holding one over {limit} pixels a side]")


def _said(image: _Image, limit: int, when: str) -> tuple[str, str]:
    width, height = image.size or (0, 0)
    return (f"[an image of {width}x{height} pixels was left out here: the target takes at "
            f"most {limit} pixels a side{when}]",
            f"image of {width}x{height} pixels left out: the target refuses an image over "
            f"{limit} pixels a side{when}")


def _images(messages: tuple[Message, ...]) -> list[_Image]:
    """Every image part, in messages and in tool results' content, in order."""
    return [_Image(where, image_dimensions(media.data) if media.data is not None else None,
                   len(media.data) if media.data is not None else 0)
            for where, media in placed_media(messages) if media.kind == "image"]
