"""`conformance run`: every scenario × provider × mode (offline default: the built-in
providers on the loopback emulators), the matrix summary, and the report files."""

from __future__ import annotations

import argparse
import sys
from collections import Counter
from pathlib import Path

from conformance.batch import add_common
from conformance.cli.batch_command import may_go_live, prepare
from conformance.cli.output import folder_problem
from conformance.expectations import prediction_summary
from conformance.item import Result
from conformance.publish.matrix import provenance_line, summary, write_reports


def register(sub: argparse._SubParsersAction) -> None:
    """Add the `run` subcommand to `sub`."""
    parser = sub.add_parser(
        "run", help="run the scenarios against providers and write the strictness matrix",
        description="Replay every scenario against every provider, raw and normalized, and "
                    "write the strictness matrix. Offline by default (loopback emulators).")
    add_common(parser, backend="emulator")
    parser.add_argument("--out", default="report", metavar="DIR",
                        help="where strictness.json/.md/.html go (default: report)")
    parser.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    """Run every item, print the matrix summary and write the report files; the exit status (0
    every item met its expectation, 1 an item failed or a scenario file is broken, 2 bad
    arguments or an unwritable folder)."""
    problem = folder_problem(Path(args.out))  # checked now, not after the whole run
    if problem:
        print(f"conformance run: {problem}", file=sys.stderr)
        return 2
    planned = prepare(args, "run")
    if planned is None or not may_go_live(planned, args, "run"):
        return 2
    work = planned.work
    print(f"running {len(work.items)} items: {len(work.scenarios)} scenarios × "
          f"{len(work.providers)} providers (backend {args.backend})", file=sys.stderr)
    results = planned.execute()
    print(matrix_summary(results, len(work.broken)))
    try:
        written = write_reports(results, Path(args.out)) if results else []
    except OSError as exc:
        print(f"conformance run: cannot write the reports to {args.out}: {exc}",
              file=sys.stderr)
        return 2
    for path in written:
        print(f"wrote {path}")
    failed = sum(1 for r in results if r.counts_as_failure)
    return 1 if failed or work.broken else 0


def matrix_summary(results: list[Result], broken: int) -> str:
    """The run's summary as text: verdict counts per mode, failures, known gaps, broken scenario
    files, where check() predicted otherwise, provenance, and a table per provider."""
    s = summary(results)
    width = max([18, *(len(p) + 1 for p in s["providers"])])
    lines = [f"{s['items']} items; raw: " + ", ".join(f"{v} {k}" for k, v in s["raw"].items())
             + "; normalized: " + ", ".join(f"{v} {k}" for k, v in s["normalized"].items()),
             f"failing their expectation: {s['failed']} (and {s['known_gaps']} declared known "
             f"gaps); broken scenario files: {broken}; "
             f"where check() predicted otherwise: {s['differs_from_check']}",
             provenance_line(results),
             "", f"{'provider':<{width}}{'raw reject':>11}{'raw accept':>11}{'norm accept':>12}"]
    counts = Counter((r.provider, r.mode, r.verdict.kind) for r in results)
    for p in s["providers"]:
        lines.append(f"{p:<{width}}{counts[(p, 'raw', 'reject')]:>11}"
                     f"{counts[(p, 'raw', 'accept')]:>11}{counts[(p, 'normalized', 'accept')]:>12}")
    return "\n".join(lines[:2] + prediction_summary(results) + lines[2:])
