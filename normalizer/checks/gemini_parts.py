"""Detectors for Gemini function-response names and request options that rule out others:
function calling beside a JSON response type, a system instruction or tools beside a named
cache, built-in tools beside function declarations."""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from typing import Any

from normalizer.cached_content import names_cache, set_beside_cache
from normalizer.check import Finding
from normalizer.profiles import Rule
from normalizer.tool_combination import (
    declared,
    in_its_modes,
    invocations_on,
    mixed,
    tools_counted,
)


def _get(obj: Mapping[str, Any], camel: str, snake: str) -> Any:
    return obj.get(camel, obj.get(snake))


def function_response_name_empty(body: Mapping[str, Any], rule: Rule,
                                 model: str | None) -> Iterator[Finding]:
    """A functionResponse part whose `name` is the empty string. A missing name is the same
    to the proto parser by our reading, but only "" was observed, so it is not flagged."""
    contents = body.get("contents")
    for i, content in enumerate(contents if isinstance(contents, list) else ()):
        parts = content.get("parts") if isinstance(content, Mapping) else None
        for j, part in enumerate(parts if isinstance(parts, list) else ()):
            response = _get(part, "functionResponse", "function_response") \
                if isinstance(part, Mapping) else None
            if isinstance(response, Mapping) and response.get("name") == "":
                yield Finding(location=f"contents[{i}].parts[{j}].functionResponse.name",
                              fields={"index": i, "part": j})


def response_format_with_tools(body: Mapping[str, Any], rule: Rule,
                               model: str | None) -> Iterator[Finding]:
    """Function declarations (or, for a copy whose params.tools is `built_in`, a built-in
    tool: googleSearch, urlContext, codeExecution, ...) together with
    `generationConfig.responseMimeType` application/json, for the models the copy names
    (its `models`; others accept it) and the calling modes it lists (params.modes: its
    words for ANY differ, and NONE is taken)."""
    if not rule.applies_to(model, when_unknown=True) or not tools_counted(body, rule.params) \
            or not in_its_modes(body, rule.params):
        return
    config = _get(body, "generationConfig", "generation_config")
    mime = _get(config, "responseMimeType", "response_mime_type") \
        if isinstance(config, Mapping) else None
    if mime in tuple(rule.params.get("mime_types") or ("application/json",)):
        yield Finding(location="generationConfig.responseMimeType", fields={"mime_type": mime})


def cached_content_with_prompt_fields(body: Mapping[str, Any], rule: Rule,
                                      model: str | None) -> Iterator[Finding]:
    """`cachedContent` together with a system instruction, tools or a tool config: one
    finding (the vendor answers once for them all), at the cache's name."""
    if not names_cache(body):
        return
    fields = set_beside_cache(body)
    if fields:
        yield Finding(location="cachedContent" if "cachedContent" in body else "cached_content",
                      fields={"fields": ", ".join(fields)})


def conversation_empty(body: Mapping[str, Any], rule: Rule,
                       model: str | None) -> Iterator[Finding]:
    """No content to answer: `contents` absent or an empty list (a history that held a
    system prompt alone, which goes in systemInstruction)."""
    contents = body.get("contents")
    if contents is None or contents == []:
        yield Finding(location="contents", fields={})


def hosted_tool_with_functions(body: Mapping[str, Any], rule: Rule,
                               model: str | None) -> Iterator[Finding]:
    """A built-in tool (googleSearch, urlContext, ...) declared beside function
    declarations: one finding, at the first Tool object declaring one. Where the copy names
    the flag that lets the model take the pair (params.flag), a body setting it is not
    flagged."""
    at = mixed(declared(body))
    if at and not (rule.params.get("flag") and invocations_on(body)):
        yield Finding(location=f"tools[{at[0]}]", fields={"index": at[0]})


def system_instruction_unsupported(body: Mapping[str, Any], rule: Rule,
                                   model: str | None) -> Iterator[Finding]:
    """A system instruction (even an empty one) for a model the rule names (Gemma on the
    Gemini API); nothing where the model is not known."""
    if model is None or not rule.applies_to(model, when_unknown=False):
        return
    if _get(body, "systemInstruction", "system_instruction") is not None:
        yield Finding(location="systemInstruction",
                      fields={"model": model.removeprefix("models/")})
