"""`conformance record --provider P`: send the scenarios to P and write their cassettes.
Live by default (the key from P's usual environment variable; keyless providers such as
ollama and vllm need none); `--backend emulator` records against the loopback emulator
instead, and the cassettes say so."""

from __future__ import annotations

import argparse
import sys

from conformance.batch import add_common
from conformance.cli.batch_command import may_go_live, prepare


def register(sub: argparse._SubParsersAction) -> None:
    """Add the `record` subcommand to `sub`."""
    parser = sub.add_parser(
        "record", help="record cassettes (live, or against the emulator)",
        description="Send every scenario to the provider(s) and write one cassette per "
                    "scenario × provider × mode under --cassette-dir.")
    add_common(parser, backend="live", record_mode="all")  # record overwrites by default
    parser.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    """Record a cassette for each item of the named providers, live or against the emulator (live
    providers without a key are skipped); the exit status (0 recorded, 2 bad arguments or live
    requests not confirmed)."""
    if args.backend not in {"live", "emulator"}:
        print("conformance record: --backend must be live or emulator", file=sys.stderr)
        return 2
    if not args.provider:
        print("conformance record: name the provider(s) with --provider", file=sys.stderr)
        return 2
    planned = prepare(args, "record", record_mode=args.record_mode)
    if planned is None:
        return 2
    work = planned.work
    if args.backend == "live":
        missing = [p for p in work.providers if p.api_key() is None]
        if missing:
            print(f"conformance record: no API key for {', '.join(p.name for p in missing)} "
                  f"(set {', '.join(p.api_key_env for p in missing)}); skipped",
                  file=sys.stderr)
            work.items = [i for i in work.items if i.provider not in missing]
    if not may_go_live(planned, args, "record"):
        return 2
    results = planned.execute()
    recorded = sum(1 for r in results if r.source.get("recorded"))
    print(f"recorded {recorded} cassettes under {args.cassette_dir}")
    return 0
