"""An image whose bytes are of a format the target does not take (rule
image-format-unsupported): OpenAI's Responses API answers an SVG "The image data you provided
does not represent a valid image. Please check your input and try again with one of the
supported image formats: ['image/jpeg', 'image/png', 'image/gif', 'image/webp']."
(openai/codex#7459). The bytes decide, not the declared type. The repair sends a text saying
what was left out. Through the official SDK against the emulator."""

from __future__ import annotations

import base64
from typing import Any

import sdk_calls as calls

from conformance.emulator import Emulator
from normalizer import check, normalize_request
from normalizer.image_bytes import bytes_type

SVG = base64.b64encode(b'<svg xmlns="http://www.w3.org/2000/svg"/>').decode()
BMP = base64.b64encode(b"BM" + bytes(60)).decode()
PNG = ("iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAIAAACQd1PeAAAADElEQVR4nGP4//8/AAX+Av4N70a4AAAAAElF"
       "TkSuQmCC")
WORDS = ("The image data you provided does not represent a valid image. Please check your input "
         "and try again with one of the supported image formats: ['image/jpeg', 'image/png', "
         "'image/gif', 'image/webp'].")


def asking(url: str, *, in_output: bool = False) -> dict[str, Any]:
    image = {"type": "input_image", "image_url": url}
    if in_output:  # a tool that returned the image
        return {"model": "gpt-5-mini", "input": [
            {"role": "user", "content": "Open the logo."},
            {"type": "function_call", "call_id": "call_1", "name": "open", "arguments": "{}"},
            {"type": "function_call_output", "call_id": "call_1", "output": [image]}]}
    return {"model": "gpt-5-mini", "input": [{"role": "user", "content": [
        {"type": "input_text", "text": "What is this?"}, image]}]}


def rules(body: dict[str, Any]) -> list[tuple[str, str]]:
    return [(v.rule, v.location) for v in check(body, "openai_responses")]


def test_an_svg_or_a_bmp_is_refused_in_openais_words() -> None:
    (found,) = check(asking(f"data:image/svg+xml;base64,{SVG}"), "openai_responses")
    assert (found.rule, found.location, found.message) == (
        "image-format-unsupported", "input[0].content[1].image_url", WORDS)
    assert dict(found.error) == {"type": "invalid_request_error", "param": "input",
                                 "code": "invalid_value"}
    assert rules(asking(f"data:image/bmp;base64,{BMP}", in_output=True)) == [
        ("image-format-unsupported", "input[2].output[0].image_url")]


def test_the_bytes_decide_not_the_declared_type() -> None:
    assert rules(asking(f"data:image/jpeg;base64,{PNG}")) == []  # a PNG labelled JPEG
    assert rules(asking(f"data:image/png;base64,{SVG}")) == [  # an SVG labelled PNG
        ("image-format-unsupported", "input[0].content[1].image_url")]
    assert rules(asking("data:image/svg+xml,%3Csvg%2F%3E")) == [  # not base64: no image
        ("image-format-unsupported", "input[0].content[1].image_url")]
    assert rules(asking("https://example.com/logo.svg")) == []  # fetched by the vendor
    assert rules(asking("data:image/png;base64,")) == [  # empty: the other rule's
        ("image-data-empty", "input[0].content[1].image_url")]


def test_the_image_becomes_a_text_naming_what_was_left_out() -> None:
    fixed = normalize_request(asking(f"data:image/bmp;base64,{BMP}", in_output=True),
                              "openai_responses", "openai_responses")
    assert [(c.code, c.where, c.lossless) for c in fixed.changes] == [
        ("replace-unsupported-image", "messages[2].parts[0].content[0]", False)]
    assert fixed.body["input"][2]["output"] == [{
        "type": "input_text",
        "text": "[an image (image/bmp) was left out here: its bytes are not an image of a "
                "format the target takes (image/jpeg, image/png, image/gif, image/webp)]"}]
    assert check(fixed.body, "openai_responses") == ()
    kept = asking(f"data:image/jpeg;base64,{PNG}")
    assert normalize_request(kept, "openai_responses", "openai_responses").changes == ()


def test_other_vendors_are_not_asked_to_refuse_it() -> None:
    # Only OpenAI's Responses answer is known; the rule is its profile's alone.
    for provider in ("xai_responses", "deepseek_responses", "azure_openai_responses"):
        assert check(asking(f"data:image/svg+xml;base64,{SVG}"), provider) == ()


def test_the_sdk_is_refused_and_takes_the_repair(emu: Emulator) -> None:
    sdk = calls.client("openai_responses", emu.sdk_base_url("openai_responses"))
    raw = asking(f"data:image/svg+xml;base64,{SVG}")
    assert calls.refused("openai_responses", sdk, raw) == calls.SdkError(400, WORDS)
    fixed = normalize_request(raw, "openai_responses", "openai_responses")
    assert calls.send("openai_responses", sdk, fixed.body) is not None


ICO = base64.b64encode(b"\x00\x00\x01\x00\x01\x00\x10\x10" + bytes(14)).decode()


def chat(url: str) -> dict[str, Any]:
    return {"model": "kimi-k2-0905-preview", "messages": [{"role": "user", "content": [
        {"type": "text", "text": "What is this?"},
        {"type": "image_url", "image_url": {"url": url}}]}]}


def test_moonshot_names_the_type_of_the_bytes_as_a_go_server_sniffs_it() -> None:
    # vercel/ai#19548: an SVG answered "...: text/plain; charset=utf-8", not image/svg+xml.
    (found,) = check(chat(f"data:image/svg+xml;base64,{SVG}"), "moonshot")
    assert (found.rule, found.location, found.message) == (
        "image-format-unsupported", "messages[0].content[1].image_url",
        "Invalid request: unsupported image format: text/plain; charset=utf-8")
    assert check(chat(f"data:image/x-icon;base64,{ICO}"), "moonshot")[0].message == (
        "Invalid request: unsupported image format: image/x-icon")
    assert check(chat(f"data:image/png;base64,{BMP}"), "moonshot")[0].message.endswith(
        "image/bmp")
    assert check(chat(f"data:image/svg+xml;base64,{PNG}"), "moonshot") == ()  # the bytes
    assert check(chat("data:image/png;base64,"), "moonshot") == ()  # not this rule's
    assert check(chat(f"data:image/svg+xml;base64,{SVG}"), "openai") != ()  # declared type
    assert check(chat(f"data:image/svg+xml;base64,{SVG}"), "groq") == ()


def test_moonshot_is_refused_through_the_sdk_and_takes_the_repair(emu: Emulator) -> None:
    sdk = calls.client("openai_chat", emu.sdk_base_url("moonshot"))
    raw = chat(f"data:image/x-icon;base64,{ICO}")
    assert calls.refused("openai_chat", sdk, raw) == calls.SdkError(
        400, "Invalid request: unsupported image format: image/x-icon")
    fixed = normalize_request(raw, "openai_chat", "moonshot")
    assert [c.code for c in fixed.changes] == ["replace-unsupported-image"]
    assert calls.send("openai_chat", sdk, fixed.body) is not None


def test_the_bytes_are_read_in_either_base64_alphabet_and_across_line_breaks() -> None:
    # A recorded Gemini body (scenarios/real/gemini-user-inline-image.yaml) carries URL-safe
    # base64; a PEM-style client breaks lines. Both are a PNG's bytes.
    head = "iVBORw0KGgoAAAANSUhEUgAAADwAAAAeCAIAAAD_-uoYAAAVQUlEQVR4AQE2Fcnq"
    assert bytes_type(f"data:image/png;base64,{head}") == "image/png"
    assert bytes_type(f"data:image/png;base64,{PNG[:20]}\n{PNG[20:]}") == "image/png"
    assert bytes_type(f"data:image/png;base64,{PNG[:-1]}") == "image/png"  # cut short
    assert bytes_type("data:image/png;base64,") is None  # empty: another rule's
    assert bytes_type("data:image/svg+xml,%3Csvg%2F%3E") == ""  # not base64: no bytes
    assert bytes_type("https://example.com/a.png") is None


def claude(data: str, media_type: str = "image/png") -> dict[str, Any]:
    image = {"type": "image", "source": {"type": "base64", "media_type": media_type,
                                         "data": data}}
    return {"model": "claude-haiku-4-5", "max_tokens": 64, "messages": [
        {"role": "user", "content": [{"type": "text", "text": "What is this?"}, image]}]}


def test_anthropic_cannot_process_bytes_of_no_format_it_takes() -> None:
    # anthropics/claude-code#60920: "Unable to determine image format" in the client's log,
    # then "Could not process image" with its request id.
    (found,) = check(claude(BMP), "anthropic")
    assert (found.rule, found.location, found.message) == (
        "image-format-unsupported", "messages.0.content.1.image.source.base64",
        "Could not process image")
    # Bytes of another of the four types are the mismatch rule's, with the type named.
    (found,) = check(claude(PNG, "image/jpeg"), "anthropic")
    assert found.rule == "image-media-type-mismatch"
    assert check(claude(PNG), "anthropic") == ()
    fixed = normalize_request(claude(SVG), "anthropic", "anthropic")
    assert [c.code for c in fixed.changes] == ["replace-unsupported-image"]
    assert check(fixed.body, "anthropic") == ()


def test_anthropic_is_refused_through_the_sdk_and_takes_the_repair(emu: Emulator) -> None:
    sdk = calls.client("anthropic", emu.sdk_base_url("anthropic"))
    assert calls.refused("anthropic", sdk, claude(BMP)) == calls.SdkError(
        400, "Could not process image")
    fixed = normalize_request(claude(BMP), "anthropic", "anthropic")
    assert calls.send("anthropic", sdk, fixed.body) is not None
