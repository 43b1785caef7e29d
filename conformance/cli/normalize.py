"""`conformance normalize FILE --from PROTOCOL --to PROVIDER [--budget N]`: repair a request
body (or a scenario's history) for a provider and print the repaired body and the report.

Output (stdout, JSON): {"provider", "protocol", "body", "changes": [{pass, code, what, where,
lossless}], "id_map", "name_map"}. Exit status: 0 repaired (or nothing to repair); 2
unreadable input, unknown protocol or provider, or a body that is not a valid request.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Mapping
from typing import Any

from conformance.bodies import change_json
from conformance.cli.check import read_body
from conformance.cli.output import dump_json
from normalizer.errors import NormalizerError
from normalizer.model import History, ToolSpec
from normalizer.normalize import Normalized, normalize
from normalizer.passes import Policy
from normalizer.tools import parse_declarations
from normalizer.window import Budget
from normalizer.wire import PROTOCOLS, parse

# Request fields a protocol's parse reads (history, tools, model); every other top-level
# field of the input is a request option, carried over when the protocol stays the same.
_READ = {"messages", "tools", "model", "system", "contents", "systemInstruction",
         "system_instruction", "input", "instructions"}


def register(sub: argparse._SubParsersAction) -> None:
    parser = sub.add_parser(
        "normalize", help="repair a request body or scenario for a provider",
        description="Repair a chat history for a provider with the least loss, and print the "
                    "request body and every change as JSON. Exit 0: done; 2: unreadable input.")
    parser.add_argument("file", help="a JSON request body (or - for standard input), or a "
                                     "scenario YAML file")
    parser.add_argument("--from", dest="source", choices=PROTOCOLS,
                        help="the protocol of the input body (not needed for a scenario)")
    parser.add_argument("--to", dest="target", required=True,
                        help="a built-in provider name, or a profile YAML file")
    parser.add_argument("--budget", type=int, metavar="N",
                        help="keep at most N messages (never splitting a call from its results)")
    parser.add_argument("--token-budget", type=int, metavar="N",
                        help="keep at most about N tokens (offline estimate)")
    parser.add_argument("--model", help="the model for the rendered body")
    parser.add_argument("--orphan-results", choices=("keep-as-text", "drop"),
                        default="keep-as-text")
    parser.add_argument("--unanswered-calls", choices=("synthesize", "drop"),
                        default="synthesize")
    parser.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    try:
        history, tools, protocol, options = _read(args.file, args.source)
        policy = Policy(orphan_results=args.orphan_results,
                        unanswered_calls=args.unanswered_calls)
        result = normalize(history, args.target, tools=tools, budget=_budget(args),
                           policy=policy, model=args.model)
        same = protocol == result.profile.protocol
        body = result.render(model=args.model, options=options if same else None)
        text = dump_json(report(result, body), indent=2, ensure_ascii=False)
    except (ValueError, NormalizerError) as exc:
        print(f"conformance normalize: {exc}", file=sys.stderr)
        return 2
    print(text)
    return 0


def _budget(args: argparse.Namespace) -> Budget | None:
    if args.budget is None and args.token_budget is None:
        return None
    return Budget(messages=args.budget, tokens=args.token_budget)


def _read(name: str, source: str | None) -> tuple[History, tuple[ToolSpec, ...], str | None,
                                                  dict[str, Any]]:
    if name.endswith((".yaml", ".yml")):
        return _read_scenario(name)
    if source is None:
        raise ValueError(f"{name}: say which protocol the body is in with --from "
                         f"({', '.join(PROTOCOLS)})")
    body = read_body(name)
    history = parse(body, source)
    declared = body.get("tools") or []
    if not isinstance(declared, list):
        raise ValueError(f"{name}: tools: expected a list")
    tools = parse_declarations(declared, source)
    return history, tools, source, {k: v for k, v in body.items() if k not in _READ}


def _read_scenario(name: str) -> tuple[History, tuple[ToolSpec, ...], None, dict[str, Any]]:
    from conformance.scenarios.load import ScenarioError, load_scenario

    try:
        scenario = load_scenario(name)
    except ScenarioError as exc:
        raise ValueError(str(exc)) from exc
    # A recorded stream is assembled from its events directly: no SDK, no server.
    from conformance.scenarios.replay import offline_history

    return offline_history(scenario), scenario.tools, None, {}


def report(result: Normalized, body: Mapping[str, Any]) -> dict[str, Any]:
    return {"provider": result.profile.provider, "protocol": result.profile.protocol,
            "body": body, "changes": [change_json(c) for c in result.changes],
            "id_map": result.id_map.thaw(), "name_map": result.name_map.thaw()}

