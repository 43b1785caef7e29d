"""Replays: recorded SSE streams served verbatim under `/_replay/<name>/...`.

A streaming scenario records what a vendor streamed (the parsed JSON of each event). The
emulator serves those events back, framed as that protocol's server frames them
(`normalizer.streaming.sse.encode`), so the unmodified SDK's streaming iterator reads them
over real HTTP. A replay answers every request under its prefix with the same 200 stream,
whatever the body: it is a recording, not a judgement of the request.

A stream the vendor never finished (the connection dropped) is served as exactly the
recorded events and then the end of the body: OpenAI Chat's `data: [DONE]` line is sent
only when the recorded stream ended properly (an assembler sees its end-of-stream signal).
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any

from normalizer.streaming import assemble, sse

PREFIX = "_replay"  # the path segment replays live under; not a provider name
SSE_CONTENT_TYPE = "text/event-stream; charset=utf-8"


@dataclass(frozen=True, slots=True)
class Replay:
    """One recorded stream: the protocol and the SSE bytes to serve."""

    protocol: str
    body: bytes

    @classmethod
    def of(cls, protocol: str, events: Iterable[Mapping[str, Any]]) -> Replay:
        """The replay of recorded events, framed as `protocol`'s server frames them."""
        return cls(protocol, encode_recorded(list(events), protocol))


def encode_recorded(events: list[Mapping[str, Any]], protocol: str) -> bytes:
    """The SSE body for recorded events; `[DONE]` only after a finished OpenAI Chat stream
    (a dropped connection never sent it)."""
    body = sse.encode(events, protocol)
    if protocol == "openai_chat" and not assemble(events, protocol).complete:
        body = body.removesuffix(f"data: {sse.DONE}\n\n".encode())
    return body


def answer(replays: Mapping[str, Replay], rest: str) -> tuple[int, str, bytes]:
    """(status, content type, body) for a request to `/_replay/<rest>`."""
    name = rest.lstrip("/").partition("/")[0]
    replay = replays.get(name)
    if replay is None:
        served = ", ".join(sorted(replays)) or "none"
        message = (f"provider-conformance emulator: no replay {name!r} here; "
                   f"serving: {served}")
        text = json.dumps({"error": {"message": message, "type": "not_found"}})
        return 404, "application/json", text.encode()
    return 200, SSE_CONTENT_TYPE, replay.body
