"""`check(body, provider)` on the benchmark's damaged histories, against a json.loads +
json.dumps of the same body, interleaved in one process, median of `--repeat`.

    python benchmarks/check_bench.py [--sizes 1000,10000,100000] [--providers ...] [--repeat 3]

The body is the raw (unrepaired) render of the history in the provider's protocol, so every
detector has violations to find and report.
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

from histories import SEED, TOOLS, generate

from normalizer import check, render
from normalizer.profiles import PROVIDERS, load_profile


def timed(fn: Callable[[], Any]) -> tuple[float, Any]:
    gc.collect()
    start = time.perf_counter()
    out = fn()
    return time.perf_counter() - start, out


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    parser.add_argument("--sizes", default="1000,10000,100000",
                        type=lambda s: [int(x) for x in s.split(",")])
    parser.add_argument("--providers", default=",".join(PROVIDERS),
                        type=lambda s: [p for p in s.split(",") if p])
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args(argv)
    print(f"load average {' '.join(f'{x:.2f}' for x in os.getloadavg())} (start)\n")
    print("| messages | provider | json ms | check ms | × json | violations |")
    print("| --- | --- | --- | --- | --- | --- |")
    check(render(generate(50, SEED)[0], "openai_chat", tools=TOOLS), "openai")  # warm-up
    for size in args.sizes:
        history, _ = generate(size, SEED)
        for provider in args.providers:
            body = render(history, load_profile(provider).protocol, tools=TOOLS)
            text = json.dumps(body)
            base, took, found = [], [], []
            for _ in range(args.repeat):
                base.append(timed(lambda text=text: json.dumps(json.loads(text)))[0])
                seconds, found = timed(lambda body=body, provider=provider: check(body, provider))
                took.append(seconds)
            b, t = statistics.median(base), statistics.median(took)
            print(f"| {size:,} | {provider} | {b * 1000:,.0f} | {t * 1000:,.0f} | "
                  f"{t / b:.2f}× | {len(found):,} |", flush=True)
    print(f"\nload average {' '.join(f'{x:.2f}' for x in os.getloadavg())} (end)")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
