"""The tests' one loopback HTTP server (besides the emulator itself): it records every POST
(path and JSON body, in order) and answers each with the test's `Answer`, or with what a
function of (path, body) returns. Used by the wire tests (capture what an unmodified SDK
sends), the SDK streaming tests (serve recorded SSE) and the exception-mapper tests (serve
a vendor's error answer).

    with Loopback(Answer.json({"ok": True})) as server:
        client = openai.OpenAI(base_url=f"{server.url}/v1", api_key="test", max_retries=0)
        ...
        path, body = server.last()
"""

from __future__ import annotations

import json
import threading
from collections.abc import Callable
from dataclasses import dataclass
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any


@dataclass(frozen=True, slots=True)
class Answer:
    status: int
    body: bytes
    content_type: str = "application/json"
    headers: tuple[tuple[str, str], ...] = ()

    @classmethod
    def json(cls, value: Any, status: int = 200, **headers: str) -> Answer:
        return cls(status, json.dumps(value).encode(), "application/json",
                   tuple((k.replace("_", "-"), v) for k, v in headers.items()))

    @classmethod
    def sse(cls, body: bytes) -> Answer:
        return cls(200, body, "text/event-stream")


Reply = Answer | Callable[[str, Any], Answer]


class Loopback:
    """A ThreadingHTTPServer on 127.0.0.1 (a free port); `answer` may be changed between
    requests. Use as a context manager."""

    def __init__(self, answer: Reply) -> None:
        self.answer = answer
        self.bodies: list[tuple[str, Any]] = []
        self.server = ThreadingHTTPServer(("127.0.0.1", 0), _handler(self))
        self.url = f"http://127.0.0.1:{self.server.server_address[1]}"
        # A short poll interval keeps shutdown (a fixture's teardown) quick.
        self.thread = threading.Thread(target=self.server.serve_forever, args=(0.02,),
                                       daemon=True)

    def __enter__(self) -> Loopback:
        self.thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.server.shutdown()
        self.server.server_close()

    def last(self) -> tuple[str, Any]:
        return self.bodies[-1]

    def reply(self, path: str, body: Any) -> Answer:
        self.bodies.append((path, body))
        return self.answer(path, body) if callable(self.answer) else self.answer


def _handler(loopback: Loopback) -> type[BaseHTTPRequestHandler]:
    class Handler(BaseHTTPRequestHandler):
        def do_POST(self) -> None:
            raw = self.rfile.read(int(self.headers.get("content-length") or 0))
            try:
                body: Any = json.loads(raw)
            except ValueError:
                body = raw
            answer = loopback.reply(self.path, body)
            self.send_response(answer.status)
            self.send_header("content-type", answer.content_type)
            self.send_header("content-length", str(len(answer.body)))
            for name, value in answer.headers:
                self.send_header(name, value)
            self.end_headers()
            self.wfile.write(answer.body)

        def log_message(self, *args: Any) -> None:  # keep test output clean
            pass

    return Handler
