"""The HTTP server: one loopback port, one path prefix per provider (`/<provider>/...`).

Built on the stdlib `ThreadingHTTPServer` (HTTP/1.1, keep-alive, one thread per
connection). Every open connection is tracked so `close()` can end idle keep-alive
connections and join every handler thread: no thread or socket outlives the server.

Keys are accepted whatever they are and are never logged or echoed: the log line holds the
method, the path without its query (Gemini clients may put `?key=` there) and the outcome.
"""

from __future__ import annotations

import contextlib
import itertools
import json
import socket
import sys
import threading
from collections import Counter
from collections.abc import Callable, Mapping
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any
from urllib.parse import parse_qsl, urlsplit

from conformance.emulator import errors, replay
from conformance.emulator.decide import Checker, Endpoint, Reply, Request, answer_error, decide

IDLE_TIMEOUT = 30.0  # seconds a keep-alive connection may sit idle
MAX_BODY_BYTES = 32 * 1024 * 1024  # Anthropic's documented limit; the others' are unknown
Log = Callable[[str], None]


class EmulatorServer(ThreadingHTTPServer):
    daemon_threads = False  # joined on close, so none leaks
    block_on_close = True
    allow_reuse_address = True

    def __init__(self, address: tuple[str, int], endpoints: Mapping[str, Endpoint],
                 checker: Checker, *, max_body_bytes: int = MAX_BODY_BYTES,
                 log: Log | None = None,
                 replays: Mapping[str, replay.Replay] | None = None) -> None:
        self.endpoints = dict(endpoints)
        self.replays = dict(replays or {})  # name -> recorded stream, under /_replay/<name>
        self.checker = checker
        self.max_body_bytes = max_body_bytes
        self.log = log
        self.stats: Counter[tuple[str, int]] = Counter()  # (provider, status) -> count
        self._ids = itertools.count(1)
        self._lock = threading.Lock()
        self._open: set[socket.socket] = set()
        super().__init__(address, Handler)

    def next_id(self) -> str:
        with self._lock:
            return f"req_emu{next(self._ids):08d}"

    def record(self, provider: str, status: int) -> None:
        with self._lock:
            self.stats[(provider, status)] += 1

    def process_request(self, request: Any, client_address: Any) -> None:
        with self._lock:
            self._open.add(request)
        super().process_request(request, client_address)

    def shutdown_request(self, request: Any) -> None:
        with self._lock:
            self._open.discard(request)
        super().shutdown_request(request)

    def handle_error(self, request: Any, client_address: Any) -> None:
        """One line, not the stdlib's traceback: a client that hangs up mid-answer is
        routine under load."""
        kind = sys.exc_info()[0]
        name = kind.__name__ if kind else "error"
        print(f"emulator: connection from {client_address[0]} ended: {name}", file=sys.stderr)

    def close(self) -> None:
        """Stop accepting, end idle keep-alive connections, join every handler thread."""
        self.shutdown()
        with self._lock:
            still_open = list(self._open)
        for conn in still_open:
            with contextlib.suppress(OSError):  # already closed by its handler
                conn.shutdown(socket.SHUT_RDWR)  # wakes a handler blocked reading
        self.server_close()


class Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"
    server_version = "provider-conformance-emulator"
    timeout = IDLE_TIMEOUT
    disable_nagle_algorithm = True  # headers and body go out in two writes: no 40 ms stall
    server: EmulatorServer

    def do_POST(self) -> None:
        self._answer()

    do_GET = do_PUT = do_DELETE = do_PATCH = do_OPTIONS = do_POST

    def version_string(self) -> str:
        return self.server_version

    def log_message(self, format: str, *args: Any) -> None:
        """Silent: the stdlib line would hold the full path (and so a `?key=`)."""

    def _answer(self) -> None:
        url = urlsplit(self.path)
        provider, _, rest = url.path.lstrip("/").partition("/")
        if provider == replay.PREFIX:
            self._send_replay(rest)
            return
        endpoint = self.server.endpoints.get(provider)
        if endpoint is None:
            self._send_unknown_provider(provider)
            return
        rid = self.server.next_id()
        body = self._read_body(endpoint, rid)
        if isinstance(body, Reply):
            reply = body
        else:
            request = Request(method=self.command, path="/" + rest,
                              query=dict(parse_qsl(url.query)),
                              headers={k.lower(): v for k, v in self.headers.items()},
                              body=body)
            reply = decide(endpoint, request, rid, self.server.checker)
        self.server.record(provider, reply.status)
        self._send(endpoint, reply, rid)
        if self.server.log is not None:
            self.server.log(f"{self.command} {url.path} -> {reply.status} {reply.rule or 'ok'}")

    def _read_body(self, endpoint: Endpoint, rid: str) -> bytes | Reply:
        """The request body, or the vendor-shaped refusal when it cannot or must not be read."""
        raw = self.headers.get("content-length")
        if raw is None:
            if "chunked" in self.headers.get("transfer-encoding", "").lower():
                self.close_connection = True  # the unread chunks would poison the connection
                return answer_error(endpoint, errors.unknown_chunked(), rid, "bad-input")
            return b""
        try:
            length = int(raw)
            if length < 0:
                raise ValueError(raw)
        except ValueError:
            self.close_connection = True
            return answer_error(endpoint, errors.bad_length(raw), rid, "bad-input")
        limit = self.server.max_body_bytes
        if length > limit:
            self._discard(length)
            return answer_error(endpoint, errors.too_large(endpoint.error_format, length, limit),
                                rid, "too-large")
        return self.rfile.read(length)

    def _discard(self, length: int) -> None:
        """Read and drop an oversized body so the client sees our 413, not a reset; past
        four times the limit, stop reading and close the connection instead."""
        if length > 4 * self.server.max_body_bytes:
            self.close_connection = True
            return
        left = length
        while left > 0:
            chunk = self.rfile.read(min(left, 1 << 20))
            if not chunk:
                break
            left -= len(chunk)

    def _send(self, endpoint: Endpoint, reply: Reply, rid: str) -> None:
        self.send_response(reply.status)
        self.send_header("content-type", reply.content_type)
        self.send_header("content-length", str(len(reply.body)))
        for name, value in _id_headers(endpoint.protocol, rid):
            self.send_header(name, value)
        if reply.content_type.startswith("text/event-stream"):
            self.send_header("cache-control", "no-cache")
        if self.close_connection:
            self.send_header("connection", "close")
        self.end_headers()
        self.wfile.write(reply.body)

    def _send_replay(self, rest: str) -> None:
        """A recorded stream (conformance/emulator/replay.py); the request body is read
        and ignored, so the keep-alive connection stays usable."""
        try:
            length = int(self.headers.get("content-length") or 0)
        except ValueError:
            length = -1
        if 0 <= length <= self.server.max_body_bytes:
            self.rfile.read(length)
        else:
            self.close_connection = True
        status, content_type, body = replay.answer(self.server.replays, rest)
        self.send_response(status)
        self.send_header("content-type", content_type)
        self.send_header("content-length", str(len(body)))
        self.send_header("cache-control", "no-cache")
        if self.close_connection:
            self.send_header("connection", "close")
        self.end_headers()
        self.wfile.write(body)
        if self.server.log is not None:
            self.server.log(f"{self.command} /{replay.PREFIX}/{rest.split('?')[0]} -> {status} "
                            "replay")

    def _send_unknown_provider(self, provider: str) -> None:
        served = ", ".join(sorted(self.server.endpoints)) or "none"
        message = (f"provider-conformance emulator: no provider {provider!r} here; "
                   f"serving: {served}")
        text = json.dumps({"error": {"message": message, "type": "not_found"}}).encode()
        self.close_connection = True  # the body, if any, was not read
        self.send_response(404)
        self.send_header("content-type", "application/json")
        self.send_header("content-length", str(len(text)))
        self.send_header("connection", "close")
        self.end_headers()
        self.wfile.write(text)


def _id_headers(protocol: str, rid: str) -> tuple[tuple[str, str], ...]:
    """Request-id headers the SDKs read (`request-id` for anthropic, `x-request-id` for
    openai; google-genai reads none)."""
    if protocol == "anthropic":
        return (("request-id", rid),)
    if protocol == "gemini":
        return ()
    return (("x-request-id", rid),)
