"""More images and documents in one request than Anthropic takes (rule too-many-media): "too
many images and documents: 104 + 1 > 100" (anthropics/claude-code#23392); or a body over 32
MiB (rule request-too-large: a 413, "Request exceeds the maximum size",
anthropics/anthropic-sdk-python#938). The oldest are left out, each replaced by a text saying
so, until the count and the size are within the limits. Through the official SDK against
the emulator."""

from __future__ import annotations

from typing import Any

import sdk_calls as calls
from sample_pdf import PDF_BASE64

from conformance.emulator import Emulator
from conformance.sized_yaml import filled
from normalizer import check, normalize_request

PIXEL = ("iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAIAAACQd1PeAAAADElEQVR4nGP4//8/AAX+Av4N70a4AAAAAElF"
         "TkSuQmCC")
IMAGE = {"type": "image", "source": {"type": "base64", "media_type": "image/png", "data": PIXEL}}
PDF = {"type": "document", "source": {"type": "base64", "media_type": "application/pdf",
                                      "data": PDF_BASE64}}


def screenshots(images: int, documents: int = 0) -> dict[str, Any]:
    """A session that read a screenshot at every step: one per tool result, then the
    documents in the last user message."""
    messages: list[dict[str, Any]] = [{"role": "user", "content": "Check every page."}]
    for n in range(images):
        messages.append({"role": "assistant", "content": [
            {"type": "tool_use", "id": f"toolu_{n:03d}", "name": "shot", "input": {}}]})
        messages.append({"role": "user", "content": [
            {"type": "tool_result", "tool_use_id": f"toolu_{n:03d}", "content": [IMAGE]}]})
    messages.append({"role": "assistant", "content": "Done."})
    messages.append({"role": "user", "content": [{"type": "text", "text": "And these?"},
                                                 *[PDF] * documents]})
    return {"model": "claude-haiku-4-5", "max_tokens": 64, "messages": messages,
            "tools": [{"name": "shot", "input_schema": {"type": "object"}}]}


def test_past_100_images_and_documents_the_request_is_refused() -> None:
    (found,) = check(screenshots(104, 1), "anthropic")
    assert (found.rule, found.message) == ("too-many-media",
                                           "too many images and documents: 104 + 1 > 100")
    assert check(screenshots(99, 1), "anthropic") == ()


def test_the_oldest_are_left_out_until_100_remain() -> None:
    fixed = normalize_request(screenshots(104, 1), "anthropic", "anthropic")
    assert [(c.code, c.where, c.lossless) for c in fixed.changes] == [
        ("leave-out-oldest-media", f"messages[{2 + 2 * n}].parts[0].content[0]", False)
        for n in range(5)]
    first = fixed.body["messages"][2]["content"][0]["content"]
    assert first == [{"type": "text", "text": "[an image was left out here: the request held "
                                              "105 images and documents, over the target's "
                                              "limit of 100]"}]
    assert fixed.body["messages"][12]["content"][0]["content"] == [IMAGE]  # the 6th stays
    assert fixed.body["messages"][-1]["content"][1] == PDF  # the newest, a document, stays
    assert check(fixed.body, "anthropic") == ()


def test_the_sdk_is_refused_and_takes_the_repair(emu: Emulator) -> None:
    sdk = calls.client("anthropic", emu.sdk_base_url("anthropic"))
    raw = screenshots(120)
    assert calls.refused("anthropic", sdk, raw) == calls.SdkError(
        400, "too many images and documents: 120 + 0 > 100")
    fixed = normalize_request(raw, "anthropic", "anthropic")
    assert len(fixed.changes) == 20
    assert calls.send("anthropic", sdk, fixed.body) is not None


def large_images(count: int, length: int) -> dict[str, Any]:
    """One user message with `count` images of `length` characters of base64 each."""
    image = {"type": "image", "source": {"type": "base64", "media_type": "image/png",
                                         "data": filled(PIXEL, length)}}
    return {"model": "claude-haiku-4-5", "max_tokens": 64, "messages": [
        {"role": "user", "content": [{"type": "text", "text": "Compare these."},
                                     *[image] * count]}]}


def test_a_body_over_32_mib_is_refused_with_413_before_any_other_rule() -> None:
    (found,) = check(large_images(4, 8_400_000), "anthropic")
    assert (found.rule, found.status, found.message, found.error["type"]) == (
        "request-too-large", 413, "Request exceeds the maximum size", "request_too_large")
    assert check(large_images(4, 8_300_000), "anthropic") == ()  # 33.2 MB of data, and text


def test_the_oldest_images_go_until_the_body_fits(emu: Emulator) -> None:
    raw = large_images(5, 8_400_000)
    fixed = normalize_request(raw, "anthropic", "anthropic")
    assert [(c.code, c.where, c.lossless) for c in fixed.changes] == [
        ("leave-out-oldest-media", f"messages[0].parts[{j}]", False) for j in (1, 2)]
    assert fixed.body["messages"][0]["content"][1]["text"] == (
        "[an image was left out here: with it, the request's images and documents were over "
        "the 33,554,432 bytes the target takes in a request]")
    assert check(fixed.body, "anthropic") == ()
    sdk = calls.client("anthropic", emu.sdk_base_url("anthropic"))
    assert calls.refused("anthropic", sdk, raw) == calls.SdkError(
        413, "Request exceeds the maximum size")
    assert calls.send("anthropic", sdk, fixed.body) is not None
