"""OpenAI's Chat Completions reads a file part's file_data as a base64 data URL only (rule
file-data-not-data-url, pass replace_file_data_urls): braintrustdata/lingua recorded
"Invalid file data: 'messages[0].content[1].file.file_data'. Expected a base64-encoded data
URL with an application/pdf MIME type (...), but got a value without the 'data:' prefix." for
an mp3, an mp4 and a gs:// video by address, where OpenRouter takes a web address there."""

from __future__ import annotations

import openai
import pytest
import sdk_calls as calls

from conformance.emulator import Emulator
from normalizer import check, normalize_request

WORDS = ("Invalid file data: 'messages[0].content[1].file.file_data'. Expected a base64-encoded "
         "data URL with an application/pdf MIME type (e.g. "
         "'data:application/pdf;base64,SGVsbG8sIFdvcmxkIQ=='), but got a value without the "
         "'data:' prefix.")
PDF = "JVBERi0xLjQKJcOkw7zDtsOfCjIgMCBvYmoKPDwvTGVuZ3RoIDMgMCBSL0ZpbHRl"


def body(file_data: str, filename: str = "sample-3s.mp3") -> dict[str, object]:
    return {"model": "gpt-5-nano", "messages": [{"role": "user", "content": [
        {"type": "text", "text": "Transcribe this audio clip."},
        {"type": "file", "file": {"filename": filename, "file_data": file_data}}]}]}


def test_anything_but_a_data_url_is_refused_in_openais_words() -> None:
    for data in ("https://samplelib.com/mp3/sample-3s.mp3",
                 "gs://lingua-test-bucket/sample-200mb.mp4", PDF):
        (found,) = check(body(data), "openai")
        assert (found.rule, found.location, found.message) == (
            "file-data-not-data-url", "messages[0].content[1].file.file_data", WORDS), data
    assert check(body(f"data:application/pdf;base64,{PDF}", "brief.pdf"), "openai") == ()
    # OpenRouter takes an address there (pydantic-ai's recorded cassette).
    assert check(body("https://samplelib.com/mp3/sample-3s.mp3"), "openrouter") == ()


def test_an_address_becomes_a_named_placeholder_and_a_named_pdf_a_data_url() -> None:
    sent = normalize_request(body("https://samplelib.com/mp3/sample-3s.mp3"), "openai_chat",
                             "openai", model="gpt-5-nano")
    assert sent.body["messages"][0]["content"][1] == {
        "type": "text",
        "text": "[document not carried to this provider: https://samplelib.com/mp3/sample-3s.mp3]"}
    assert [(c.code, c.lossless) for c in sent.changes] == [("file-data-not-carried", False)]
    sent = normalize_request(body(PDF, "brief.pdf"), "openai_chat", "openai", model="gpt-5-nano")
    assert sent.body["messages"][0]["content"][1]["file"]["file_data"] == (
        f"data:application/pdf;base64,{PDF}")
    assert [(c.code, c.lossless) for c in sent.changes] == [("file-data-as-data-url", True)]
    # OpenRouter keeps the address as sent.
    assert normalize_request(body("https://samplelib.com/mp3/sample-3s.mp3"), "openai_chat",
                             "openrouter").changes == ()


def test_an_openrouter_history_reaches_openai_through_the_sdk(emu: Emulator) -> None:
    sdk = calls.client("openai_chat", emu.sdk_base_url("openai"))
    raw = body("https://samplelib.com/mp3/sample-3s.mp3")
    with pytest.raises(openai.BadRequestError) as refused:
        calls.send("openai_chat", sdk, raw)
    assert WORDS in str(refused.value)
    sent = normalize_request(raw, "openai_chat", "openai", model="gpt-5-nano")
    assert check(sent.body, "openai") == ()
    assert calls.text_of("openai_chat", calls.send("openai_chat", sdk, sent.body)) == "ok"
