"""Inline images larger than Anthropic takes, in pixels (rules image-dimensions-too-large and
many-image-dimensions-too-large): "messages.7.content.2.image.source.base64.data: At least
one of the image dimensions exceed max allowed size: 8000 pixels" (anthropics/claude-code
#4778), and "…for many-image requests: 2000 pixels" past 20 images (#17513); or in the
length of their base64 data (rule image-too-large: 5 MB, 10 MB since mid-2026). The sizes
are read off the images' headers; the repair leaves the fewest images out, each replaced by
a text saying so. Through the official SDK against the emulator."""

from __future__ import annotations

import base64
import struct
import zlib
from typing import Any

import pytest
import sdk_calls as calls

from conformance.emulator import Emulator
from conformance.sized_yaml import filled
from normalizer import check, normalize_request
from normalizer.image_bytes import image_dimensions

SINGLE = ("{at}: At least one of the image dimensions exceed max allowed size: 8000 pixels")
MANY = ("{at}: At least one of the image dimensions exceed max allowed size for many-image "
        "requests: 2000 pixels")
# Real files (written by Pillow 13.0, small because they are one colour): a lossy WebP
# (VP8), a lossless one (VP8L) and a lossy one with alpha (VP8X).
WEBP_8016X16 = (
    "UklGRhoBAABXRUJQVlA4IA4BAAAwHgCdASpQHxAAP83m8XO/uDOsoCgD8DmJaW7hd2EbQAnsA99snIe+2TkP"
    "fbJyHvtk5D32ych77ZOQ99snIe+2TkPfbJyHvtk5D32ych77ZOQ99snIe+2TkPfbJyHvtk5D32ych77ZOQ99"
    "snIe+2TkPfbJyHvtk5D32ych77ZOQ99snIe+2TkPfbJyHvtk5D32ych77ZOQ99snIe+2TkPfbJyHvtk5D32y"
    "ch77ZOQ99snIe+2TkPfbJyHvtk5D32ych77ZOQ99snIe+2TkPfbJyHvtk5D32ych77ZOQ99snIe+2TkPfbJy"
    "Hvtk5D32ych77ZOQ99snIbwAAP7/mMQAAAAAAAAAAAAAAAAAAAA=")
WEBP_LOSSLESS_2016X8 = "UklGRiIAAABXRUJQVlA4TBUAAAAv38cBAAcQEf0PA5AQ/v9XIvqfegcA"
WEBP_ALPHA_2016X8 = (
    "UklGRpgAAABXRUJQVlA4WAoAAAAQAAAA3wcABwAAQUxQSBAAAAABBxAREQYgIfz/r0T0P/UOVlA4IGIAAADw"
    "CQCdASrgBwgAP83m8XO/uDOsoEgD8DmJaW7hdgEbQBPa9FXCDIIaqk122i4QZBDVUmu20XCDIIaqk122i4QZ"
    "BDVUmu20XCDIIaqk122i4QZBDVUmu2oAAP7+yxAAAAAAAA==")


def png(width: int, height: int) -> str:
    """A valid PNG of `width` x `height` black pixels, base64 (tiny: zlib takes the zeros)."""
    def chunk(kind: bytes, data: bytes) -> bytes:
        return struct.pack(">I", len(data)) + kind + data + struct.pack(
            ">I", zlib.crc32(kind + data))
    rows = (b"\x00" + b"\x00" * width * 3) * height
    data = (b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", width, height, 8, 2,
                                                                0, 0, 0))
            + chunk(b"IDAT", zlib.compress(rows, 9)) + chunk(b"IEND", b""))
    return base64.b64encode(data).decode()


def jpeg_header(width: int, height: int, metadata: int = 0) -> str:
    """A JPEG's start (SOI, an APP1 segment of `metadata` bytes, the frame header): what the
    size is read from; the rest of the file is not needed for that."""
    app1 = b"\xff\xe1" + struct.pack(">H", metadata + 2) + b"E" * metadata
    frame = b"\xff\xc0\x00\x11\x08" + struct.pack(">HH", height, width) + b"\x03" + b"\x01" * 9
    return base64.b64encode(b"\xff\xd8" + app1 + frame).decode()


def gif_header(width: int, height: int) -> str:
    return base64.b64encode(b"GIF89a" + struct.pack("<HH", width, height) + b"\x00" * 6
                            ).decode()


def image(data: str, media_type: str = "image/png") -> dict[str, Any]:
    return {"type": "image", "source": {"type": "base64", "media_type": media_type,
                                        "data": data}}


def body(*blocks: dict[str, Any]) -> dict[str, Any]:
    return {"model": "claude-haiku-4-5", "max_tokens": 64, "messages": [
        {"role": "user", "content": [{"type": "text", "text": "What do these show?"},
                                     *blocks]}]}


def test_the_size_is_read_off_each_kind_of_header() -> None:
    assert image_dimensions(png(8001, 1)) == (8001, 1)
    assert image_dimensions(jpeg_header(1280, 9000)) == (1280, 9000)
    # The frame header after 60 KB of metadata: more of the data is decoded to reach it.
    assert image_dimensions(jpeg_header(640, 8500, metadata=60_000)) == (640, 8500)
    assert image_dimensions(gif_header(8016, 2)) == (8016, 2)
    assert image_dimensions(WEBP_8016X16) == (8016, 16)
    assert image_dimensions(WEBP_LOSSLESS_2016X8) == (2016, 8)
    assert image_dimensions(WEBP_ALPHA_2016X8) == (2016, 8)
    assert image_dimensions(png(3, 2)[:20]) is None  # cut before the size
    # A frame header past the first 2 MB of base64 is not looked for: a JPEG made of
    # hundreds of thousands of empty segments costs a bounded walk, and its size is unknown.
    empty_segments = b"\xff\xfe\x00\x02" * 600_000
    frame = b"\xff\xc0\x00\x11\x08\x00\x10\x00\x10"
    assert image_dimensions(base64.b64encode(b"\xff\xd8" + empty_segments + frame).decode()
                            ) is None
    assert image_dimensions(base64.b64encode(b"\xff\xd8" + empty_segments[:400_000] + frame
                                             ).decode()) == (16, 16)
    assert image_dimensions("not base64!") is None
    assert image_dimensions(base64.b64encode(b"%PDF-1.7 " * 8).decode()) is None


def test_an_image_over_8000_pixels_is_refused_where_the_api_says() -> None:
    for data, media_type in ((png(8001, 1), "image/png"),
                             (jpeg_header(1280, 9000), "image/jpeg"),
                             (WEBP_8016X16, "image/webp")):
        (found,) = check(body(image(data, media_type)), "anthropic")
        at = "messages.0.content.1.image.source.base64.data"
        assert (found.rule, found.message) == ("image-dimensions-too-large",
                                               SINGLE.format(at=at))
    assert check(body(image(png(8000, 1))), "anthropic") == ()
    # An image given by URL has no size to read: not judged.
    url = {"type": "image", "source": {"type": "url", "url": "https://example.com/tall.png"}}
    assert check(body(url), "anthropic") == ()


def test_past_20_images_one_over_2000_pixels_is_refused() -> None:
    small = [image(png(1, 1))] * 20
    (found,) = check(body(*small, image(png(2001, 1))), "anthropic")
    assert (found.rule, found.message) == (
        "many-image-dimensions-too-large",
        MANY.format(at="messages.0.content.21.image.source.base64.data"))
    assert check(body(*small[:19], image(png(2001, 1))), "anthropic") == ()  # 20 images
    assert check(body(*small, image(png(2000, 1))), "anthropic") == ()


def test_images_inside_tool_results_count_and_are_placed_there() -> None:
    raw = {"model": "claude-haiku-4-5", "max_tokens": 64, "messages": [
        {"role": "user", "content": "Take a full-page screenshot."},
        {"role": "assistant", "content": [{"type": "tool_use", "id": "toolu_01", "name": "shot",
                                           "input": {}}]},
        {"role": "user", "content": [{"type": "tool_result", "tool_use_id": "toolu_01",
                                      "content": [image(png(1440, 8570))]}]}],
        "tools": [{"name": "shot", "input_schema": {"type": "object"}}]}
    (found,) = check(raw, "anthropic")
    assert found.location == ("messages.2.content.0.tool_result.content.0.image.source."
                              "base64.data")
    fixed = normalize_request(raw, "anthropic", "anthropic")
    assert [(c.code, c.where, c.lossless) for c in fixed.changes] == [
        ("replace-oversized-image", "messages[2].parts[0].content[0]", False)]
    assert fixed.body["messages"][2]["content"][0]["content"] == [
        {"type": "text", "text": "[an image of 1440x8570 pixels was left out here: the target "
                                 "takes at most 8000 pixels a side]"}]
    assert check(fixed.body, "anthropic") == ()


@pytest.mark.parametrize(("over", "small", "left_out"), [
    (1, 20, [1]),            # one over the limit: that one goes
    (3, 19, [1, 2]),         # 22 images, 3 over: the 2 oldest go, the rest are within 8000
    (2, 20, [1, 2]),         # 22 images, 2 over: a tie, the ones over the limit go
])
def test_the_fewest_images_are_left_out(over: int, small: int, left_out: list[int]) -> None:
    raw = body(*[image(png(2001, 1))] * over, *[image(png(1, 1))] * small)
    fixed = normalize_request(raw, "anthropic", "anthropic")
    assert [c.where for c in fixed.changes] == [f"messages[0].parts[{j}]" for j in left_out]
    assert {c.code for c in fixed.changes} == {"replace-oversized-image"}
    assert check(fixed.body, "anthropic") == ()
    content = fixed.body["messages"][0]["content"]
    assert sum(block["type"] == "image" for block in content) == over + small - len(left_out)


def test_the_sdk_is_refused_the_tall_image_and_takes_the_repair(emu: Emulator) -> None:
    sdk = calls.client("anthropic", emu.sdk_base_url("anthropic"))
    raw = body(image(jpeg_header(1280, 9000), "image/jpeg"))
    assert calls.refused("anthropic", sdk, raw) == calls.SdkError(
        400, SINGLE.format(at="messages.0.content.1.image.source.base64.data"))
    fixed = normalize_request(raw, "anthropic", "anthropic")
    assert calls.send("anthropic", sdk, fixed.body) is not None


def test_a_tall_screenshot_crossing_from_chat_is_left_out_for_anthropic(emu: Emulator) -> None:
    chat = {"model": "gpt-4.1-mini", "messages": [{"role": "user", "content": [
        {"type": "text", "text": "What does the page say?"},
        {"type": "image_url", "image_url": {"url": f"data:image/png;base64,{png(2, 8200)}"}}]}]}
    assert check(chat, "openai") == ()  # OpenAI scales a large image down itself
    fixed = normalize_request(chat, "openai_chat", "anthropic")
    assert "replace-oversized-image" in [c.code for c in fixed.changes]
    sdk = calls.client("anthropic", emu.sdk_base_url("anthropic"))
    assert calls.send("anthropic", sdk, fixed.body) is not None


def long_image(length: int) -> dict[str, Any]:
    """A 1x1 PNG followed by zeros: `length` characters of base64 (conformance/sized_yaml)."""
    return image(filled(png(1, 1), length))


def test_data_over_10_mb_is_refused_today_and_over_5_mb_before_mid_2026() -> None:
    raw = body(long_image(10_485_761))
    (found,) = check(raw, "anthropic")
    assert (found.rule, found.message) == (
        "image-too-large", "messages.0.content.1.image.source.base64: image exceeds 10 MB "
        "maximum: 10485761 bytes > 10485760 bytes")
    assert check(body(long_image(10_485_760)), "anthropic") == ()
    # The words of anthropics/claude-code#11181 (2025-11-07), on that day's limit.
    (then,) = check(body(long_image(11_641_928)), "anthropic", on="2025-11-07")
    assert then.message == ("messages.0.content.1.image.source.base64: image exceeds 5 MB "
                            "maximum: 11641928 bytes > 5242880 bytes")
    assert check(body(long_image(5_242_880)), "anthropic", on="2025-11-07") == ()


def test_data_too_long_is_left_out_and_the_sdk_takes_the_repair(emu: Emulator) -> None:
    raw = body(image(png(1, 1)), long_image(10_485_761))
    fixed = normalize_request(raw, "anthropic", "anthropic")
    assert [(c.code, c.where, c.lossless) for c in fixed.changes] == [
        ("replace-oversized-image", "messages[0].parts[2]", False)]
    assert fixed.body["messages"][0]["content"][2] == {
        "type": "text", "text": "[an image was left out here: its data, 10,485,761 characters "
                                "of base64, is over the target's limit of 10,485,760]"}
    assert fixed.body["messages"][0]["content"][1] == image(png(1, 1))  # the small one stays
    sdk = calls.client("anthropic", emu.sdk_base_url("anthropic"))
    refused = calls.refused("anthropic", sdk, raw)
    assert refused.status == 400 and "image exceeds 10 MB maximum" in refused.message
    assert calls.send("anthropic", sdk, fixed.body) is not None
