"""replace_unknown_part_types (rule content-part-type-unknown): content parts whose type the
target's Chat Completions API does not have never reach it; each is named in a lossy change,
and a provider without the rule gets them as sent."""

from __future__ import annotations

import base64
import json
from typing import Any

import pytest

from normalizer import check, normalize_request, parse, render
from normalizer.media import chat_part_type
from normalizer.model import Media
from normalizer.wire._media import chat_wire

# The conversation ksenxx/kiss_ai's test replays to OpenAI after a switch from Claude
# (evidence/openai/thinking-block-in-content-rejected-gpt-5-5-2026-07.yaml).
HANDOFF: dict[str, Any] = {"model": "gpt-4.1-mini", "messages": [
    {"role": "user", "content": "Use the add tool to compute 2 + 3, then report the sum."},
    {"role": "assistant", "content": [
        {"type": "thinking", "thinking": "The user wants 2 + 3. I should call the add tool.",
         "signature": "sig-abc123"},
        {"type": "text", "text": "Let me add those numbers."},
        {"type": "tool_use", "id": "toolu_01", "name": "add", "input": {"a": 2, "b": 3}}]},
    {"role": "user", "content": [
        {"type": "tool_result", "tool_use_id": "toolu_01", "content": "5"}]}]}


def _codes(out: Any) -> list[tuple[str, str]]:
    return [(c.code, c.where) for c in out.changes if c.pass_name == "replace_unknown_part_types"]


def test_the_handoff_body_reaches_openai_with_every_foreign_block_named() -> None:
    assert [v.rule for v in check(HANDOFF, "openai")][:1] == ["content-part-type-unknown"]
    out = normalize_request(HANDOFF, "openai_chat", "openai")
    assert check(out.body, "openai") == ()
    assert _codes(out) == [("unknown-part-type-dropped", "history[1].parts[0]"),
                           ("unknown-part-type-as-text", "history[1].parts[2]"),
                           ("unknown-part-type-as-text", "history[2].parts[0]")]
    assert all(not c.lossless for c in out.changes if c.code.startswith("unknown-part-type"))
    sent = json.dumps(out.body)
    # The call and its result reach the model as text; the replayed reasoning does not.
    assert "toolu_01" in sent and '\\"content\\": \\"5\\"' in sent
    assert "I should call the add tool" not in sent


@pytest.mark.parametrize("provider", ["openrouter", "mistral", "groq", "vllm"])
def test_providers_without_the_rule_get_the_parts_as_sent(provider: str) -> None:
    video = {"model": "m", "messages": [{"role": "user", "content": [
        {"type": "text", "text": "What happens here?"},
        {"type": "video_url", "video_url": {"url": "https://example.com/clip.mp4"}}]}]}
    out = normalize_request(video, "openai_chat", provider)
    assert not _codes(out)
    assert out.body["messages"][0]["content"][1]["type"] == "video_url"


def test_a_gemini_video_crossing_to_openai_becomes_a_placeholder() -> None:
    # Chat's form for a video is OpenRouter's video_url, which OpenAI does not have.
    body = {"contents": [{"role": "user", "parts": [
        {"text": "What happens here?"},
        {"fileData": {"mimeType": "video/mp4", "fileUri": "https://example.com/clip.mp4"}}]}]}
    out = normalize_request(body, "gemini", "openai")
    assert _codes(out) == [("unknown-part-type-as-text", "history[0].parts[1]")]
    assert check(out.body, "openai") == ()
    assert "https://example.com/clip.mp4" in json.dumps(out.body)
    # OpenRouter takes video_url: the video goes as a video.
    routed = normalize_request(body, "gemini", "openrouter")
    assert routed.body["messages"][0]["content"][1]["type"] == "video_url"


def test_a_result_part_of_another_type_is_named_inside_the_result() -> None:
    body = {"model": "gpt-4.1-mini", "messages": [
        {"role": "user", "content": "Weather?"},
        {"role": "assistant", "content": None, "tool_calls": [
            {"id": "call_1", "type": "function",
             "function": {"name": "weather", "arguments": "{}"}}]},
        {"role": "tool", "tool_call_id": "call_1", "content": [
            {"type": "text", "text": "18C"},
            {"type": "search_result", "source": "https://example.com", "title": "Forecast"}]}]}
    out = normalize_request(body, "openai_chat", "openai")
    assert _codes(out) == [("unknown-part-type-as-text", "history[2].parts[0].content[1]")]
    assert check(out.body, "openai") == ()
    assert "Forecast" in json.dumps(out.body)


def test_a_message_left_empty_is_dropped_and_said() -> None:
    body = {"model": "gpt-4.1-mini", "messages": [
        {"role": "user", "content": "Hi"},
        {"role": "assistant", "content": [{"type": "thinking", "thinking": "greet"}]},
        {"role": "user", "content": "Hello?"}]}
    out = normalize_request(body, "openai_chat", "openai")
    codes = [c.code for c in out.changes]
    assert codes == ["unknown-part-type-dropped", "drop-empty-message"]
    assert check(out.body, "openai") == ()


@pytest.mark.parametrize("media", [
    Media("image", url="https://example.com/a.png"),
    Media("image", "image/png", data="iVBORw0KGgo="),
    Media("video", url="https://example.com/a.mp4"),
    Media("audio", "audio/wav", data="UklGRg=="),
    Media("document", url="https://example.com/a.pdf"),
    Media("document", "application/pdf", data="JVBERi0="),
    Media("document", file_id="file-1"),
    Media("file", "text/csv", data="YSxi"),
])
def test_chat_part_type_is_the_type_the_renderer_writes(media: Media) -> None:
    written = chat_wire(media)
    assert written is not None and written["type"] == chat_part_type(media)


def test_parse_reads_what_the_pass_reads() -> None:
    history = parse(HANDOFF, "openai_chat")
    kinds = [type(p).__name__ for p in history.messages[1].parts]
    assert kinds == ["Opaque", "Text", "Opaque"]


def _audio(model: str) -> dict[str, Any]:
    return {"model": model, "messages": [{"role": "user", "content": [
        {"type": "text", "text": "What is said in this clip?"},
        {"type": "input_audio", "input_audio": {"data": "SUQzBAAAAAAA", "format": "mp3"}}]}]}


def test_audio_for_a_model_without_audio_input_becomes_a_placeholder() -> None:
    # gpt-5-mini refused input_audio (pydantic-ai's recordings); the audio models took it.
    assert [v.rule for v in check(_audio("gpt-5-mini"), "openai")] == [
        "content-type-unsupported"]
    out = normalize_request(_audio("gpt-5-mini"), "openai_chat", "openai")
    assert _codes(out) == [("unsupported-part-as-text", "history[0].parts[1]")]
    assert check(out.body, "openai") == ()
    assert "audio/mp3" in json.dumps(out.body)


@pytest.mark.parametrize("model", ["gpt-audio-mini", "gpt-4o-audio-preview", "gpt-audio"])
def test_audio_models_get_their_audio(model: str) -> None:
    out = normalize_request(_audio(model), "openai_chat", "openai", model=model)
    assert not _codes(out)
    assert out.body["messages"][0]["content"][1]["type"] == "input_audio"


def test_deepseek_takes_text_parts_only() -> None:
    # 1jehuang/jcode#310: "Failed to deserialize the JSON body into the target type:
    # messages[7]: unknown variant `image_url`, expected `text` ..." (deepseek-v4-flash).
    body = {"model": "deepseek-chat", "messages": [
        {"role": "user", "content": [
            {"type": "text", "text": "What is in this picture?"},
            {"type": "image_url", "image_url": {"url": "https://example.com/photo.png"}}]},
        {"role": "assistant", "content": [{"type": "refusal", "refusal": "I can't see it."}]},
        {"role": "user", "content": "Describe it from its name, then."}]}
    assert [v.location for v in check(body, "deepseek")] == [
        "messages[0].content[1].type", "messages[1].content[0].type"]
    out = normalize_request(body, "openai_chat", "deepseek")
    assert [(c.code, c.lossless) for c in out.changes] == [
        ("unknown-part-type-as-text", False), ("refusal-as-text", True)]
    assert check(out.body, "deepseek") == ()
    sent = json.dumps(out.body)
    assert "https://example.com/photo.png" in sent and "I can't see it." in sent


def test_chat_parts_in_a_responses_body_are_retyped() -> None:
    # MervinPraison/PraisonAI#3934: Chat parts appended to a Responses input, answered
    # "Invalid value: 'text'. Supported values are: 'input_text', ..." by gpt-4o-mini.
    body = {"model": "gpt-4o-mini", "input": [{"role": "user", "content": [
        {"type": "text", "text": "What is in this image?"},
        {"type": "image_url", "image_url": {"url": "https://example.com/a.jpg"}}]}]}
    assert [v.location for v in check(body, "openai_responses")] == [
        "input[0].content[0].type", "input[0].content[1].type"]
    out = normalize_request(body, "openai_responses", "openai_responses")
    assert [(c.code, c.lossless) for c in out.changes] == [
        ("retype-text-part", True), ("retype-media-part", True)]
    assert out.body["input"][0]["content"] == [
        {"type": "input_text", "text": "What is in this image?"},
        {"type": "input_image", "image_url": "https://example.com/a.jpg"}]
    assert check(out.body, "openai_responses") == ()
    assert normalize_request(out.body, "openai_responses", "openai_responses").changes == ()
    # Elsewhere the words cross as text and the image as each vendor's image (both were
    # unknown parts before, and dropped).
    for provider, image in (("openai", "image_url"), ("anthropic", "image"),
                            ("gemini", "fileData")):
        sent = json.dumps(normalize_request(body, "openai_responses", provider).body)
        assert "What is in this image?" in sent and "https://example.com/a.jpg" in sent
        assert f'"{image}"' in sent


def test_a_chat_file_part_in_a_responses_body_goes_as_input_file() -> None:
    pdf = {"filename": "report.pdf", "file_data": "data:application/pdf;base64,JVBERi0="}
    body = {"model": "gpt-4o-mini", "input": [{"role": "user", "content": [
        {"type": "input_text", "text": "Summarise it."}, {"type": "file", "file": pdf}]}]}
    assert parse_render_same(body)
    out = normalize_request(body, "openai_responses", "openai_responses")
    assert [(c.code, c.lossless) for c in out.changes] == [("retype-media-part", True)]
    assert out.body["input"][0]["content"][1] == {"type": "input_file", **pdf}
    assert check(out.body, "openai_responses") == ()


def parse_render_same(body: dict[str, Any]) -> bool:
    """The body parsed and rendered back for its own protocol, unrepaired, is the body."""
    return render(parse(body, "openai_responses"), "openai_responses")["input"] == body["input"]


MP3 = "data:audio/mpeg;base64,SUQzBAAAAAAAI1RTU0U="


def _audio_file_body() -> dict[str, Any]:
    return {"model": "gpt-5-mini", "input": [{"role": "user", "content": [
        {"type": "input_text", "text": "What does it say?"},
        {"type": "input_file", "file_data": MP3, "filename": "note.mp3"}]}]}


def test_an_audio_input_file_is_refused_in_openais_words_and_sent_as_a_placeholder() -> None:
    # Recorded (gpt-5-mini, 2026-02): evidence/openai_responses/audio-data-in-user-input-file-*
    body = _audio_file_body()
    assert parse_render_same(body)
    (found,) = check(body, "openai_responses")
    assert (found.rule, found.location) == ("content-type-unsupported",
                                            "input[0].content[1].file_data")
    assert "but got unsupported MIME type 'audio/mpeg'" in found.message
    out = normalize_request(body, "openai_responses", "openai_responses")
    (change,) = out.changes
    assert (change.code, change.lossless) == ("unsupported-part-as-text", False)
    assert "file input does not take" in change.what
    assert out.body["input"][0]["content"][1] == {
        "type": "input_text", "text": "[audio not carried to this provider: note.mp3]"}
    assert check(out.body, "openai_responses") == ()
    text = {"type": "input_file", "file_data": "data:text/plain;base64,SGk=", "filename": "a.txt"}
    assert check({**body, "input": [{"role": "user", "content": [text]}]},
                 "openai_responses") == ()


def test_an_audio_input_file_crosses_as_audio() -> None:
    # It was an unknown part before (dropped, lossy); Gemini takes the clip inline, and an
    # audio model on Chat gets input_audio in the format OpenAI names ("mp3", not "mpeg").
    gemini = normalize_request(_audio_file_body(), "openai_responses", "gemini").body
    assert {"inlineData": {"mimeType": "audio/mpeg", "data": "SUQzBAAAAAAAI1RTU0U="}} in \
        gemini["contents"][0]["parts"]
    chat = normalize_request(_audio_file_body(), "openai_responses", "openai",
                             model="gpt-audio").body
    assert chat["messages"][0]["content"][1] == {
        "type": "input_audio", "input_audio": {"data": "SUQzBAAAAAAAI1RTU0U=", "format": "mp3"}}


# An image of a media type Anthropic does not take (anthropics/claude-code#5955): a 1x1 PNG
# labelled HEIC, as a Gemini history may hold (Gemini takes HEIC and HEIF).
PIXEL = ("iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAIAAACQd1PeAAAADElEQVR4nGP4//8/AAX+Av4N70a4AAAAAElF"
         "TkSuQmCC")


def _image(media_type: str) -> dict[str, Any]:
    return {"type": "image", "source": {"type": "base64", "media_type": media_type,
                                        "data": PIXEL}}


def test_anthropic_refuses_an_inline_image_of_another_media_type_at_its_path() -> None:
    body = {"model": "claude-haiku-4-5", "max_tokens": 64, "messages": [
        {"role": "user", "content": [{"type": "text", "text": "What is it?"},
                                     _image("image/heic")]},
        {"role": "assistant", "content": [{"type": "tool_use", "id": "toolu_1",
                                           "name": "shot", "input": {}}]},
        {"role": "user", "content": [{"type": "tool_result", "tool_use_id": "toolu_1",
                                      "content": [_image("image/bmp")]}]}],
        "tools": [{"name": "shot", "input_schema": {"type": "object"}}]}
    found = [(v.rule, v.message) for v in check(body, "anthropic")]
    tail = ": Input should be 'image/jpeg', 'image/png', 'image/gif' or 'image/webp'"
    assert found == [
        ("content-type-unsupported", "messages.0.content.1.image.source.base64.media_type" + tail),
        ("content-type-unsupported",
         "messages.2.content.0.tool_result.content.0.image.source.base64.media_type" + tail)]
    fixed = normalize_request(body, "anthropic", "anthropic")
    assert [(c.code, c.lossless) for c in fixed.changes] == [
        ("unsupported-part-as-text", False), ("unsupported-part-as-text", False)]
    assert "image/heic" in fixed.changes[0].what
    assert check(fixed.body, "anthropic") == ()


def test_a_gemini_heic_image_goes_to_anthropic_as_a_placeholder_and_png_as_is() -> None:
    for mime, kept in (("image/heic", False), ("image/png", True)):
        body = {"contents": [{"role": "user", "parts": [
            {"text": "What is it?"}, {"inlineData": {"mimeType": mime, "data": PIXEL}}]}]}
        out = normalize_request(body, "gemini", "anthropic", model="claude-haiku-4-5")
        blocks = out.body["messages"][0]["content"]
        assert (blocks[1]["type"] == "image") is kept
        assert check(out.body, "anthropic") == ()


GIF = "R0lGODlhAQABAIAAAP///wAAACH5BAEAAAAALAAAAAABAAEAAAICRAEAOw=="


def test_gemini_refuses_a_gif_or_an_image_jpg_label_in_its_words() -> None:
    body = {"contents": [{"role": "user", "parts": [
        {"text": "What?"}, {"inline_data": {"mime_type": "image/jpg", "data": PIXEL}},
        {"inlineData": {"mimeType": "image/gif", "data": GIF}},
        {"inlineData": {"mimeType": "application/pdf", "data": PIXEL}}]}]}
    found = [(v.rule, v.location, v.message) for v in check(body, "gemini")]
    assert found == [
        ("content-type-unsupported", "contents[0].parts[1].inline_data.mime_type",
         "Unsupported MIME type: image/jpg"),
        ("content-type-unsupported", "contents[0].parts[2].inline_data.mime_type",
         "Unsupported MIME type: image/gif")]


def test_image_jpg_is_relabelled_and_a_gif_becomes_a_placeholder_for_gemini() -> None:
    body = {"model": "gpt-4.1-mini", "messages": [{"role": "user", "content": [
        {"type": "text", "text": "What?"},
        {"type": "image_url", "image_url": {"url": f"data:image/jpg;base64,{PIXEL}"}},
        {"type": "image_url", "image_url": {"url": f"data:image/gif;base64,{GIF}"}}]}]}
    out = normalize_request(body, "openai_chat", "gemini", model="gemini-2.5-flash")
    parts = out.body["contents"][0]["parts"]
    assert parts[1] == {"inlineData": {"mimeType": "image/jpeg", "data": PIXEL}}
    assert parts[2] == {"text": "[image not carried to this provider: image/gif]"}
    assert [(c.code, c.lossless) for c in out.changes
            if c.pass_name == "replace_unknown_part_types"] == [
        ("relabel-media-type", True), ("unsupported-part-as-text", False)]
    assert check(out.body, "gemini") == ()
    # OpenAI takes both as they are (no rule of its own is known for them)
    assert [c.code for c in normalize_request(body, "openai_chat", "openai").changes] == []


def test_openai_holds_two_copies_of_the_rule_each_with_its_own_params() -> None:
    from normalizer.profiles import load_profile
    from normalizer.scope import scoped

    profile = scoped(load_profile("openai"), model="gpt-4.1-mini")
    assert profile.param("content-type-unsupported", "types") == ("input_audio",)
    assert "image/webp" in profile.param("content-type-unsupported", "images")
    audio = scoped(load_profile("openai"), model="gpt-4o-audio-preview")
    assert audio.param("content-type-unsupported", "types") is None  # that copy is scoped out
    assert audio.param("content-type-unsupported", "images") is not None


def test_a_heic_photo_reaches_openai_as_a_placeholder_and_is_named() -> None:
    body = {"contents": [{"role": "user", "parts": [
        {"text": "What is it?"}, {"inlineData": {"mimeType": "image/heic", "data": PIXEL}}]}]}
    raw = {"model": "gpt-4.1-mini", "messages": [{"role": "user", "content": [
        {"type": "text", "text": "What is it?"},
        {"type": "image_url", "image_url": {"url": f"data:image/heic;base64,{PIXEL}"}}]}]}
    (violation,) = check(raw, "openai")
    assert (violation.location, violation.message) == (
        "messages[0].content[1].image_url",
        "You uploaded an unsupported image. Please make sure your image has of one the "
        "following formats: ['png', 'jpeg', 'gif', 'webp'].")
    out = normalize_request(body, "gemini", "openai", model="gpt-4.1-mini")
    assert out.body["messages"][0]["content"][1] == {
        "type": "text", "text": "[image not carried to this provider: image/heic]"}
    assert check(out.body, "openai") == ()


def test_anthropic_takes_base64_documents_as_pdf_only_and_plain_text_as_text() -> None:
    # langchain-ai/langchain#37576: a CSV as a base64 document block.
    csv = base64.b64encode(b"a,b,c\n1,2,3\n").decode()
    body = {"model": "claude-sonnet-4-5", "max_tokens": 64, "messages": [{"role": "user",
            "content": [{"type": "text", "text": "summarize"},
                        {"type": "document", "source": {"type": "base64",
                                                        "media_type": "text/csv",
                                                        "data": csv}}]}]}
    (found,) = check(body, "anthropic")
    assert found.message == ("messages.0.content.1.document.source.base64.media_type: Input "
                             "should be 'application/pdf'")
    fixed = normalize_request(body, "anthropic", "anthropic")
    assert fixed.body["messages"][0]["content"][1] == {
        "type": "document", "source": {"type": "text", "media_type": "text/plain",
                                       "data": "a,b,c\n1,2,3\n"}}
    assert [(c.code, c.lossless) for c in fixed.changes] == [("document-as-text", True)]
    assert check(fixed.body, "anthropic") == ()


# AstrBotDevs/AstrBot#4444 (evidence/anthropic/chat-image-url-block-rejected-2026-01.yaml):
# a history kept in Chat format handed to Anthropic as it is.
IMAGE = "https://upload.wikimedia.org/wikipedia/commons/4/47/PNG_transparency_demonstration_1.png"
CHAT_IN_ANTHROPIC: dict[str, Any] = {"model": "claude-haiku-4-5", "max_tokens": 64, "messages": [
    {"role": "user", "content": [
        {"type": "text", "text": "What is in this picture?"},
        {"type": "image_url", "image_url": {"url": IMAGE}}]},
    {"role": "assistant", "content": [{"type": "output_text", "text": "Two dice."}]},
    {"role": "user", "content": [{"type": "drive_file", "id": "f1"},
                                 {"type": "text", "text": "Which one is in front?"}]}]}


def test_anthropic_gets_a_chat_image_as_an_image_block_and_other_types_as_text() -> None:
    found = check(CHAT_IN_ANTHROPIC, "anthropic")
    assert [(v.rule, v.location) for v in found] == [
        ("content-part-type-unknown", "messages[0].content[1].type"),
        ("content-part-type-unknown", "messages[1].content[0].type"),
        ("content-part-type-unknown", "messages[2].content[0].type")]
    assert found[0].message.startswith("messages.0.content.1: Input tag 'image_url' found")
    assert render(parse(CHAT_IN_ANTHROPIC, "anthropic"), "anthropic")["messages"] == \
        CHAT_IN_ANTHROPIC["messages"]  # read and written back as sent
    out = normalize_request(CHAT_IN_ANTHROPIC, "anthropic", "anthropic")
    assert check(out.body, "anthropic") == ()
    assert [(c.code, c.lossless) for c in out.changes] == [
        ("retype-media-part", True), ("retype-text-part", True),
        ("unknown-part-type-as-text", False)]
    messages = out.body["messages"]
    assert messages[0]["content"][1] == {"type": "image", "source": {"type": "url", "url": IMAGE}}
    assert messages[1]["content"] == "Two dice."
    assert "drive_file" in messages[2]["content"][0]["text"]
    assert normalize_request(out.body, "anthropic", "anthropic").changes == ()


def test_anthropic_own_blocks_are_not_flagged() -> None:
    """Server tool activity, and the beta blocks the SDK has (compaction), are Anthropic's:
    the body does not show the beta header that makes them valid."""
    body = {"model": "claude-haiku-4-5", "max_tokens": 64, "messages": [
        {"role": "user", "content": "Search the web for dice."},
        {"role": "assistant", "content": [
            {"type": "compaction", "content": "Earlier: the user asked about dice."},
            {"type": "server_tool_use", "id": "srvtoolu_01", "name": "web_fetch",
             "input": {"url": IMAGE}},
            {"type": "web_fetch_tool_result", "tool_use_id": "srvtoolu_01",
             "content": {"type": "web_fetch_result", "url": IMAGE}},
            {"type": "some_future_tool_result", "tool_use_id": "srvtoolu_02", "content": []},
            {"type": "text", "text": "Found it."}]},
        {"role": "user", "content": "Thanks."}]}
    assert [v for v in check(body, "anthropic") if v.rule == "content-part-type-unknown"] == []
    out = normalize_request(body, "anthropic", "anthropic")
    assert [c for c in out.changes if c.pass_name == "replace_unknown_part_types"] == []


def test_a_text_only_part_of_another_type_crosses_as_text_not_dropped() -> None:
    """The crossing pass keeps the words of a part that holds only text (a Responses
    `output_text` in an Anthropic body) for every other protocol; one with other fields
    is still another vendor's part, dropped and named."""
    out = normalize_request(CHAT_IN_ANTHROPIC, "anthropic", "openai")
    assert ("cross_parts", "retype-text-part", True) in [
        (c.pass_name, c.code, c.lossless) for c in out.changes]
    assert out.body["messages"][1] == {"role": "assistant", "content": "Two dice."}
    body = {**CHAT_IN_ANTHROPIC, "messages": [
        {"role": "user", "content": "Hi"},
        {"role": "assistant", "content": [
            {"type": "output_text", "text": "Hello.", "annotations": []},
            {"type": "text", "text": "How can I help?"}]},
        {"role": "user", "content": "Bye"}]}
    codes = [c.code for c in normalize_request(body, "anthropic", "openai").changes]
    assert "foreign-part-dropped" in codes


def test_inside_a_tool_result_the_types_of_that_place_are_checked() -> None:
    """A tool_result's content takes fewer types than a message (claude-code#28870's list):
    a Chat image_url there is flagged at its own path and sent as an image block; the
    result's tool_reference (Anthropic's own, with its beta) is left as it is."""
    body = {"model": "claude-haiku-4-5", "max_tokens": 64,
            "tools": [{"name": "shot", "input_schema": {"type": "object"}}], "messages": [
                {"role": "user", "content": "Take a screenshot."},
                {"role": "assistant", "content": [
                    {"type": "tool_use", "id": "toolu_1", "name": "shot", "input": {}}]},
                {"role": "user", "content": [{"type": "tool_result", "tool_use_id": "toolu_1",
                                              "content": [
                    {"type": "image_url", "image_url": {"url": IMAGE}},
                    {"type": "tool_reference", "tool_name": "shot"}]}]}]}
    found = check(body, "anthropic")
    assert [(v.rule, v.location) for v in found] == [
        ("content-part-type-unknown", "messages[2].content[0].content[0].type")]
    assert found[0].message == (
        "messages.2.content.0.tool_result.content.0: Input tag 'image_url' found using 'type' "
        "does not match any of the expected tags: 'document', 'image', 'search_result', 'text'")
    out = normalize_request(body, "anthropic", "anthropic")
    assert [c.code for c in out.changes] == ["retype-media-part"]
    assert out.body["messages"][2]["content"][0]["content"] == [
        {"type": "image", "source": {"type": "url", "url": IMAGE}},
        {"type": "tool_reference", "tool_name": "shot"}]
    assert check(out.body, "anthropic") == ()
