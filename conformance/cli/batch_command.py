"""What `conformance run`, `report` and `record` share: their arguments -> a planned run
(scenarios, providers, items) and its backends -> asked before going live -> the typed
results. Each command adds only what is its own (the report files, the cassette count).

Not a subcommand: `cli.main` lists subcommands by name, and this module is not among them.
"""

from __future__ import annotations

import argparse
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import TextIO

from conformance.backends import Backends
from conformance.batch import Plan, confirm_live, execute, live_count, plan, printer
from conformance.errors import ConformanceError
from conformance.item import Result
from conformance.providers import load_providers_file, select
from normalizer.errors import NormalizerError


@dataclass
class Planned:
    """A run ready to execute: its plan and the backends its items go to."""

    work: Plan
    backends: Backends

    def execute(self) -> list[Result]:
        """Run every planned item on its backend, printing progress; the typed results."""
        return execute(self.work.items, self.backends, printer())


def prepare(args: argparse.Namespace, command: str, *, record_mode: str = "none",
            err: TextIO | None = None) -> Planned | None:
    """Plan the run `args` ask for; None after printing a one-line error to `err`
    (default: sys.stderr)."""
    err = err or sys.stderr
    try:
        extra = load_providers_file(args.providers_file) if args.providers_file else {}
        providers = select(args.provider or None, extra)
        work = plan(Path(args.scenarios), providers, args.mode, args.keyword,
                    known=[p.name for p in select(None, extra)], err=err)
    except (OSError, ValueError, ConformanceError, NormalizerError) as exc:
        print(f"conformance {command}: {exc}", file=err)
        return None
    backends = Backends(choice=args.backend, cassette_root=Path(args.cassette_dir),
                        record_mode=record_mode, live=args.live, providers=work.providers)
    return Planned(work, backends)


def may_go_live(planned: Planned, args: argparse.Namespace, command: str,
                err: TextIO | None = None) -> bool:
    """Asks before sending live requests (unless --yes); False after saying why not."""
    err = err or sys.stderr
    refusal = confirm_live(live_count(planned.work.items, planned.backends), args.yes)
    if refusal:
        print(f"conformance {command}: {refusal}", file=err)
    return not refusal
