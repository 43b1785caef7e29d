"""Growth on adversarial history shapes: the corners where a pass, a check or the window walk
could cost the square of the history's length.

    python benchmarks/shapes_bench.py [--sizes 5000,20000] [--providers openai,...|all]
                                      [--mode normalize|window|check] [--shapes a,b]
                                      [--timeout 60]

Each shape is a history made of one pattern repeated to `n` messages (a turn of n calls,
n results all at the end, one id reused in every turn, ...). For each shape and provider
it times, once per size (CPU clock, `gc.collect()` before):
- `normalize`: `normalize(history, provider)` + `render`;
- `window`: the same with `budget=20` (the window walk, then the repairs of the window);
- `check`: `parse` + `check` of the history's raw render in the provider's protocol.
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


class _Overrun(Exception):
    pass


def _alarm(signum: int, frame: Any) -> None:
    raise _Overrun


def _runner(mode: str, history: History, provider: str) -> Callable[[], Any]:
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
        run = _runner(mode, History(tuple(SHAPES[shape](n))), provider)
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
    parser.add_argument("--mode", choices=("normalize", "window", "check"), default="normalize")
    parser.add_argument("--shapes", default="", help="comma-separated parts of shape names")
    parser.add_argument("--timeout", type=int, default=60, help="seconds per cell")
    args = parser.parse_args(argv)
    sizes = [int(s) for s in args.sizes.split(",")]
    providers = list(PROVIDERS) if args.providers == "all" else args.providers.split(",")
    wanted = [s for s in args.shapes.split(",") if s]
    shapes = [s for s in SHAPES if not wanted or any(w in s for w in wanted)]
    if not shapes:
        parser.error(f"no shape matches {args.shapes!r}; shapes: {', '.join(SHAPES)}")
    signal.signal(signal.SIGALRM, _alarm)
    print(f"mode {args.mode}; CPU ms at {', '.join(map(str, sizes))} messages; growth per "
          f"size step (1.00 linear; above {FLAG} flagged)", flush=True)
    flagged = 0
    for shape in shapes:
        for provider in providers:
            times = row(shape, provider, args.mode, sizes, args.timeout)
            cells = [f"{1e3 * t:9.0f}" if t is not None else "  timeout" for t in times]
            growth = [(b / a) / (m / n) if a and b else None
                      for (a, b), (n, m) in zip(pairwise(times), pairwise(sizes), strict=False)]
            worse = any(g is None or g > FLAG for g in growth) or len(times) < len(sizes)
            flagged += worse
            print(f"{shape:38s} {provider:16s} {' '.join(cells)}   growth "
                  + " ".join(f"{g:.2f}" if g is not None else "-" for g in growth)
                  + ("  <-- superlinear" if worse else ""), flush=True)
    print(f"{flagged} flagged row(s)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
