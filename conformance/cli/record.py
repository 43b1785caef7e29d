"""`conformance record --provider P`: send the scenarios to P and write their cassettes.
Live by default (the key from P's usual environment variable); `--backend emulator`
records against the loopback emulator instead, and the cassettes say so."""

from __future__ import annotations

import argparse
import sys

from conformance.batch import add_common, backends_for, confirm_live, execute, plan, printer


def register(sub: argparse._SubParsersAction) -> None:
    parser = sub.add_parser(
        "record", help="record cassettes (live, or against the emulator)",
        description="Send every scenario to the provider(s) and write one cassette per "
                    "scenario × provider × mode under --cassette-dir.")
    add_common(parser, backend="live", record_mode="all")  # record overwrites by default
    parser.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    if args.backend not in {"live", "emulator"}:
        print("conformance record: --backend must be live or emulator", file=sys.stderr)
        return 2
    if not args.provider:
        print("conformance record: name the provider(s) with --provider", file=sys.stderr)
        return 2
    try:
        work = plan(args)
    except (OSError, ValueError) as exc:
        print(f"conformance record: {exc}", file=sys.stderr)
        return 2
    if args.backend == "live":
        missing = [p.name for p in work.providers if not _has_key(p.api_key_env)]
        if missing:
            print(f"conformance record: no API key for {', '.join(missing)} (set "
                  + ", ".join(p.api_key_env for p in work.providers if p.name in missing)
                  + "); skipped", file=sys.stderr)
            work.items = [i for i in work.items if i.provider.name not in missing]
        refusal = confirm_live(len(work.items), args.yes)
        if refusal:
            print(f"conformance record: {refusal}", file=sys.stderr)
            return 2
    results = execute(work.items, backends_for(args, work.providers, args.record_mode),
                      printer())
    recorded = sum(1 for r in results if r["source"].get("recorded"))
    print(f"recorded {recorded} cassettes under {args.cassette_dir}")
    return 0


def _has_key(variable: str) -> bool:
    import os

    return bool(variable and os.environ.get(variable))
