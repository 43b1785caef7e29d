"""`conformance report`: regenerate the published matrix (docs/generated/strictness.md and the HTML
and JSON beside it) from the cassettes, offline, or from a results JSON of a run."""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from conformance.batch import add_common, backends_for, execute, plan, printer
from conformance.publish.matrix import write_reports


def register(sub: argparse._SubParsersAction) -> None:
    parser = sub.add_parser(
        "report", help="regenerate docs/generated/strictness.* from the cassettes",
        description="Replay the cassettes (offline) and write the published strictness "
                    "matrix, or re-render it from a run's strictness.json with --from.")
    add_common(parser, backend="cassette")
    parser.add_argument("--from", dest="source", metavar="JSON",
                        help="a strictness.json written by `conformance run`")
    parser.add_argument("--out", default="docs/generated", metavar="DIR",
                        help="where strictness.json/.md/.html go (default: docs)")
    parser.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    if args.source:
        try:
            results = json.loads(Path(args.source).read_text(encoding="utf-8"))["results"]
        except (OSError, ValueError, KeyError) as exc:
            print(f"conformance report: {args.source}: not a strictness.json: {exc}",
                  file=sys.stderr)
            return 2
    else:
        try:
            work = plan(args)
        except (OSError, ValueError) as exc:
            print(f"conformance report: {exc}", file=sys.stderr)
            return 2
        results = execute(work.items, backends_for(args, work.providers), printer())
    for path in write_reports(results, Path(args.out)):
        print(f"wrote {path}")
    return 0
