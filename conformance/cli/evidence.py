"""`conformance evidence`: the observed vendor answers (evidence/), counted, and check()
measured against each of them. Exit 0 when every disagreement is a declared gap, 1 on an
undeclared disagreement (or a stale gap), 2 when a file cannot be read."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from conformance.evidence.agree import FAILING, agreements
from conformance.evidence.load import load_evidence
from conformance.evidence.summary import report_lines


def register(sub: argparse._SubParsersAction) -> None:
    """Add the `evidence` subcommand to `sub`."""
    parser = sub.add_parser(
        "evidence", help="count the observed vendor answers and check check() against them",
        description="Load every evidence/<vendor>/<slug>.yaml, print the observations by "
                    "vendor and confidence, and whether check() agrees with each (accept vs "
                    "reject, and the rule of the first violation). Exit 1 on a disagreement "
                    "no `gap:` declares, 2 on an unreadable file.")
    parser.add_argument("--dir", default="evidence", metavar="DIR",
                        help="the evidence directory (default: evidence)")
    parser.add_argument("--vendor", action="append", metavar="NAME",
                        help="only this vendor (repeatable)")
    parser.add_argument("--brief", action="store_true",
                        help="list only failures, not the declared gaps")
    parser.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    """Print the observations and check()'s agreement with each; the exit status (0 agreed or
    declared gaps only, 1 an undeclared disagreement or stale gap, 2 an unreadable file or no
    such directory)."""
    root = Path(args.dir)
    if not root.is_dir():
        print(f"conformance evidence: {root}: no such directory", file=sys.stderr)
        return 2
    found = load_evidence(root, shown_from=Path.cwd())
    observations = [o for o in found.observations
                    if not args.vendor or o.vendor in args.vendor]
    results = agreements(observations)
    print("\n".join(report_lines(results, found.errors, details=not args.brief)))
    if found.errors:
        return 2
    return 1 if any(a.outcome in FAILING for a in results) else 0
