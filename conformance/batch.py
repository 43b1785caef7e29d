"""A whole run outside pytest: load scenarios (bad files reported, the rest run), resolve
their recorded streams once, make the items, ask before live requests, run every item with
progress, collect typed results. Used by `conformance run`, `report` and `record` (through
conformance/cli/batch_command.py) and by tests; it takes plain values, never CLI arguments.
"""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, TextIO

from conformance.backends import Backends
from conformance.bodies import MODES
from conformance.errors import ScenarioError
from conformance.item import Item, Result, items, run_item
from conformance.options import CLI_PREFIX, RECORD_MODES, RUN_OPTIONS
from conformance.providers import BUILTIN_PROVIDERS, Provider
from conformance.scenarios.load import Scenario, find_scenarios, load_scenario
from conformance.scenarios.replay import resolve


def add_common(parser: argparse.ArgumentParser, **defaults: Any) -> None:
    """The run options (one table, `conformance.options`, shared with the pytest plugin),
    plus the CLI's own selection options. `defaults` overrides a table default by option
    name (`backend="emulator"`); `conformance.options` lists each override and its reason.
    `--record-mode` is added only for a command that records (`record_mode=...`)."""
    unknown = set(defaults) - {o.name.replace("-", "_") for o in RUN_OPTIONS if o.cli}
    if unknown:
        raise TypeError(f"add_common: no run option {sorted(unknown)}")
    parser.add_argument("--scenarios", default="scenarios", metavar="DIR",
                        help="scenario folder (default: scenarios)")
    for option in RUN_OPTIONS:
        key = option.name.replace("-", "_")
        if not option.cli or (key == "record_mode" and key not in defaults):
            continue
        kwargs = option.kwargs(CLI_PREFIX, defaults.get(key))
        if key == "record_mode":
            kwargs["choices"] = RECORD_MODES[1:]  # a recording command must record
        parser.add_argument(option.flag(CLI_PREFIX), **kwargs)
    # pytest has its own -k, and selects modes with it (`-k raw`); these stay CLI-only.
    parser.add_argument("--mode", choices=MODES, action="append", default=[],
                        help="only this mode (repeatable; default: raw and normalized)")
    parser.add_argument("-k", dest="keyword", default="",
                        help="only items whose id contains this text")


@dataclass
class Plan:
    """A planned run: the loaded scenarios, the broken scenario files, the providers, and the
    items to run."""

    scenarios: list[Scenario]
    broken: list[ScenarioError]
    providers: list[Provider]
    items: list[Item] = field(default_factory=list)


def plan(scenarios_dir: str | Path, providers: Sequence[Provider],
         modes: Sequence[str] = MODES, keyword: str = "", *,
         known: Sequence[str] | None = None, err: TextIO | None = None) -> Plan:
    """Load every scenario under `scenarios_dir` (a bad file is printed to `err` and kept in
    `broken`; the others still run), resolve each recorded stream once, and list the items
    of `providers` × `modes` whose id contains `keyword`. `known`: the provider names a
    scenario may mention (default: the built-ins and `providers`)."""
    err = err or sys.stderr  # looked up now: a captured stream may have been swapped since
    root = Path(scenarios_dir)
    if not root.is_dir():
        raise FileNotFoundError(f"{root}: no such scenario folder")
    names = list(known) if known is not None else [*BUILTIN_PROVIDERS, *(
        p.name for p in providers if p.name not in BUILTIN_PROVIDERS)]
    loaded, broken = [], []
    for path in find_scenarios(root):
        try:
            loaded.append(load_scenario(path, providers=names))
        except ScenarioError as exc:
            broken.append(exc)
            print(str(exc), file=err)
    runnable = [resolve(s) for s in loaded if not s.draft]
    chosen = [i for i in items(runnable, providers, modes or MODES) if keyword in i.id]
    return Plan(loaded, broken, list(providers), chosen)


def live_count(chosen: Sequence[Item], backends: Backends) -> int:
    """How many of `chosen` would go to a live vendor."""
    return sum(1 for i in chosen
               if backends.resolve(i.provider, i.cassette(backends.cassette_root)) == "live")


def confirm_live(count: int, yes: bool, yes_flag: str = "--yes",
                 stdin: TextIO | None = None) -> str:
    """'' when it may go on, else the reason it may not. The one live-request question, for
    the CLI and the pytest plugin; `yes_flag` is how the caller spells the way out."""
    stdin = stdin or sys.stdin
    if count == 0 or yes:
        return ""
    message = f"{count} live requests would be sent to vendors (they may cost money)."
    if not stdin.isatty():
        return f"{message} Pass {yes_flag} to send them."
    answer = input(f"{message} Send them? [y/N] ")
    return "" if answer.strip().lower() in {"y", "yes"} else "no live requests sent"


def execute(chosen: Sequence[Item], backends: Backends,
            progress: Callable[[int, int, Item, Result], None] | None = None) -> list[Result]:
    """Run each item on its backend, in order, reporting each result to `progress`; the backends
    are closed at the end, even on an error."""
    results = []
    try:
        for n, item in enumerate(chosen, start=1):
            result = run_item(item, backends)
            results.append(result)
            if progress:
                progress(n, len(chosen), item, result)
    finally:
        backends.close()
    return results


def printer(stream: TextIO | None = None) -> Callable[[int, int, Item, Result], None]:
    """Progress: one line per failed item, and a count every 5% (rewritten on a TTY), on
    `stream` (default: sys.stderr as it is when called, not when this module was imported)."""
    stream = stream or sys.stderr
    tty = stream.isatty() and os.environ.get("TERM") != "dumb"

    def show(n: int, total: int, item: Item, result: Result) -> None:
        if result.problem:
            label = "KNOWN GAP" if result.known_gap else "FAIL"
            print(("\r" if tty else "") + f"{label} {result.id}: {result.problem}", file=stream)
        step = max(1, total // 20)
        if tty:
            print(f"\r[{n}/{total}] {item.id[:90]:<90}", end="" if n < total else "\n",
                  file=stream, flush=True)
        elif n % step == 0 or n == total:
            print(f"[{n}/{total}] items run", file=stream, flush=True)
    return show
