"""`conformance emulate`: serve the reference emulators on loopback until Ctrl-C."""

from __future__ import annotations

import argparse
import sys
import threading

from conformance.emulator import serve


def register(subparsers: argparse._SubParsersAction) -> None:
    """Add the `emulate` subcommand to `subparsers`."""
    parser = subparsers.add_parser(
        "emulate",
        help="serve loopback emulators that answer like the vendors (until Ctrl-C)",
        description="Start one loopback HTTP server with a path prefix per provider "
                    "(http://HOST:PORT/<provider>) answering like the vendor: check() "
                    "decides, the first violation answers with the vendor's status and error "
                    "JSON, a clean request gets a small valid reply. Any API key is accepted "
                    "and never logged.",
    )
    parser.add_argument("--provider", action="append", dest="providers", metavar="P",
                        help="a built-in provider or a profile YAML path (repeatable; "
                             "default: every built-in provider that has a profile)")
    parser.add_argument("--host", default="127.0.0.1",
                        help="address to bind (default 127.0.0.1; keep it on loopback)")
    parser.add_argument("--port", type=_port, default=0, help="port (default 0: any free port)")
    parser.add_argument("--quiet", action="store_true", help="do not log each request")
    parser.set_defaults(func=run)


def run(args: argparse.Namespace, *, stop: threading.Event | None = None) -> int:
    """Serve until Ctrl-C (or until `stop` is set, for tests)."""
    log = None if args.quiet else _log
    try:
        with serve(args.providers, host=args.host, port=args.port, log=log) as emu:
            width = max([18, *map(len, emu)])
            for provider in emu:
                print(f"{provider:<{width}} {emu.protocol(provider):<17} "
                      f"{emu.sdk_base_url(provider)}", flush=True)
            for provider, reason in sorted(emu.skipped.items()):
                print(f"skipped {provider}: {reason}", file=sys.stderr)
            if not emu:
                print("conformance emulate: no provider can be served (see above)",
                      file=sys.stderr)
                return 1
            print("serving; Ctrl-C to stop", file=sys.stderr, flush=True)
            (stop or threading.Event()).wait()
    except KeyboardInterrupt:
        print("stopped", file=sys.stderr)
    except (OSError, ValueError, LookupError) as exc:
        print(f"conformance emulate: {exc}", file=sys.stderr)
        return 2
    return 0


def _port(text: str) -> int:
    """The argparse type of `--port`: a TCP port, 0-65535 (0: any free port)."""
    try:
        port = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a port number") from None
    if not 0 <= port <= 65535:
        raise argparse.ArgumentTypeError(f"{port} is not a port (0-65535)")
    return port


def _log(line: str) -> None:
    print(line, file=sys.stderr, flush=True)
