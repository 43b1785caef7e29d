"""Side by side with the other tools (benchmarks/baselines.py): speed on the benchmark's
histories, and what each tool's output still breaks at request points of one history.

The comparison histories give Gemini's calls uuid-shaped ids (`gemini_ids=True`): LangChain
and OpenAI-format stores cannot hold a call without an id, and an app using them has ids.
"""

from __future__ import annotations

import gc
import json
import statistics
import sys
import time
from collections import Counter
from collections.abc import Callable
from typing import Any, Protocol

from baselines import TOOLS_COMPARED, Tool, raw_body
from histories import SEED, generate

from normalizer import History, check

REQUEST_POINTS = 40
WARM_UP = 2_000  # histories up to this size get one untimed run of each tool first


class Budgeted(Protocol):
    def left(self) -> float: ...


def _timed(fn: Callable[[], Any]) -> tuple[float, Any]:
    gc.collect()
    start = time.perf_counter()
    try:
        out = fn()
    except Exception as error:
        out = error
    return time.perf_counter() - start, out


def _timed_tools() -> list[Tool]:
    return [t for t in TOOLS_COMPARED if t.name != "naive slice" and t.installed]


def _speed_row(history: History, provider: str, budget: int, repeat: int,
               clock: Budgeted) -> list[str]:
    """json baseline and each tool, interleaved, median of `repeat`."""
    text = json.dumps(raw_body(history, provider))
    tools = _timed_tools()
    prepared = {t.name: t.prepare(history, provider, budget) for t in tools}
    if len(history) <= WARM_UP:  # imports and first-call caches are not what is measured
        for tool in tools:
            _timed(lambda tool=tool: tool.run(prepared[tool.name]))
    times: dict[str, list[float]] = {"json": []}
    failed: dict[str, str] = {}
    for run in range(repeat):
        if run and sum(statistics.median(v) for v in times.values() if v) > clock.left():
            break
        times["json"].append(_timed(lambda: json.dumps(json.loads(text)))[0])
        for tool in tools:
            seconds, out = _timed(lambda tool=tool: tool.run(prepared[tool.name]))
            times.setdefault(tool.name, []).append(seconds)
            if isinstance(out, Exception):
                failed[tool.name] = type(out).__name__
    base = statistics.median(times["json"])
    row = [f"{len(history):,}", provider, f"{base * 1000:,.0f}"]
    for tool in tools:
        t = statistics.median(times[tool.name])
        note = f" ({failed[tool.name]})" if tool.name in failed else ""
        row.append(f"{t * 1000:,.1f} ({t / base:.2f}×){note}")
    return row


def speed_head() -> list[str]:
    return ["messages", "provider", "json ms"] + [t.name for t in _timed_tools()]


def compare_speed(sizes: list[int], providers: list[str], budget: int, repeat: int,
                  clock: Budgeted, seed: int = SEED) -> list[list[str]]:
    """Rows of `speed_head()`: one per size and provider, or one saying a size was not run
    because its predicted time (the previous size's, scaled linearly) would overrun."""
    rows: list[list[str]] = []
    spent: dict[int, float] = {}
    for size in sizes:
        prev = max((s for s in spent if s < size), default=None)
        guess = None if prev is None else spent[prev] * size / prev
        if guess is not None and guess > clock.left():
            rows.append([f"{size:,}", "—", f"not run: predicted ~{guess:.0f} s, "
                         f"{max(0.0, clock.left()):.0f} s left"])
            continue
        start = time.perf_counter()
        history, _ = generate(size, seed, gemini_ids=True)
        rows.extend(_speed_row(history, p, budget, repeat, clock) for p in providers)
        spent[size] = time.perf_counter() - start
        print(f"  side by side at {size}: done, {clock.left():.0f} s left", file=sys.stderr,
              flush=True)
    return rows


def request_points(history: History, budget: int, count: int = REQUEST_POINTS) -> list[int]:
    """Evenly spread ends of the history at which a request is sent: right after a user
    message or a tool message, past the first window."""
    ends = [i + 1 for i, m in enumerate(history.messages)
            if m.role in ("user", "tool") and i + 1 > budget]
    step = max(1, len(ends) // count)
    return ends[::step][:count]


def _violations(tool: Tool, prefix: History, provider: str, budget: int) -> Counter[str]:
    """Rule ids the tool's output breaks (or the tool's exception, as `error: Name`)."""
    try:
        out = tool.run(tool.prepare(prefix, provider, budget))
        body = tool.body(out, raw_body(prefix, provider), provider)
    except Exception as error:
        return Counter({f"error: {type(error).__name__}": 1})
    return Counter(v.rule for v in check(body, provider))


def compare_violations(size: int, providers: list[str], budget: int, seed: int = SEED
                       ) -> tuple[int, list[list[str]]]:
    """(request points, rows of tool + one cell per provider): in each cell, the request
    bodies with at least one violation, then each rule broken and how many bodies broke it."""
    history, _ = generate(size, seed, gemini_ids=True)
    points = request_points(history, budget)
    rows = []
    for tool in (t for t in TOOLS_COMPARED if t.installed):
        row = [tool.name]
        for provider in providers:
            broken = 0
            rules: Counter[str] = Counter()
            for end in points:
                found = _violations(tool, History(history.messages[:end]), provider, budget)
                broken += bool(found)
                rules.update(set(found))
            listed = ", ".join(f"{r} ({n})" for r, n in sorted(rules.items()))
            row.append(f"{broken}/{len(points)}" + (f": {listed}" if listed else ""))
        rows.append(row)
    return len(points), rows


def missing_tools() -> list[str]:
    return [f"- {t.name}: not installed (pip install {t.needs.replace('_', '-')})"
            for t in TOOLS_COMPARED if not t.installed]


def print_table(head: list[str], rows: list[list[str]]) -> None:
    """A Markdown table; a short row (a note) is padded with empty cells."""
    print("| " + " | ".join(head) + " |")
    print("|" + "|".join(" --- " for _ in head) + "|")
    for row in rows:
        print("| " + " | ".join(row + [""] * (len(head) - len(row))) + " |")
    print()
