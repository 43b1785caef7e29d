"""The emulator through the unmodified official SDKs, with a stand-in checker so the mapping
violation -> vendor error is tested apart from any profile: every protocol accepts (JSON and
streaming) and rejects in each vendor's shape, exception class and text."""

from __future__ import annotations

import asyncio
import http.client
import json
import threading
from collections.abc import Iterator, Mapping, Sequence
from typing import Any

import anthropic
import openai
import pytest
import sdk_calls as calls
from google.genai import errors as genai_errors

from conformance.emulator import Emulator, serve
from normalizer.check import Violation
from normalizer.model import JsonMap
from normalizer.profiles import Profile, profile_from_mapping

VENDOR_TEXT = "Invalid parameter: messages with role 'tool' must be a response to a preceeding message with 'tool_calls'."  # noqa: E501
SERVED = {  # provider -> (protocol, error_format)
    "t_openai": ("openai_chat", "openai"),
    "t_responses": ("openai_responses", "openai_responses"),
    "t_anthropic": ("anthropic", "anthropic"),
    "t_gemini": ("gemini", "gemini"),
    "t_mistral": ("openai_chat", "mistral"),
    "t_cerebras": ("openai_chat", "cerebras"),
    "t_xai": ("openai_chat", "xai"),
    "t_other": ("openai_chat", "some_format_we_do_not_know"),
}
BODIES: dict[str, dict[str, Any]] = {
    "openai_chat": {"model": "m-1", "messages": [{"role": "user", "content": "hi"}]},
    "openai_responses": {"model": "m-1", "input": "hi"},
    "anthropic": {"model": "m-1", "max_tokens": 16,
                  "messages": [{"role": "user", "content": "hi"}]},
    "gemini": {"contents": [{"role": "user", "parts": [{"text": "hi"}]}]},
}


def stand_in_check(body: Mapping[str, Any], profile: Profile,
                   model: str | None = None) -> Sequence[Violation]:
    """Rejects bodies holding REJECT (known vendor text) or MYSTERY (text unknown)."""
    text = json.dumps(body)
    error = JsonMap({"type": "invalid_request_error", "param": "messages.[1].role",
                     "code": None})
    if "REJECT" in text:
        return (Violation("orphan-tool-result", "messages[1]", 400, VENDOR_TEXT, error),)
    if "MYSTERY" in text:
        return (Violation("empty-content", "messages[0]", 422, "unknown", error),)
    return ()


def _profiles() -> list[Profile]:
    return [profile_from_mapping({"provider": name, "protocol": protocol,
                                  "error_format": fmt, "rules": []})
            for name, (protocol, fmt) in SERVED.items()]


@pytest.fixture(scope="module")
def emu() -> Iterator[Emulator]:
    with serve(_profiles(), checker=stand_in_check) as running:
        yield running


def _body(protocol: str, word: str = "hi") -> dict[str, Any]:
    return json.loads(json.dumps(BODIES[protocol]).replace('"hi"', json.dumps(word)))


@pytest.mark.parametrize("provider", sorted(SERVED))
@pytest.mark.parametrize("stream", [False, True], ids=["json", "sse"])
def test_clean_request_gets_a_parsed_reply(emu: Emulator, provider: str, stream: bool) -> None:
    protocol = emu.protocol(provider)
    sdk = calls.client(protocol, emu.sdk_base_url(provider))
    reply = calls.send(protocol, sdk, _body(protocol), model="gemini-2.5-flash", stream=stream)
    assert calls.text_of(protocol, reply) == "ok"
    if stream:
        assert len(reply) >= 1
    elif protocol == "openai_chat":
        assert isinstance(reply, openai.types.chat.ChatCompletion)
        assert reply.model == "m-1" and reply.usage.total_tokens >= 2
    elif protocol == "anthropic":
        assert isinstance(reply, anthropic.types.Message)
        assert reply.stop_reason == "end_turn"


EXPECTED_CLASS = {"openai_chat": openai.BadRequestError,
                  "openai_responses": openai.BadRequestError,
                  "anthropic": anthropic.BadRequestError, "gemini": genai_errors.ClientError}


@pytest.mark.parametrize("provider", sorted(SERVED))
def test_violation_answers_with_the_vendor_text(emu: Emulator, provider: str) -> None:
    protocol = emu.protocol(provider)
    sdk = calls.client(protocol, emu.sdk_base_url(provider))
    with pytest.raises(EXPECTED_CLASS[protocol]) as info:
        calls.send(protocol, sdk, _body(protocol, "REJECT"))
    assert calls.sdk_error(info.value) == calls.SdkError(400, VENDOR_TEXT)


def test_error_shapes_per_vendor(emu: Emulator) -> None:
    shapes = {}
    for provider in ("t_openai", "t_anthropic", "t_gemini", "t_mistral", "t_cerebras", "t_xai",
                     "t_other"):
        protocol = emu.protocol(provider)
        try:
            calls.send(protocol, calls.client(protocol, emu.sdk_base_url(provider)),
                       _body(protocol, "REJECT"))
        except (openai.APIStatusError, anthropic.APIStatusError) as exc:
            shapes[provider] = exc.response.json()
        except genai_errors.APIError as exc:
            shapes[provider] = exc.details
    assert shapes["t_openai"] == {"error": {"message": VENDOR_TEXT,
                                            "type": "invalid_request_error",
                                            "param": "messages.[1].role", "code": None}}
    assert shapes["t_other"] == shapes["t_openai"]  # unknown format: the protocol's shape
    assert shapes["t_mistral"] == {"object": "error", **shapes["t_openai"]["error"]}
    assert shapes["t_cerebras"] == shapes["t_openai"]["error"]  # flat, no wrapper
    assert shapes["t_xai"] == {"code": "invalid-argument", "error": VENDOR_TEXT}
    anthropic_body = shapes["t_anthropic"]
    assert anthropic_body["type"] == "error"
    assert anthropic_body["error"] == {"type": "invalid_request_error", "message": VENDOR_TEXT}
    assert anthropic_body["request_id"].startswith("req_")
    assert shapes["t_gemini"] == {"error": {"code": 400, "message": VENDOR_TEXT,
                                            "status": "INVALID_ARGUMENT"}}


def test_mistral_answers_a_422_as_a_fastapi_detail_list(emu: Emulator) -> None:
    # Mistral's request-schema errors are FastAPI's validation list (LibreChat#4866,
    # nextcloud/integration_openai#419); the stand-in's MYSTERY violation is a 422.
    sdk = calls.client("openai_chat", emu.sdk_base_url("t_mistral"))
    with pytest.raises(openai.UnprocessableEntityError) as info:
        calls.send("openai_chat", sdk, _body("openai_chat", "MYSTERY"))
    detail = info.value.response.json()["detail"]
    assert [(d["type"], d["loc"]) for d in detail] == [("invalid_request_error",
                                                        ["body", "messages", 0])]
    assert "vendor message text unknown" in detail[0]["msg"]


@pytest.mark.parametrize("provider", ["t_openai", "t_anthropic", "t_gemini"])
def test_unknown_vendor_text_is_said_plainly(emu: Emulator, provider: str) -> None:
    protocol = emu.protocol(provider)
    sdk = calls.client(protocol, emu.sdk_base_url(provider))
    with pytest.raises((openai.APIStatusError, anthropic.APIStatusError,
                        genai_errors.APIError)) as info:
        calls.send(protocol, sdk, _body(protocol, "MYSTERY"))
    assert calls.sdk_error(info.value) == calls.SdkError(
        422, "provider-conformance emulator: rule empty-content (vendor message text unknown)")


def test_request_ids_reach_the_sdk(emu: Emulator) -> None:
    sdk = calls.client("openai_chat", emu.sdk_base_url("t_openai"))
    raw = sdk.chat.completions.with_raw_response.create(**_body("openai_chat"))
    assert raw.headers["x-request-id"].startswith("req_emu")
    claude = calls.client("anthropic", emu.sdk_base_url("t_anthropic"))
    reply = claude.messages.create(**_body("anthropic"))
    assert reply._request_id and reply._request_id.startswith("req_emu")


def test_key_is_never_logged_or_echoed() -> None:
    lines: list[str] = []
    with serve(_profiles(), checker=stand_in_check, log=lines.append) as running:
        sdk = openai.OpenAI(api_key="sk-secret-123", base_url=running.sdk_base_url("t_openai"),
                            max_retries=0)
        raw = sdk.chat.completions.with_raw_response.create(**_body("openai_chat"))
        conn = http.client.HTTPConnection(running.root.removeprefix("http://"), timeout=10)
        conn.request("POST", "/t_gemini/v1beta/models/g:generateContent?key=sk-secret-123",
                     body=json.dumps(_body("gemini")),
                     headers={"content-type": "application/json"})
        assert conn.getresponse().status == 200
        conn.close()
    assert lines == ["POST /t_openai/v1/chat/completions -> 200 ok",
                     "POST /t_gemini/v1beta/models/g:generateContent -> 200 ok"]
    assert "sk-secret-123" not in raw.http_response.text
    assert all("secret" not in line for line in lines)


def test_serve_shuts_down_cleanly() -> None:
    before = set(threading.enumerate())
    with serve(_profiles(), checker=stand_in_check) as running:
        sdk = calls.client("openai_chat", running.sdk_base_url("t_openai"))
        calls.send("openai_chat", sdk, _body("openai_chat"))  # leaves a keep-alive connection
        started = set(threading.enumerate()) - before
        assert len(started) >= 2  # the serve loop and the idle connection's handler
    assert not [t for t in started if t.is_alive()]
    with pytest.raises(openai.APIConnectionError):
        calls.send("openai_chat", calls.client("openai_chat", running.sdk_base_url("t_openai"),
                                               timeout=2), _body("openai_chat"))


def test_async_clients_and_stream_helpers(emu: Emulator) -> None:
    """The async SDK clients and the SDKs' stream helpers read the same answers."""

    async def scenario() -> list[str]:
        gem = calls.client("gemini", emu.sdk_base_url("t_gemini"))
        chunks = await gem.aio.models.generate_content_stream(model="g-1", contents="hi")
        gemini_text = "".join([chunk.text or "" async for chunk in chunks])
        chat = openai.AsyncOpenAI(api_key=calls.KEY, base_url=emu.sdk_base_url("t_openai"),
                                  max_retries=0)
        reply = await chat.chat.completions.create(**_body("openai_chat"))
        claude = anthropic.AsyncAnthropic(api_key=calls.KEY, max_retries=0,
                                          base_url=emu.sdk_base_url("t_anthropic"))
        async with claude.messages.stream(**_body("anthropic")) as stream:
            final = await stream.get_final_message()
        await chat.close()
        await claude.close()
        return [gemini_text, reply.choices[0].message.content or "", final.content[0].text]

    assert asyncio.run(scenario()) == ["ok", "ok", "ok"]
