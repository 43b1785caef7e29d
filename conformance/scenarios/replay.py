"""A streaming scenario's history: replay the recorded events through the official SDK.

For a scenario with `stream`, the recorded events are served by the emulator (a replay,
`conformance/emulator/replay.py`) over loopback HTTP; the protocol's official SDK asks for
a stream with the scenario's history as its request, and every object its streaming
iterator yields is fed to `normalizer.streaming`'s assembler. The assembled assistant turn
is appended to the history, then the scenario's `then` messages: that is the history the
items send (raw or normalized). Replayed once per scenario content and process, not per
provider or mode.
"""

from __future__ import annotations

import inspect
import threading
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass
from typing import Any

from conformance.emulator.calls import client
from conformance.scenarios.load import Scenario
from conformance.scenarios.stream import RecordedStream
from normalizer.model import History, ToolSpec, thaw
from normalizer.streaming import StreamResult, assembler
from normalizer.wire import render

REPLAY_NAME = "stream"
# Gemini REST fields the SDK takes in its config (as conformance.emulator.calls maps them).
_GEMINI_CONFIG = {"systemInstruction": "system_instruction", "tools": "tools",
                  "toolConfig": "tool_config"}


class StreamReplayError(ValueError):
    """The recorded stream could not be read through the SDK at all (no event arrived)."""


@dataclass(frozen=True, slots=True)
class Replayed:
    """What the SDK's iterator gave, assembled; `sdk_error` when the SDK raised mid-stream
    (e.g. on a recorded error event), after the events it had yielded."""

    result: StreamResult
    events_seen: int
    sdk_error: str = ""


def full_history(scenario: Scenario) -> History:
    """The history an item sends: the scenario's history, plus for a streaming scenario the
    replayed, assembled turn and the `then` messages."""
    stream = scenario.stream
    if stream is None:
        return scenario.history
    turn = replayed(scenario.history, scenario.tools, stream).result.message
    return History((*scenario.history.messages, turn, *stream.then.messages))


_CACHE: dict[tuple[History, tuple[ToolSpec, ...], RecordedStream], Replayed] = {}
_LOCK = threading.Lock()


def replayed(history: History, tools: tuple[ToolSpec, ...], stream: RecordedStream) -> Replayed:
    """`replay`, once per (history, tools, stream) in this process."""
    key = (history, tools, stream)
    with _LOCK:  # held during the replay: concurrent items of one scenario wait, not repeat
        if key not in _CACHE:
            _CACHE[key] = replay(history, tools, stream)
        return _CACHE[key]


def replay(history: History, tools: tuple[ToolSpec, ...], stream: RecordedStream) -> Replayed:
    """Serve the recorded events from a loopback emulator and read them with the SDK."""
    from conformance.emulator import Replay, serve

    protocol = stream.protocol
    events = [thaw(e) for e in stream.events]
    model = f"{stream.origin}-recorded-stream"
    options = {"max_tokens": 16} if protocol == "anthropic" else {}  # the SDK requires it
    body = render(history, protocol, tools=tools, model=model, options=options)
    acc = assembler(protocol, origin=stream.origin, **_id_options(protocol, history))
    with serve([], replays={REPLAY_NAME: Replay.of(protocol, events)}) as emu:
        sdk = client(protocol, emu.replay_url(REPLAY_NAME, protocol))
        try:
            seen, error = _drain(sdk_stream(protocol, sdk, body, model), acc.feed)
        finally:
            sdk.close()
    if seen == 0 and error:
        raise StreamReplayError(f"the SDK read no event of the recorded {protocol} stream: "
                                f"{error}")
    return Replayed(acc.result(), seen, error)


def _drain(events: Iterator[Any], feed: Callable[[Any], None]) -> tuple[int, str]:
    """Feed every object the SDK yields; (count, the SDK's error text if it raised). Only
    the SDK's iteration is guarded: an assembler bug still raises."""
    seen = 0
    while True:
        try:
            event = next(events)
        except StopIteration:
            return seen, ""
        except Exception as exc:  # each SDK raises its own tree; a recorded error event too
            return seen, f"{type(exc).__name__}: {exc}"
        feed(event)
        seen += 1


def _id_options(protocol: str, history: History) -> dict[str, str]:
    """Salt for derived ids: the turn's index, so two streamed turns never share one."""
    return {"id_seed": str(len(history))} if protocol in {"openai_chat", "gemini"} else {}


def sdk_stream(protocol: str, sdk: Any, body: Mapping[str, Any], model: str) -> Iterator[Any]:
    """The SDK's streaming iterator for `body`: what it yields, one object per event."""
    if protocol == "gemini":
        config = dict(body.get("generationConfig") or {})
        config.update({sdk_key: body[k] for k, sdk_key in _GEMINI_CONFIG.items() if k in body})
        yield from sdk.models.generate_content_stream(
            model=model, contents=body.get("contents", []), config=config or None)
        return
    if protocol == "openai_chat":
        create = sdk.chat.completions.create
    else:
        create = sdk.responses.create if protocol == "openai_responses" else sdk.messages.create
    known = inspect.signature(create).parameters
    kwargs = {k: v for k, v in body.items() if k in known}
    extra = {k: v for k, v in body.items() if k not in known}
    if extra:
        kwargs["extra_body"] = extra
    with create(**kwargs, stream=True) as events:
        yield from events
