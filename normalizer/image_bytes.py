"""What base64 image data holds, read off its first bytes: its type (a history crossing
vendors may carry an image under another type than its bytes, a JPEG screenshot labelled
image/png, which Anthropic refuses: "messages.18.content.1.image.source.base64.data: Image
does not match the provided media type image/png", anthropics/claude-code#13131), its
size in pixels, and whether it is base64 at all."""

from __future__ import annotations

import base64
import binascii
import re
from collections.abc import Callable

# The four image types every vendor here takes (Anthropic's list; OpenAI's and Moonshot's too).
KNOWN = ("image/jpeg", "image/png", "image/gif", "image/webp")


# Characters no base64 text holds, in either alphabet (standard or URL-safe), with or
# without padding and line breaks: a URL's ':' and '.', a data URL's ';' and ','.
_NOT_BASE64 = re.compile(r"[^A-Za-z0-9+/=_\-\s]")


def not_base64(data: str) -> bool:
    """Whether `data` cannot be base64 text: it holds a character of neither alphabet (an
    https URL, a file path, or a whole data URL where its bare base64 goes). Padding and
    length are not judged: what a vendor's decoder forgives there is not known."""
    return _NOT_BASE64.search(data) is not None


def data_url(url: str) -> tuple[str, str] | None:
    """(header, payload) of a data URL, split at its first comma (`data:image/png;base64`,
    `iVBOR…`); None for anything else. The payload is base64 where the header ends in
    `;base64`."""
    if not url.startswith("data:"):
        return None
    head, comma, payload = url.partition(",")
    return (head, payload) if comma else None


def bytes_type(url: str) -> str | None:
    """The type of the bytes a non-empty data URL holds, as `sniffed_content_type` names it:
    None where the URL is not a data URL or is empty, "" where its payload is not base64
    (no bytes, so no image of any type)."""
    split = data_url(url)
    if split is None or not split[1].strip():
        return None
    head, payload = split
    return (sniffed_content_type(payload) or "") if head.endswith(";base64") else ""


# Go's net/http content sniffing (DetectContentType), for what an image part carries: a
# server written in Go that checks an upload names its type so. Moonshot's answer for an SVG,
# "unsupported image format: text/plain; charset=utf-8", is that function's for text.
_SNIFFED = ((b"\x89PNG\r\n\x1a\n", "image/png"), (b"\xff\xd8\xff", "image/jpeg"),
            (b"GIF87a", "image/gif"), (b"GIF89a", "image/gif"), (b"BM", "image/bmp"),
            (b"\x00\x00\x01\x00", "image/x-icon"), (b"\x00\x00\x02\x00", "image/x-icon"),
            (b"%PDF-", "application/pdf"))
_BINARY = frozenset((*range(0x00, 0x09), 0x0B, *range(0x0E, 0x1B), *range(0x1C, 0x20)))


def sniffed_content_type(data: str) -> str | None:
    """The content type Go's DetectContentType gives the first 512 bytes of base64 `data`,
    for the image formats, XML, PDF and text (HTML and the rarer formats it knows are not
    told apart: they read as text or as application/octet-stream); None where the data is
    not base64."""
    head = decoded_head(data, 684)  # 512 bytes
    return None if head is None else _sniffed(head[:512])


def sniffed_image_type(data: str) -> str | None:
    """The type of the image whose base64 `data` this is, when its first bytes are those of
    a PNG, JPEG, GIF or WebP file; None otherwise (or where the data is not base64). Only
    the first 16 characters are decoded."""
    first = decoded_head(data, 16)
    found = None if first is None else _sniffed(first)
    return found if found in KNOWN else None


def _sniffed(head: bytes) -> str:
    """`head`'s content type, by its first bytes (WebP: RIFF, a size, WEBP), then as text."""
    for signature, found in _SNIFFED:
        if head.startswith(signature):
            return found
    if head[:4] == b"RIFF" and head[8:12] == b"WEBP":
        return "image/webp"
    if head.lstrip(b"\t\n\x0c\r ").startswith(b"<?xml"):
        return "text/xml; charset=utf-8"
    if any(b in _BINARY for b in head):
        return "application/octet-stream"
    return "text/plain; charset=utf-8"


def mismatched(declared: object, data: object) -> str | None:
    """The type `data` really holds, where `declared` is one of the four known types and
    the bytes are of another of them; None where they agree or either is unknown."""
    if not isinstance(declared, str) or declared not in KNOWN or not isinstance(data, str):
        return None
    found = sniffed_image_type(data)
    return found if found is not None and found != declared else None


# JPEG's start-of-frame markers (baseline, progressive, lossless, ...): every 0xC0-0xCF but
# DHT (C4), JPG (C8) and DAC (CC), which share the range and hold no size.
_JPEG_FRAMES = frozenset(range(0xC0, 0xD0)) - {0xC4, 0xC8, 0xCC}


def image_dimensions(data: str) -> tuple[int, int] | None:
    """(width, height) in pixels of the PNG, JPEG, GIF or WebP image whose base64 `data`
    this is, read off its header; None where the data is not base64 or not one of those
    four, or its header is cut short. Only as much of the data is decoded as the header
    needs (a JPEG's frame header may follow tens of kilobytes of metadata), and no more than
    _HEADER_CHARS: a frame header further in is not looked for (the size is then unknown)."""
    size = 64
    while True:
        head = decoded_head(data, size)
        if head is None:
            return None
        found = _dimensions(head)
        if found != _MORE:
            return found
        if size >= len(data) or size >= _HEADER_CHARS:
            return None
        size *= 8


# Base64 characters of a header at most: 1.5 MB of bytes, far past the metadata segments a
# real JPEG puts before its frame header (64 KB each), and a bound on the walk of a hostile
# one made of tiny segments.
_HEADER_CHARS = 64 * 8 ** 5  # 2,097,152


_MORE = (-1, -1)  # the header goes on past the bytes decoded so far


_URL_SAFE = str.maketrans("-_", "+/")


def decoded_head(data: str, chars: int) -> bytes | None:
    """The bytes of base64 `data`'s first `chars` characters (either alphabet: Gemini's
    recorded bodies carry URL-safe data; line breaks dropped), whole quanta only; None where
    they are not base64."""
    text = "".join(data[:chars].split()).translate(_URL_SAFE)
    # Whole quanta only: a head is read, never the end, and unpadded data ends short.
    text = text[: len(text) - len(text) % 4]
    try:
        return base64.b64decode(text, validate=True)
    except (binascii.Error, ValueError):
        return None


def decoded_tail(data: str, chars: int) -> bytes | None:
    """The bytes of base64 `data`'s last `chars` characters or a few more (from the start of
    a quantum, the missing padding supplied), either alphabet, line breaks dropped; None
    where they are not base64."""
    text = "".join(data.split()) if any(c.isspace() for c in data[-chars:]) else data
    start = max(0, len(text) - chars)
    piece = text[start - start % 4:].translate(_URL_SAFE)
    try:
        return base64.b64decode(piece + "=" * (-len(piece) % 4), validate=True)
    except (binascii.Error, ValueError):
        return None



def _dimensions(head: bytes) -> tuple[int, int] | None:
    if head.startswith(b"\x89PNG\r\n\x1a\n"):
        return _more_or(head, 24, lambda: (int.from_bytes(head[16:20], "big"),
                                           int.from_bytes(head[20:24], "big")))
    if head[:6] in (b"GIF87a", b"GIF89a"):
        return _more_or(head, 10, lambda: (int.from_bytes(head[6:8], "little"),
                                           int.from_bytes(head[8:10], "little")))
    if head[:4] == b"RIFF" and head[8:12] == b"WEBP":
        return _webp(head)
    if head.startswith(b"\xff\xd8\xff"):
        return _jpeg(head)
    return None


def _more_or(head: bytes, needed: int, read: Callable[[], tuple[int, int]]
             ) -> tuple[int, int]:
    return read() if len(head) >= needed else _MORE


def _webp(head: bytes) -> tuple[int, int] | None:
    """The three WebP forms: lossy (VP8), lossless (VP8L) and extended (VP8X)."""
    if len(head) < 30:
        return _MORE
    chunk = head[12:16]
    if chunk == b"VP8 ":
        return (int.from_bytes(head[26:28], "little") & 0x3FFF,
                int.from_bytes(head[28:30], "little") & 0x3FFF)
    if chunk == b"VP8L":
        bits = int.from_bytes(head[21:25], "little")
        return (bits & 0x3FFF) + 1, ((bits >> 14) & 0x3FFF) + 1
    if chunk == b"VP8X":
        return (int.from_bytes(head[24:27], "little") + 1,
                int.from_bytes(head[27:30], "little") + 1)
    return None


def _jpeg(head: bytes) -> tuple[int, int] | None:
    """The size in the first start-of-frame segment (FF Cn, length, precision, height,
    width), walking the segments before it."""
    at = 2
    while at + 4 <= len(head):
        if head[at] != 0xFF:
            return None  # not at a marker: not a JPEG this can read
        marker = head[at + 1]
        if marker == 0xFF:  # a fill byte before the marker
            at += 1
        elif marker in _JPEG_FRAMES:
            if at + 9 > len(head):
                return _MORE
            return (int.from_bytes(head[at + 7:at + 9], "big"),
                    int.from_bytes(head[at + 5:at + 7], "big"))
        elif marker in (0xD9, 0xDA):  # the end, or the scan, before any frame header
            return None
        elif 0xD0 <= marker <= 0xD7 or marker == 0x01:  # markers with no length
            at += 2
        else:
            at += 2 + int.from_bytes(head[at + 2:at + 4], "big")
    return _MORE
