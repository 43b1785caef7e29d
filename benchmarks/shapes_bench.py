"""Growth on adversarial history shapes and long streams: the corners where a pass, a check,
the window walk or stream reading could cost the square of a history's or a stream's length.

    python benchmarks/shapes_bench.py [--sizes 5000,20000] [--providers openai,...|all]
                                      [--mode normalize|window|check|stream] [--shapes a,b]
                                      [--timeout 60]

Each shape is a history of `n` messages made of one pattern repeated (n/2 call turns whose
results all come at the end, one id reused in every turn, ...), or one turn of n calls or
n/2 tool messages (the shapes named so). For each shape and provider it times, once per
size (CPU clock, `gc.collect()` before):
- `normalize`: `normalize(history, provider)` + `render`;
- `window`: the same with `budget=20` (the window walk, then the repairs of the window);
- `check`: `parse` + `check` of the history's raw render in the provider's protocol;
- `stream`: one assistant message of size n (long text, long thinking, long arguments, n/10
  parallel calls, or a text sent as one event), as each protocol streams it (`emit`, in
  8-character fragments), encoded as the protocol's SSE body and read back as a client
  reads an HTTP stream: `SSEDecoder` fed 16 KB at a time, each read's events fed to the
  protocol's `assembler` as they come. Rows are the four protocols (`--providers` is not
  read); the n/10 calls again as OpenAI Chat servers send them without `index` or with 0
  for every call (Ollama), for OpenAI Chat only.
and prints the growth from each size to the next: (time ratio) / (size ratio), 1.00 being
linear. A growth above 1.6 is flagged `<-- superlinear`; a size that runs past `--timeout`
seconds stops its row. The benchmark histories of normalize_bench.py hold few of these
patterns, and never at this length: that a repair is linear there says nothing here.
One run at two sizes is a smoke test, not a figure: a cell of a few ms moves by 30 % from
run to run on a busy machine, so rerun a flagged row at larger sizes before believing it.
"""

from __future__ import annotations

import argparse
import gc
import signal
import sys
import time
from collections.abc import Callable
from itertools import pairwise
from typing import Any

from normalizer import check, parse, render
from normalizer.model import History, Message, Text, Thinking, ToolCall, ToolResult
from normalizer.normalize import normalize
from normalizer.profiles import PROVIDERS, load_profile
from normalizer.streaming import assembler, emit, sse
from normalizer.streaming.sse import SSEDecoder

FLAG = 1.6


def _user(text: str) -> Message:
    return Message("user", (Text(text),))


def _system(text: str) -> Message:
    return Message("system", (Text(text),))


def _turn(*parts: Any) -> Message:
    return Message("assistant", parts)


def _tool(*parts: Any) -> Message:
    return Message("tool", parts)


def _call(call_id: str | None, name: str = "f") -> ToolCall:
    return ToolCall(name, {"k": 1}, id=call_id)


def _result(call_id: str | None, name: str = "f") -> ToolResult:
    return ToolResult(call_id, "ok", name=name)


def _repeat(n: int, pattern: Callable[[int], list[Message]], size: int) -> list[Message]:
    """`pattern(k)` (`size` messages) for k = 0, 1, ... up to n messages."""
    return [m for k in range(n // size) for m in pattern(k)]


SHAPES: dict[str, Callable[[int], list[Message]]] = {
    "calls never answered": lambda n: _repeat(
        n, lambda k: [_user(f"q{k}"), _turn(_call(f"c{k}"))], 2),
    "orphan results": lambda n: _repeat(
        n, lambda k: [_user(f"q{k}"), _tool(_result(f"c{k}"))], 2),
    "one id in every turn": lambda n: _repeat(
        n, lambda k: [_user(f"q{k}"), _turn(_call("c1")), _tool(_result("c1"))], 3),
    "id-less turns": lambda n: _repeat(
        n, lambda k: [_user(f"q{k}"), _turn(_call(None)), _tool(_result(None))], 3),
    "system messages mid-way": lambda n: _repeat(
        n, lambda k: [_user(f"q{k}"), _turn(Text(f"a{k}")), _system(f"s{k}")], 3),
    "results all at the end": lambda n: [_user("q")]
    + [_turn(_call(f"c{k}")) for k in range(n // 2)]
    + [_tool(_result(f"c{k}")) for k in range(n // 2)],
    "results in reverse": lambda n: _repeat(
        n, lambda k: [_user(f"q{k}"), _turn(*[_call(f"c{k}_{j}") for j in range(3)]),
                      _tool(*[_result(f"c{k}_{j}") for j in (2, 1, 0)])], 3),
    "user wedged before results": lambda n: _repeat(
        n, lambda k: [_user(f"q{k}"), _turn(_call(f"c{k}")), _user(f"w{k}"),
                      _tool(_result(f"c{k}"))], 4),
    "text beside calls and results": lambda n: _repeat(
        n, lambda k: [_user(f"q{k}"), _turn(Text(f"t{k}"), _call(f"c{k}")),
                      _tool(_result(f"c{k}"), Text("aside"))], 3),
    "empty assistant turns": lambda n: _repeat(n, lambda k: [_user(f"q{k}"), _turn()], 2),
    "users in a row": lambda n: [_user(f"q{k}") for k in range(n)],
    "assistants in a row": lambda n: [_user("q")] + [_turn(Text(f"a{k}")) for k in range(n)],
    "one turn, a tool message per result": lambda n: [
        _user("q"), _turn(*[_call(f"c{k}") for k in range(n // 2)]),
        *[_tool(_result(f"c{k}")) for k in range(n // 2)]],
    "one turn of n calls, results reversed": lambda n: [
        _user("q"), _turn(*[_call(f"c{k}") for k in range(n)]),
        _tool(*[_result(f"c{k}") for k in reversed(range(n))])],
    "one id-less turn of n calls": lambda n: [
        _user("q"), _turn(*[_call(None, f"f{k % 3}") for k in range(n)]),
        _tool(*[_result(None, f"f{k % 3}") for k in reversed(range(n))])],
    "id-less parallel turns": lambda n: _repeat(
        n, lambda k: [_user(f"q{k}"), _turn(*[_call(None) for _ in range(30)]),
                      _tool(*[_result(None) for _ in range(30)])], 3),
    "foreign thinking": lambda n: _repeat(
        n, lambda k: [_user(f"q{k}"),
                      Message("assistant", (Thinking("hmm", "sig" * 10, "anthropic"),
                                            _call(f"toolu_{k}")), origin="anthropic"),
                      _tool(_result(f"toolu_{k}"))], 3),
    "n orphans in one message": lambda n: [
        _user("q"), _tool(*[_result(f"x{k}") for k in range(n)])],
}


Split = Callable[[str], list[str]]


def _fragments(text: str) -> list[str]:
    return [text[at:at + 8] for at in range(0, len(text), 8)] or [text]


def _whole(text: str) -> list[str]:
    return [text]


STREAMED: dict[str, Callable[[int], tuple[Message, Split]]] = {
    "streamed text": lambda n: (Message("assistant", (Text("word " * n),)), _fragments),
    "streamed thinking": lambda n: (Message("assistant", (
        Thinking("idea " * n, signature="s" * 40), Text("ok"))), _fragments),
    "streamed arguments": lambda n: (Message("assistant", (
        ToolCall("f", {"q": "x " * n}, id="call_1"),)), _fragments),
    "n/10 parallel calls streamed": lambda n: (Message("assistant", tuple(
        ToolCall("f", {"k": k}, id=f"call_{k}") for k in range(n // 10))), _fragments),
    "a text as one event": lambda n: (Message("assistant", (Text("word " * n),)), _whole),
    "n/10 calls, no index (chat)": lambda n: _PARALLEL(n),
    "n/10 calls, all index 0 (chat)": lambda n: _PARALLEL(n),
}
_PARALLEL = STREAMED["n/10 parallel calls streamed"]
STREAM_PROTOCOLS = ("openai_chat", "openai_responses", "anthropic", "gemini")


def _index_omitted(fragment: dict[str, Any]) -> None:
    del fragment["index"]


def _index_zero(fragment: dict[str, Any]) -> None:
    fragment["index"] = 0


# Shapes only OpenAI Chat streams, each tool-call fragment changed as some compatible servers
# send it: no `index` (ollama/ollama#7881), or 0 for every call (ollama/ollama#15457).
CHAT_QUIRKS: dict[str, Callable[[dict[str, Any]], None]] = {
    "n/10 calls, no index (chat)": _index_omitted,
    "n/10 calls, all index 0 (chat)": _index_zero,
}


def stream_rows(shapes: list[str]) -> list[tuple[str, str]]:
    """(shape, protocol) for the stream mode: every protocol, but OpenAI Chat alone for the
    shapes of its servers' quirks."""
    return [(shape, protocol) for shape in shapes for protocol in STREAM_PROTOCOLS
            if shape not in CHAT_QUIRKS or protocol == "openai_chat"]
READ = 16384  # bytes per read, as an HTTP client hands a stream over


class _Overrun(Exception):
    pass


def _alarm(signum: int, frame: Any) -> None:
    raise _Overrun


def _stream_runner(shape: str, n: int, protocol: str) -> Callable[[], Any]:
    message, split = STREAMED[shape](n)
    events = emit(message, protocol, split=split)
    quirk = CHAT_QUIRKS.get(shape)
    if quirk is not None:
        for event in events:
            for fragment in event["choices"][0]["delta"].get("tool_calls") or ():
                quirk(fragment)
    body = sse.encode(events, protocol)

    def run() -> Any:  # each read's events assembled as they come, as a client does
        decoder, state = SSEDecoder(), assembler(protocol)
        for at in range(0, len(body) + 1, READ):
            read = decoder.feed(body[at:at + READ]) if at < len(body) else decoder.close()
            for event in sse.json_events(read):
                state.feed(event)
        return state.result()

    return run


def _runner(mode: str, shape: str, n: int, provider: str) -> Callable[[], Any]:
    if mode == "stream":
        return _stream_runner(shape, n, provider)
    history = History(tuple(SHAPES[shape](n)))
    if mode == "check":
        protocol = load_profile(provider).protocol
        body = render(history, protocol)
        return lambda: (parse(body, protocol), check(body, provider))
    budget = 20 if mode == "window" else None
    return lambda: normalize(history, provider, budget=budget).render()


def row(shape: str, provider: str, mode: str, sizes: list[int],
        timeout: int) -> list[float | None]:
    """CPU seconds per size (None: past `timeout`, and the larger sizes not run)."""
    times: list[float | None] = []
    for n in sizes:
        run = _runner(mode, shape, n, provider)
        gc.collect()
        signal.alarm(timeout)
        try:
            start = time.process_time()
            run()
            times.append(time.process_time() - start)
        except _Overrun:
            times.append(None)
            break
        finally:
            signal.alarm(0)
    return times


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--sizes", default="5000,20000")
    parser.add_argument("--providers", default="openai,anthropic,gemini,mistral",
                        help="comma-separated, or `all` (every built-in provider)")
    parser.add_argument("--mode", choices=("normalize", "window", "check", "stream"),
                        default="normalize")
    parser.add_argument("--shapes", default="", help="comma-separated parts of shape names")
    parser.add_argument("--timeout", type=int, default=60, help="seconds per cell")
    args = parser.parse_args(argv)
    sizes = [int(s) for s in args.sizes.split(",")]
    providers = list(PROVIDERS) if args.providers == "all" else args.providers.split(",")
    known: list[str] = list(SHAPES)
    if args.mode == "stream":
        known = list(STREAMED)
    wanted = [s for s in args.shapes.split(",") if s]
    shapes = [s for s in known if not wanted or any(w in s for w in wanted)]
    if not shapes:
        parser.error(f"no shape matches {args.shapes!r}; shapes: {', '.join(known)}")
    unit = "(message size)" if args.mode == "stream" else "messages"
    print(f"mode {args.mode}; CPU ms at {', '.join(map(str, sizes))} {unit}; growth per "
          f"size step (1.00 linear; above {FLAG} flagged)", flush=True)
    before = signal.signal(signal.SIGALRM, _alarm)  # put back at the end (tests call main)
    rows = (stream_rows(shapes) if args.mode == "stream"
            else [(shape, provider) for shape in shapes for provider in providers])
    try:
        flagged = sum(_report(shape, provider, args.mode, sizes, args.timeout)
                      for shape, provider in rows)
    finally:
        signal.signal(signal.SIGALRM, before)
    print(f"{flagged} flagged row(s)")
    return 0


def _report(shape: str, provider: str, mode: str, sizes: list[int], timeout: int) -> bool:
    """Time and print one row; whether it is flagged."""
    times = row(shape, provider, mode, sizes, timeout)
    cells = [f"{1e3 * t:9.0f}" if t is not None else "  timeout" for t in times]
    growth = [(b / a) / (m / n) if a and b else None
              for (a, b), (n, m) in zip(pairwise(times), pairwise(sizes), strict=False)]
    worse = any(g is None or g > FLAG for g in growth) or len(times) < len(sizes)
    print(f"{shape:38s} {provider:16s} {' '.join(cells)}   growth "
          + " ".join(f"{g:.2f}" if g is not None else "-" for g in growth)
          + ("  <-- superlinear" if worse else ""), flush=True)
    return worse


if __name__ == "__main__":
    sys.exit(main())
