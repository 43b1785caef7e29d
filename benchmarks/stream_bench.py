"""Streaming assembly: events per second of each protocol's assembler, side by side with the
SDK's own accumulator, on the recorded real streams (tests/data/real_streams/).

    python benchmarks/stream_bench.py [--events 20000] [--repeat 5]

Each protocol's recorded streams (events as parsed JSON, without the "[DONE]" marker) are
repeated until at least `--events` events, then fed, stream by stream, to
`normalizer.streaming.assembler(protocol)` and to the SDK's accumulator, interleaved, median
of `--repeat` runs. Both start from the same parsed dicts; the SDK side includes turning
each dict into the SDK's event type (`construct_type`, as its `Stream` does per event),
since its accumulator reads typed events:

- openai_chat: openai `ChatCompletionStreamState.handle_chunk` (what `.stream()` runs), then
  `get_final_completion()`;
- openai_responses: openai `ResponseStreamState.handle_event` (what `responses.stream()` runs);
- anthropic: anthropic `accumulate_event` (what `MessageStream` runs per event);
- gemini: google-genai has no accumulator (apps join the chunks themselves): ours alone.
"""

from __future__ import annotations

import argparse
import contextlib
import gc
import os
import statistics
import sys
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

import yaml

from normalizer.streaming import assembler

STREAMS = Path(__file__).resolve().parent.parent / "tests" / "data" / "real_streams"
PROTOCOLS = ("openai_chat", "openai_responses", "anthropic", "gemini")
Stream = list[dict[str, Any]]


def load(protocol: str) -> list[Stream]:
    out = []
    for path in sorted((STREAMS / protocol).glob("*.yaml")):
        doc = yaml.safe_load(path.read_text())
        out.append([e for e in doc["events"] if isinstance(e, dict)])
    return out


def ours(protocol: str) -> Callable[[Stream], Any]:
    def run(events: Stream) -> Any:
        state = assembler(protocol)
        for event in events:
            state.feed(event)
        return state.result()
    return run


def openai_chat_sdk() -> Callable[[Stream], Any]:
    from openai._models import construct_type
    from openai.lib.streaming.chat import ChatCompletionStreamState
    from openai.types.chat import ChatCompletionChunk

    def run(events: Stream) -> Any:
        state: ChatCompletionStreamState[Any] = ChatCompletionStreamState()
        for event in events:
            state.handle_chunk(construct_type(type_=ChatCompletionChunk, value=event))
        return state.current_completion_snapshot
    return run


def openai_responses_sdk() -> Callable[[Stream], Any]:
    from openai._models import construct_type
    from openai.lib.streaming.responses import ResponseStreamState
    from openai.types.responses import ResponseStreamEvent

    def run(events: Stream) -> Any:
        state: ResponseStreamState[Any] = ResponseStreamState(input_tools=[],
                                                              text_format=None)  # type: ignore[arg-type]
        for event in events:
            state.handle_event(construct_type(type_=ResponseStreamEvent, value=event))
    return run


def anthropic_sdk() -> Callable[[Stream], Any]:
    from anthropic._models import construct_type
    from anthropic.lib.streaming._messages import accumulate_event
    from anthropic.types import RawMessageStreamEvent

    def run(events: Stream) -> Any:
        snapshot = None
        bufs: dict[int, bytes] = {}
        for event in events:
            typed = construct_type(type_=RawMessageStreamEvent, value=event)
            snapshot = accumulate_event(event=typed, current_snapshot=snapshot, json_bufs=bufs)
        return snapshot
    return run


SDKS: dict[str, tuple[str, Callable[[], Callable[[Stream], Any]]]] = {
    "openai_chat": ("openai ChatCompletionStreamState", openai_chat_sdk),
    "openai_responses": ("openai ResponseStreamState", openai_responses_sdk),
    "anthropic": ("anthropic accumulate_event (MessageStream)", anthropic_sdk),
}


def rate(run: Callable[[Stream], Any], streams: Sequence[Stream], events: int) -> float:
    """Events per second of one pass over `streams`; a stream the tool rejects counts as
    read (its time is spent) and is reported by `failures`."""
    gc.collect()
    start = time.perf_counter()
    for events_of in streams:
        with contextlib.suppress(Exception):  # counted by failures(), timed the same
            run(events_of)
    return events / (time.perf_counter() - start)


def failures(run: Callable[[Stream], Any], streams: Sequence[Stream]) -> int:
    count = 0
    for events_of in streams:
        try:
            run(events_of)
        except Exception:
            count += 1
    return count


def measure(protocol: str, target: int, repeat: int) -> list[str]:
    recorded = load(protocol)
    per_pass = sum(len(s) for s in recorded)
    copies = max(1, -(-target // per_pass))
    streams = recorded * copies
    events = per_pass * copies
    tools = {"ours": ours(protocol)}
    name = "—"
    if protocol in SDKS:
        name, make = SDKS[protocol]
        try:
            tools["sdk"] = make()
        except ImportError as error:
            name = f"not installed ({error.name})"
    rates: dict[str, list[float]] = {k: [] for k in tools}
    for run in tools.values():
        rate(run, recorded, per_pass)  # warm-up: imports, first-call caches
    for _ in range(repeat):
        for key, run in tools.items():
            rates[key].append(rate(run, streams, events))
    ours_rate = statistics.median(rates["ours"])
    row = [protocol, f"{len(recorded)} × {copies}", f"{events:,}", f"{ours_rate:,.0f}"]
    if "sdk" in rates:
        sdk_rate = statistics.median(rates["sdk"])
        failed = failures(tools["sdk"], recorded)
        note = f" ({failed} of {len(recorded)} streams rejected)" if failed else ""
        row += [name, f"{sdk_rate:,.0f}{note}", f"{ours_rate / sdk_rate:.2f}×"]
    else:
        row += [name, "—", "—"]
    failed_ours = failures(tools["ours"], recorded)
    if failed_ours:
        row[3] += f" ({failed_ours} raised)"
    return row


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    parser.add_argument("--events", type=int, default=20_000)
    parser.add_argument("--repeat", type=int, default=5)
    args = parser.parse_args(argv)
    print(f"load average {' '.join(f'{x:.2f}' for x in os.getloadavg())} (start)\n")
    head = ["protocol", "streams × copies", "events", "ours events/s", "SDK accumulator",
            "SDK events/s", "ours / SDK"]
    print("| " + " | ".join(head) + " |")
    print("|" + " --- |" * len(head))
    for protocol in PROTOCOLS:
        print("| " + " | ".join(measure(protocol, args.events, args.repeat)) + " |",
              flush=True)
    print(f"\nload average {' '.join(f'{x:.2f}' for x in os.getloadavg())} (end)")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
