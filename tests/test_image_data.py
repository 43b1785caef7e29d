"""An image's data that is empty or not base64 text: Anthropic answers "{at}: image cannot
be empty" (anthropics/claude-code#12750) and "{at}: invalid base64 data"
(anthropics/anthropic-sdk-typescript#603, felixarntz/ai-services#19, a whole data URL sent
as the data); Gemini "Invalid value at '{field}' (TYPE_BYTES), Base64 decoding failed for
"{value}"" (danny-avila/LibreChat#6593, an S3 URL). The repair strips a data URL's header
(lossless) or says in a text what the data held (lossy). Through the official SDKs against
the emulator; google-genai refuses such a body itself."""

from __future__ import annotations

from typing import Any

import pydantic
import pytest
import sdk_calls as calls

from conformance.emulator import Emulator
from normalizer import check, normalize_request
from normalizer.image_bytes import not_base64

PIXEL = ("iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAIAAACQd1PeAAAADElEQVR4nGP4//8/AAX+Av4N70a4AAAAAElF"
         "TkSuQmCC")
URL = "https://cdn.example.com/images/shot.png?X-Amz-Expires=86400"


def claude(*datas: str, in_result: bool = False) -> dict[str, Any]:
    images = [{"type": "image", "source": {"type": "base64", "media_type": "image/png",
                                           "data": d}} for d in datas]
    if in_result:
        return {"model": "claude-haiku-4-5", "max_tokens": 64,
                "tools": [{"name": "shot", "input_schema": {"type": "object"}}],
                "messages": [
                    {"role": "user", "content": "Take a screenshot."},
                    {"role": "assistant", "content": [
                        {"type": "tool_use", "id": "toolu_01", "name": "shot", "input": {}}]},
                    {"role": "user", "content": [{"type": "tool_result",
                                                  "tool_use_id": "toolu_01",
                                                  "content": images}]}]}
    return {"model": "claude-haiku-4-5", "max_tokens": 64, "messages": [
        {"role": "user", "content": [{"type": "text", "text": "What is this?"}, *images]}]}


def gemini(*datas: str) -> dict[str, Any]:
    return {"contents": [{"role": "user", "parts": [
        {"text": "What is this?"},
        *[{"inline_data": {"mime_type": "image/png", "data": d}} for d in datas]]}]}


def test_what_is_not_base64() -> None:
    assert not_base64(URL) and not_base64(f"data:image/png;base64,{PIXEL}")
    assert not not_base64(PIXEL) and not not_base64("iVBO\nRw0K") and not not_base64("a-b_c")
    assert not not_base64("iVBORw0")  # cut or unpadded data is not judged


def test_anthropic_refuses_empty_and_non_base64_data_in_its_words() -> None:
    found = check(claude("", f"data:image/png;base64,{PIXEL}"), "anthropic")
    assert [(v.rule, v.message) for v in found] == [
        ("image-data-empty", "messages.0.content.1.image.source.base64: image cannot be empty"),
        ("image-data-not-base64",
         "messages.0.content.2.image.source.base64: invalid base64 data")]
    (found,) = check(claude(URL, in_result=True), "anthropic")
    assert found.message == ("messages.2.content.0.tool_result.content.0.image.source.base64: "
                             "invalid base64 data")
    assert check(claude(PIXEL), "anthropic") == ()


def test_gemini_names_each_field_and_the_value() -> None:
    found = check(gemini(URL, "/api/attachments/file?id=42"), "gemini")
    assert [v.message for v in found] == [
        f"Invalid value at 'contents[0].parts[1].inline_data.data' (TYPE_BYTES), Base64 "
        f'decoding failed for "{URL}"',
        "Invalid value at 'contents[0].parts[2].inline_data.data' (TYPE_BYTES), Base64 "
        'decoding failed for "/api/attachments/file?id=42"']
    assert dict(found[0].error) == {"code": 400, "status": "INVALID_ARGUMENT"}


def test_a_data_url_loses_its_header_and_anything_else_becomes_a_text() -> None:
    fixed = normalize_request(claude(f"data:image/png;base64,{PIXEL}", URL, ""),
                              "anthropic", "anthropic")
    assert [(c.code, c.where, c.lossless) for c in fixed.changes] == [
        ("replace-empty-image", "messages[0].parts[3]", True),
        ("strip-data-url-header", "messages[0].parts[1]", True),
        ("replace-unreadable-image", "messages[0].parts[2]", False)]
    content = fixed.body["messages"][0]["content"]
    assert content[1]["source"]["data"] == PIXEL
    assert content[2] == {"type": "text", "text": "[an image was attached here whose data was "
                                                  f"not base64 but: {URL}]"}
    assert check(fixed.body, "anthropic") == ()
    fixed = normalize_request(gemini(URL), "gemini", "gemini")
    assert [c.code for c in fixed.changes] == ["replace-unreadable-image"]
    assert check(fixed.body, "gemini") == ()


def test_a_long_value_is_shown_cut() -> None:
    fixed = normalize_request(claude("x:" + "y" * 500), "anthropic", "anthropic")
    text = fixed.body["messages"][0]["content"][1]["text"]
    assert text.endswith("y" * 198 + "…]") and len(text) < 280


def test_the_anthropic_sdk_is_refused_and_takes_the_repair(emu: Emulator) -> None:
    sdk = calls.client("anthropic", emu.sdk_base_url("anthropic"))
    raw = claude(f"data:image/png;base64,{PIXEL}")
    assert calls.refused("anthropic", sdk, raw) == calls.SdkError(
        400, "messages.0.content.1.image.source.base64: invalid base64 data")
    assert calls.send("anthropic", sdk, normalize_request(raw, "anthropic", "anthropic").body)


def test_google_genai_refuses_it_itself_and_sends_the_repair(emu: Emulator) -> None:
    sdk = calls.client("gemini", emu.sdk_base_url("gemini"))
    with pytest.raises(pydantic.ValidationError, match="valid base64"):
        calls.send("gemini", sdk, gemini(URL), model="gemini-2.5-flash")
    fixed = normalize_request(gemini(URL), "gemini", "gemini")
    assert calls.send("gemini", sdk, fixed.body, model="gemini-2.5-flash") is not None


def test_gemini_takes_the_repair_for_a_document_too(emu: Emulator) -> None:
    # Google's parser decodes every inline data as bytes, whatever its MIME type: a PDF
    # attached by its app path is refused as an image is (check() flags every inlineData).
    body = {"contents": [{"role": "user", "parts": [
        {"text": "Summarise these."},
        {"inline_data": {"mime_type": "application/pdf", "data": "/api/attachments/file?id=42"}},
        {"inline_data": {"mime_type": "application/pdf",
                         "data": "data:application/pdf;base64,JVBERi0xLjQK"}}]}]}
    assert [v.location for v in check(body, "gemini")] == [
        "contents[0].parts[1].inline_data.data", "contents[0].parts[2].inline_data.data"]
    fixed = normalize_request(body, "gemini", "gemini")
    assert [(c.code, c.lossless) for c in fixed.changes] == [
        ("replace-unreadable-media", False), ("strip-data-url-header", True)]
    parts = fixed.body["contents"][0]["parts"]
    assert parts[1] == {"text": "[a document was attached here whose data was not base64 but: "
                                "/api/attachments/file?id=42]"}
    assert parts[2]["inlineData"] == {"mimeType": "application/pdf", "data": "JVBERi0xLjQK"}
    assert check(fixed.body, "gemini") == ()
    sdk = calls.client("gemini", emu.sdk_base_url("gemini"))
    assert calls.send("gemini", sdk, fixed.body, model="gemini-2.5-flash") is not None
    # Anthropic's check is of images only, and so is its repair.
    assert normalize_request(claude(PIXEL), "anthropic", "anthropic").changes == ()
