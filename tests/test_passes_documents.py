"""send_documents_as_urls: Mistral takes an inline document as `document_url` with a data
URL and rejects OpenAI's nested `file` part with a 422 (nextcloud/integration_openai#419)."""

from __future__ import annotations

from normalizer import check, normalize_request
from normalizer.model import History, Media, Message, Text
from normalizer.normalize import normalize

PDF = "JVBERi0xLjQK"
NESTED = {"type": "file", "file": {"filename": "r.pdf",
                                   "file_data": f"data:application/pdf;base64,{PDF}"}}


def _body(*parts: dict[str, object]) -> dict[str, object]:
    return {"model": "mistral-small-latest",
            "messages": [{"role": "user", "content": [{"type": "text", "text": "q"}, *parts]}]}


def test_inline_pdf_becomes_a_document_url_with_the_same_bytes() -> None:
    body = _body(NESTED)
    assert [v.rule for v in check(body, "mistral")] == ["file-part-nested"]
    result = normalize_request(body, "openai_chat", "mistral")
    assert result.body["messages"][0]["content"][1] == {
        "type": "document_url", "document_url": f"data:application/pdf;base64,{PDF}",
        "document_name": "r.pdf"}
    assert [(c.code, c.lossless) for c in result.changes] == [("document-as-data-url", True)]
    assert check(result.body, "mistral") == ()


def test_a_file_id_is_named_in_a_lossy_placeholder() -> None:
    body = _body({"type": "file", "file": {"file_id": "file-abc123"}})
    result = normalize_request(body, "openai_chat", "mistral")
    assert result.body["messages"][0]["content"][1] == {
        "type": "text", "text": "[document not carried to this provider: file-abc123]"}
    assert [(c.code, c.lossless) for c in result.changes] == [("document-not-carried", False)]
    assert check(result.body, "mistral") == ()


def test_openai_keeps_its_own_file_part() -> None:
    body = _body(NESTED)
    assert check(body, "openai") == ()
    result = normalize_request(body, "openai_chat", "openai")
    assert result.changes == () and result.body == body


def test_an_anthropic_pdf_reaches_mistral_as_document_url() -> None:
    history = History((Message("user", (Text("q"), Media("document", "application/pdf",
                                                         data=PDF))),))
    out = normalize(history, "mistral")
    body = out.render()
    assert body["messages"][0]["content"][1]["type"] == "document_url"
    assert [c.code for c in out.changes] == ["document-as-data-url"]
    assert check(body, "mistral") == ()
