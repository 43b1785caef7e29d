"""Media in a turn whose role the target does not let carry it (rule media-role-unsupported,
pass move_media_to_user_turn): a picture an image model answered with (Gemini's inlineData
in the model's turn, an app's DALL-E image kept as the assistant's), sent to OpenAI Chat or
Anthropic, which take images from the user only."""

from __future__ import annotations

from typing import Any

import anthropic as anthropic_sdk
import openai as openai_sdk
import pytest
import sdk_calls as calls

from conformance.emulator import Emulator
from normalizer import check, normalize, parse, render
from normalizer.model import History, Media, Message, Text, ToolCall, ToolResult

PNG = ("iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAIAAACQd1PeAAAADElEQVR4nGP4//8/AAX+Av4N70a4AAAAAElF"
       "TkSuQmCC")
IMAGE_URL = {"type": "image_url", "image_url": {"url": f"data:image/png;base64,{PNG}"}}
DRAWN = {"contents": [
    {"role": "user", "parts": [{"text": "Draw a red pixel."}]},
    {"role": "model", "parts": [{"text": "Here it is."},
                                {"inlineData": {"mimeType": "image/png", "data": PNG}}]},
    {"role": "user", "parts": [{"text": "What colour is it?"}]}]}


def chat(role: str, content: Any) -> dict[str, Any]:
    return {"model": "gpt-4o-mini", "messages": [
        {"role": "user", "content": "Draw a red pixel."}, {"role": role, "content": content},
        {"role": "user", "content": "What colour is it?"}]}


def test_openai_takes_images_from_user_messages_only_in_its_own_words() -> None:
    for role in ("assistant", "system"):
        (found,) = check(chat(role, [{"type": "text", "text": "Look."}, IMAGE_URL]), "openai")
        assert (found.rule, found.location, found.message) == (
            "media-role-unsupported", "messages[1]",
            "Invalid 'messages[1]'. Image URLs are only allowed for messages with role 'user', "
            f"but this message with role '{role}' contains an image URL.")
    assert check(chat("user", [IMAGE_URL]), "openai") == ()
    # Other Chat vendors' answers were not seen: nothing is said for them.
    assert check(chat("assistant", [IMAGE_URL]), "groq") == ()


def test_anthropic_has_no_image_blocks_in_assistant_turns() -> None:
    image = {"type": "image", "source": {"type": "base64", "media_type": "image/png",
                                         "data": PNG}}
    body = {"model": "claude-haiku-4-5", "max_tokens": 64, "messages": [
        {"role": "user", "content": "Draw a red pixel."},
        {"role": "assistant", "content": [image]},
        {"role": "user", "content": [image, {"type": "text", "text": "And this one?"}]}]}
    (found,) = check(body, "anthropic")
    assert (found.rule, found.location, found.message) == (
        "media-role-unsupported", "messages.1.content.0",
        "'image' blocks are not permitted within assistant turns")


@pytest.mark.parametrize("provider", ["openai", "anthropic"])
def test_a_generated_image_moves_to_a_user_message_after_the_turn(provider: str) -> None:
    result = normalize(parse(DRAWN, "gemini"), provider)
    messages = result.history.messages
    assert [m.role for m in messages] == ["user", "assistant", "user", "user"]
    assert messages[1].parts == (Text("Here it is."),)
    label, media = messages[2].parts
    assert label == Text("[image from the assistant's turn above]")
    assert isinstance(media, Media) and media.data == PNG
    (change,) = result.changes
    assert (change.code, change.where, change.lossless) == (
        "move-media-to-user-turn", "messages[1]", False)
    assert "from user messages only" in change.what
    assert check(result.render(), provider) == ()
    # Gemini takes the model's image back where it was.
    assert normalize(parse(DRAWN, "gemini"), "gemini").changes == ()


def test_an_image_only_turn_keeps_its_place_and_a_call_turns_image_waits_for_the_results(
) -> None:
    image = Media("image", media_type="image/png", data=PNG)
    call = ToolCall("paint", {"colour": "red"}, id="call_1")
    history = History((
        Message("user", (Text("Paint, then show me."),)),
        Message("assistant", (image, call)),
        Message("tool", (ToolResult("call_1", "done"),)),
        Message("assistant", (image,)),
        Message("user", (Text("Thanks."),)),
    ))
    result = normalize(history, "openai")
    roles = [m.role for m in result.history.messages]
    assert roles == ["user", "assistant", "tool", "user", "assistant", "user", "user"]
    assert result.history.messages[1].parts == (call,)
    assert result.history.messages[4].parts == (Text("[image: in the next message]"),)
    assert [c.where for c in result.changes] == ["messages[1]", "messages[3]"]
    assert check(result.render(), "openai") == ()


def test_raw_refused_and_normalized_taken_through_the_sdks(emu: Emulator) -> None:
    history = parse(DRAWN, "gemini")
    for provider, protocol, refused in (
            ("openai", "openai_chat", openai_sdk.BadRequestError),
            ("anthropic", "anthropic", anthropic_sdk.BadRequestError)):
        sdk = calls.client(protocol, emu.sdk_base_url(provider))
        with pytest.raises(refused):
            calls.send(protocol, sdk, render(history, protocol))
        body = normalize(history, provider).render()
        assert calls.text_of(protocol, calls.send(protocol, sdk, body)) == "ok"
