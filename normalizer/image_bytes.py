"""The image type that base64 data holds, read off its first bytes: a history crossing
vendors may carry an image under another type than its bytes (a JPEG screenshot labelled
image/png), which Anthropic refuses ("messages.18.content.1.image.source.base64.data: Image
does not match the provided media type image/png", anthropics/claude-code#13131)."""

from __future__ import annotations

import base64
import binascii

# The four types Anthropic takes, by the bytes each starts with (WebP: RIFF, a size, WEBP).
_SIGNATURES = ((b"\x89PNG\r\n\x1a\n", "image/png"), (b"\xff\xd8\xff", "image/jpeg"),
               (b"GIF87a", "image/gif"), (b"GIF89a", "image/gif"))
KNOWN = ("image/jpeg", "image/png", "image/gif", "image/webp")


def sniffed_image_type(data: str) -> str | None:
    """The type of the image whose base64 `data` this is, when its first bytes are those of
    a PNG, JPEG, GIF or WebP file; None otherwise (or where the data is not base64). Only
    the first 16 characters are decoded."""
    head = data[:16].strip()
    try:
        first = base64.b64decode(head + "=" * (-len(head) % 4), validate=True)
    except (binascii.Error, ValueError):
        return None
    for signature, mime in _SIGNATURES:
        if first.startswith(signature):
            return mime
    if first[:4] == b"RIFF" and first[8:12] == b"WEBP":
        return "image/webp"
    return None


def mismatched(declared: object, data: object) -> str | None:
    """The type `data` really holds, where `declared` is one of the four known types and
    the bytes are of another of them; None where they agree or either is unknown."""
    if not isinstance(declared, str) or declared not in KNOWN or not isinstance(data, str):
        return None
    found = sniffed_image_type(data)
    return found if found is not None and found != declared else None
