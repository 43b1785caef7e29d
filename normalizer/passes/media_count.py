"""Content pass: more images and documents in one request than the target takes, by count
or by the bytes of their data."""

from __future__ import annotations

from normalizer.model import Change, Media, Message, Part, Text
from normalizer.passes import Draft, Policy
from normalizer.passes._content_walk import map_content_parts, media_count, placed_media
from normalizer.profiles import Profile

# What a request's other parts (its text, calls and results) are taken to need of a byte
# limit: 2 MB is half a million tokens, more than the context windows this limit goes with.
REST_OF_REQUEST = 2 * 1024 * 1024


def leave_out_oldest_media(
    draft: Draft, profile: Profile, policy: Policy
) -> tuple[Draft, tuple[Change, ...]]:
    """Fixes a request holding more images and documents than the target takes (rule
    too-many-media), or a body too large for it (rule request-too-large), in messages and
    in tool results' content: the oldest ones become short texts saying what was left out,
    until the count is within the limit and their data leaves REST_OF_REQUEST of the byte
    limit to the rest. Agents that read screenshots or files at every step reach the limits
    in a long session, and from then on every request is refused, /compact included
    (anthropics/claude-code#3397, #13501). The oldest go because the model needs the latest
    most. Lossy: those images and documents are gone.

    Rejected by: Anthropic "too many images and documents: 104 + 1 > 100"
    (anthropics/claude-code#23392); a 413 "Request exceeds the maximum size" past 32 MB
    (anthropics/anthropic-sdk-python#938).

    Before: 104 screenshots and a PDF in the history
    After:  the 5 oldest screenshots are texts "[an image was left out here: …]"
    """
    # None where the rule is off (profiles/validate.py makes these positive integers)
    max_items: int | None = profile.param("too-many-media", "max_items")
    max_bytes: int | None = profile.param("request-too-large", "max_bytes")
    if max_items is None and max_bytes is None:
        return draft, ()
    total = media_count(draft.history.messages)
    by_count = max(0, total - max_items) if max_items is not None else 0
    by_size = (_oldest_to_drop(_data_sizes(draft.history.messages), max_bytes - REST_OF_REQUEST)
               if max_bytes is not None and total else 0)
    if not by_count and not by_size:
        return draft, ()
    taken = 0

    def replaced(media: Media, where: str) -> tuple[Part, Change] | None:
        nonlocal taken
        if taken >= max(by_count, by_size):
            return None
        taken += 1
        kind = "an image" if media.kind == "image" else "a document"
        if taken <= by_count:
            return Text(f"[{kind} was left out here: the request held {total} images and "
                        f"documents, over the target's limit of {max_items}]"), Change(
                "leave_out_oldest_media", "leave-out-oldest-media",
                f"{kind} left out, one of the {by_count} oldest: the target takes at most "
                f"{max_items} images and documents in a request", where, False)
        return Text(f"[{kind} was left out here: with it, the request's images and documents "
                    f"were over the {max_bytes:,} bytes the target takes in a request]"), Change(
            "leave_out_oldest_media", "leave-out-oldest-media",
            f"{kind} left out, one of the {by_size} oldest: the images and documents held "
            f"more data than fits in a request of {max_bytes:,} bytes", where, False)

    return map_content_parts(draft, Media, replaced)


def _data_sizes(messages: tuple[Message, ...]) -> list[int]:
    """The length of each media part's data (base64, or a document's text), oldest first,
    in messages and in tool results' content."""
    return [len(media.data or media.text or "") for _, media in placed_media(messages)]


def _oldest_to_drop(sizes: list[int], budget: int) -> int:
    """How many of the oldest must go for the rest to fit in `budget`."""
    left = sum(sizes)
    dropped = 0
    while left > budget and dropped < len(sizes):
        left -= sizes[dropped]
        dropped += 1
    return dropped
