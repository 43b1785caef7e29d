"""An inline image whose bytes are another type than its label (rule
image-media-type-mismatch): Anthropic reads the bytes ("messages.2.content.0.image.source.
base64.data: Image does not match the provided media type image/png", anthropics/claude-code
#6300), and the repair labels the image as its bytes are. An image with no data at all (rule
image-data-empty): OpenAI's Responses API refuses it, and it becomes a text saying so. Through
the official SDKs against the emulator."""

from __future__ import annotations

import base64
from typing import Any

import pytest
import sdk_calls as calls

from conformance.emulator import Emulator
from normalizer import check, normalize_request
from normalizer.image_bytes import mismatched, sniffed_image_type

PNG = ("iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAIAAACQd1PeAAAADElEQVR4nGP4//8/AAX+Av4N70a4AAAAAElF"
       "TkSuQmCC")
GIF = "R0lGODlhAQABAIAAAP///wAAACH5BAEAAAAALAAAAAABAAEAAAICRAEAOw=="
JPEG = base64.b64encode(b"\xff\xd8\xff\xe0\x00\x10JFIF\x00\x01\x01\x00\x00\x01").decode()
WEBP = base64.b64encode(b"RIFF\x24\x00\x00\x00WEBPVP8 \x18\x00\x00\x00").decode()


def image(media_type: str, data: str) -> dict[str, Any]:
    return {"type": "image", "source": {"type": "base64", "media_type": media_type,
                                        "data": data}}


def body(*blocks: dict[str, Any]) -> dict[str, Any]:
    return {"model": "claude-haiku-4-5", "max_tokens": 64, "messages": [
        {"role": "user", "content": [{"type": "text", "text": "What colour?"}, *blocks]}]}


def test_the_first_bytes_name_the_type() -> None:
    assert [sniffed_image_type(d) for d in (PNG, GIF, JPEG, WEBP)] == [
        "image/png", "image/gif", "image/jpeg", "image/webp"]
    assert sniffed_image_type("not base64!") is None
    assert sniffed_image_type(base64.b64encode(b"%PDF-1.7 ...").decode()) is None
    assert mismatched("image/jpeg", PNG) == "image/png"
    assert mismatched("image/png", PNG) is None
    assert mismatched("image/heic", PNG) is None  # a type Anthropic refuses by its name


def test_a_wrong_label_is_refused_where_the_api_says_and_relabelled() -> None:
    raw = body(image("image/jpeg", PNG))
    (found,) = check(raw, "anthropic")
    assert (found.rule, found.message) == (
        "image-media-type-mismatch",
        "messages.0.content.1.image.source.base64.data: Image does not match the provided "
        "media type image/jpeg")
    fixed = normalize_request(raw, "anthropic", "anthropic")
    assert [(c.code, c.where, c.lossless) for c in fixed.changes] == [
        ("correct-image-media-type", "messages[0].parts[1]", True)]
    assert fixed.body["messages"][0]["content"][1]["source"] == {
        "type": "base64", "media_type": "image/png", "data": PNG}
    assert check(fixed.body, "anthropic") == ()
    for right in (image("image/png", PNG), image("image/gif", GIF), image("image/webp", WEBP)):
        assert check(body(right), "anthropic") == ()


@pytest.mark.parametrize("label", ["image/png", "image/gif", "image/webp"])
def test_a_jpeg_under_any_other_label_is_refused(label: str) -> None:
    (found,) = check(body(image(label, JPEG)), "anthropic")
    assert found.message.endswith(f"media type {label}")


def test_a_mislabelled_image_crossing_from_chat_is_relabelled(emu: Emulator) -> None:
    chat = {"model": "gpt-4.1-mini", "messages": [{"role": "user", "content": [
        {"type": "text", "text": "What colour?"},
        {"type": "image_url", "image_url": {"url": f"data:image/jpeg;base64,{PNG}"}}]}]}
    fixed = normalize_request(chat, "openai_chat", "anthropic")
    assert "correct-image-media-type" in [c.code for c in fixed.changes]
    sdk = calls.client("anthropic", emu.sdk_base_url("anthropic"))
    assert calls.refused("anthropic", sdk, body(image("image/jpeg", PNG))).status == 400
    assert calls.send("anthropic", sdk, fixed.body) is not None


EMPTY_WORDS = ("Invalid 'input[0].content[1].image_url'. Expected a base64-encoded data URL "
               "with an image MIME type (e.g. 'data:image/png;base64,aW1nIGJ5dGVzIGhlcmU='), "
               "but got empty base64-encoded bytes.")


def responses(url: str) -> dict[str, Any]:
    return {"model": "gpt-5-mini", "input": [{"role": "user", "content": [
        {"type": "input_text", "text": "What does it show?"},
        {"type": "input_image", "image_url": url}]}]}


def test_responses_refuses_an_image_with_no_data_and_gets_a_text_instead(
        emu: Emulator) -> None:
    raw = responses("data:image/png;base64,")
    (found,) = check(raw, "openai_responses")
    assert (found.rule, found.message, found.error["code"], found.error["param"]) == (
        "image-data-empty", EMPTY_WORDS, "invalid_value", "input[0].content[1].image_url")
    assert check(responses(f"data:image/png;base64,{PNG}"), "openai_responses") == ()
    assert check(responses("https://example.com/a.png"), "openai_responses") == ()
    fixed = normalize_request(raw, "openai_responses", "openai_responses")
    assert [(c.code, c.where, c.lossless) for c in fixed.changes] == [
        ("replace-empty-image", "messages[0].parts[1]", True)]
    assert fixed.body["input"][0]["content"][1] == {
        "type": "input_text", "text": "[an image was attached here with no data]"}
    sdk = calls.client("openai_responses", emu.sdk_base_url("openai_responses"))
    assert calls.refused("openai_responses", sdk, raw) == calls.SdkError(400, EMPTY_WORDS)
    assert calls.send("openai_responses", sdk, fixed.body) is not None
