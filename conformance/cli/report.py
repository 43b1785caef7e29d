"""`conformance report`: regenerate the published matrix (docs/generated/strictness.md and
the HTML and JSON beside it) from the cassettes, offline, or from a results JSON of a run."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Any

from conformance.batch import add_common
from conformance.cli.batch_command import may_go_live, prepare
from conformance.cli.jsonin import load_json, read_text
from conformance.cli.output import folder_problem
from conformance.item import Result
from conformance.publish.matrix import write_reports
from conformance.publish.recorded import with_requests
from conformance.publish.vendors import write_vendor_pages


def register(sub: argparse._SubParsersAction) -> None:
    """Add the `report` subcommand to `sub`."""
    parser = sub.add_parser(
        "report", help="regenerate docs/generated/strictness.* from the cassettes",
        description="Replay the cassettes (offline) and write the published strictness "
                    "matrix, or re-render it from a run's strictness.json with --from.")
    add_common(parser, backend="cassette")
    parser.add_argument("--from", dest="source", metavar="JSON",
                        help="a strictness.json written by `conformance run`")
    parser.add_argument("--out", default="docs/generated", metavar="DIR",
                        help="where strictness.json/.md/.html go (default: docs/generated)")
    parser.add_argument("--evidence", default="evidence", metavar="DIR",
                        help="observations for the per-vendor pages in OUT/vendors/ "
                             "(default: evidence; skipped when missing)")
    parser.add_argument("--vendors", action="store_true",
                        help="write only the per-vendor pages (fast: no cassettes replayed)")
    parser.set_defaults(func=run)


# The fields of a result the renderers read, and their JSON types (the rest are shown
# only if present, and as text).
_TEXT = ("id", "mode", "predicted", "provider", "scenario", "title", "topic", "verdict")
_OPTIONAL = {"source": dict, "changes": list, "known_gap": str, "message": str,
             "problem": str, "reason": str, "predicted_rule": (str, type(None))}


def read_results(name: str) -> list[dict[str, Any]]:
    """The results of a strictness.json; ValueError names the first thing that is wrong."""
    data = load_json(read_text(name), name)
    results = data.get("results") if isinstance(data, dict) else None
    if not isinstance(results, list):
        raise ValueError(f"{name}: not a strictness.json: expected an object with a "
                         "`results` list")
    for i, r in enumerate(results):
        where = f"{name}: results[{i}]"
        if not isinstance(r, dict):
            raise ValueError(f"{where}: expected an object")
        for key in _TEXT:
            if not isinstance(r.get(key), str):
                raise ValueError(f"{where}.{key}: expected a string")
        for key, kind in _OPTIONAL.items():
            if key in r and not isinstance(r[key], kind):
                raise ValueError(f"{where}.{key}: wrong type ({type(r[key]).__name__})")
    return results


def run(args: argparse.Namespace) -> int:
    """Write the per-vendor pages (when the evidence folder exists) and the strictness matrix,
    from the cassettes or from `--from` results; the exit status (0 written, 2 bad arguments,
    unreadable results or an unwritable folder)."""
    problem = folder_problem(Path(args.out))
    if problem:
        print(f"conformance report: {problem}", file=sys.stderr)
        return 2
    if args.vendors and not Path(args.evidence).is_dir():
        print(f"conformance report: {args.evidence}: no such evidence folder", file=sys.stderr)
        return 2
    if Path(args.evidence).is_dir():
        pages = write_vendor_pages(Path(args.evidence), Path(args.out) / "vendors")
        print(f"wrote {len(pages)} vendor pages in {Path(args.out) / 'vendors'}")
    if args.vendors:
        return 0
    if args.source:
        try:
            results = [Result.from_json(row) for row in read_results(args.source)]
        except (ValueError, KeyError, TypeError) as exc:
            print(f"conformance report: {exc}", file=sys.stderr)
            return 2
    else:
        planned = prepare(args, "report")
        if planned is None or not may_go_live(planned, args, "report"):
            return 2
        results = planned.execute()
    try:
        # The page shows each cell's request: read back from the cassette it was replayed from.
        written = write_reports(with_requests(results), Path(args.out))
    except OSError as exc:
        print(f"conformance report: cannot write to {args.out}: {exc}", file=sys.stderr)
        return 2
    for path in written:
        print(f"wrote {path}")
    return 0
