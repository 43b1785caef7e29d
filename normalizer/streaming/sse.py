"""Server-sent events on the wire: an incremental decoder (bytes in any chunking, UTF-8
characters split across chunks included) and the encoding each vendor uses.

Decoding follows the WHATWG event-stream rules: lines end in LF, CRLF or CR; `data:` lines
of one event are joined with LF; a blank line dispatches; `:` starts a comment; an event
not ended by a blank line when the stream stops is dropped (it may be cut mid-JSON).
"""

from __future__ import annotations

import codecs
import json
import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any

from normalizer.errors import UnknownProtocolError
from normalizer.protocols import PROTOCOLS

_LINE = re.compile(r"\r\n|\r|\n")
# OpenAI Chat ends its stream with this data line; it is not JSON.
DONE = "[DONE]"
# The key under which `json_events` hands over data that is not JSON, so the assembler
# reports it as a malformed event instead of the decoder raising.
INVALID_JSON_KEY = "sse_invalid_json"


@dataclass(frozen=True, slots=True)
class SSEMessage:
    """One server-sent event: its `event` name (if any) and its `data` text."""

    event: str | None
    data: str


class SSEDecoder:
    """Feed bytes as they arrive; get every event completed so far."""

    def __init__(self) -> None:
        self._utf8 = codecs.getincrementaldecoder("utf-8")(errors="replace")
        self._pending: list[str] = []  # the line not ended yet, in the pieces it came in
        self._event: str | None = None
        self._data: list[str] = []

    def feed(self, chunk: bytes) -> list[SSEMessage]:
        """Take the next bytes; return the events they complete."""
        new = self._utf8.decode(chunk)
        held_cr = bool(self._pending) and self._pending[-1].endswith("\r")
        if not held_cr and "\n" not in new and "\r" not in new:
            # The line goes on: kept as a piece, joined once its end arrives (joining and
            # splitting everything pending at every chunk cost the square of a long line,
            # such as an image's base64 arriving in 16 KB reads).
            self._pending.append(new)
            return []
        text = "".join([*self._pending, new])
        # A trailing CR may be the first half of a CRLF: hold it until the next chunk.
        held = "\r" if text.endswith("\r") else ""
        lines = _LINE.split(text[: len(text) - len(held)])
        self._pending = [lines.pop() + held]
        return [m for line in lines if (m := self._line(line)) is not None]

    def close(self) -> list[SSEMessage]:
        """End of stream: a held CR ends its line; an event still open is dropped."""
        text = "".join([*self._pending, self._utf8.decode(b"", final=True)])
        self._pending = []
        if not text.endswith("\r"):
            return []
        lines = _LINE.split(text)[:-1]
        return [m for line in lines if (m := self._line(line)) is not None]

    def _line(self, line: str) -> SSEMessage | None:
        if line == "":
            return self._dispatch()
        if line.startswith(":"):
            return None
        name, _, value = line.partition(":")
        value = value.removeprefix(" ")
        if name == "data":
            self._data.append(value)
        elif name == "event":
            self._event = value
        return None

    def _dispatch(self) -> SSEMessage | None:
        if not self._data:
            self._event = None
            return None
        message = SSEMessage(self._event, "\n".join(self._data))
        self._event, self._data = None, []
        return message


def decode(data: bytes | str, chunks: Iterable[int] = ()) -> list[SSEMessage]:
    """A whole SSE body -> its events. `chunks` are byte offsets to feed it in pieces."""
    raw = data.encode() if isinstance(data, str) else data
    decoder = SSEDecoder()
    out: list[SSEMessage] = []
    start = 0
    for cut in [*sorted(chunks), len(raw)]:
        out += decoder.feed(raw[start:cut])
        start = cut
    return out + decoder.close()


def json_events(messages: Iterable[SSEMessage]) -> list[Mapping[str, Any]]:
    """SSE messages -> the JSON events assemblers take; `[DONE]` ends, bad JSON is marked."""
    events: list[Mapping[str, Any]] = []
    for message in messages:
        if message.data.strip() == DONE:
            break
        try:
            value = json.loads(message.data)
        except json.JSONDecodeError:
            value = {INVALID_JSON_KEY: message.data}
        events.append(value if isinstance(value, Mapping) else {INVALID_JSON_KEY: message.data})
    return events


def encode(events: Iterable[Mapping[str, Any]], protocol: str) -> bytes:
    """Events -> the SSE body the protocol's server sends: OpenAI Chat `data:` lines and a
    final `data: [DONE]`; Anthropic and Responses `event: <type>` + `data:`; Gemini
    (`alt=sse`) `data:` lines ended by CRLF pairs."""
    if protocol not in PROTOCOLS:
        raise UnknownProtocolError(protocol, PROTOCOLS)
    end = "\r\n\r\n" if protocol == "gemini" else "\n\n"
    typed = protocol in ("anthropic", "openai_responses")
    out: list[str] = []
    for event in events:
        head = f"event: {event.get('type')}\n" if typed else ""
        out.append(f"{head}data: {json.dumps(event, ensure_ascii=False)}{end}")
    if protocol == "openai_chat":
        out.append(f"data: {DONE}{end}")
    return "".join(out).encode()
