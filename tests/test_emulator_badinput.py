"""Bad input on the wire: each gets a vendor-shaped 4xx (never a 500, never a crash) and
the server keeps serving on the same connection or a new one."""

from __future__ import annotations

import http.client
import json
from collections.abc import Iterator, Mapping, Sequence
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from sizing import examples

import normalizer
from conformance.emulator import Emulator, endpoints_for, serve
from conformance.emulator.decide import Endpoint, Request, decide
from conformance.emulator.errors import OPENAI_BAD_JSON
from normalizer.check import Violation
from normalizer.profiles import Profile, profile_from_mapping

PROVIDERS = {"b_openai": ("openai_chat", "openai"), "b_anthropic": ("anthropic", "anthropic"),
             "b_gemini": ("gemini", "gemini"), "b_mistral": ("openai_chat", "mistral"),
             "b_responses": ("openai_responses", "openai")}
PATHS = {"b_openai": "/b_openai/v1/chat/completions", "b_mistral": "/b_mistral/v1/chat/completions",
         "b_anthropic": "/b_anthropic/v1/messages", "b_responses": "/b_responses/v1/responses",
         "b_gemini": "/b_gemini/v1beta/models/gemini-2.5-flash:generateContent"}
VALID = {"b_openai": {"model": "m", "messages": [{"role": "user", "content": "hi"}]},
         "b_mistral": {"model": "m", "messages": [{"role": "user", "content": "hi"}]},
         "b_anthropic": {"model": "m", "max_tokens": 8,
                         "messages": [{"role": "user", "content": "hi"}]},
         "b_responses": {"model": "m", "input": "hi"},
         "b_gemini": {"contents": [{"role": "user", "parts": [{"text": "hi"}]}]}}
LIMIT = 12 * 1024 * 1024
MB = 1024 * 1024


def no_rules(body: Mapping[str, Any], profile: Profile,
             model: str | None = None) -> Sequence[Violation]:
    if body.get("explode"):
        raise TypeError("a detector bug")
    return ()


@pytest.fixture(scope="module")
def emu() -> Iterator[Emulator]:
    profiles = [profile_from_mapping({"provider": p, "protocol": proto, "error_format": fmt})
                for p, (proto, fmt) in PROVIDERS.items()]
    with serve(profiles, checker=no_rules, max_body_bytes=LIMIT) as running:
        yield running


def post(emu: Emulator, path: str, body: bytes, headers: Mapping[str, str] | None = None,
         conn: http.client.HTTPConnection | None = None) -> tuple[int, Any, dict[str, str]]:
    own = conn or http.client.HTTPConnection(emu.root.removeprefix("http://"), timeout=30)
    sent = {"content-type": "application/json", "anthropic-version": "2023-06-01",
            "authorization": "Bearer k", **(headers or {})}
    own.request("POST", path, body=body, headers=sent)
    response = own.getresponse()
    data = response.read()
    if conn is None:
        own.close()
    return response.status, json.loads(data), {k.lower(): v for k, v in response.getheaders()}


def message_of(provider: str, body: Mapping[str, Any]) -> str:
    """The message field of the vendor's error shape; asserts the shape on the way."""
    if provider == "b_anthropic":
        assert body["type"] == "error" and set(body["error"]) == {"type", "message"}
        return body["error"]["message"]
    if provider == "b_gemini":
        assert set(body["error"]) == {"code", "message", "status"}
        return body["error"]["message"]
    if provider == "b_mistral":
        assert body["object"] == "error" and set(body) == {"object", "message", "type",
                                                           "param", "code"}
        return body["message"]
    assert set(body["error"]) == {"message", "type", "param", "code"}
    return body["error"]["message"]


def still_serves(emu: Emulator, provider: str) -> None:
    status, body, _ = post(emu, PATHS[provider], json.dumps(VALID[provider]).encode())
    assert status == 200, body


def _nested(levels: int) -> bytes:
    return b'{"model": "m", "messages": ' + b"[" * levels + b"]" * levels + b"}"


BAD_BODIES: dict[str, bytes] = {
    "not-json": b"this is not json",
    "truncated": b'{"model": "m", "messages": [',
    "not-utf8": b'{"model": "\xff\xfe"}',
    "json-array": b"[1, 2, 3]",
    "deep-nesting-unparsable": b"[" * 200_000 + b"]" * 200_000,
    "deep-nesting-parsable": _nested(500),
    "junk-10mb": b"x" * (10 * MB),
    "wrong-type-messages": b'{"model": "m", "messages": "hi", "contents": 5, "input": 5,'
                           b' "max_tokens": 8}',
    "wrong-type-model": b'{"model": 5, "messages": [], "contents": 5, "max_tokens": 8}',
    "empty": b"",
}


@pytest.mark.parametrize("provider", sorted(PROVIDERS))
@pytest.mark.parametrize("case", sorted(BAD_BODIES))
def test_bad_body_gets_a_vendor_shaped_400(emu: Emulator, provider: str, case: str) -> None:
    status, body, headers = post(emu, PATHS[provider], BAD_BODIES[case])
    assert status == 400, body
    assert message_of(provider, body)
    assert headers["content-type"].startswith("application/json")
    still_serves(emu, provider)


def test_openai_verbatim_texts(emu: Emulator) -> None:
    _, body, _ = post(emu, PATHS["b_openai"], b"{nope")
    assert body["error"] == {"message": OPENAI_BAD_JSON, "type": "invalid_request_error",
                             "param": None, "code": None}
    _, body, _ = post(emu, PATHS["b_openai"], b'{"messages": []}')
    assert body["error"]["message"] == "you must provide a model parameter"
    _, body, _ = post(emu, PATHS["b_openai"],
                      b'{"model": "m", "messages": [{"role": "user", "content": 5}]}')
    assert body["error"]["message"] == ("Invalid type for 'messages[0].content': expected one "
                                        "of a string or array of objects, but got an integer "
                                        "instead.")
    assert body["error"]["param"] == "messages[0].content"


def test_anthropic_verbatim_texts(emu: Emulator) -> None:
    valid = json.dumps(VALID["b_anthropic"]).encode()
    status, body, _ = post(emu, PATHS["b_anthropic"], valid, {"anthropic-version": ""})
    assert status == 200  # present (even empty) is enough: the emulator pins no version
    conn = http.client.HTTPConnection(emu.root.removeprefix("http://"), timeout=10)
    conn.request("POST", PATHS["b_anthropic"], body=valid,
                 headers={"content-type": "application/json"})
    answer = conn.getresponse()
    assert answer.status == 400
    assert json.loads(answer.read())["error"]["message"] == "anthropic-version: header is required"
    conn.close()
    _, body, _ = post(emu, PATHS["b_anthropic"], b'{"model": "m", "messages": []}')
    assert body["error"]["message"] == "max_tokens: Field required"
    _, body, _ = post(emu, PATHS["b_anthropic"], b"{oops")
    assert body["error"]["message"].startswith("The request body is not valid JSON: ")


@pytest.mark.parametrize("provider", sorted(PROVIDERS))
def test_wrong_content_type(emu: Emulator, provider: str) -> None:
    status, body, _ = post(emu, PATHS[provider], json.dumps(VALID[provider]).encode(),
                           {"content-type": "text/plain"})
    assert status == 400
    assert "Content-Type must be application/json" in message_of(provider, body)


@pytest.mark.parametrize("provider", ["b_openai", "b_anthropic", "b_gemini"])
def test_oversized_body_gets_413_and_the_connection_survives(emu: Emulator,
                                                             provider: str) -> None:
    conn = http.client.HTTPConnection(emu.root.removeprefix("http://"), timeout=30)
    status, body, _ = post(emu, PATHS[provider], b" " * (LIMIT + 1), conn=conn)
    assert status == 413
    assert "over the emulator's limit" in message_of(provider, body)
    status, _, _ = post(emu, PATHS[provider], json.dumps(VALID[provider]).encode(), conn=conn)
    assert status == 200
    conn.close()


def test_ten_megabytes_of_valid_json_is_checked_not_refused(emu: Emulator) -> None:
    body = {"model": "m", "messages": [{"role": "user", "content": "x" * (10 * MB)}]}
    status, reply, _ = post(emu, PATHS["b_openai"], json.dumps(body).encode())
    assert status == 200 and reply["choices"][0]["message"]["content"] == "ok"


def test_checker_crash_is_a_400_that_says_so(emu: Emulator, capsys: Any) -> None:
    body = {**VALID["b_openai"], "explode": True}
    status, reply, _ = post(emu, PATHS["b_openai"], json.dumps(body).encode())
    assert status == 400
    assert reply["error"]["message"] == ("provider-conformance emulator: the request could not "
                                         "be checked (TypeError) (vendor message text unknown)")
    assert "a detector bug" in capsys.readouterr().err
    still_serves(emu, "b_openai")


@pytest.mark.parametrize("path", ["/b_openai/v1/completions", "/b_anthropic/v1/complete",
                                  "/b_gemini/v1beta/models/x:countTokens", "/b_openai"])
def test_unknown_route_is_a_vendor_shaped_404(emu: Emulator, path: str) -> None:
    status, body, _ = post(emu, path, b"{}")
    assert status == 404
    assert "no route for POST" in message_of(path.split("/")[1], body)


def test_unknown_provider_and_other_methods(emu: Emulator) -> None:
    status, body, _ = post(emu, "/nobody/v1/chat/completions", b"{}")
    assert status == 404 and "serving: b_anthropic" in body["error"]["message"]
    conn = http.client.HTTPConnection(emu.root.removeprefix("http://"), timeout=10)
    conn.request("GET", "/b_openai/v1/chat/completions")
    answer = conn.getresponse()
    assert answer.status == 405 and "method GET is not allowed" in answer.read().decode()
    conn.close()


def test_bad_content_length_and_chunked(emu: Emulator) -> None:
    for headers in ({"Content-Length": "-5"}, {"Content-Length": "abc"},
                    {"Transfer-Encoding": "chunked"}):
        conn = http.client.HTTPConnection(emu.root.removeprefix("http://"), timeout=10)
        conn.putrequest("POST", PATHS["b_openai"], skip_accept_encoding=True)
        for name, value in {"content-type": "application/json", **headers}.items():
            conn.putheader(name, value)
        conn.endheaders()
        answer = conn.getresponse()
        assert answer.status == 400, headers
        assert "vendor message text unknown" in json.loads(answer.read())["error"]["message"]
        conn.close()
    still_serves(emu, "b_openai")


# Arbitrary JSON where the messages go, straight through decide() against the real built-in
# profiles: every answer is a 200 or a vendor-shaped 4xx, never a 5xx or an exception.
_LEAF = st.one_of(st.none(), st.booleans(), st.integers(), st.text(max_size=4))
_KEYS = st.sampled_from(["role", "content", "type", "text", "id", "tool_calls", "function",
                         "name", "arguments", "tool_call_id", "parts", "functionCall",
                         "functionResponse", "tool_use_id", "input", "call_id", "output"])
_JSON = st.recursive(_LEAF, lambda inner: st.lists(inner, max_size=3)
                     | st.dictionaries(_KEYS, inner, max_size=4), max_leaves=10)
_ROUTE = {"openai_chat": ("/v1/chat/completions", "messages"),
          "openai_responses": ("/v1/responses", "input"),
          "anthropic": ("/v1/messages", "messages"),
          "gemini": ("/v1beta/models/gemini-2.5-flash:generateContent", "contents")}


def _ready_endpoints() -> list[Endpoint]:
    served, _ = endpoints_for(None)
    return list(served.values())


@settings(max_examples=examples(50, 150), deadline=None)
@given(data=st.data(), messages=st.lists(_JSON, max_size=4))
def test_arbitrary_messages_never_crash(data: st.DataObject, messages: list[Any]) -> None:
    endpoints = _ready_endpoints()
    if not endpoints:
        pytest.skip("no built-in profile is ready")
    endpoint = data.draw(st.sampled_from(endpoints))
    path, key = _ROUTE[endpoint.protocol]
    body = {"model": "m", "max_tokens": 8, key: messages}
    request = Request("POST", path, {}, {"content-type": "application/json",
                                         "anthropic-version": "2023-06-01"},
                      json.dumps(body).encode())
    reply = decide(endpoint, request, "req_x", normalizer.check)
    assert reply.status < 500
    assert reply.rule != "unchecked", reply.body  # check() itself must not fail
    answer = json.loads(reply.body) if reply.content_type.startswith("application/json") \
        else None
    if reply.status >= 400:
        assert isinstance(answer, dict) and ("error" in answer or "message" in answer)
