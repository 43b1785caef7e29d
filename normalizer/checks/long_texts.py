"""`text-too-long`: a text in the history longer than params.max_length characters. OpenAI
limits every string of a request (Chat "Invalid 'messages[5].content': string too long.
Expected a string with maximum length 10485760, …", Shopify/roast#52); a tool's output
is where an agent meets it. The texts read here are those the repair can shorten: a
message's text (its content string, or a text part's `text`) and a tool result's output.
Characters are counted as Python counts them (code points); whether the vendor counts
UTF-16 units instead is not known.
`tool-arguments-too-long`: a Responses function_call's arguments string over
params.max_length (1,048,576: "Invalid 'input[15].arguments': string too long. …",
openai/codex#13270)."""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from typing import Any

from normalizer.check import Finding
from normalizer.checks.openai_chat_walk import entries
from normalizer.checks.openai_responses_walk import items
from normalizer.profiles import Rule

# Responses items whose content or output holds the texts checked, by the key holding them.
# A hosted item (a custom tool's output among them) is sent as it came: not read here.
_HOLDS = {"message": "content", "function_call_output": "output"}


def chat_text_too_long(body: Mapping[str, Any], rule: Rule,
                       model: str | None) -> Iterator[Finding]:
    """Chat: a message's content string, or a content part's text, over the limit."""
    limit = int(rule.params["max_length"])
    for i, message in enumerate(entries(body)):
        if isinstance(message, Mapping):
            yield from _over(message.get("content"), f"messages[{i}].content", limit)


def responses_text_too_long(body: Mapping[str, Any], rule: Rule,
                            model: str | None) -> Iterator[Finding]:
    """Responses: a message's content (a string, or a part's text) or a tool output's
    output (a string, or a part's text) over the limit."""
    limit = int(rule.params["max_length"])
    for i, item, kind, _ in items(body):
        key = _HOLDS.get(kind)
        if key is not None:
            yield from _over(item.get(key), f"input[{i}].{key}", limit)


def responses_arguments_too_long(body: Mapping[str, Any], rule: Rule,
                                 model: str | None) -> Iterator[Finding]:
    """Responses: a function_call item's `arguments` string over the limit."""
    limit = int(rule.params["max_length"])
    for i, item, kind, _ in items(body):
        arguments = item.get("arguments") if kind == "function_call" else None
        if isinstance(arguments, str) and len(arguments) > limit:
            yield _finding(f"input[{i}].arguments", len(arguments), limit)


def _over(value: Any, path: str, limit: int) -> Iterator[Finding]:
    if isinstance(value, str):
        if len(value) > limit:
            yield _finding(path, len(value), limit)
        return
    if not isinstance(value, list):
        return
    for j, part in enumerate(value):
        text = part.get("text") if isinstance(part, Mapping) else None
        if isinstance(text, str) and len(text) > limit:
            yield _finding(f"{path}[{j}].text", len(text), limit)


def _finding(path: str, length: int, limit: int) -> Finding:
    return Finding(location=path, fields={"param": path, "length": length,
                                          "max_length": limit})
