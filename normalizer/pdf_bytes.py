"""Whether base64 data holds a PDF at all, read off its first and last bytes.

A PDF starts with a `%PDF-` header and ends with an `%%EOF` marker after its
cross-reference table (ISO 32000-1, 7.5.2 and 7.5.5; readers look for the header in the
first 1,024 bytes and the marker in the last 1,024). Anthropic refuses a document block
whose data is not a PDF it can open ("messages.28.content.0.pdf.source.base64.data: The PDF
specified was not valid.", anthropics/claude-code#25323: an HTML page or a text file named
.pdf, and `%PDF-1.4 not really a pdf`, which has the header and no end). Only those two
marks are read: a PDF damaged between them is not caught here.
"""

from __future__ import annotations

from normalizer.image_bytes import decoded_head, decoded_tail, not_base64

_WINDOW = 1024  # bytes searched at each end, as PDF readers search them
_CHARS = (_WINDOW + 2) // 3 * 4 + 4  # base64 characters that hold them, and a quantum more


def pdf_problem(data: str) -> str | None:
    """What makes base64 `data` not a PDF ("no %PDF- header in its first 1,024 bytes", "no
    %%EOF in its last 1,024 bytes"), or None where both marks are there. Data that is not
    base64 at all is None too: that is another rule's."""
    if not_base64(data):
        return None
    head = decoded_head(data, _CHARS)
    if head is None:
        return None
    if b"%PDF-" not in head[:_WINDOW]:
        return "no %PDF- header in its first 1,024 bytes"
    tail = decoded_tail(data, _CHARS)
    if tail is None:
        return None
    return None if b"%%EOF" in tail[-_WINDOW:] else "no %%EOF in its last 1,024 bytes"
