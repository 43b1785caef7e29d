"""`conformance check FILE --provider P`: lint a request body against a provider's profile.

Exit status: 0 no violation, 1 violations found, 2 unreadable input or unknown provider.
"""

from __future__ import annotations

import argparse
import datetime as dt
import sys
from typing import Any

from conformance.cli.jsonin import load_json, read_text
from conformance.cli.output import dump_json
from normalizer.check import Violation, check
from normalizer.errors import NormalizerError
from normalizer.profiles import PROVIDERS, load_profile
from normalizer.scope import known_model


def register(sub: argparse._SubParsersAction) -> None:
    """Add the `check` subcommand to `sub`."""
    parser = sub.add_parser(
        "check", help="check a request body against a provider's rules",
        description="Check a request body (JSON, as the SDK would send it) against a "
                    "provider's strictness profile. Exit 0: accepted; 1: violations; "
                    "2: unreadable input.")
    parser.add_argument("file", help="JSON request body file, or - for standard input")
    target = parser.add_mutually_exclusive_group(required=True)
    target.add_argument("--provider", choices=PROVIDERS, help="a built-in provider")
    target.add_argument("--profile", help="a profile YAML file (e.g. written by `probe`)")
    parser.add_argument("--model", help="the model the request is for (Gemini: it is not in "
                                        "the body); defaults to the body's `model`")
    parser.add_argument("--on", metavar="YYYY-MM-DD", type=day,
                        help="the date the request is for (default today): rules scoped by "
                             "date (since/until) follow it")
    parser.add_argument("--json", action="store_true", help="print violations as JSON")
    parser.set_defaults(func=run)


def read_body(name: str) -> dict[str, Any]:
    """The JSON object in file `name` (or stdin for '-'); ValueError says what is wrong."""
    label = "standard input" if name == "-" else name
    body = load_json(read_text(name), label)
    if not isinstance(body, dict):
        raise ValueError(f"{label}: expected a JSON object (a request body), "
                         f"got {type(body).__name__}")
    return body


def day(text: str) -> dt.date:
    """`text` (YYYY-MM-DD) as a date, for argparse's `type=`."""
    try:
        return dt.date.fromisoformat(text)
    except ValueError as exc:
        raise argparse.ArgumentTypeError(f"{text!r} is not a date YYYY-MM-DD") from exc


def run(args: argparse.Namespace) -> int:
    """Check the body against the provider's profile and print the violations (a summary, or JSON
    with `--json`); the exit status (0 clean, 1 violations, 2 unreadable input or profile)."""
    try:
        body = read_body(args.file)
        profile = load_profile(args.profile or args.provider)
        found = check(body, profile, model=args.model, on=getattr(args, "on", None))
    except (ValueError, NormalizerError) as exc:
        print(f"conformance check: {exc}", file=sys.stderr)
        return 2
    if args.json:
        print(dump_json([violation_json(v) for v in found], indent=2, ensure_ascii=False))
    else:
        print(summary(found, profile.provider))
    guessed = [] if known_model(args.model or body.get("model")) else \
        _for_some_models(found, profile)
    if guessed:
        print(f"conformance check: no model given (--model), so rules that hold for some "
              f"models only were applied, as the vendor may enforce them: {', '.join(guessed)}",
              file=sys.stderr)
    return 1 if found else 0


def _for_some_models(found: tuple[Violation, ...], profile: Any) -> list[str]:
    """The rules among `found` that the profile scopes to some models (a guess without one)."""
    scoped = {rule.id for rule in profile.rules if rule.models}
    return sorted({v.rule for v in found if v.rule in scoped})


def violation_json(v: Violation) -> dict[str, Any]:
    """One violation as the plain JSON `check --json` prints."""
    return {"rule": v.rule, "location": v.location, "status": v.status, "message": v.message,
            "error": v.error.thaw(), "confidence": v.confidence, "source": v.source}


def summary(found: tuple[Violation, ...], provider: str) -> str:
    """The violations as text, one per rule with its location, status, vendor message and source
    (the vendor answers with the first)."""
    if not found:
        return f"{provider}: no violation"
    lines = [f"{provider}: {len(found)} violation(s); the vendor would answer with the first:"]
    for v in found:
        lines.append(f"  {v.location}: [{v.rule}] HTTP {v.status}: {v.message}")
        lines.append(f"      source: {v.source} (confidence {v.confidence})")
    return "\n".join(lines)
