"""The `stream` field of a scenario: a recorded streamed assistant turn after the history.

Loading checks what can be checked without a network: every event must be one the
protocol's assembler reads (a `malformed-event` or `unknown-event` there is almost always
a typo in the recording, so it is refused with the event's position), and `origin` must
name a provider. Broken streams on purpose — cut mid-arguments, invalid JSON arguments,
calls without ids, error events — load fine: they are what these scenarios are for.
The replay through the SDK happens later, when a request is built
(conformance/scenarios/replay.py).
"""

from __future__ import annotations

import difflib
import re
from collections.abc import Sequence
from dataclasses import dataclass

from conformance.scenarios.format import StreamIn
from conformance.scenarios.history import build_history
from normalizer.model import History, JsonMap, freeze
from normalizer.streaming import assemble

# The provider a protocol's stream comes from when the scenario does not say (Message.origin).
DEFAULT_ORIGIN = {"openai_chat": "openai", "openai_responses": "openai_responses",
                  "anthropic": "anthropic", "gemini": "gemini"}
# Problems that mean the recording itself is wrong, not the vendor's stream.
REFUSED = ("malformed-event", "unknown-event")
_EVENT_INDEX = re.compile(r"^events\[(\d+)\]")

Located = tuple[tuple[str | int, ...], str]  # (key path in the file, problem)


@dataclass(frozen=True, slots=True)
class RecordedStream:
    """A streamed assistant turn: what the vendor sent, and the messages after it."""

    protocol: str
    events: tuple[JsonMap, ...]
    then: History
    origin: str


def recorded_stream(spec: StreamIn | None,
                    providers: Sequence[str]) -> tuple[RecordedStream | None, list[Located]]:
    """The validated stream of a scenario (None when it has none) and its problems."""
    if spec is None:
        return None, []
    problems = _event_problems(spec)
    origin = spec.origin or DEFAULT_ORIGIN[spec.protocol]
    if origin not in providers:
        close = difflib.get_close_matches(origin, providers, n=1, cutoff=0.6)
        hint = f"; did you mean {close[0]!r}?" if close else ""
        problems.append((("stream", "origin"), f"unknown provider {origin!r}{hint}"))
    stream = RecordedStream(protocol=spec.protocol,
                            events=tuple(freeze(e) for e in spec.events),
                            then=build_history(spec.then), origin=origin)
    return stream, problems


def _event_problems(spec: StreamIn) -> list[Located]:
    found: list[Located] = []
    for problem in assemble(spec.events, spec.protocol).problems:
        if problem.code not in REFUSED:
            continue
        match = _EVENT_INDEX.match(problem.where)
        loc: tuple[str | int, ...] = ("stream", "events")
        if match:
            loc = (*loc, int(match.group(1)))
        found.append((loc, f"{problem.code}: {problem.detail} (not a {spec.protocol} stream "
                           "event; see docs/streaming.md for the shapes)"))
    return found
