"""Request options (not the history) that a target refuses together with the tools."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace
from typing import Any

from normalizer.gemini_keywords import unsupported_keywords
from normalizer.model import Change, JsonMap, thaw
from normalizer.options import refused_forcing, refused_json_format
from normalizer.passes import Draft, Policy
from normalizer.profiles import Profile
from normalizer.tool_combination import in_its_modes

_CONFIG = ("generationConfig", "generation_config")
_MIME = ("responseMimeType", "response_mime_type")


def drop_json_response_type_with_tools(
    draft: Draft, profile: Profile, policy: Policy
) -> tuple[Draft, tuple[Change, ...]]:
    """Fixes a JSON response type requested together with function declarations (rule
    response-format-with-tools) for the models the rule holds for (`policy.model`; an
    unknown model is assumed affected): the response type (and its schema) is removed,
    the tools are kept. Runs after declare_missing_tools, whose declarations count too.

    Rejected by: Gemini 2.5 "Function calling with a response mime type: 'application/json'
    is unsupported" (recorded by Mirascope's model-feature probe, 2025-12); Gemini 3 accepts.
    Groq "json mode cannot be combined with tool/function calling" for a Chat
    response_format json_object or json_schema (vercel/ai#10023; older words
    agno-agi/agno#1065); Cerebras '"tools" is incompatible with "response_format"' and
    Fireworks "You cannot specify response format and function call at the same time" for
    any type (BerriAI/litellm#31333, umbraco/Umbraco.AI#137).

    Before: generationConfig {responseMimeType: application/json, responseSchema: …} + tools
    After:  generationConfig {} + tools
    Lossy: the reply is no longer constrained to JSON; the caller must parse it (lossless
    for a Chat text format).
    """
    rule = next((r for r in profile.rules if r.id == "response-format-with-tools"
                 and r.enforced and r.params.get("tools") != "built_in"
                 and r.applies_to(policy.model, when_unknown=True)
                 and in_its_modes(draft.options, r.params)), None)
    if not draft.tools or rule is None:
        return draft, ()
    if profile.protocol == "openai_chat":
        options, change = without_refused_json_format(thaw(draft.options), rule.params)
    else:
        options, change = without_json_type(thaw(draft.options),
                                             tuple(rule.params.get("mime_types")
                                                   or ("application/json",)))
    if change is None:
        return draft, ()
    return replace(draft, options=JsonMap(options)), (change,)


def without_refused_json_format(out: dict[str, Any], params: Mapping[str, Any]
                                ) -> tuple[dict[str, Any], Change | None]:
    """A Chat request's options (or body) without a `response_format` the rule's params
    refuse beside tools (normalizer.options.refused_json_format), and the change; the
    caller has seen that tools are declared."""
    kind = refused_json_format(out, params)
    if kind is None:
        return out, None
    out = {k: v for k, v in out.items() if k != "response_format"}
    # A text format constrains nothing: leaving it out loses nothing (Cerebras refuses any
    # response_format beside tools, and so does Fireworks).
    return out, Change("drop_json_response_type_with_tools", "drop-json-response-type",
                       f"removed response_format of type {kind!r}: the target refuses it "
                       "together with tools; the reply is not constrained",
                       "response_format", lossless=kind == "text")


def without_json_type(out: dict[str, Any], mimes: tuple[str, ...], *,
                      beside: str = "function calling") -> tuple[dict[str, Any], Change | None]:
    """`out` (a thawed copy of the options, or a Gemini body) without its JSON response
    type, and the change, which says what the type was refused `beside`."""
    for key in _CONFIG:
        config = out.get(key)
        if not isinstance(config, Mapping):
            continue
        mime_key = next((k for k in _MIME if config.get(k) in mimes), None)
        if mime_key is None:
            continue
        dropped = [k for k in config if k in (*_MIME, "responseSchema", "response_schema",
                                              "responseJsonSchema", "response_json_schema")]
        out[key] = {k: v for k, v in config.items() if k not in dropped}
        return out, Change("drop_json_response_type_with_tools", "drop-json-response-type",
                           f"removed {', '.join(dropped)}: the target refuses a JSON response "
                           f"type together with {beside}", f"{key}.{mime_key}",
                           lossless=False)
    return out, None


def drop_unknown_tool_choice(
    draft: Draft, profile: Profile, policy: Policy
) -> tuple[Draft, tuple[Change, ...]]:
    """Fixes a `tool_choice` that forces a tool the request does not declare (rule
    tool-choice-unknown-tool; Chat `{"type": "function", "function": {"name": N}}`,
    Anthropic `{"type": "tool", "name": N}`). A tool renamed on the way (name_map) is
    chosen by its new name (lossless); otherwise the choice is removed, and the model
    picks, or not, among the declared tools (lossy: the forced call is gone).

    Rejected by: Anthropic "Tool 'none' not found in provided tools" (langchain-ai/
    langchainjs#8928); vLLM "The tool specified in `tool_choice` does not match any of the
    specified `tools`" (its request validation).

    Before: tools=[add], tool_choice {"type": "tool", "name": "none"}
    After:  tools=[add], no tool_choice
    """
    key = "tool_choice"
    choice = draft.options.get(key)
    name = _chosen_name(choice)
    declared = {t.name for t in draft.tools}
    if name is None or not declared or name in declared:
        return draft, ()
    renamed = next((new for new, old in draft.name_map.items() if old == name), None)
    if renamed in declared:
        options = {**thaw(draft.options), key: _with_name(thaw(choice), str(renamed))}
        change = Change("drop_unknown_tool_choice", "rename-tool-choice",
                        f"tool_choice names {name!r}, declared as {renamed!r}: renamed", key,
                        lossless=True)
    else:
        options = {k: v for k, v in thaw(draft.options).items() if k != key}
        change = Change("drop_unknown_tool_choice", "drop-unknown-tool-choice",
                        f"removed tool_choice forcing {name!r}: no tool of that name is "
                        "declared", key, lossless=False)
    return replace(draft, options=JsonMap(options)), (change,)


def unforce_tool_choice_with_thinking(
    draft: Draft, profile: Profile, policy: Policy
) -> tuple[Draft, tuple[Change, ...]]:
    """Fixes a `tool_choice` that forces a call while thinking is on (rule
    tool-choice-with-thinking), read as the profile's rule reads it (which forms it refuses,
    how the request turns thinking on, which models think by default: `policy.model`): the
    choice becomes auto, thinking stays on. Lossy: the model may answer without calling the
    tool. Turning thinking off instead would keep the forced call and lose the reasoning the
    caller asked for; apps that prefer that can send thinking off themselves.

    Rejected by: Anthropic "Thinking may not be enabled when tool_choice forces tool use."
    (pydantic/pydantic-ai#2425); DeepSeek V4 "Thinking mode does not support this
    tool_choice" (deepseek-ai/DeepSeek-V3#1376); DashScope and Moonshot (their profiles).

    Before: thinking {type: enabled, budget_tokens: 2048}, tool_choice {type: any}
    After:  thinking {type: enabled, budget_tokens: 2048}, tool_choice {type: auto}
    """
    rule = profile.rule("tool-choice-with-thinking")
    if rule is None or not rule.enforced:
        return draft, ()
    key = "tool_choice"
    choice = draft.options.get(key)
    if refused_forcing(draft.options, rule.params, policy.model) is None:
        return draft, ()
    auto: Any = "auto"
    if profile.protocol == "anthropic" and isinstance(choice, Mapping):
        # disable_parallel_tool_use and the like mean the same under auto
        auto = {**{k: v for k, v in thaw(choice).items() if k not in ("type", "name")},
                "type": "auto"}
    name = _chosen_name(choice)
    forced = f"a call of {name!r}" if name else "a tool call"
    change = Change("unforce_tool_choice_with_thinking", "unforce-tool-choice",
                    f"tool_choice forced {forced} while thinking is on, which the target "
                    "refuses; set to auto (thinking kept): the model may answer without "
                    "calling a tool", key, lossless=False)
    return replace(draft, options=JsonMap({**thaw(draft.options), key: auto})), (change,)


def _chosen_name(choice: Any) -> str | None:
    """The tool a Chat or Anthropic `tool_choice` forces, if it names one."""
    if not isinstance(choice, Mapping):
        return None
    if choice.get("type") == "tool":
        name = choice.get("name")
    elif choice.get("type") == "function" and isinstance(choice.get("function"), Mapping):
        name = choice["function"].get("name")
    else:
        return None
    return name if isinstance(name, str) and name else None


def _with_name(choice: dict[str, Any], name: str) -> dict[str, Any]:
    if choice.get("type") == "tool":
        return {**choice, "name": name}
    return {**choice, "function": {**choice["function"], "name": name}}


def move_response_schema_to_json_schema(
    draft: Draft, profile: Profile, policy: Policy
) -> tuple[Draft, tuple[Change, ...]]:
    """Fixes a Gemini `responseSchema` holding JSON Schema keywords its Schema type has no
    field for (rule response-schema-unsupported, params.unsupported): the schema moves,
    unchanged, to `responseJsonSchema`, which takes JSON Schema.

    Rejected by: Gemini "Invalid JSON payload received. Unknown name "$schema" at
    'generation_config.response_schema': Cannot find field." (QuantumNous/new-api#1037).

    Before: generationConfig {responseMimeType: application/json, responseSchema: S}
    After:  generationConfig {responseMimeType: application/json, responseJsonSchema: S}
    Lossless: the same schema, where Gemini reads JSON Schema.
    """
    rule = profile.rule("response-schema-unsupported")
    if rule is None or not rule.enforced:
        return draft, ()
    banned = frozenset(str(k) for k in rule.params.get("unsupported") or ())
    for key in _CONFIG:
        config = draft.options.get(key)
        if not isinstance(config, Mapping):
            continue
        name = next((k for k in ("responseSchema", "response_schema") if k in config), None)
        taken = "responseJsonSchema" in config or "response_json_schema" in config
        if name is None or taken:
            continue
        if next(unsupported_keywords(config[name], key, banned), None) is None:
            continue
        out = thaw(draft.options)
        moved = "responseJsonSchema" if key == "generationConfig" else "response_json_schema"
        out[key] = {(moved if k == name else k): v for k, v in out[key].items()}
        return replace(draft, options=JsonMap(out)), (Change(
            "move_response_schema_to_json_schema", "move-response-schema",
            f"moved {key}.{name} to {moved}: it holds JSON Schema keywords the "
            "target's Schema type has no field for, and that field takes JSON Schema",
            f"{key}.{name}", lossless=True),)
    return draft, ()

