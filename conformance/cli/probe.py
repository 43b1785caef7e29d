"""`conformance probe`: measure an unprofiled endpoint's strictness and write its profile.

Exit status: 0 profile written, every rule measured; 1 profile written, some rules
inconclusive; 2 bad arguments or the key variable is unset; 3-7 the control request failed
(3 unreachable, 4 authentication, 5 endpoint or model not found, 6 a valid request was
rejected, 7 rate-limited / server error / SDK refused).
"""

from __future__ import annotations

import argparse
import datetime as dt
import os
import re
import sys
from collections.abc import Mapping
from dataclasses import replace
from pathlib import Path
from typing import Any, TextIO
from urllib.parse import urlsplit

from conformance.cassettes import scrub_url, scrub_url_secrets
from conformance.classify import Outcome
from conformance.clients import close_clients, send
from conformance.probe.cases import probe_set
from conformance.probe.observe import (
    Observation,
    Send,
    check_control,
    observe_all,
    requests_listing,
)
from conformance.probe.profile import Probed, attribute, profile_data, profile_yaml, summary_table
from normalizer.errors import NormalizerError
from normalizer.profiles import profile_from_mapping
from normalizer.wire import PROTOCOLS

NO_KEY = "conformance-probe-no-key"  # SDKs insist on some key; keyless servers ignore it


def register(sub: argparse._SubParsersAction) -> None:
    parser = sub.add_parser(
        "probe", help="measure an endpoint's strictness and write its profile",
        description="Send a valid control request, then one minimal request per known rule "
                    "of the protocol, and write the measured profile YAML. Exit 0: written; "
                    "1: written, some rules inconclusive; 2: bad arguments; 3-7: the control "
                    "request failed (3 unreachable, 4 auth, 5 not found, 6 rejected, "
                    "7 unavailable).")
    parser.add_argument("--protocol", required=True, choices=PROTOCOLS)
    parser.add_argument("--base-url", required=True,
                        help="what the protocol's SDK takes as base URL (OpenAI-style: .../v1)")
    parser.add_argument("--model", required=True, help="the model to probe with")
    parser.add_argument("--api-key-env", metavar="VAR",
                        help="environment variable holding the key (none: keyless endpoint)")
    parser.add_argument("--name", help="provider name in the profile (default: from the URL)")
    parser.add_argument("--out", metavar="YAML", help="profile file (default: <name>.yaml)")
    parser.add_argument("--dry-run", action="store_true", help="list the requests, send none")
    parser.add_argument("--concurrency", type=int, default=2, metavar="N",
                        help="requests in flight at once (default: 2)")
    parser.set_defaults(func=run)


def run(args: argparse.Namespace, out: TextIO | None = None, err: TextIO | None = None) -> int:
    out, err = out or sys.stdout, err or sys.stderr
    probes = probe_set(args.protocol)
    name = args.name or name_from_url(args.base_url)
    if args.concurrency < 1:
        print("conformance probe: --concurrency must be at least 1", file=err)
        return 2
    if args.dry_run:
        print(f"dry run: {1 + 2 * len(probes.sendable)} requests at most to "
              f"{scrub_url(args.base_url)} "
              f"({args.protocol}, model {args.model}); nothing is sent", file=out)
        print("\n".join(requests_listing(probes, args.model)), file=out)
        return 0
    key = _key(args.api_key_env)
    if key is None:
        print(f"conformance probe: {args.api_key_env} is not set (or empty); export the key "
              "in that variable, or omit --api-key-env for a keyless endpoint", file=err)
        return 2
    target = Path(args.out or f"{name}.yaml")
    try:
        return _probe(args, name, target, _sender(args, key), out, err)
    finally:
        close_clients()


def _probe(args: argparse.Namespace, name: str, target: Path, sender: Send, out: TextIO,
           err: TextIO) -> int:
    probes = probe_set(args.protocol)
    print(f"probing {scrub_url(args.base_url)} ({args.protocol}, model {args.model}): "
          "control request", file=out, flush=True)
    failure = check_control(sender, probes)
    if failure is not None:
        print(f"conformance probe: control request failed: {failure.explain()}", file=err)
        return failure.exit_code
    print(f"control accepted; probing {len(probes.sendable)} rules, "
          f"{args.concurrency} at a time", file=out, flush=True)
    for case in probes.cases:
        if case.unsendable:
            print(f"  {case.rule}: not probed ({case.unsendable})", file=out, flush=True)
    seen = observe_all(sender, probes, concurrency=args.concurrency,
                       progress=_progress(out))
    found = attribute(seen, probes, args.model)
    probed = Probed(name=name, base_url=scrub_url(args.base_url), model=args.model,
                    date=dt.datetime.now(dt.UTC).date().isoformat())
    data = profile_data(found, probes, probed)
    try:
        profile_from_mapping(data, source=str(target))  # never write what the loader refuses
        target.write_text(profile_yaml(data), encoding="utf-8")
    except (OSError, NormalizerError) as exc:
        print(f"conformance probe: cannot write {target}: {exc}", file=err)
        return 2
    print("", summary_table(found), f"wrote {target}", sep="\n", file=out)
    return 1 if any(o.finding == "inconclusive" for o in found) else 0


def _progress(out: TextIO) -> Any:
    def show(found: Observation) -> None:
        print(f"  {found.rule}: {found.finding}", file=out, flush=True)
    return show


def _sender(args: argparse.Namespace, key: str) -> Send:
    def sender(body: Mapping[str, Any]) -> Outcome:
        got = send(args.protocol, base_url=args.base_url, api_key=key, model=args.model,
                   body=body)
        # Credentials inside --base-url never reach the written profile or a message.
        return replace(got, body=scrub_url_secrets(got.body, args.base_url),
                       detail=scrub_url_secrets(got.detail, args.base_url))
    return sender


def _key(variable: str | None) -> str | None:
    if not variable:
        return NO_KEY
    return os.environ.get(variable) or None


def name_from_url(base_url: str) -> str:
    """A provider name from the URL's host and port: `127.0.0.1-8700`, `api.acme.example`."""
    parts = urlsplit(base_url)
    label = parts.hostname or "probed"
    if parts.port:
        label = f"{label}-{parts.port}"
    return re.sub(r"[^A-Za-z0-9_.-]", "-", label)
