"""A smallest whole PDF for the tests that send a document: one page saying a line of text,
with its cross-reference table and %%EOF (a PDF reader, and Anthropic, read those; a header
alone is refused: anthropics/claude-code#25323)."""

from __future__ import annotations

import base64


def pdf_bytes(text: str = "Apples are tasty") -> bytes:
    """The bytes of a one-page PDF showing `text` (ASCII, no parentheses)."""
    stream = f"BT /F1 18 Tf 36 72 Td ({text}) Tj ET".encode()
    objects = [b"<< /Type /Catalog /Pages 2 0 R >>",
               b"<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
               b"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 300 144] /Contents 4 0 R "
               b"/Resources << /Font << /F1 5 0 R >> >> >>",
               b"<< /Length %d >>\nstream\n%s\nendstream" % (len(stream), stream),
               b"<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>"]
    out = b"%PDF-1.4\n"
    offsets = []
    for number, body in enumerate(objects, 1):
        offsets.append(len(out))
        out += b"%d 0 obj\n%s\nendobj\n" % (number, body)
    table = len(out)
    out += b"xref\n0 %d\n0000000000 65535 f \n" % (len(objects) + 1)
    out += b"".join(b"%010d 00000 n \n" % offset for offset in offsets)
    out += b"trailer\n<< /Size %d /Root 1 0 R >>\nstartxref\n%d\n%%%%EOF\n" % (
        len(objects) + 1, table)
    return out


PDF_BASE64 = base64.b64encode(pdf_bytes()).decode()
