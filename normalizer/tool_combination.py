"""Gemini's built-in tools (Google Search, URL context, code execution, ...) declared beside
function declarations, read the same way by the detector and the repair. Gemini 2 models
refuse the pair ("Multiple tools are supported only when they are all search tools.",
googleapis/js-genai#1157); Gemini 3 models take it once the request sets
`toolConfig.includeServerSideToolInvocations` ("Please enable
tool_config.include_server_side_tool_invocations to use Built-in tools with Function
calling.", owndev/Open-WebUI-Functions#159; https://ai.google.dev/gemini-api/docs/tool-combination).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from normalizer.request_fields import spellings

FUNCTIONS = spellings("functionDeclarations")
TOOL_CONFIG = spellings("toolConfig")
INVOCATIONS = spellings("includeServerSideToolInvocations")
CALLING_CONFIG = spellings("functionCallingConfig")


def declared(body: Mapping[str, Any]) -> list[Any]:
    """The body's `tools` as a list (Google's JSON mapping takes one object for a repeated
    field); empty where there is none or it is not a list."""
    tools = body.get("tools")
    if isinstance(tools, Mapping):
        return [tools]
    return list(tools) if isinstance(tools, list) else []


def built_in_keys(tool: Any) -> list[str]:
    """The keys of a Tool object that declare a built-in tool: every set key but the
    function declarations (googleSearch, urlContext, codeExecution, ...)."""
    if not isinstance(tool, Mapping):
        return []
    return [k for k, v in tool.items() if k not in FUNCTIONS and v is not None]


def has_functions(tool: Any) -> bool:
    """Whether a Tool object declares at least one function."""
    return isinstance(tool, Mapping) and any(
        isinstance(tool.get(k), list) and tool[k] for k in FUNCTIONS)


def tools_counted(body: Mapping[str, Any], params: Mapping[str, Any]) -> bool:
    """Whether the body declares the tools a response-format-with-tools copy counts: its
    built-in tools where params.tools is `built_in`, else its function declarations."""
    if params.get("tools") == "built_in":
        return any(built_in_keys(tool) for tool in declared(body))
    return any(has_functions(tool) for tool in declared(body))


def calling_mode(body: Mapping[str, Any]) -> str:
    """The request's function calling mode (toolConfig.functionCallingConfig.mode, either
    spelling): AUTO where it names none, as Gemini takes it."""
    config = next((body[k] for k in TOOL_CONFIG if isinstance(body.get(k), Mapping)), {})
    calling = next((config[k] for k in CALLING_CONFIG if isinstance(config.get(k), Mapping)),
                   {})
    mode = calling.get("mode")
    return mode.upper() if isinstance(mode, str) and mode else "AUTO"


def in_its_modes(body: Mapping[str, Any], params: Mapping[str, Any]) -> bool:
    """Whether a response-format-with-tools copy holds for the request's calling mode: its
    params.modes, where it lists any (Gemini takes the pair with mode NONE)."""
    modes = params.get("modes")
    return not modes or calling_mode(body) in {str(m).upper() for m in modes}


def mixed(tools: Sequence[Any]) -> list[int]:
    """The indexes of the Tool objects declaring a built-in tool, where some Tool object
    declares functions too (the pair Gemini refuses or asks a flag for); else none."""
    if not any(has_functions(t) for t in tools):
        return []
    return [i for i, tool in enumerate(tools) if built_in_keys(tool)]


def invocations_on(body: Mapping[str, Any]) -> bool:
    """Whether the body sets toolConfig.includeServerSideToolInvocations to true (either
    spelling)."""
    config = next((body[k] for k in TOOL_CONFIG if isinstance(body.get(k), Mapping)), None)
    return config is not None and any(config.get(k) is True for k in INVOCATIONS)


def with_invocations(body: Mapping[str, Any]) -> dict[str, Any]:
    """`body` with toolConfig.includeServerSideToolInvocations true, written in the
    spelling the body's tool config already uses (camelCase where it has none)."""
    snake = TOOL_CONFIG[1] in body and TOOL_CONFIG[0] not in body
    key, flag = (TOOL_CONFIG[1], INVOCATIONS[1]) if snake else (TOOL_CONFIG[0], INVOCATIONS[0])
    config = body.get(key)
    return {**body, key: {**(config if isinstance(config, Mapping) else {}), flag: True}}


def without_built_ins(body: Mapping[str, Any]) -> tuple[dict[str, Any], list[str]]:
    """`body` without its built-in tools (a Tool object holding functions keeps them), and
    the names of the built-in tools left out."""
    kept: list[Any] = []
    dropped: list[str] = []
    for tool in declared(body):
        names = built_in_keys(tool)
        dropped += names
        if not names:
            kept.append(tool)
        elif has_functions(tool):
            kept.append({k: v for k, v in tool.items() if k not in names})
    return {**body, "tools": kept}, dropped
