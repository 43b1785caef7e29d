"""`response-format-json-word`: JSON mode (Chat `response_format` json_object, Responses
`text.format` json_object) while no message says "json". OpenAI, DeepSeek and DashScope
look for the word, in any case, in the messages' text; OpenAI's Responses API in the input
messages only, not in `instructions` (pydantic-ai's finding, quoted in the profile).
`response-format-type-unsupported`: a Chat response_format type the vendor does not take.
`response-format-with-tools`: a Chat response_format type the vendor refuses beside tools."""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Mapping
from typing import Any

from normalizer.check import Finding
from normalizer.checks.openai_chat_walk import entries
from normalizer.checks.openai_responses_walk import items
from normalizer.options import refused_json_format
from normalizer.profiles import Rule

WORD = "json"


def chat_json_word(body: Mapping[str, Any], rule: Rule, model: str | None) -> Iterator[Finding]:
    """Chat: response_format json_object and no message text holding the word."""
    if _kind(body.get("response_format") if isinstance(body, Mapping) else None) \
            != "json_object":
        return
    if not any(_says_json(m.get("content")) for m in entries(body) if m is not None):
        yield Finding("messages", {})


def responses_json_word(body: Mapping[str, Any], rule: Rule,
                        model: str | None) -> Iterator[Finding]:
    """Responses: text.format json_object and no input message text holding the word."""
    text = body.get("text") if isinstance(body, Mapping) else None
    if _kind(text.get("format") if isinstance(text, Mapping) else None) != "json_object":
        return
    raw = body.get("input")
    if isinstance(raw, str):
        if WORD not in raw.casefold():
            yield Finding("input", {})
        return
    if not any(_says_json(item.get("content")) for _, item, found, _ in items(body)
               if found == "message"):
        yield Finding("input", {})


def chat_format_type(body: Mapping[str, Any], rule: Rule,
                     model: str | None) -> Iterator[Finding]:
    """Chat: a response_format whose type is one of params.types (DeepSeek: json_schema)."""
    kind = _kind(body.get("response_format") if isinstance(body, Mapping) else None)
    if kind is not None and kind in (rule.params.get("types") or ()):
        yield Finding("response_format.type", {"type": kind})


def chat_format_with_tools(body: Mapping[str, Any], rule: Rule,
                           model: str | None) -> Iterator[Finding]:
    """Chat: a response_format whose type is one of params.types while `tools` declares
    anything: a function, or a vendor's built-in tool (Groq's browser_search), taken to
    count the same (not seen either way)."""
    tools = body.get("tools") if isinstance(body, Mapping) else None
    kind = refused_json_format(body, rule.params) if isinstance(tools, list) and tools \
        else None
    if kind is not None:
        yield Finding("response_format.type", {"type": kind})


def _kind(value: Any) -> Any:
    return value.get("type") if isinstance(value, Mapping) else None


def _says_json(content: Any) -> bool:
    """Whether a message's content (a string, or parts with `text`) holds the word."""
    if isinstance(content, str):
        return WORD in content.casefold()
    if isinstance(content, list):
        return any(WORD in part["text"].casefold() for part in _texts(content))
    return False


def _texts(parts: Iterable[Any]) -> Iterator[Mapping[str, Any]]:
    return (p for p in parts if isinstance(p, Mapping) and isinstance(p.get("text"), str))
