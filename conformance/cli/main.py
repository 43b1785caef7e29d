"""The `conformance` command."""

from __future__ import annotations

import argparse
import importlib
import os
import sys
from collections.abc import Callable, Sequence

from conformance.cli.output import tolerant_streams

Command = Callable[[argparse.Namespace], int]
INTERNAL_ERROR = 70  # EX_SOFTWARE of sysexits.h


def build_parser() -> argparse.ArgumentParser:
    """The `conformance` parser with every subcommand of SUBCOMMANDS registered (raises
    ModuleNotFoundError when the suite's dependencies are not installed)."""
    parser = argparse.ArgumentParser(
        prog="conformance",
        description="Check and repair chat histories with tool calls for LLM vendors, and "
                    "measure how strict each vendor is.",
    )
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    for register in _registrars():
        register(sub)
    return parser


# One module per subcommand, `conformance/cli/<name>.py`, each with
# `register(subparsers)` that adds its parser and sets `func`. Listed in --help order.
SUBCOMMANDS: tuple[str, ...] = (
    "run", "report", "record", "check", "normalize", "emulate", "probe", "evidence",
)


def _registrars() -> list[Callable[[argparse._SubParsersAction], None]]:
    # A missing subcommand module is a packaging bug: let it raise, never hide it.
    return [importlib.import_module(f"conformance.cli.{name}").register for name in SUBCOMMANDS]


# What the suite needs beyond the library (pyproject's `suite` extra), by import name.
SUITE_MODULES = frozenset({"openai", "anthropic", "google", "vcr", "pydantic", "pytest"})


def main(argv: Sequence[str] | None = None) -> int:
    """Exit codes (README, "Exit codes"): 0 clean, 1 violations or failing items, 2 bad
    arguments or unreadable input/profile, 3-7 `probe`'s control failures, 70 a bug."""
    tolerant_streams()
    try:
        parser = build_parser()
    except ModuleNotFoundError as exc:
        if (exc.name or "").split(".")[0] not in SUITE_MODULES:
            raise
        # The library installs alone; the command is the suite's.
        print(f"conformance: {exc.name} is not installed; the command needs the suite: "
              "pip install 'provider-conformance[suite]'", file=sys.stderr)
        return 2
    args = parser.parse_args(argv)
    func: Command | None = getattr(args, "func", None)
    if func is None:
        parser.print_help()
        return 0
    try:
        return func(args)
    except RecursionError:
        print(f"conformance {args.command}: the input nests too deeply to process",
              file=sys.stderr)
        return 2
    except Exception as exc:  # the last net: one line, not a traceback
        if os.environ.get("CONFORMANCE_DEBUG"):
            raise
        print(f"conformance {args.command}: internal error (a bug; rerun with "
              f"CONFORMANCE_DEBUG=1 for the traceback): {type(exc).__name__}: {exc}",
              file=sys.stderr)
        return INTERNAL_ERROR


if __name__ == "__main__":
    sys.exit(main())
