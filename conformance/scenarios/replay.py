"""A streaming scenario's history: replay the recorded events through the official SDK.

For a scenario with `stream`, the recorded events are served by the emulator (a replay,
`conformance/emulator/replay.py`) over loopback HTTP; the protocol's official SDK asks for
a stream with the scenario's history as its request (through the one SDK seam,
conformance/clients.py), and every object its streaming iterator yields is fed to
`normalizer.streaming`'s assembler. The assembled assistant turn is appended to the
history, then the scenario's `then` messages: that is the history the items send (raw or
normalized).

`resolve(scenario)` does this once, when a run is planned (conformance.batch.plan, and the
pytest plugin's collector), and hands on the scenario with `replayed` set; building a
request body (conformance.bodies) only reads it. `offline_history` assembles the recorded
events directly, without SDK or server, for `conformance normalize`.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import Any

from conformance.clients import call, new_client
from conformance.errors import StreamReplayError
from conformance.scenarios.load import Scenario
from conformance.scenarios.stream import RecordedStream
from normalizer.model import History, ToolSpec, thaw
from normalizer.streaming import StreamResult, assemble, assembler
from normalizer.wire import render

REPLAY_NAME = "stream"
# Any key: the loopback replay server never checks it. Not a secret.
REPLAY_KEY = "conformance-stream-replay"


@dataclass(frozen=True, slots=True)
class Replayed:
    """What the SDK's iterator gave, assembled; `sdk_error` when the SDK raised mid-stream
    (e.g. on a recorded error event), after the events it had yielded."""

    result: StreamResult
    events_seen: int
    sdk_error: str = ""


def resolve(scenario: Scenario) -> Scenario:
    """`scenario` with the history its items send stored in `replayed` (a scenario without
    a stream, or already resolved, comes back as it is). A stream the SDK cannot read at all
    is kept as `replay_error`: every item of the scenario then reports it (inconclusive),
    and the other scenarios still run."""
    if scenario.stream is None or scenario.replayed is not None or scenario.replay_error:
        return scenario
    try:
        turn = replay(scenario.history, scenario.tools, scenario.stream).result.message
    except StreamReplayError as exc:
        return dataclasses.replace(scenario, replay_error=str(exc))
    full = History((*scenario.history.messages, turn, *scenario.stream.then.messages))
    return dataclasses.replace(scenario, replayed=full)


def offline_history(scenario: Scenario) -> History:
    """The history with the recorded turn assembled straight from the recorded events (no
    SDK, no server): what `conformance normalize` shows for a streaming scenario."""
    stream = scenario.stream
    if stream is None:
        return scenario.history
    turn = assemble([thaw(e) for e in stream.events], stream.protocol, origin=stream.origin,
                    **_id_options(stream.protocol, scenario.history)).message
    return History((*scenario.history.messages, turn, *stream.then.messages))


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
        sdk = new_client(protocol, emu.replay_url(REPLAY_NAME, protocol), REPLAY_KEY, 30.0)
        try:
            seen, error = _drain(call(protocol, sdk, body, model=model, stream=True),
                                 acc.feed)
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
