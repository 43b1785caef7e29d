"""`conformance report`: regenerate the published matrix (docs/generated/strictness.md and
the HTML and JSON beside it) from the cassettes, offline, or from a results JSON of a run."""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from conformance.batch import add_common
from conformance.cli.batch_command import may_go_live, prepare
from conformance.item import Result
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
                        help="where strictness.json/.md/.html go (default: docs/generated)")
    parser.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    if args.source:
        try:
            rows = json.loads(Path(args.source).read_text(encoding="utf-8"))["results"]
            results = [Result.from_json(row) for row in rows]
        except (OSError, ValueError, KeyError, TypeError) as exc:
            print(f"conformance report: {args.source}: not a strictness.json: {exc}",
                  file=sys.stderr)
            return 2
    else:
        planned = prepare(args, "report")
        if planned is None or not may_go_live(planned, args, "report"):
            return 2
        results = planned.execute()
    for path in write_reports(results, Path(args.out)):
        print(f"wrote {path}")
    return 0
