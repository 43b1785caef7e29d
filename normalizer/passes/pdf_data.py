"""Content pass: an inline PDF whose data holds no PDF."""

from __future__ import annotations

from normalizer.model import Change, Media, Part, Text
from normalizer.passes import Draft, Policy
from normalizer.passes._content_walk import map_content_parts
from normalizer.pdf_bytes import pdf_problem
from normalizer.profiles import Profile

RULE = "document-data-invalid"


def replace_invalid_pdfs(
    draft: Draft, profile: Profile, policy: Policy
) -> tuple[Draft, tuple[Change, ...]]:
    """Fixes inline documents declared PDFs whose data holds no PDF (rule
    document-data-invalid, normalizer/pdf_bytes.py), in messages and in tool results'
    content: a web page or a text file a tool read as `.pdf`, a PDF cut short. Each becomes
    a short text naming what was left out and why, so the model knows a document was
    there. Lossy: the data is not sent (it was no PDF the target could read).

    Rejected by: Anthropic "messages.28.content.0.pdf.source.base64.data: The PDF specified
    was not valid." (anthropics/claude-code#25323, `%PDF-1.4 not really a pdf`); every
    later request of that session failed the same way, which is what this repair ends.

    Before: user [document(application/pdf, data "JVBERi0xLjQgbm90…"), text "summarize"]
    After:  user [text "[a PDF document (report.pdf) was left out here: its data is no
            PDF (no %%EOF in its last 1,024 bytes)]", text "summarize"]
    """
    if not profile.enforces(RULE):
        return draft, ()
    return map_content_parts(draft, Media, _as_text)


def _as_text(media: Media, where: str) -> tuple[Part, Change] | None:
    if media.media_type != "application/pdf" or not media.data:
        return None
    problem = pdf_problem(media.data)
    if problem is None:
        return None
    named = f" ({media.filename})" if media.filename else ""
    return Text(f"[a PDF document{named} was left out here: its data is no PDF "
                f"({problem})]"), Change(
        "replace_invalid_pdfs", "replace-invalid-pdf",
        f"an inline PDF{named} whose data holds no PDF ({problem}) sent as a text saying so: "
        "the target refuses it", where, False)
