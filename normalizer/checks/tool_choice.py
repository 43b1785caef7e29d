"""`tool_choice` rules, read in the Chat Completions and the Anthropic shapes.

`tool-choice-unknown-tool`: a `tool_choice` that forces a tool the request does not
declare.

Chat: `{"type": "function", "function": {"name": N}}` against `tools[].function.name`.
Anthropic: `{"type": "tool", "name": N}` against `tools[].name`. A choice with no
declarations at all is `tool-choice-without-tools`, not this rule.

`tool-choice-without-tools`, `parallel-tool-calls-without-tools`: a tool option sent with no
tools, read alike on both OpenAI wires (the top-level `tool_choice`, `parallel_tool_calls`
and `tools`).

`tool-choice-with-thinking`: a `tool_choice` that forces a call while thinking is on. The
forms a vendor refuses (params.forces: "required", "named") and how its request says
thinking is on (params.field, on, off, default_on_model) are the profile's.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from typing import Any

from normalizer.check import Finding
from normalizer.options import refused_forcing
from normalizer.profiles import Rule


def chat_unknown_tool(body: Mapping[str, Any], rule: Rule,
                      model: str | None) -> Iterator[Finding]:
    """A named Chat `tool_choice` whose function is not among `tools`."""
    choice = body.get("tool_choice") if isinstance(body, Mapping) else None
    if not (isinstance(choice, Mapping) and choice.get("type") == "function"):
        return
    function = choice.get("function")
    name = function.get("name") if isinstance(function, Mapping) else None
    declared = {_get(_get(t, "function"), "name") for t in _tools(body)}
    if isinstance(name, str) and name and declared and name not in declared:
        yield Finding("tool_choice.function.name", {"name": name})


def anthropic_unknown_tool(body: Mapping[str, Any], rule: Rule,
                           model: str | None) -> Iterator[Finding]:
    """An Anthropic `tool_choice` of type tool whose name is not among `tools`."""
    choice = body.get("tool_choice") if isinstance(body, Mapping) else None
    if not (isinstance(choice, Mapping) and choice.get("type") == "tool"):
        return
    name = choice.get("name")
    declared = {_get(t, "name") for t in _tools(body)}
    if isinstance(name, str) and declared and name not in declared:
        yield Finding("tool_choice.name", {"name": name})


def forced_with_thinking(body: Mapping[str, Any], rule: Rule,
                         model: str | None) -> Iterator[Finding]:
    """A `tool_choice` of a form in params.forces while thinking is on by the rule's reading;
    `word` is the vendor's name for the form (params.words, else the form: Moonshot calls
    a named choice "specified")."""
    form = refused_forcing(body, rule.params, model) if isinstance(body, Mapping) else None
    if form is not None:
        words = rule.params.get("words")
        word = words.get(form, form) if isinstance(words, Mapping) else form
        yield Finding("tool_choice", {"form": form, "word": word})


def _tools(body: Mapping[str, Any]) -> list[Any]:
    tools = body.get("tools")
    return tools if isinstance(tools, list) else []


def _get(obj: Any, key: str) -> Any:
    return obj.get(key) if isinstance(obj, Mapping) else None


def without_tools(body: Mapping[str, Any], rule: Rule, model: str | None) -> Iterator[Finding]:
    """`tool_choice` present (params.exempt values aside, default "none") while `tools`
    is absent, null or empty."""
    if not isinstance(body, Mapping) or "tool_choice" not in body:
        return
    listed = rule.params.get("exempt")
    exempt = ("none",) if listed is None else tuple(listed)
    if body["tool_choice"] in exempt or body.get("tools"):
        return
    yield Finding(location="tool_choice", fields={"tool_choice": body["tool_choice"]})


def parallel_calls_without_tools(body: Mapping[str, Any], rule: Rule,
                                 model: str | None) -> Iterator[Finding]:
    """`parallel_tool_calls` sent (true or false; null is not sent) while `tools` is
    absent, null or empty: the tool-less summary call made with the agent's settings."""
    if (isinstance(body, Mapping) and body.get("parallel_tool_calls") is not None
            and not body.get("tools")):
        yield Finding(location="parallel_tool_calls",
                      fields={"parallel_tool_calls": body["parallel_tool_calls"]})
