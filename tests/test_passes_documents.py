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


def test_a_web_address_in_file_data_goes_back_there_and_as_each_vendor_takes_a_url() -> None:
    # OpenRouter takes a document's web address in OpenAI's `file.file_data` (pydantic-ai's
    # recorded request, in tests/data/real_requests/openai_chat/: openrouter-document-url-*).
    from normalizer import parse, render
    from normalizer.normalize import normalize

    url = "https://www.w3.org/WAI/ER/tests/xhtml/testfiles/resources/pdf/dummy.pdf"
    file_part = {"file": {"file_data": url, "filename": "filename.pdf"}, "type": "file"}
    body = {"messages": [{"content": [{"text": "What is in it?", "type": "text"}, file_part],
                          "role": "user"}], "model": "openai/gpt-4.1-mini"}
    history = parse(body, "openai_chat")
    assert history.messages[0].parts[1].url == url
    assert render(history, "openai_chat", model=body["model"]) == body
    sent = {p: normalize(history, p).render() for p in ("anthropic", "gemini", "mistral",
                                                        "openai_responses", "openrouter")}
    assert sent["anthropic"]["messages"][0]["content"][1]["source"] == {"type": "url",
                                                                        "url": url}
    assert sent["gemini"]["contents"][0]["parts"][1] == {"fileData": {"fileUri": url}}
    assert sent["mistral"]["messages"][0]["content"][1] == {
        "type": "document_url", "document_url": url, "document_name": "filename.pdf"}
    assert sent["openai_responses"]["input"][0]["content"][1]["file_url"] == url
    assert sent["openrouter"]["messages"][0]["content"][1] == file_part
    # Raw base64 in file_data stays data.
    raw = parse({"messages": [{"role": "user", "content": [
        {"type": "file", "file": {"file_data": "JVBERi0=", "filename": "a.pdf"}}]}]},
        "openai_chat")
    assert raw.messages[0].parts[0].data == "JVBERi0="
