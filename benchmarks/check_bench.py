"""`check(body, provider)` on the benchmark's damaged histories, against a json.loads +
json.dumps of the same body, interleaved in one process, median of `--repeat`.

    python benchmarks/check_bench.py [--sizes 10000,100000] [--providers ...] [--repeat 3]

The body is the raw (unrepaired) render of the history in the provider's protocol, so every
detector has violations to find and report. Each row shows wall-clock and CPU (process)
time, both against the JSON round trip measured beside it, and the 1-minute load average
when the row was taken (/proc/loadavg): on a shared machine the CPU ratio is the steadier
one. With two sizes or more, a last table gives the growth of check() and of the JSON
round trip from each size to the next (linear: about the ratio of the sizes).
"""

from __future__ import annotations

import argparse
import gc
import json
import statistics
import sys
import time
from collections.abc import Callable
from itertools import pairwise
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

from histories import SEED, TOOLS, generate

from normalizer import check, render
from normalizer.profiles import PROVIDERS, load_profile

Times = tuple[float, float]  # wall seconds, CPU seconds


def load() -> str:
    """The 1-minute load average, as /proc/loadavg gives it."""
    try:
        return Path("/proc/loadavg").read_text().split()[0]
    except OSError:
        return "?"


def timed(fn: Callable[[], Any]) -> tuple[Times, Any]:
    gc.collect()  # each measurement starts from the same collector state
    wall, cpu = time.perf_counter(), time.process_time()
    out = fn()
    return (time.perf_counter() - wall, time.process_time() - cpu), out


def measure(body: dict[str, Any], provider: str, repeat: int) -> tuple[Times, Times, int]:
    """Median (wall, CPU) of the JSON round trip and of check(), interleaved."""
    text = json.dumps(body)
    base: list[Times] = []
    took: list[Times] = []
    count = 0
    for _ in range(repeat):
        base.append(timed(lambda: json.dumps(json.loads(text)))[0])
        seconds, found = timed(lambda: check(body, provider))
        took.append(seconds)
        count = len(found)
        del found  # not alive (for the collector to scan) during the next JSON round trip
    return _median(base), _median(took), count


def _median(runs: list[Times]) -> Times:
    return statistics.median(r[0] for r in runs), statistics.median(r[1] for r in runs)


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    parser.add_argument("--sizes", default="10000,100000",
                        type=lambda s: [int(x) for x in s.split(",")])
    parser.add_argument("--providers", default=",".join(PROVIDERS),
                        type=lambda s: [p for p in s.split(",") if p])
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args(argv)
    print(f"load average {load()} (start)\n")
    print("| messages | provider | json ms | check ms | × json | json CPU ms | check CPU ms "
          "| × json CPU | violations | load |")
    print("| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |")
    check(render(generate(50, SEED)[0], "openai_chat", tools=TOOLS), "openai")  # warm-up
    cells: dict[tuple[int, str], tuple[Times, Times]] = {}
    for size in args.sizes:
        history, _ = generate(size, SEED)
        bodies: dict[str, dict[str, Any]] = {}  # one render per protocol, not per provider
        for provider in args.providers:
            protocol = load_profile(provider).protocol
            if protocol not in bodies:
                bodies[protocol] = render(history, protocol, tools=TOOLS)
            base, took, found = measure(bodies[protocol], provider, args.repeat)
            cells[size, provider] = base, took
            print(f"| {size:,} | {provider} | {base[0] * 1000:,.0f} | {took[0] * 1000:,.0f} | "
                  f"{took[0] / base[0]:.2f}× | {base[1] * 1000:,.0f} | {took[1] * 1000:,.0f} | "
                  f"{took[1] / base[1]:.2f}× | {found:,} | {load()} |", flush=True)
        del history, bodies
    print(f"\nload average {load()} (end)")
    print_growth(cells, args.sizes, args.providers)
    return 0


def print_growth(cells: dict[tuple[int, str], tuple[Times, Times]], sizes: list[int],
                 providers: list[str]) -> None:
    """check()'s growth (CPU) from each size to the next, beside the JSON round trip's."""
    steps = list(pairwise(sizes))
    if not steps:
        return
    print("\n| provider | " + " | ".join(f"check {a:,}→{b:,} (×{b / a:g} messages) | json"
                                         for a, b in steps) + " |")
    print("| --- |" + " --- | --- |" * len(steps))
    for provider in providers:
        row = [f"{cells[b, provider][1][1] / cells[a, provider][1][1]:.1f}× | "
               f"{cells[b, provider][0][1] / cells[a, provider][0][1]:.1f}×" for a, b in steps]
        print(f"| {provider} | " + " | ".join(row) + " |")


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
