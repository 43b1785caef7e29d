"""What a provider's repairs cost, pass by pass, against the JSON round trip of the same body:
how much of `normalize` + `render` is the output itself (the passes that change the history,
and the render) and how much is every other pass finding nothing to do, in the first round
and the confirming one.

    python benchmarks/output_cost.py [--providers mistral,openai] [--sizes 1000,10000] [--repeat 9]

Each pass of the provider's schedule is timed on the very draft it gets in `normalize`'s
first round (the passes run in order, as `run_rounds` runs them, each timed alone on a fresh
copy of the caches), then once more on the first round's output (the confirming round, each
pass on the whole draft: what that round costs without its skips), and `render` on the
output. A pass that changed the history in the first round counts as output-making.
CPU time, median of `--repeat`, all in one process beside the JSON baseline of the history's
raw render in the provider's protocol. The sum is not `normalize`'s time: the confirming
round skips what it can, and `normalize` shares caches between passes (timed alone here).
"""

from __future__ import annotations

import argparse
import gc
import importlib
import json
import statistics
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

from histories import SEED, TOOLS, generate
from normalize_bench import fresh

from normalizer import normalize, render
from normalizer.model import JsonMap
from normalizer.passes import Draft, Policy
from normalizer.passes._blocks import forget_pairing
from normalizer.passes._known_ids import forget_ids
from normalizer.profiles import PROVIDERS, load_profile
from normalizer.scope import scoped

# The module, not the function the package face re-exports under the same name.
NORMALIZE = importlib.import_module("normalizer.normalize")


@dataclass(frozen=True, slots=True)
class Row:
    """One pass (or render): its CPU ms in the first round, whether it changed the history
    there, and its ms on the first round's output."""

    name: str
    first_ms: float
    changed: bool
    again_ms: float


def cpu_ms(fn: Callable[[], Any], repeat: int) -> float:
    """Median CPU ms of `fn`, each run from cold pass caches and a collected heap."""
    took = []
    for _ in range(repeat):
        forget_pairing()
        forget_ids()
        gc.collect()
        start = time.process_time()
        fn()
        took.append(time.process_time() - start)
    forget_pairing()
    forget_ids()
    return statistics.median(took) * 1e3


def rows(provider: str, size: int, repeat: int) -> tuple[float, float, list[Row]]:
    """The JSON baseline ms, normalize + render ms, and one row per pass, then render."""
    history, _ = generate(size, SEED)
    profile = scoped(load_profile(provider), model=None, on=None)
    policy = Policy(thinking="off")
    text = json.dumps(render(history, profile.protocol, tools=TOOLS))
    baseline = cpu_ms(lambda: json.dumps(json.loads(text)), repeat)
    total = cpu_ms(lambda: normalize(fresh(history), provider, tools=TOOLS).render(), repeat)
    draft = Draft(history=fresh(history), tools=TOOLS, options=JsonMap({}))
    draft, _ = NORMALIZE.cross_parts(draft, profile, policy)
    draft, _ = NORMALIZE.drop_strict_without_form(draft, profile, policy)
    found: list[tuple[str, Callable[..., Any], Draft, bool]] = []
    for name in NORMALIZE.schedule(profile):
        run = NORMALIZE.STEPS[name].run
        given = draft
        draft, changes = run(draft, profile, policy)
        found.append((name, run, given, bool(changes)))
    out: list[Row] = []
    for name, run, given, changed in found:
        first = cpu_ms(lambda r=run, d=given: r(d, profile, policy), repeat)  # type: ignore[misc]
        again = cpu_ms(lambda r=run: r(draft, profile, policy), repeat)  # type: ignore[misc]
        out.append(Row(name, first, changed, again))
    final = draft
    out.append(Row("render", cpu_ms(lambda: render(final.history, profile.protocol,
                                                    tools=final.tools), repeat), True, 0.0))
    return baseline, total, out


def report(provider: str, size: int, repeat: int) -> None:
    baseline, total, found = rows(provider, size, repeat)
    print(f"\n### {provider}, {size:,} messages: json.loads + dumps {baseline:.1f} ms; "
          f"normalize + render {total:.1f} ms ({total / baseline:.2f}×)\n")
    print("| pass | first round ms | × json | changed | on its output ms |")
    print("| --- | --- | --- | --- | --- |")
    for row in found:
        again = "" if row.name == "render" else f"{row.again_ms:.1f}"
        print(f"| {row.name} | {row.first_ms:.1f} | {row.first_ms / baseline:.2f} | "
              f"{'yes' if row.changed else ''} | {again} |")
    making = sum(r.first_ms for r in found if r.changed)
    finding = sum(r.first_ms for r in found if not r.changed)
    confirming = sum(r.again_ms for r in found)
    print(f"\noutput-making passes and render: {making:.1f} ms = {making / baseline:.2f}× json; "
          f"passes that found nothing: {finding:.1f} ms = {finding / baseline:.2f}×; every "
          f"pass on the output (a confirming round without skips): {confirming:.1f} ms = "
          f"{confirming / baseline:.2f}×")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--providers", default="mistral,openai",
                        help="comma-separated built-in providers (default: mistral,openai)")
    parser.add_argument("--sizes", default="1000,10000",
                        help="comma-separated history sizes in messages (default: 1000,10000)")
    parser.add_argument("--repeat", type=int, default=9, help="runs per timing (median)")
    args = parser.parse_args(argv)
    providers = [p.strip() for p in args.providers.split(",") if p.strip()]
    unknown = [p for p in providers if p not in PROVIDERS]
    if unknown:
        parser.error(f"unknown provider(s) {', '.join(unknown)}; built-in: {', '.join(PROVIDERS)}")
    try:
        sizes = [int(s) for s in args.sizes.split(",")]
    except ValueError:
        parser.error(f"--sizes: expected comma-separated integers, got {args.sizes!r}")
    if args.repeat < 1 or any(s < 2 for s in sizes):
        parser.error("--repeat must be at least 1 and every size at least 2")
    print("## output cost (CPU ms, median; × json.loads + dumps of the same raw body)")
    for provider in providers:
        for size in sizes:
            report(provider, size, args.repeat)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
