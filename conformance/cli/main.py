"""The `conformance` command."""

from __future__ import annotations

import argparse
import importlib
import sys
from collections.abc import Callable, Sequence

Command = Callable[[argparse.Namespace], int]


def build_parser() -> argparse.ArgumentParser:
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


def main(argv: Sequence[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    func: Command | None = getattr(args, "func", None)
    if func is None:
        parser.print_help()
        return 0
    return func(args)


if __name__ == "__main__":
    sys.exit(main())
