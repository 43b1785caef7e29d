"""normalize + render at scale, against a json.loads + json.dumps baseline and other tools.

    python benchmarks/normalize_bench.py [--sizes 1000,10000,100000] [--providers openai,...]
                                         [--repeat 3] [--repeat-small 7] [--budget 20]
                                         [--time-budget 570]

Prints, for deterministic damaged histories (benchmarks/histories.py) of each size:

1. per built-in provider, `normalize(history, provider)` + `render` time, as a ratio to a
   plain `json.dumps(json.loads(text))` of the same history's raw body in that provider's
   protocol, measured in the same process, interleaved, median of `--repeat` runs at the
   largest size and of `--repeat-small` (default 7) below it;
2. the growth from one size to the next (time ratio / size ratio: 1.0 is linear), beside
   the json baseline's own and that of a bare walk over every part of the same history
   (the machine's floor for anything that reads every message);
3. side by side, for OpenAI and Anthropic: `normalize(budget=...)` + `render`, langchain-core's
   `trim_messages` and turnsafe's `repair` + `fit` with the same message budget;
4. what each tool's output still breaks (`normalizer.check`) at request points across the
   first size's history.

The whole run keeps to `--time-budget` seconds: the smaller sizes and the comparison run
first, then the largest size, one provider of each protocol first. A cell whose predicted
time would overrun the budget is not run and the output says so, with the prediction.
`--profile` adds a cProfile of the provider that grew worst.
"""

from __future__ import annotations

import argparse
import cProfile
import gc
import io
import itertools
import json
import os
import platform
import pstats
import statistics
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

# Run as a script (`python benchmarks/normalize_bench.py`): its siblings import by name.
sys.path.insert(0, str(Path(__file__).resolve().parent))

from baselines import COMPARED, version
from compare import compare_speed, compare_violations, missing_tools, print_table, speed_head
from histories import SEED, TOOLS, generate

from normalizer import History, render
from normalizer.model import Message
from normalizer.normalize import normalize
from normalizer.profiles import PROVIDERS, load_profile


@dataclass
class Clock:
    """Wall-clock budget of the whole run, so one slow provider cannot stall it silently."""

    seconds: float
    start: float = field(default_factory=time.perf_counter)

    def left(self) -> float:
        return self.seconds - (time.perf_counter() - self.start)

    def spent(self) -> float:
        return time.perf_counter() - self.start


# `cpu`: the process's CPU time, which other jobs on a shared machine inflate much less than
# the wall clock (waiting for a core is not counted); `wall`: elapsed time.
CLOCKS: dict[str, Callable[[], float]] = {"cpu": time.process_time, "wall": time.perf_counter}


def timed(fn: Callable[[], Any], clock: Callable[[], float] = time.perf_counter) -> float:
    gc.collect()  # garbage from the previous cell must not be collected on this cell's time
    start = clock()
    fn()
    return clock() - start


def json_roundtrip(text: str) -> Callable[[], Any]:
    return lambda: json.dumps(json.loads(text))


def fresh(history: History) -> History:
    """A copy with new Message objects (parts shared). A message caches its calls and
    results on first use, and the passes remember the last message tuple they indexed: each
    timed run starts from messages no earlier run has read, as an app's freshly parsed
    history would."""
    return History(tuple(Message(m.role, m.parts, m.origin, m.extras)
                         for m in history.messages), history.extras)


def bare_walk(history: History) -> Callable[[], Any]:
    """A walk that reads every part of every message and does nothing else: the least a
    pass over the whole history costs on this machine, so its growth from one size to the
    next is the floor for the growth of anything that reads every message (a larger heap
    misses the processor's caches more often)."""
    copy = fresh(history)

    def walk() -> None:
        for message in copy.messages:
            for part in message.parts:
                type(part)
    return walk


def normalize_render(history: History, provider: str) -> Callable[[], Any]:
    copy = fresh(history)  # made here, outside the timed call
    return lambda: normalize(copy, provider, tools=TOOLS).render()


@dataclass
class Cells:
    """Times per (size, provider): normalize+render and the interleaved json baseline."""

    norm: dict[tuple[int, str], list[float]] = field(default_factory=dict)
    json: dict[tuple[int, str], list[float]] = field(default_factory=dict)
    walk: dict[tuple[int, str], list[float]] = field(default_factory=dict)  # per size only
    skipped: dict[tuple[int, str], str] = field(default_factory=dict)

    def median(self, table: str, size: int, provider: str) -> float | None:
        times = getattr(self, table).get((size, provider))
        return statistics.median(times) if times else None


def predict(cells: Cells, sizes: list[int], size: int, provider: str) -> float | None:
    """Seconds one run of `provider` at `size` should take, from its previous size scaled by
    the worst growth seen so far (linear when nothing is known)."""
    smaller = [s for s in sizes if s < size and cells.median("norm", s, provider)]
    if not smaller:
        return None
    prev = smaller[-1]
    growths = [growth(cells, prev, size, p) for p in {p for _, p in cells.norm}]
    if len(smaller) > 1:  # this provider's own growth below, until others are measured here
        growths.append(growth(cells, smaller[-2], prev, provider))
    known = [g for g in growths if g is not None] or [1.0]
    return (cells.median("norm", prev, provider) or 0.0) * size / prev * max(known)


def growth(cells: Cells, small: int, large: int, provider: str,
           table: str = "norm") -> float | None:
    a, b = cells.median(table, small, provider), cells.median(table, large, provider)
    return None if a is None or b is None else (b / a) / (large / small)


def protocols_first(providers: list[str]) -> list[str]:
    """One provider of each protocol first, so that when the time budget runs out at the
    largest size, every protocol has been measured."""
    firsts = sorted({load_profile(p).protocol: p for p in reversed(providers)}.values(),
                    key=providers.index)
    return firsts + [p for p in providers if p not in firsts]


def warm_up(providers: list[str], seed: int) -> None:
    """One untimed pass on a small history: imports, profile loading and regex compiling
    are paid here, not by the first timed cell."""
    history, _ = generate(60, seed)
    for provider in providers:
        normalize_render(history, provider)()


def measure_size(size: int, args: argparse.Namespace, clock: Clock, cells: Cells) -> None:
    providers, repeat, sizes = protocols_first(args.providers), repeats(args, size), args.sizes
    history, _ = generate(size, args.seed)
    protocol = {p: load_profile(p).protocol for p in providers}
    texts = {name: json.dumps(render(history, name, tools=TOOLS))
             for name in set(protocol.values())}
    for run in range(repeat):
        for provider in providers:
            key = (size, provider)
            if key in cells.skipped:
                continue
            guess = predict(cells, sizes, size, provider) if run == 0 else \
                cells.median("norm", size, provider)
            if guess is not None and guess > clock.left():
                if run == 0:
                    cells.skipped[key] = (f"not run: predicted ~{guess:.0f} s, "
                                          f"{max(0.0, clock.left()):.0f} s of the budget left")
                continue
            baseline = json_roundtrip(texts[protocol[provider]])
            timer = CLOCKS[args.clock]
            cells.json.setdefault(key, []).append(timed(baseline, timer))
            cells.norm.setdefault(key, []).append(
                timed(normalize_render(history, provider), timer))
        cells.walk.setdefault((size, ""), []).append(timed(bare_walk(history),
                                                            CLOCKS[args.clock]))
        print(f"  size {size}: run {run + 1}/{repeat} done, {clock.left():.0f} s left",
              file=sys.stderr, flush=True)


def fmt_ms(seconds: float | None) -> str:
    return "—" if seconds is None else f"{seconds * 1000:,.0f}"


def repeats(args: argparse.Namespace, size: int) -> int:
    """Runs per cell at `size`: `--repeat` at the largest size, at least `--repeat-small`
    below it (those cells are cheap, and the growth to the largest size is read off them)."""
    return args.repeat if size == args.sizes[-1] else max(args.repeat, args.repeat_small)


def norm_ms(cells: Cells, size: int, provider: str, repeat: int) -> str:
    """The median, and how many runs it is of when the time budget allowed fewer."""
    runs = len(cells.norm.get((size, provider), ()))
    text = fmt_ms(cells.median("norm", size, provider))
    return text if runs in (0, repeat) else f"{text} ({runs} run{'s' * (runs > 1)})"


def ratio(cells: Cells, size: int, provider: str) -> str:
    norm, base = cells.median("norm", size, provider), cells.median("json", size, provider)
    return "—" if norm is None or not base else f"{norm / base:.1f}×"


def label(size: int) -> str:
    return f"{size // 1000}k" if size % 1000 == 0 else f"{size:,}"


def growth_text(cells: Cells, small: int, large: int, provider: str,
                table: str = "norm") -> str:
    value = growth(cells, small, large, provider, table)
    return "—" if value is None else f"{value:.2f}"


def print_times(cells: Cells, args: argparse.Namespace) -> None:
    sizes, providers = args.sizes, args.providers
    head = ["provider", "protocol"]
    for size in sizes:
        head += [f"{size:,} ms", "× json"]
    head += [f"growth {label(a)}→{label(b)}" for a, b in itertools.pairwise(sizes)]
    rows = []
    for provider in providers:
        row = [provider, load_profile(provider).protocol]
        for size in sizes:
            row += [norm_ms(cells, size, provider, repeats(args, size)),
                    ratio(cells, size, provider)]
        row += [growth_text(cells, a, b, provider) for a, b in itertools.pairwise(sizes)]
        rows.append(row)
    print_table(head, rows)
    for (size, provider), why in sorted(cells.skipped.items()):
        print(f"- {provider} at {size:,}: {why}")
    if cells.skipped:
        print()


def print_baselines(cells: Cells, sizes: list[int], providers: list[str]) -> None:
    """The json baseline itself, per protocol, so the ratios can be turned back into time,
    and the bare walk (`bare_walk`); each with its growth, measured in the same run."""
    first = {load_profile(p).protocol: p for p in reversed(providers)}
    rows = [[protocol] + [fmt_ms(cells.median("json", s, p)) for s in sizes]
            + [growth_text(cells, a, b, p, "json") for a, b in itertools.pairwise(sizes)]
            for protocol, p in sorted(first.items())]
    rows.append(["bare walk over every message and part"]
                + [f"{m * 1000:,.1f}" if (m := cells.median("walk", s, "")) else "—"
                   for s in sizes]
                + [growth_text(cells, a, b, "", "walk") for a, b in itertools.pairwise(sizes)])
    print_table(["baseline"] + [f"{s:,} ms" for s in sizes]
                + [f"growth {label(a)}→{label(b)}" for a, b in itertools.pairwise(sizes)], rows)


def profile_worst(cells: Cells, sizes: list[int], size: int, seed: int) -> None:
    """cProfile of normalize+render at `size` for the provider that grew worst between the
    two largest sizes (where a superlinear term shows most; small sizes are noisy)."""
    small, large = sizes[-2:]
    worst = max(((growth(cells, small, large, p) or 0.0, p) for p in {p for _, p in cells.norm}),
                default=(0.0, ""))
    if not worst[1]:
        return
    history, _ = generate(size, seed)
    profiler = cProfile.Profile()
    profiler.runcall(normalize_render(history, worst[1]))
    out = io.StringIO()
    pstats.Stats(profiler, stream=out).sort_stats("tottime").print_stats(15)
    print(f"cProfile, {worst[1]} at {size:,} messages (growth {worst[0]:.2f}), by own time:")
    print("```\n" + out.getvalue().strip() + "\n```\n")


def header(args: argparse.Namespace) -> None:
    one, five, fifteen = os.getloadavg()
    print(f"python {platform.python_version()} on {platform.machine()}, "
          f"{os.cpu_count()} cpus; load average {one:.2f} {five:.2f} {fifteen:.2f} (start)")
    print(f"clock: {args.clock} (normalize and its json baseline)")
    print(f"seed {args.seed}; sizes {args.sizes}; repeat {args.repeat} at the largest, "
          f"{max(args.repeat, args.repeat_small)} below (median); "
          f"time budget {args.time_budget:.0f} s; message budget {args.budget}")
    print(f"langchain-core {version('langchain_core')}; turnsafe {version('turnsafe')}\n")


def parse_args(argv: list[str]) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    parser.add_argument("--sizes", default="1000,10000,100000",
                        type=lambda s: sorted(int(x) for x in s.split(",")))
    parser.add_argument("--providers", default=",".join(PROVIDERS),
                        type=lambda s: [p.strip() for p in s.split(",") if p.strip()])
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--repeat-small", type=int, default=7,
                        help="runs per cell below the largest size, at least --repeat "
                             "(cheap cells: the growth to the largest size is read off them)")
    parser.add_argument("--budget", type=int, default=20, help="messages, for the comparison")
    parser.add_argument("--time-budget", type=float, default=570.0,
                        help="seconds for the whole run; cells predicted to overrun it are "
                             "not run and are reported")
    parser.add_argument("--seed", type=int, default=SEED)
    parser.add_argument("--profile-size", type=int, default=None,
                        help="size for --profile (default: the second-largest)")
    parser.add_argument("--profile", action="store_true",
                        help="cProfile the provider that grew worst, at the second-largest size")
    parser.add_argument("--no-compare", action="store_true")
    parser.add_argument("--clock", choices=tuple(CLOCKS), default="cpu",
                        help="what normalize and its json baseline are timed with: the "
                             "process's CPU time (default: steadier on a shared machine) or "
                             "the wall clock")
    return parser.parse_args(argv)


def run(args: argparse.Namespace, clock: Clock, cells: Cells) -> Comparison:
    """The smaller sizes, the comparison (it grows linearly, so its cost is known), and last
    normalize per provider at the largest size, which gets the time that is left."""
    *small, large = args.sizes
    compared = [p for p in COMPARED if p in args.providers] if not args.no_compare else []
    for size in small:
        measure_size(size, args, clock, cells)
    speed = compare_speed(args.sizes, compared, args.budget, args.repeat, clock, args.seed)
    points, violations = compare_violations(args.sizes[0], compared, args.budget, args.seed) \
        if compared else (0, [])
    measure_size(large, args, clock, cells)
    return Comparison(speed, points, violations)


@dataclass
class Comparison:
    speed: list[list[str]]
    points: int
    violations: list[list[str]]


def print_comparison(args: argparse.Namespace, found: Comparison) -> None:
    compared = [p for p in COMPARED if p in args.providers]
    if args.no_compare or not compared:
        return
    print(f"## side by side, budget {args.budget} messages (ms; × json.loads+dumps)\n")
    for line in missing_tools():
        print(line)
    print_table(speed_head(), found.speed)
    print(f"## violations after, budget {args.budget} messages, at {found.points} request "
          f"points of the {args.sizes[0]:,}-message history\n")
    print(f"Each cell: request bodies with at least one violation (normalizer.check), of "
          f"{found.points}; then each rule broken and how many bodies broke it.\n")
    print_table(["tool", *compared], found.violations)


def main(argv: list[str]) -> int:
    args = parse_args(argv)
    clock = Clock(args.time_budget)
    header(args)
    cells = Cells()
    warm_up(args.providers, args.seed)
    found = run(args, clock, cells)
    print("## normalize + render, per provider (ms; × json.loads+dumps of the same body)\n")
    print_times(cells, args)
    print_baselines(cells, args.sizes, args.providers)
    print_comparison(args, found)
    if args.profile and len(args.sizes) > 1:
        profile_worst(cells, args.sizes, args.profile_size or args.sizes[-2], args.seed)
    one, five, fifteen = os.getloadavg()
    print(f"load average {one:.2f} {five:.2f} {fifteen:.2f} (end); {clock.spent():.0f} s in all")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
