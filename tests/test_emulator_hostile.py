"""Hostile clients of the emulator (issue 14, reliability): every request gets a
vendor-shaped answer (lone surrogates, a profile template naming an unknown field, odd
methods, an HTTP/2 preface, a garbage request line), the backlog holds 32 clients
connecting at once, and a client trickling bytes is dropped."""

from __future__ import annotations

import http.client
import json
import socket
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import fast_yaml
import pytest

import normalizer
from conformance.emulator import Emulator, EmulatorServer, endpoints_for, serve
from normalizer.profiles import profile_from_mapping

OPENAI = Path(normalizer.__file__).parent / "profiles" / "openai.yaml"
UNPAIRED = {"model": "m", "messages": [
    {"role": "user", "content": "hi"},
    {"role": "assistant", "tool_calls": [{"type": "function",
                                          "function": {"name": "f", "arguments": "{}"}}]},
    {"role": "tool", "content": "x"}]}


def _typo_profile() -> Any:
    data = fast_yaml.load(OPENAI.read_text(encoding="utf-8"))
    for rule in data["rules"]:
        if rule["id"] == "tool-call-id-missing":
            rule["message"] = "Missing {nope}: '{param}'."
    data["provider"] = "typo_openai"
    return profile_from_mapping(data, source="typo.yaml")


@pytest.fixture(scope="module")
def emu() -> Iterator[Emulator]:
    with serve(["openai", "anthropic", "gemini", _typo_profile()]) as running:
        yield running


def _host(emu: Emulator) -> tuple[str, int]:
    host, port = emu.root.removeprefix("http://").split(":")
    return host, int(port)


def request(emu: Emulator, method: str, path: str, body: bytes = b"",
            headers: dict[str, str] | None = None) -> tuple[int, dict[str, str], bytes]:
    conn = http.client.HTTPConnection(*_host(emu), timeout=30)
    try:
        conn.request(method, path, body=body, headers={
            "content-type": "application/json", "anthropic-version": "2023-06-01",
            **(headers or {})})
        answer = conn.getresponse()
        return answer.status, {k.lower(): v for k, v in answer.getheaders()}, answer.read()
    finally:
        conn.close()


def raw_exchange(emu: Emulator, data: bytes) -> bytes:
    with socket.create_connection(_host(emu), timeout=30) as sock:
        sock.sendall(data)
        chunks = []
        while chunk := sock.recv(65536):
            chunks.append(chunk)
    return b"".join(chunks)


def test_lone_surrogate_in_the_model_gets_an_answer(emu: Emulator) -> None:
    body = b'{"model": "m\\ud800", "messages": [{"role": "user", "content": "hi \\udc00"}]}'
    status, _, data = request(emu, "POST", "/openai/v1/chat/completions", body)
    assert status == 200
    assert json.loads(data)["model"] == "m\ud800"  # escaped on the wire, read back the same


def test_template_naming_an_unknown_field_is_sent_as_written(
        emu: Emulator, capsys: pytest.CaptureFixture[str]) -> None:
    status, _, data = request(emu, "POST", "/typo_openai/v1/chat/completions",
                              json.dumps(UNPAIRED).encode())
    assert status == 400
    message = json.loads(data)["error"]["message"]
    assert message.startswith("Missing {nope}: 'messages[1].tool_calls[0].id'")
    assert "names nope, which its detector does not provide" in capsys.readouterr().err


@pytest.mark.parametrize("method", ["PUT", "DELETE", "PATCH", "OPTIONS", "GET", "FROB"])
@pytest.mark.parametrize(("provider", "path", "shape"), [
    ("openai", "/v1/chat/completions", lambda b: b["error"]["type"]),
    ("anthropic", "/v1/messages", lambda b: b["type"] == "error" and b["error"]["type"]),
    ("gemini", "/v1beta/models/gemini-2.5-flash:generateContent",
     lambda b: b["error"]["status"])])
def test_odd_methods_get_a_vendor_shaped_405(emu: Emulator, method: str, provider: str,
                                             path: str, shape: Any) -> None:
    status, headers, data = request(emu, method, f"/{provider}{path}", b"{}")
    assert status == 405 and headers["allow"] == "POST"
    assert headers["content-type"].startswith("application/json")
    assert shape(json.loads(data))


def test_head_gets_headers_only(emu: Emulator) -> None:
    status, headers, data = request(emu, "HEAD", "/openai/v1/chat/completions")
    assert (status, data) == (405, b"") and int(headers["content-length"]) > 0


@pytest.mark.parametrize("data", [
    b"PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n",  # the HTTP/2 connection preface
    b"\x16\x03\x01\x02\x00\x01\x00\x01\xfc\x03\x03\r\n\r\n",  # a TLS hello on a plain port
    b"GARBAGE\r\n\r\n",
    b"POST /openai/v1/chat/completions HTTP/9.9\r\n\r\n",
    b"POST /openai/v1/chat/completions HTTP/1.1\r\n" + b"x-long: " + b"a" * 70000 + b"\r\n\r\n",
])
def test_unparsable_requests_get_a_json_400(emu: Emulator, data: bytes) -> None:
    answer = raw_exchange(emu, data)
    head, _, body = answer.partition(b"\r\n\r\n")
    assert head.startswith(b"HTTP/1.1 4"), answer[:200]
    assert b"content-type: application/json" in head.lower()
    assert "malformed HTTP request" in json.loads(body)["error"]["message"]


def test_backlog_holds_32_clients_connecting_at_once() -> None:
    # The server is built but not yet accepting: every connection waits in the listen
    # backlog. With the stdlib's 5, connects past the sixth stall and time out.
    served, _ = endpoints_for(["openai"], check_detectors=True)
    server = EmulatorServer(("127.0.0.1", 0), served, normalizer.check)
    clients = []
    try:
        for _ in range(32):
            sock = socket.socket()
            sock.settimeout(3)
            sock.connect(server.server_address[:2])  # completes in the kernel's backlog
            clients.append(sock)
        thread = threading.Thread(target=server.serve_forever, kwargs={"poll_interval": 0.05})
        thread.start()
        for sock in clients:
            sock.settimeout(30)
            sock.sendall(b"POST /openai/v1/models HTTP/1.1\r\ncontent-length: 0\r\n\r\n")
        assert all(sock.recv(12).startswith(b"HTTP/1.1 404") for sock in clients)
    finally:
        for sock in clients:
            sock.close()
        server.close()
    thread.join()


def _closed_while_trickling(emu: Emulator, data: bytes, pause: float) -> int:
    """Send `data` a byte at a time, `pause` apart; how many bytes went before the server
    closed the connection (len(data) + 1 when it never did)."""
    with socket.create_connection(_host(emu), timeout=30) as sock:
        for sent, byte in enumerate(data):
            try:
                sock.sendall(bytes([byte]))
            except OSError:
                return sent
            time.sleep(pause)
            sock.setblocking(False)
            try:
                if sock.recv(1024) == b"":
                    return sent + 1
            except BlockingIOError:
                pass
            except OSError:
                return sent + 1
            finally:
                sock.setblocking(True)
    return len(data) + 1


def test_a_trickling_client_is_dropped() -> None:
    request_bytes = (b"POST /openai/v1/chat/completions HTTP/1.1\r\ncontent-length: 400\r\n"
                     b"\r\n" + b" " * 400)
    with serve(["openai"]) as emu:
        # Shortened for the test; the defaults are 10 s per read and 30 s per request.
        emu.server.read_timeout, emu.server.request_deadline = 5.0, 1.0
        # Each byte comes well within the read timeout; the request deadline drops it.
        assert _closed_while_trickling(emu, request_bytes, 0.1) < len(request_bytes)


def test_an_idle_connection_is_closed_after_the_read_timeout() -> None:
    with serve(["openai"]) as emu:
        emu.server.read_timeout = 0.5
        with socket.create_connection(_host(emu), timeout=30) as sock:
            assert sock.recv(10) == b""  # closed by the server, not by our 30 s timeout
