"""`normalize_request(body, from_protocol, to_provider)`: a whole request body, as an app
would send it to one vendor, repaired for another provider (or the same one), with every
change reported. The one path the command line, the conformance harness and the README use.

The body is split into its history (`parse`), its tool declarations, its model and its
other options. Function declarations are parsed into ToolSpecs (never replaced by stubs);
other declarations (hosted tools: web search, code execution, ...) are kept verbatim for the
same protocol and dropped with a lossy change for another. Options are kept verbatim for the
same protocol and converted through `normalizer.options` for another (an option without a
counterpart is dropped, lossy). The body's model is kept when the protocol stays the same (or
moves between OpenAI's two), unless `model` is given; otherwise the target's default model
is named, with a change (also where the body named none: a Gemini body names it in the URL).
A Responses body that names no model (a stored `prompt` names it) gets none for Responses.
Then `normalize` runs with the options, and the result is rendered.

`deployment` (Azure OpenAI, whose body names a deployment) is what the body sends as its
`model`, while `model` says whose rules apply: `model="gpt-5-mini", deployment="prod-chat"`
sends "prod-chat". Without `model`, rules are read off the deployment's name, as Azure does.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

from normalizer.errors import WireFormatError
from normalizer.model import EMPTY, Change, History, JsonMap, Thinking, ToolSpec, thaw
from normalizer.normalize import Normalized, normalize
from normalizer.options import convert
from normalizer.passes import Policy
from normalizer.passes.cache_breakpoints import RULE as CACHE_RULE
from normalizer.passes.cache_breakpoints import (
    TTL_RULE,
    drop_tool_breakpoints,
    marks,
    shorten_body_ttls,
    tool_marked,
)
from normalizer.passes.cached_content import RULE as CACHED_RULE
from normalizer.passes.cached_content import without_prompt_fields
from normalizer.passes.options import without_json_type, without_refused_json_format
from normalizer.passes.tool_combination import fit_tool_combination
from normalizer.profiles import Profile, load_profile
from normalizer.protocols import FACTS, REFERENCE_PROVIDER
from normalizer.request_naming import name_model
from normalizer.scope import scoped
from normalizer.tool_combination import tools_counted
from normalizer.tools import parse_declarations
from normalizer.window import Budget
from normalizer.wire import parse

# Top-level fields each protocol's parse reads (the history and the system prompt); with
# `tools` and `model`, everything else in a body is a request option.
HISTORY_FIELDS: dict[str, frozenset[str]] = {
    "openai_chat": frozenset({"messages"}),
    "openai_responses": frozenset({"input", "instructions"}),
    "anthropic": frozenset({"messages", "system"}),
    "gemini": frozenset({"contents", "systemInstruction", "system_instruction"}),
}

JSON_RULE = "response-format-with-tools"


@dataclass(frozen=True, slots=True)
class NormalizedRequest:
    """The request body for the provider, every change made on the way (options and
    declarations included), and the id, tool-name and (per tool) property-name maps
    (new -> original)."""

    body: dict[str, Any]
    changes: tuple[Change, ...]
    provider: str
    protocol: str
    id_map: JsonMap = EMPTY
    name_map: JsonMap = EMPTY
    key_map: JsonMap = EMPTY


@dataclass(frozen=True, slots=True)
class RequestParts:
    """A request body split into what normalize works on: the history, the function
    declarations, the other options, the model, and the declarations kept verbatim
    (hosted tools; `declared` is the body's whole `tools` value, when it had one)."""

    history: History
    tools: tuple[ToolSpec, ...] = ()
    options: Mapping[str, Any] = field(default_factory=dict)
    model: str | None = None
    hosted: tuple[Any, ...] = ()
    declared: Any = None


def split_request(body: Mapping[str, Any], protocol: str) -> RequestParts:
    """`body` (a request in `protocol`) -> its parts. Raises WireFormatError for a body that
    is not a request of the protocol."""
    tools, hosted = _declarations(body, protocol)
    options = request_options(body, protocol)
    model = body.get("model")
    return RequestParts(parse(body, protocol), tools, options,
                        model if isinstance(model, str) else None, tuple(hosted),
                        body.get("tools"))


def request_options(body: Mapping[str, Any], protocol: str) -> dict[str, Any]:
    """The options of `body` (a request in `protocol`): every field but the history, the
    declarations and the model. `tools: null` or `[]` declares nothing: an option like any
    other."""
    return {k: v for k, v in body.items()
            if k not in HISTORY_FIELDS[protocol] | {"tools", "model"}
            or (k == "tools" and v in _NO_TOOLS)}


def normalize_request(
    body: Mapping[str, Any],
    from_protocol: str,
    to_provider: str | Path | Profile,
    *,
    model: str | None = None,
    deployment: str | None = None,
    budget: Budget | int | None = None,
    policy: Policy | None = None,
    on: dt.date | str | None = None,
) -> NormalizedRequest:
    """Repair `body` (a request in `from_protocol`) for `to_provider`; see the module
    docstring. `on`: the day whose rules apply (default today; rules may be scoped by date).
    Raises WireFormatError for a body that is not a request of the protocol, ValueError for a
    `deployment` with a Gemini target (its model is in the URL).

    A body in the target's own protocol is taken as written for the target: its reasoning
    is the target's own (`as_targets_own`)."""
    parts = split_request(body, from_protocol)
    profile = load_profile(to_provider)
    if profile.protocol == from_protocol:
        parts = replace(parts, history=as_targets_own(parts.history, profile))
    return normalize_parts(parts, from_protocol, profile, model=model, deployment=deployment,
                           budget=budget, policy=policy, on=on)


def as_targets_own(history: History, profile: Profile) -> History:
    """`history` with the reasoning its parser labelled with the protocol's reference vendor
    (a Responses reasoning item reads as OpenAI's) labelled as `provider`'s. A body names no
    author: one in xAI's or DeepSeek's Responses wire was most likely written for that
    vendor, and reasoning dropped as another vendor's is lost for good. A history whose
    messages name their origin (a scenario's) keeps it: `normalize_parts` takes it as is."""
    label, provider = REFERENCE_PROVIDER[profile.protocol], profile.provider
    if label == provider:
        return history
    messages = list(history.messages)
    for i, message in enumerate(messages):
        if not any(isinstance(p, Thinking) and p.vendor == label for p in message.parts):
            continue
        messages[i] = message.with_parts(tuple(
            replace(p, vendor=provider) if isinstance(p, Thinking) and p.vendor == label
            else p for p in message.parts))
    return replace(history, messages=tuple(messages))


def normalize_parts(
    parts: RequestParts,
    from_protocol: str,
    to_provider: str | Path | Profile,
    *,
    model: str | None = None,
    deployment: str | None = None,
    budget: Budget | int | None = None,
    policy: Policy | None = None,
    on: dt.date | str | None = None,
) -> NormalizedRequest:
    """`normalize_request` after the split: for a caller that holds the history already
    (the conformance harness builds it from a scenario) and so skips a parse."""
    # The rules of the day only: a rule's copies are scoped apart by date, and the steps
    # after `normalize` read a profile's first copy of a rule (normalize scopes its own).
    profile = scoped(load_profile(to_provider), on=on)
    target = profile.protocol
    same = target == from_protocol
    options, hosted = dict(parts.options), parts.hosted
    changes: list[Change] = []
    no_tools = "tools" in options and options["tools"] in _NO_TOOLS  # declares nothing
    nothing = options.pop("tools") if no_tools else None
    left_out = _tools_left_out(nothing, same, profile) if no_tools else None
    if not same:
        changes += [left_out] if left_out else []
        options, dropped = convert(options, from_protocol, target)
        changes += dropped
        changes += [hosted_dropped(d, target) for d in hosted]
        hosted = ()
    naming = name_model(parts.model, from_protocol, profile, model, deployment)
    changes += naming.changes
    chosen, sent, unnamed, named = naming.chosen, naming.sent, naming.unnamed, naming.named
    tools, shadowed = _unshadowed(parts.tools, hosted, profile)
    changes += shadowed
    fixed = normalize(parts.history, _declaring(profile, hosted), tools=tools, budget=budget,
                      policy=policy, model=named, options=options, on=on)
    out = fixed.render(model=sent or profile.default_model)
    if target == "gemini" or (sent is None and not unnamed):
        out.pop("model", None)  # in Gemini's URL; in a Responses body's stored prompt
    _put_tools(out, parts, fixed, hosted, same)
    if profile.enforces(CACHED_RULE):  # hosted declarations, sent as they came
        out, more = without_prompt_fields(out)
        changes += more
    if hosted:  # built-in tools sent as they came, which the passes did not see
        out, more = _fit_hosted(out, profile, chosen, named)
        changes += more
    if tool_marked(out.get("tools")):  # declarations sent as they came, with cache marks
        out, more = _fit_tool_marks(out, profile, fixed)
        changes += more
    if same and no_tools and "tools" not in out:
        if left_out:
            changes.append(left_out)
        else:
            out["tools"] = nothing
    return NormalizedRequest(out, (*changes, *fixed.changes), profile.provider, target,
                             fixed.id_map, fixed.name_map, fixed.key_map)


def _fit_hosted(out: dict[str, Any], profile: Profile, chosen: str | None,
                named: str | None) -> tuple[dict[str, Any], tuple[Change, ...]]:
    """The rules on built-in tools, which the passes did not see: Gemini's built-in tools
    beside functions; a Chat JSON response format beside tools that may be built-in ones
    only (Groq's browser_search; drop_json_response_type_with_tools saw functions only)."""
    if profile.protocol == "gemini":
        out, changes = fit_tool_combination(out, profile, chosen)
        built_in = next((r for r in profile.rules if r.id == JSON_RULE and r.enforced
                         and r.params.get("tools") == "built_in"
                         and r.applies_to(named, when_unknown=True)), None)
        if built_in is None or not tools_counted(out, built_in.params):
            return out, changes
        out, change = without_json_type(out, tuple(built_in.params.get("mime_types")
                                                   or ("application/json",)),
                                        beside="a built-in tool")
        return out, (*changes, change) if change else changes
    rule = profile.rule(JSON_RULE)
    if profile.protocol != "openai_chat" or rule is None or not rule.enforced \
            or not rule.applies_to(named, when_unknown=True):
        return out, ()
    out, change = without_refused_json_format(out, rule.params)
    return out, (change,) if change else ()


def _fit_tool_marks(out: dict[str, Any], profile: Profile,
                    fixed: Normalized) -> tuple[dict[str, Any], tuple[Change, ...]]:
    """The cache rules for the marks of tool declarations, which come first in the prompt
    and are not in the history the passes saw: the earliest go past the limit, and a
    one-hour mark after a tool's five-minute one lasts five minutes."""
    changes: tuple[Change, ...] = ()
    limit = profile.param(CACHE_RULE, "max_items")
    if limit is not None:
        tools, changes = drop_tool_breakpoints(out["tools"], marks(fixed.history.messages),
                                               int(limit))
        out = {**out, "tools": tools}
    if profile.enforces(TTL_RULE):
        out, more = shorten_body_ttls(out)
        changes += more
    return out, changes


def _declarations(body: Mapping[str, Any],
                  protocol: str) -> tuple[tuple[ToolSpec, ...], list[Any]]:
    """The body's function declarations as ToolSpecs, and its other declarations."""
    declared = body.get("tools")
    if declared is None:
        return (), []
    if protocol == "gemini" and isinstance(declared, Mapping):
        # Google's JSON mapping takes one object for a repeated field (skeleton.py says
        # where a recorded request with one tool object was accepted).
        declared = [declared]
    if not isinstance(declared, list):
        raise WireFormatError("tools", "expected an array")
    functions = [d for d in declared if _is_function(d, protocol)]
    hosted = [d for d in declared if not _is_function(d, protocol)]
    return parse_declarations(functions, protocol), hosted


def _is_function(decl: Any, protocol: str) -> bool:
    if not isinstance(decl, Mapping):
        return True  # parse_declarations names the place
    if protocol in ("openai_chat", "openai_responses"):
        return decl.get("type", "function") == "function"
    if protocol == "anthropic":
        return decl.get("type") in (None, "custom")
    return "functionDeclarations" in decl or "function_declarations" in decl


def _declaring(profile: Profile, hosted: tuple[Any, ...]) -> Profile:
    """The profile to repair with: where the request keeps hosted declarations (Anthropic's
    memory tool, whose calls are client tool_use blocks named `memory`), it declares tools,
    so tools-not-declared cannot hold, and declaring the history's tools again would give
    two tools of one name; nor can a tool option be without tools (a tool_choice beside
    a kept web_search stays)."""
    # Gemini's function-calling config asks for function declarations, not any tool.
    lifted = _DECLARED_BY_HOSTED - ({"tool-choice-without-tools"}
                                    if profile.protocol == "gemini" else set())
    if not hosted or not any(profile.enforces(r) for r in lifted):
        return profile
    return replace(profile, rules=tuple(r for r in profile.rules if r.id not in lifted))


_DECLARED_BY_HOSTED = frozenset({"tools-not-declared", "tool-choice-without-tools",
                                 "parallel-tool-calls-without-tools"})


def _unshadowed(tools: tuple[ToolSpec, ...], hosted: tuple[Any, ...],
                profile: Profile) -> tuple[tuple[ToolSpec, ...], list[Change]]:
    """The function declarations without those named as a hosted tool the request keeps
    (Anthropic: a custom `web_search` beside the server tool `web_search`), where the
    target refuses two tools of one name (rule duplicate-tool-name); the hosted tool stays,
    as the history's server blocks name it."""
    names = {d.get("name") for d in hosted if isinstance(d, Mapping)} - {None}
    if not names or not profile.enforces("duplicate-tool-name"):
        return tools, []
    kept = tuple(t for t in tools if t.name not in names)
    return kept, [Change("normalize_request", "drop-duplicate-tool",
                         f"dropped the declaration of function {t.name!r}: the request also "
                         f"declares the hosted tool {t.name!r}, and the target refuses two "
                         "tools of one name", "tools", False)
                  for t in tools if t.name in names]


def hosted_dropped(decl: Any, target: str) -> Change:
    """The change that says a hosted tool declaration was left out for `target`."""
    kind = decl.get("type") or decl.get("name") or next(iter(decl), "?") \
        if isinstance(decl, Mapping) else "?"
    return Change("normalize_request", "drop-hosted-tool",
                  f"dropped the declaration of hosted tool {kind!r}: {target} has no such "
                  "tool", "tools", False)


_NO_TOOLS = (None, [])


def _tools_left_out(value: Any, same: bool, profile: Profile) -> Change | None:
    """The change for a `tools` that declares nothing (null or []) when it is left out
    (lossless: it held nothing): across protocols, and where the target refuses it. None
    where it goes back as sent."""
    code = "drop-option"
    if not same:
        why = "it declares nothing"
    elif value == [] and profile.enforces("empty-tools"):
        why, code = "the target rejects an empty array", "drop-empty-tools"
    elif value is None and not FACTS[profile.protocol].null_tools_taken:
        why = "not seen accepted on this wire"
    else:
        return None
    spelled = "null" if value is None else "[]"
    return Change("normalize_request", code, f"dropped request option 'tools': {spelled} "
                  f"({why})", "tools", True)


def _put_tools(out: dict[str, Any], parts: RequestParts, fixed: Normalized,
               hosted: tuple[Any, ...], same: bool) -> None:
    """Same protocol and declarations untouched: the body's own `tools`, verbatim (byte
    faithfulness: declarations are part of the prompt cache key). Otherwise the rendered
    function declarations, then the hosted ones."""
    if same and fixed.tools == parts.tools and parts.declared not in _NO_TOOLS:
        out["tools"] = thaw(parts.declared)
    elif hosted:
        out["tools"] = [*out.get("tools", []), *thaw(hosted)]
