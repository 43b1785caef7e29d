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

from conformance.backends import BACKENDS, Backends
from conformance.bodies import MODES
from conformance.item import Item, items, run_item
from conformance.providers import Provider, load_providers_file, select
from conformance.scenarios.load import Scenario, ScenarioError, find_scenarios, load_scenario


def add_common(parser: argparse.ArgumentParser, *, backend: str) -> None:
    parser.add_argument("--scenarios", default="scenarios", metavar="DIR",
                        help="scenario folder (default: scenarios)")
    parser.add_argument("--provider", action="append", default=[], metavar="NAME",
                        help="only this provider (repeatable; default: every one)")
    parser.add_argument("--providers-file", metavar="YAML", help="more providers, from YAML")
    parser.add_argument("--backend", choices=BACKENDS, default=backend,
                        help=f"where requests go (default: {backend})")
    parser.add_argument("--mode", choices=MODES, action="append", default=[],
                        help="only this mode (repeatable; default: raw and normalized)")
    parser.add_argument("-k", dest="keyword", default="",
                        help="only items whose id contains this text")
    parser.add_argument("--cassette-dir", default="cassettes", metavar="DIR")
    parser.add_argument("--live", action="store_true",
                        help="with --backend auto: use the vendor where its key is set")
    parser.add_argument("--yes", action="store_true", help="send live requests without asking")


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


def confirm_live(count: int, yes: bool, stdin: TextIO = sys.stdin) -> str:
    """'' when it may go on, else the reason it may not."""
    if count == 0 or yes:
        return ""
    message = f"{count} live requests would be sent to vendors (they may cost money)."
    if not stdin.isatty():
        return f"{message} Pass --yes to send them."
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
