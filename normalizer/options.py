"""Request options (everything in a body besides the history, the tools and the model)
carried from one protocol to another (the structured-output option:
normalizer.output_format; the thinking settings: normalizer.thinking_options).

`OPTION_PATHS` is the mapping table: a neutral option name -> where each protocol keeps it
(a path of keys; None where the protocol has no counterpart). `tool_choice` has shapes of
its own and is converted by functions below. An option of the source with no counterpart
in the target is dropped with a lossy change; an option the table does not know is dropped
likewise (it may mean nothing to the other vendor, or be rejected as an unknown field).
Within one protocol, options are never converted: the caller keeps them verbatim.

Sources for the field names: the vendors' API references (OpenAI Chat Completions and
Responses "Create", Anthropic "Messages", Gemini "generateContent" GenerationConfig).
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any, Final

from normalizer.json_values import set_at, value_at
from normalizer.model import Change
from normalizer.output_format import PATHS as OUTPUT_FORMAT
from normalizer.output_format import convert_output_format
from normalizer.thinking_options import PATHS as THINKING
from normalizer.thinking_options import convert_thinking, read_thinking

Path = tuple[str, ...]
_GEN = "generationConfig"

# neutral name -> {protocol: path}; a protocol missing from the row has no counterpart.
OPTION_PATHS: Final[dict[str, dict[str, Path]]] = {
    "max_tokens": {"openai_chat": ("max_tokens",), "openai_responses": ("max_output_tokens",),
                   "anthropic": ("max_tokens",), "gemini": (_GEN, "maxOutputTokens")},
    "temperature": {"openai_chat": ("temperature",), "openai_responses": ("temperature",),
                    "anthropic": ("temperature",), "gemini": (_GEN, "temperature")},
    "top_p": {"openai_chat": ("top_p",), "openai_responses": ("top_p",),
              "anthropic": ("top_p",), "gemini": (_GEN, "topP")},
    "top_k": {"anthropic": ("top_k",), "gemini": (_GEN, "topK")},
    "stop": {"openai_chat": ("stop",), "anthropic": ("stop_sequences",),
             "gemini": (_GEN, "stopSequences")},
    "seed": {"openai_chat": ("seed",), "gemini": (_GEN, "seed")},
    "presence_penalty": {"openai_chat": ("presence_penalty",),
                         "gemini": (_GEN, "presencePenalty")},
    "frequency_penalty": {"openai_chat": ("frequency_penalty",),
                          "gemini": (_GEN, "frequencyPenalty")},
    "parallel_tool_calls": {"openai_chat": ("parallel_tool_calls",),
                            "openai_responses": ("parallel_tool_calls",)},
    "stream": {"openai_chat": ("stream",), "openai_responses": ("stream",),
               "anthropic": ("stream",)},
    # How long a GPT-5 answer runs: a top-level field of Chat, one of `text` in Responses.
    "verbosity": {"openai_chat": ("verbosity",), "openai_responses": ("text", "verbosity")},
}
# Other names a protocol reads for a neutral option (read, never written).
ALIASES: Final[dict[str, dict[str, Path]]] = {
    "openai_chat": {"max_tokens": ("max_completion_tokens",)},
}
# Top-level fields each protocol's `tool_choice` lives in.
TOOL_CHOICE: Final[dict[str, Path]] = {
    "openai_chat": ("tool_choice",), "openai_responses": ("tool_choice",),
    "anthropic": ("tool_choice",), "gemini": ("toolConfig",)}


def _paths(protocol: str) -> list[Path]:
    """Every path the table reads in `protocol`."""
    found = [row[protocol] for row in OPTION_PATHS.values() if protocol in row]
    found += list(ALIASES.get(protocol, {}).values())
    return [*found, TOOL_CHOICE[protocol], *THINKING[protocol], *OUTPUT_FORMAT[protocol]]


def leftovers(options: Mapping[str, Any], protocol: str) -> list[str]:
    """The dotted names of the options of `protocol` the table does not read."""
    known = _paths(protocol)
    names: list[str] = []
    for key, value in options.items():
        nested = [p for p in known if len(p) > 1 and p[0] == key]
        if nested and isinstance(value, Mapping):
            names += [f"{key}.{k}" for k in value if not any(p[1] == k for p in nested)]
        elif not any(p == (key,) for p in known):
            names.append(key)
    return names


def convert(options: Mapping[str, Any], source: str,
            target: str) -> tuple[dict[str, Any], tuple[Change, ...]]:
    """`options` written for `source` -> the same options for `target`, and a lossy change
    per option dropped (no counterpart in the target, or unknown to the table)."""
    out: dict[str, Any] = {}
    changes: list[Change] = []
    for name, row in OPTION_PATHS.items():
        path = row.get(source) or ALIASES.get(source, {}).get(name)
        value = value_at(options, path) if path else None
        if value is None and name in ALIASES.get(source, {}):
            value = value_at(options, ALIASES[source][name])
        if value is None:
            continue
        if target in row:
            set_at(out, row[target], _stop_list(value) if name == "stop" else value)
        else:
            changes.append(_dropped(".".join(path or ()), target))
    choice = _read_tool_choice(options, source)
    if choice is not None:
        written = _write_tool_choice(choice, target)
        if written is None:
            changes.append(_dropped(".".join(TOOL_CHOICE[source]), target))
        else:
            set_at(out, *written)
    for convert_shaped in (convert_thinking, convert_output_format):
        pairs, said = convert_shaped(options, source, target)
        for path, value in pairs:
            set_at(out, path, value)
        changes += said
    changes += [_dropped(name, target) for name in leftovers(options, source)]
    return out, tuple(changes)


def _dropped(name: str, target: str) -> Change:
    return Change("convert_options", "drop-option",
                  f"dropped request option {name!r}: no counterpart in {target}", name, False)


def _stop_list(value: Any) -> Any:
    return [value] if isinstance(value, str) else value


def _read_tool_choice(options: Mapping[str, Any], protocol: str) -> dict[str, Any] | None:
    """-> {"mode": auto|none|required, "names": [...]} (names: the tools it is limited to)."""
    value = value_at(options, TOOL_CHOICE[protocol])
    if value is None:
        return None
    if protocol == "gemini":
        config = value.get("functionCallingConfig") or {} if isinstance(value, Mapping) else {}
        mode = {"ANY": "required", "NONE": "none"}.get(str(config.get("mode")), "auto")
        return {"mode": mode, "names": list(config.get("allowedFunctionNames") or [])}
    return _choice_of(value)


def _choice_of(value: Any) -> dict[str, Any] | None:
    """A Chat, Responses or Anthropic `tool_choice` value, read as `_read_tool_choice` says."""
    if isinstance(value, str):
        return {"mode": {"any": "required"}.get(value, value), "names": []}
    if not isinstance(value, Mapping):
        return None
    kind = value.get("type")
    name = value.get("name") or (value.get("function") or {}).get("name")
    if kind in ("function", "tool") and name:
        return {"mode": "required", "names": [name]}
    return {"mode": {"any": "required"}.get(str(kind), str(kind)), "names": []}


def _write_tool_choice(choice: Mapping[str, Any], target: str) -> tuple[Path, Any] | None:
    mode, names = choice["mode"], choice["names"]
    if mode not in ("auto", "none", "required"):
        return None
    if target == "gemini":
        config: dict[str, Any] = {"mode": {"required": "ANY", "none": "NONE"}.get(mode, "AUTO")}
        if names:
            config["allowedFunctionNames"] = list(names)
        return TOOL_CHOICE[target], {"functionCallingConfig": config}
    one = names[0] if len(names) == 1 else None
    if target == "anthropic":
        if one:
            return TOOL_CHOICE[target], {"type": "tool", "name": one}
        return TOOL_CHOICE[target], {"type": {"required": "any"}.get(mode, mode)}
    if one and target == "openai_chat":
        return TOOL_CHOICE[target], {"type": "function", "function": {"name": one}}
    if one:
        return TOOL_CHOICE[target], {"type": "function", "name": one}
    return TOOL_CHOICE[target], mode


def thinking_enabled(options: Mapping[str, Any], protocol: str) -> bool:
    """Whether a request in `protocol` with `options` has thinking on (Anthropic
    `thinking.type` enabled/adaptive, Gemini `thinkingConfig`, OpenAI reasoning effort)."""
    return read_thinking(options, protocol).on is True


def tool_choice_names(options: Mapping[str, Any], protocol: str) -> list[str]:
    """The tools a request's tool choice names (Chat and Anthropic: the one it forces;
    Gemini: allowedFunctionNames), in `protocol`'s shape; [] when it names none."""
    read = _read_tool_choice(options, protocol)
    return [str(n) for n in read["names"]] if read is not None else []


def forced_tool_choice(choice: Any) -> str | None:
    """How a Chat or Anthropic `tool_choice` forces a call: "required" (Chat "required",
    Anthropic {"type": "any"}), "named" (one tool: Chat {"type": "function", ...},
    Anthropic {"type": "tool", ...}), or None (auto, none, absent)."""
    read = _choice_of(choice)
    if read is None or read["mode"] != "required":
        return None
    return "named" if read["names"] else "required"


def refused_forcing(request: Mapping[str, Any], params: Mapping[str, Any],
                    model: str | None) -> str | None:
    """The forced form of the request's `tool_choice` when a tool-choice-with-thinking rule
    with these params refuses it (a form in params.forces while thinking is on, read as
    `thinking_on_by_rule` reads it), else None: what check() flags and normalize repairs."""
    form = forced_tool_choice(request.get("tool_choice"))
    if form is None or form not in (params.get("forces") or ("required", "named")):
        return None
    return form if thinking_on_by_rule(request, params, model) else None


def refused_json_format(request: Mapping[str, Any], params: Mapping[str, Any]) -> str | None:
    """The type of a Chat request's `response_format` when a response-format-with-tools
    rule with these params refuses it beside tools (a type in params.types, default
    json_object and json_schema), else None; whether tools are declared is the caller's
    test. What check() flags and normalize repairs."""
    value = request.get("response_format")
    kind = value.get("type") if isinstance(value, Mapping) else None
    refused = params.get("types") or ("json_object", "json_schema")
    return kind if isinstance(kind, str) and kind in refused else None


def thinking_on_by_default(body: Mapping[str, Any], params: Mapping[str, Any],
                           model: str | None) -> bool:
    """`thinking_on_by_rule` for a rule whose `params.field` names the message field it
    requires (reasoning-content-required), not the switch: only its default_on_model is
    read, the switch being `thinking.type`. Its check and its repair read this one test."""
    return thinking_on_by_rule(body, {"default_on_model": params.get("default_on_model")},
                               model)


def thinking_on_by_rule(body: Mapping[str, Any], params: Mapping[str, Any],
                        model: str | None) -> bool:
    """Whether thinking is on, read as a rule's params say the vendor reads it: the request
    field `params.field` (a dotted path, default `thinking.type`) means on when its value is
    in `params.on` (default ["enabled"]) and off when in `params.off` (default ["disabled"]);
    when it says neither, thinking is on exactly where `params.default_on_model` (a regex)
    matches the model. Vendors that copy the Chat wire spell the switch each their own way
    (DeepSeek and Moonshot `thinking.type`, DashScope `enable_thinking`), and some models
    think unless told not to."""
    value = value_at(body, tuple(str(params.get("field") or "thinking.type").split(".")))
    if value is not None:
        if value in (params.get("on") or ("enabled",)):
            return True
        if value in (params.get("off") or ("disabled",)):
            return False
    pattern = params.get("default_on_model")
    return bool(pattern and isinstance(model, str) and re.search(str(pattern), model))
