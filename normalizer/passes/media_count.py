"""Content pass: more images and documents in one request than the target takes."""

from __future__ import annotations

from normalizer.model import Change, Media, Part, Text
from normalizer.passes import Draft, Policy
from normalizer.passes._content_walk import map_content_parts, media_count
from normalizer.profiles import Profile


def leave_out_oldest_media(
    draft: Draft, profile: Profile, policy: Policy
) -> tuple[Draft, tuple[Change, ...]]:
    """Fixes a request holding more images and documents than the target takes (rule
    too-many-media), in messages and in tool results' content: the oldest ones become short
    texts saying what was left out, until the count is within the limit. Agents that read
    screenshots or files at every step reach the limit in a long session, and from then on
    every request is refused, /compact included (anthropics/claude-code#3397). The oldest
    go because the model needs the latest most. Lossy: those images and documents are gone.

    Rejected by: Anthropic "too many images and documents: 104 + 1 > 100"
    (anthropics/claude-code#23392).

    Before: 104 screenshots and a PDF in the history
    After:  the 5 oldest screenshots are texts "[an image was left out here: …]"
    """
    if not profile.enforces("too-many-media"):
        return draft, ()
    limit = profile.param("too-many-media", "max_items")
    total = media_count(draft.history.messages)
    if not isinstance(limit, int) or total <= limit:
        return draft, ()
    left = total - limit

    def replaced(media: Media, where: str) -> tuple[Part, Change] | None:
        nonlocal left
        if left <= 0:
            return None
        left -= 1
        kind = "an image" if media.kind == "image" else "a document"
        return Text(f"[{kind} was left out here: the request held {total} images and "
                    f"documents, over the target's limit of {limit}]"), Change(
            "leave_out_oldest_media", "leave-out-oldest-media",
            f"{kind} left out, one of the {total - limit} oldest: the target takes at most "
            f"{limit} images and documents in a request", where, False)

    return map_content_parts(draft, Media, replaced)

