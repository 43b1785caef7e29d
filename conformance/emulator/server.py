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
import time
from collections import Counter
from collections.abc import Callable, Mapping, Sequence
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any
from urllib.parse import parse_qsl, urlsplit

from conformance.emulator import errors, replay
from conformance.emulator.decide import (
    Checker,
    Endpoint,
    Reply,
    Request,
    answer_error,
    decide,
    utf8,
)

# A connection waits at most READ_TIMEOUT for each read (an idle keep-alive connection is
# closed after that long), and a request must arrive in full within REQUEST_DEADLINE:
# a client trickling one byte at a time cannot hold a handler thread for ever.
READ_TIMEOUT = 10.0
REQUEST_DEADLINE = 30.0
# The listen backlog: the stdlib's 5 makes 32 clients connecting at once see resets.
BACKLOG = 64
# What the emulator reads at most: above every vendor limit it models (Anthropic's 32 MiB
# is a profile rule, request-too-large, answered in its words); the others' are unknown.
MAX_BODY_BYTES = 64 * 1024 * 1024
Log = Callable[[str], None]


class EmulatorServer(ThreadingHTTPServer):
    """The loopback server: the endpoints and replays it serves, the checker that decides, and
    the (provider, status) counts of what it answered."""

    daemon_threads = False  # joined on close, so none leaks
    block_on_close = True
    allow_reuse_address = True
    request_queue_size = BACKLOG
    read_timeout = READ_TIMEOUT  # per server, so tests can shorten them
    request_deadline = REQUEST_DEADLINE

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
        self._reading: dict[socket.socket, float] = {}  # connection -> deadline of its read
        super().__init__(address, Handler)

    def next_id(self) -> str:
        """A fresh request id (`req_emu00000001`, ...), put in the answer's ids and headers."""
        with self._lock:
            return f"req_emu{next(self._ids):08d}"

    def record(self, provider: str, status: int) -> None:
        """Count one answer with `status` for `provider` in `stats`."""
        with self._lock:
            self.stats[(provider, status)] += 1

    def process_request(self, request: Any, client_address: Any) -> None:
        """Track the connection (so close() can end it), then serve it on its own thread."""
        with self._lock:
            self._open.add(request)
        super().process_request(request, client_address)

    def shutdown_request(self, request: Any) -> None:
        """Forget the connection and its read deadline, then close it."""
        with self._lock:
            self._open.discard(request)
            self._reading.pop(request, None)
        super().shutdown_request(request)

    def reading(self, conn: socket.socket, started: bool) -> None:
        """A handler starts (or ends) reading a request from `conn`."""
        with self._lock:
            if started:
                self._reading[conn] = time.monotonic() + self.request_deadline
            else:
                self._reading.pop(conn, None)

    def service_actions(self) -> None:
        """Called by serve_forever's loop (every poll interval): drop connections whose
        request has not arrived in full by its deadline."""
        now = time.monotonic()
        with self._lock:
            late = [conn for conn, deadline in self._reading.items() if deadline < now]
            for conn in late:
                del self._reading[conn]
        for conn in late:
            with contextlib.suppress(OSError):
                conn.shutdown(socket.SHUT_RDWR)  # the handler's read ends; it closes

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
    """One connection's handler: every method is routed to the provider (or replay) its path
    names; the answers are the vendors' shapes, never the stdlib's HTML."""

    protocol_version = "HTTP/1.1"
    server_version = "provider-conformance-emulator"
    timeout = READ_TIMEOUT
    disable_nagle_algorithm = True  # headers and body go out in two writes: no 40 ms stall
    server: EmulatorServer

    def setup(self) -> None:
        """Use the server's read timeout (tests shorten it) for this connection."""
        self.timeout = self.server.read_timeout
        super().setup()

    def handle_one_request(self) -> None:
        """Serve one request, with the server's deadline on reading it."""
        self.server.reading(self.connection, True)
        try:
            super().handle_one_request()
        finally:
            self.server.reading(self.connection, False)

    def do_POST(self) -> None:
        """Answer the request (every method is routed here; decide() refuses all but POST)."""
        self._answer()

    do_GET = do_PUT = do_DELETE = do_PATCH = do_OPTIONS = do_HEAD = do_POST

    def send_error(self, code: int, message: str | None = None,
                   explain: str | None = None) -> None:
        """The stdlib answers what it cannot parse (a garbage request line, an HTTP/2
        preface, an unknown method, an over-long header) with an HTML page; here it is a
        JSON error in the vendor's shape when the path names a provider, OpenAI's else."""
        self.server.reading(self.connection, False)
        if self.request_version == "HTTP/0.9":  # not served: answer with a status line
            self.request_version = "HTTP/1.1"
        if code == 501:  # a method the stdlib has no do_ method for
            error = errors.method_not_allowed(self.command or "?", self._path_below())
        else:
            error = errors.bad_request_line(message or str(code))
            error = error if code in (400, 505) else errors.VendorError(code, error.message)
        endpoint = self.server.endpoints.get(self._provider())
        fmt = endpoint.error_format if endpoint else "openai"
        body = errors.error_body(fmt, error, self.server.next_id())
        self.close_connection = True
        self._write(error.status, "application/json", utf8(json.dumps(body)),
                    [("allow", "POST")] if error.status == 405 else [])

    def version_string(self) -> str:
        """The `Server` header: the emulator's name, not Python's version."""
        return self.server_version

    def log_message(self, format: str, *args: Any) -> None:
        """Silent: the stdlib line would hold the full path (and so a `?key=`)."""

    def _provider(self) -> str:
        path = urlsplit(getattr(self, "path", "") or "").path
        return path.lstrip("/").partition("/")[0]

    def _path_below(self) -> str:
        path = urlsplit(getattr(self, "path", "") or "").path
        return "/" + path.lstrip("/").partition("/")[2]

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
        self.server.reading(self.connection, False)
        if isinstance(body, Reply):
            reply = body
        else:
            request = Request(method=self.command, path="/" + rest,
                              query=dict(parse_qsl(url.query)),
                              headers={k.lower(): v for k, v in self.headers.items()},
                              body=body)
            reply = decide(endpoint, request, rid, self.server.checker)
        self.server.record(provider, reply.status)
        # Logged before the answer goes out: a client that has it finds its line written
        # (after, the next request's line could come first, or the server stop before it).
        if self.server.log is not None:
            self.server.log(f"{self.command} {url.path} -> {reply.status} {reply.rule or 'ok'}")
        self._send(endpoint, reply, rid)

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
        refused = errors.too_large(length, self.server.max_body_bytes, endpoint.profile)
        if refused is not None:
            self._discard(length)
            return answer_error(endpoint, refused, rid, "too-large")
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
        extra = list(_id_headers(endpoint.protocol, rid))
        if reply.status == 405:
            extra.append(("allow", "POST"))
        self._write(reply.status, reply.content_type, reply.body, extra)

    def _write(self, status: int, content_type: str, body: bytes,
               extra: Sequence[tuple[str, str]] = ()) -> None:
        self.send_response(status)
        self.send_header("content-type", content_type)
        self.send_header("content-length", str(len(body)))
        for name, value in extra:
            self.send_header(name, value)
        if content_type.startswith("text/event-stream"):
            self.send_header("cache-control", "no-cache")
        if self.close_connection:
            self.send_header("connection", "close")
        self.end_headers()
        if self.command != "HEAD":  # a HEAD answer has headers only (RFC 9110, 9.3.2)
            self.wfile.write(body)

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
        if self.server.log is not None:  # before the answer, as above
            self.server.log(f"{self.command} /{replay.PREFIX}/{rest.split('?')[0]} -> {status} "
                            "replay")
        self._write(status, content_type, body)

    def _send_unknown_provider(self, provider: str) -> None:
        served = ", ".join(sorted(self.server.endpoints)) or "none"
        message = (f"provider-conformance emulator: no provider {provider!r} here; "
                   f"serving: {served}")
        text = json.dumps({"error": {"message": message, "type": "not_found"}}).encode()
        self.close_connection = True  # the body, if any, was not read
        self._write(404, "application/json", text)


def _id_headers(protocol: str, rid: str) -> tuple[tuple[str, str], ...]:
    """Request-id headers the SDKs read (`request-id` for anthropic, `x-request-id` for
    openai; google-genai reads none)."""
    if protocol == "anthropic":
        return (("request-id", rid),)
    if protocol == "gemini":
        return ()
    return (("x-request-id", rid),)
