"""A whole run outside pytest: load scenarios (bad files reported, the rest run), select
providers, ask before live requests, run every item with progress, collect results.
Used by `conformance run`, `report` and `record`."""

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
from conformance.item import Item, items, run_item
from conformance.options import CLI_PREFIX, RECORD_MODES, RUN_OPTIONS
from conformance.providers import Provider, load_providers_file, select
from conformance.scenarios.load import Scenario, ScenarioError, find_scenarios, load_scenario


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
    scenarios: list[Scenario]
    broken: list[ScenarioError]
    providers: list[Provider]
    items: list[Item] = field(default_factory=list)


def plan(args: argparse.Namespace, err: TextIO = sys.stderr) -> Plan:
    extra = load_providers_file(args.providers_file) if args.providers_file else {}
    providers = select(args.provider or None, extra)
    known = [p.name for p in select(None, extra)]
    root = Path(args.scenarios)
    if not root.is_dir():
        raise FileNotFoundError(f"{root}: no such scenario folder")
    loaded, broken = [], []
    for path in find_scenarios(root):
        try:
            loaded.append(load_scenario(path, providers=known))
        except ScenarioError as exc:
            broken.append(exc)
            print(str(exc), file=err)
    chosen = [i for i in items([s for s in loaded if not s.draft], providers,
                               args.mode or MODES) if args.keyword in i.id]
    return Plan(loaded, broken, providers, chosen)


def backends_for(args: argparse.Namespace, providers: list[Provider],
                 record_mode: str = "none") -> Backends:
    return Backends(choice=args.backend, cassette_root=Path(args.cassette_dir),
                    record_mode=record_mode, live=args.live, providers=providers)


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
            progress: Callable[[int, int, Item, Any], None] | None = None) -> list[dict[str, Any]]:
    results = []
    try:
        for n, item in enumerate(chosen, start=1):
            result = run_item(item, backends)
            results.append(result.to_json())
            if progress:
                progress(n, len(chosen), item, result)
    finally:
        backends.close()
    return results


def printer(stream: TextIO = sys.stderr) -> Callable[[int, int, Item, Any], None]:
    """Progress: one line per failed item, and a count every 5% (rewritten on a TTY)."""
    tty = stream.isatty() and os.environ.get("TERM") != "dumb"

    def show(n: int, total: int, item: Item, result: Any) -> None:
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
