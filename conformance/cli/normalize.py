"""`conformance normalize FILE --from PROTOCOL --to PROVIDER [--budget N] [--model M]
[--deployment D] [--on YYYY-MM-DD]`: repair a request body (or a scenario's history) for a
provider and print the repaired body and the report. Goes through the library's one
request-level path (`normalizer.normalize_request`: split, then `normalize_parts`): the body's
tools, options and model are carried. `--deployment` (Azure OpenAI) is the name the body
sends as its model; `--model` then says which model's rules apply.

Output (stdout, JSON): {"provider", "protocol", "body", "changes": [{pass, code, what, where,
lossless}], "id_map", "name_map", "key_map", "unrepaired": [{rule, location, status, message,
...}]}.
`unrepaired` is what check() still finds in the repaired body, for the model it was repaired
for: a refusal normalize has no repair for, or one it would not make on a guess (a rule for
some models only, the model not given); each is also named on stderr. Exit status: 0
repaired (or nothing to repair; `unrepaired` says what is left); 2 unreadable input, unknown
protocol or provider, or a body that is not a valid request.
"""

from __future__ import annotations

import argparse
import sys
from typing import Any

from conformance.bodies import change_json
from conformance.cli.check import day, read_body, violation_json
from conformance.cli.output import dump_json
from normalizer.check import check
from normalizer.errors import NormalizerError
from normalizer.passes import Policy
from normalizer.profiles import load_profile
from normalizer.request import NormalizedRequest, RequestParts, normalize_parts, split_request
from normalizer.window import Budget
from normalizer.wire import PROTOCOLS


def register(sub: argparse._SubParsersAction) -> None:
    """Add the `normalize` subcommand to `sub`."""
    parser = sub.add_parser(
        "normalize", help="repair a request body or scenario for a provider",
        description="Repair a chat history for a provider with the least loss, and print the "
                    "request body, every change, and what check() still finds in it "
                    "(unrepaired) as JSON. Exit 0: done; 2: unreadable input.")
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
    parser.add_argument("--model", help="the model for the rendered body, whose rules apply")
    parser.add_argument("--deployment", help="the name the body sends as its model where that "
                                             "is not the model's (Azure OpenAI: the "
                                             "deployment); --model then says whose rules apply")
    parser.add_argument("--on", metavar="YYYY-MM-DD", type=day,
                        help="the date the request is for (default today): rules scoped by "
                             "date (since/until) follow it")
    parser.add_argument("--orphan-results", choices=("keep-as-text", "drop"),
                        default="keep-as-text")
    parser.add_argument("--unanswered-calls", choices=("synthesize", "drop"),
                        default="synthesize")
    parser.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    """Repair the file's history for `--to` and print the body and the report as JSON; the exit
    status (0 done, 2 unreadable input, unknown protocol or provider, or an invalid request)."""
    try:
        parts, protocol = _read(args.file, args.source, args.target)
        policy = Policy(orphan_results=args.orphan_results,
                        unanswered_calls=args.unanswered_calls)
        result = normalize_parts(parts, protocol, args.target, model=args.model,
                                 deployment=args.deployment, budget=_budget(args),
                                 policy=policy, on=args.on)
        # Without --model the repaired body names the model its rules were read for (Gemini:
        # none, in the URL).
        left = check(result.body, args.target, model=args.model, on=args.on)
        text = dump_json({**report(result), "unrepaired": [violation_json(v) for v in left]},
                         indent=2, ensure_ascii=False)
    except (ValueError, NormalizerError) as exc:
        print(f"conformance normalize: {exc}", file=sys.stderr)
        return 2
    print(text)
    for v in left:
        print(f"conformance normalize: not repaired: {v.rule} at {v.location}: {v.message}",
              file=sys.stderr)
    return 0


def _budget(args: argparse.Namespace) -> Budget | None:
    if args.budget is None and args.token_budget is None:
        return None
    return Budget(messages=args.budget, tokens=args.token_budget)


def _read(name: str, source: str | None, target: str) -> tuple[RequestParts, str]:
    """The request split into its parts, and its protocol: the file's body (through
    `split_request`, as `normalize_request` does), or a scenario's history and tools (taken
    as written in the target's protocol)."""
    if name.endswith((".yaml", ".yml")):
        return _read_scenario(name, target)
    if source is None:
        raise ValueError(f"{name}: say which protocol the body is in with --from "
                         f"({', '.join(PROTOCOLS)})")
    body = read_body(name)
    if not isinstance(body.get("tools", []), list):
        raise ValueError(f"{name}: tools: expected a list")
    return split_request(body, source), source


def _read_scenario(name: str, target: str) -> tuple[RequestParts, str]:
    from conformance.scenarios.load import ScenarioError, load_scenario

    try:
        scenario = load_scenario(name)
    except ScenarioError as exc:
        raise ValueError(str(exc)) from exc
    # A recorded stream is assembled from its events directly: no SDK, no server.
    from conformance.scenarios.replay import offline_history

    history = offline_history(scenario)
    return RequestParts(history, scenario.tools), load_profile(target).protocol


def report(result: NormalizedRequest) -> dict[str, Any]:
    """The JSON `normalize` prints: provider, protocol, the repaired body, every change, and the
    id, name and property-name maps."""
    return {"provider": result.provider, "protocol": result.protocol,
            "body": result.body, "changes": [change_json(c) for c in result.changes],
            "id_map": result.id_map.thaw(), "name_map": result.name_map.thaw(),
            "key_map": result.key_map.thaw()}

