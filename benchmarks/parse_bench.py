"""parse, and the whole pipeline, against a json.loads + json.dumps baseline.

    python benchmarks/parse_bench.py [--sizes 1000,10000,100000] [--repeat 3]

Issue 13 asks for parse + normalize + render within 3x of a JSON round trip of the same
body; normalize_bench.py times normalize + render from a neutral History. This prints, per
protocol, for the raw body of the same deterministic damaged history (benchmarks/
histories.py, rendered faithfully for that protocol, as text):

1. `parse(json.loads(text), protocol)`: the text to a neutral History;
2. the whole pipeline to the protocol's reference provider: `json.dumps(render(normalize(
   parse(json.loads(text)))))`;
3. the baseline `json.dumps(json.loads(text))`;

each the median of `--repeat` runs on the process's CPU clock, `gc.collect()` before every
timed call, interleaved, after one untimed warm-up; ratios are to the baseline of the same
size in the same run.
"""

from __future__ import annotations

import argparse
import gc
import json
import os
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

from histories import SEED, TOOLS, history

from normalizer import parse, render
from normalizer.normalize import normalize
from normalizer.protocols import REFERENCE_PROVIDER
from normalizer.wire import PROTOCOLS


def cpu_timed(fn: Callable[[], Any]) -> float:
    gc.collect()
    start = time.process_time()
    fn()
    return time.process_time() - start


def pipeline(text: str, protocol: str) -> Callable[[], Any]:
    provider = REFERENCE_PROVIDER[protocol]
    return lambda: json.dumps(
        normalize(parse(json.loads(text), protocol), provider, tools=TOOLS).render())


def measure(text: str, protocol: str, repeat: int) -> dict[str, float]:
    runs: dict[str, Callable[[], Any]] = {
        "json": lambda: json.dumps(json.loads(text)),
        "parse": lambda: parse(json.loads(text), protocol),
        "pipeline": pipeline(text, protocol),
    }
    for fn in runs.values():  # warm-up: imports, caches
        fn()
    times: dict[str, list[float]] = {name: [] for name in runs}
    for _ in range(repeat):
        for name, fn in runs.items():
            times[name].append(cpu_timed(fn))
    return {name: statistics.median(values) for name, values in times.items()}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", default="1000,10000,100000")
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--seed", type=int, default=SEED)
    args = parser.parse_args(argv)
    sizes = [int(s) for s in args.sizes.split(",")]
    print(f"python {sys.version.split()[0]}, {os.cpu_count()} cpus, load average "
          f"{' '.join(f'{x:.2f}' for x in os.getloadavg())} (start); CPU clock; seed "
          f"{args.seed}; median of {args.repeat}")
    print("\n| messages | protocol | json ms | parse ms | parse × json "
          "| parse+normalize+render ms | pipeline × json |")
    print("| --- | --- | --- | --- | --- | --- | --- |")
    for size in sizes:
        made = history(size, args.seed)
        for protocol in PROTOCOLS:
            text = json.dumps(render(made, protocol, tools=TOOLS))
            got = measure(text, protocol, args.repeat)
            base = got["json"]
            print(f"| {size:,} | {protocol} | {base * 1000:,.0f} | {got['parse'] * 1000:,.0f} "
                  f"| {got['parse'] / base:.1f}× | {got['pipeline'] * 1000:,.0f} "
                  f"| {got['pipeline'] / base:.1f}× |", flush=True)
    print(f"\nload average {' '.join(f'{x:.2f}' for x in os.getloadavg())} (end)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
