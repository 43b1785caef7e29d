"""replace_invalid_pdfs (rule document-data-invalid): Anthropic refuses an inline document
declared a PDF whose data is no PDF ("messages.28.content.0.pdf.source.base64.data: The PDF
specified was not valid.", anthropics/claude-code#25323: an HTML page or a text file read as
.pdf, and `%PDF-1.4 not really a pdf`); every later request of the session failed the same
way. normalize sends such a document as a text saying what was left out. Sent through the
anthropic SDK to the emulator."""

from __future__ import annotations

import base64
from typing import Any

import pytest
import sdk_calls as calls
from sample_pdf import PDF_BASE64, pdf_bytes

from normalizer import check, normalize_request
from normalizer.pdf_bytes import pdf_problem

FAKE = base64.b64encode(b"%PDF-1.4 not really a pdf\n").decode()
HTML = base64.b64encode(b"<!doctype html><html><body>Report</body></html>").decode()


def _body(data: str, *, in_result: bool = False) -> dict[str, Any]:
    document = {"type": "document", "source": {"type": "base64", "media_type": "application/pdf",
                                               "data": data}}
    read = {"type": "tool_use", "id": "toolu_01", "name": "Read",
            "input": {"file_path": "/tmp/report.pdf"}}
    result: dict[str, Any] = {"type": "tool_result", "tool_use_id": "toolu_01",
                              "content": [document] if in_result else "PDF read"}
    turn = [result] if in_result else [document, result]
    return {"model": "claude-haiku-4-5", "max_tokens": 64,
            "tools": [{"name": "Read", "description": "Read a file.", "input_schema": {
                "type": "object", "properties": {"file_path": {"type": "string"}}}}],
            "messages": [{"role": "user", "content": "Summarize /tmp/report.pdf."},
                         {"role": "assistant", "content": [read]},
                         {"role": "user", "content": turn}]}


def test_the_marks_of_a_pdf_are_read_at_both_ends() -> None:
    assert pdf_problem(PDF_BASE64) is None
    assert pdf_problem(FAKE) == "no %%EOF in its last 1,024 bytes"
    assert pdf_problem(HTML) == "no %PDF- header in its first 1,024 bytes"
    padded = base64.b64encode(b"\0" * 900 + pdf_bytes() + b"\n" * 900).decode()
    assert pdf_problem(padded) is None  # both marks within 1,024 bytes of the ends
    long = base64.b64encode(pdf_bytes() + b" " * 5000).decode()
    assert pdf_problem(long) == "no %%EOF in its last 1,024 bytes"
    assert pdf_problem("https://example.com/report.pdf") is None  # not base64: another rule


@pytest.mark.parametrize(("data", "in_result", "at"), [
    (FAKE, False, "messages.2.content.0.pdf.source.base64.data"),
    (HTML, True, "messages.2.content.0.tool_result.content.0.pdf.source.base64.data")])
def test_a_document_that_is_no_pdf_is_refused_and_left_out(
        emu: Any, data: str, in_result: bool, at: str) -> None:
    body = _body(data, in_result=in_result)
    words = f"{at}: The PDF specified was not valid."
    (found,) = check(body, "anthropic")
    assert (found.rule, found.location, found.message) == ("document-data-invalid", at, words)
    sdk = calls.client("anthropic", emu.sdk_base_url("anthropic"))
    assert calls.refused("anthropic", sdk, body) == calls.SdkError(400, words)
    fixed = normalize_request(body, "anthropic", "anthropic")
    assert [(c.code, c.lossless) for c in fixed.changes] == [("replace-invalid-pdf", False)]
    assert check(fixed.body, "anthropic") == ()
    assert "was left out here: its data is no PDF" in str(fixed.body["messages"][2])
    assert calls.text_of("anthropic", calls.send("anthropic", sdk, fixed.body))


def test_a_whole_pdf_is_sent_as_it_came() -> None:
    body = _body(PDF_BASE64)
    assert check(body, "anthropic") == ()
    assert normalize_request(body, "anthropic", "anthropic").changes == ()
