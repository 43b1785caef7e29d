"""`conformance probe`: measure an endpoint's strictness and write its profile.

Either a new endpoint (`--protocol --base-url --model`) or a known provider (`--provider
anthropic`, or one from `--providers-file`): then its protocol, base URL, model and key
variable are the provider's (each flag given overrides it), and the measured profile is
compared with the provider's own (rules gained, lost, changed limits, changed texts).
`--evidence DIR` writes every answer as an evidence file.

Requests to a host other than a loopback address are live: they need `--yes`, or a yes at
the prompt on a terminal (as `conformance run --live`).

Exit status: 0 profile written, every rule measured; 1 profile written, some rules
inconclusive; 2 bad arguments, the key variable is unset, or live requests not confirmed;
3-7 the control request failed (3 unreachable, 4 authentication, 5 endpoint or model not
found, 6 a valid request was rejected, 7 rate-limited / server error / SDK refused).
"""

from __future__ import annotations

import argparse
import re
import sys
from collections.abc import Mapping
from dataclasses import replace
from pathlib import Path
from typing import Any, TextIO
from urllib.parse import urlsplit

from conformance.batch import confirm_live
from conformance.cassettes import scrub_url, scrub_url_secrets
from conformance.classify import Outcome
from conformance.clients import close_clients, send
from conformance.probe.cases import probe_set
from conformance.probe.evidence import evidence_files, loopback, write_evidence
from conformance.probe.measure import measure, profile_diff, today
from conformance.probe.observe import Observation, Send, control, max_requests, requests_listing
from conformance.probe.profile import Probed, profile_yaml, summary_table
from conformance.providers import (
    BUILTIN_PROVIDERS,
    Provider,
    ProvidersFileError,
    key_from,
    load_providers_file,
)
from normalizer.errors import NormalizerError
from normalizer.profiles import Profile, profile_from_mapping
from normalizer.wire import PROTOCOLS


def register(sub: argparse._SubParsersAction) -> None:
    """Add the `probe` subcommand to `sub`."""
    parser = sub.add_parser(
        "probe", help="measure an endpoint's strictness and write its profile",
        description="Send a valid control request, then minimal requests per known rule "
                    "of the protocol (limits found by search), and write the measured profile "
                    "YAML. Exit 0: written; 1: written, some rules inconclusive; 2: bad "
                    "arguments; 3-7: the control request failed (3 unreachable, 4 auth, "
                    "5 not found, 6 rejected, 7 unavailable).")
    parser.add_argument("--provider", metavar="NAME",
                        help="re-measure a known provider (built-in or from --providers-file)")
    parser.add_argument("--providers-file", metavar="YAML", help="more providers, from YAML")
    parser.add_argument("--protocol", choices=PROTOCOLS)
    parser.add_argument("--base-url",
                        help="what the protocol's SDK takes as base URL (OpenAI-style: .../v1)")
    parser.add_argument("--model", help="the model to probe with")
    parser.add_argument("--api-key-env", metavar="VAR",
                        help="environment variable holding the key (none: keyless endpoint)")
    parser.add_argument("--name", help="provider name in the profile (default: from the URL)")
    parser.add_argument("--out", metavar="YAML", help="profile file (default: <name>.yaml)")
    parser.add_argument("--evidence", metavar="DIR",
                        help="write every answer as an evidence file under DIR/<name>/")
    parser.add_argument("--dry-run", action="store_true", help="list the requests, send none")
    parser.add_argument("--yes", action="store_true",
                        help="send requests to a non-loopback host without asking")
    parser.add_argument("--concurrency", type=int, default=2, metavar="N",
                        help="requests in flight at once (default: 2)")
    parser.set_defaults(func=run)


def run(args: argparse.Namespace, out: TextIO | None = None, err: TextIO | None = None) -> int:
    """Probe the endpoint (or list the requests with `--dry-run`) and write its measured profile;
    the exit status (see the module docstring)."""
    out, err = out or sys.stdout, err or sys.stderr
    try:
        args, shipped = resolve(args)
    except (ValueError, NormalizerError) as exc:
        print(f"conformance probe: {exc}", file=err)
        return 2
    probes = probe_set(args.protocol)
    if args.dry_run:
        print(f"dry run: {max_requests(probes)} requests at most to {scrub_url(args.base_url)} "
              f"({args.protocol}, model {args.model}); nothing is sent", file=out)
        print("\n".join(requests_listing(probes, args.model)), file=out)
        return 0
    key = key_from(args.api_key_env or "", keyless=not args.api_key_env)
    if key is None:
        print(f"conformance probe: {args.api_key_env} is not set (or empty); export the key "
              "in that variable, or omit --api-key-env for a keyless endpoint", file=err)
        return 2
    refusal = "" if loopback(args.base_url) else confirm_live(max_requests(probes), args.yes)
    if refusal:
        print(f"conformance probe: {refusal}", file=err)
        return 2
    try:
        return _probe(args, shipped, _sender(args, key), out, err)
    finally:
        close_clients()


def resolve(args: argparse.Namespace) -> tuple[argparse.Namespace, Profile | None]:
    """The arguments with a named provider's protocol, base URL, model and key variable
    filled in where not given, and that provider's profile (None for a new endpoint)."""
    provider = _provider(args.provider, args.providers_file) if args.provider else None
    if provider is not None:
        for field, value in (("protocol", provider.protocol), ("base_url", provider.base_url),
                             ("model", provider.model), ("name", provider.name)):
            if not getattr(args, field):
                setattr(args, field, value)
        if args.api_key_env is None:
            args.api_key_env = provider.api_key_env or None
    missing = [f"--{f.replace('_', '-')}" for f in ("protocol", "base_url", "model")
               if not getattr(args, f)]
    if missing:
        raise ValueError(f"give {', '.join(missing)} (or --provider NAME)")
    if args.concurrency < 1:
        raise ValueError("--concurrency must be at least 1")
    if provider is not None and provider.protocol != args.protocol:
        raise ValueError(f"--protocol {args.protocol}: provider {provider.name} speaks "
                         f"{provider.protocol}")
    args.name = args.name or name_from_url(args.base_url)
    return args, provider.load_profile() if provider is not None else None


def _provider(name: str, providers_file: str | None) -> Provider:
    try:
        known = {**BUILTIN_PROVIDERS, **(load_providers_file(providers_file)
                                         if providers_file else {})}
    except ProvidersFileError as exc:
        raise ValueError(str(exc)) from exc
    if name not in known:
        raise ValueError(f"unknown provider {name!r}; known: {', '.join(known)}")
    return known[name]


def _probe(args: argparse.Namespace, shipped: Profile | None, sender: Send, out: TextIO,
           err: TextIO) -> int:
    probes = probe_set(args.protocol)
    target = Path(args.out or f"{args.name}.yaml")
    print(f"probing {scrub_url(args.base_url)} ({args.protocol}, model {args.model}): "
          "control request", file=out, flush=True)
    failure, answer = control(sender, probes)
    if failure is not None:
        print(f"conformance probe: control request failed: {failure.explain()}", file=err)
        return failure.exit_code
    print(f"control accepted; probing {len(probes.sendable)} rules, "
          f"{args.concurrency} at a time", file=out, flush=True)
    for case in probes.cases:
        if case.unsendable:
            print(f"  {case.rule}: not probed ({case.unsendable})", file=out, flush=True)
    probed = Probed(name=args.name, base_url=scrub_url(args.base_url), model=args.model,
                    date=today())
    found, data = measure(sender, probes, probed, concurrency=args.concurrency,
                          progress=_progress(out))
    try:
        measured = profile_from_mapping(data, source=str(target),  # never write what the
                                        check_detectors=True)
        target.write_text(profile_yaml(data), encoding="utf-8")  # loader would refuse
    except (OSError, NormalizerError) as exc:
        print(f"conformance probe: cannot write {target}: {exc}", file=err)
        return 2
    print("", summary_table(found), f"wrote {target}", sep="\n", file=out)
    if shipped is not None:
        diff = profile_diff(shipped, measured, found, args.model)
        print("\n".join(diff.lines(shipped.provider)), file=out)
    if args.evidence:
        files = evidence_files(found, (probes.control.thaw(), answer), args.protocol, probed)
        written = write_evidence(Path(args.evidence), files, args.name)
        print(f"wrote {len(written)} evidence files under {Path(args.evidence) / args.name}",
              file=out)
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


def name_from_url(base_url: str) -> str:
    """A provider name from the URL's host and port: `127.0.0.1-8700`, `api.acme.example`."""
    parts = urlsplit(base_url)
    label = parts.hostname or "probed"
    if parts.port:
        label = f"{label}-{parts.port}"
    return re.sub(r"[^A-Za-z0-9_.-]", "-", label)
