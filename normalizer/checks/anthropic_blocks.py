"""Detectors for Anthropic content blocks beyond emptiness and pairing: whitespace-only
text, and server tool ids (`srvtoolu_…`) replayed in client `tool_use` blocks."""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from typing import Any

from normalizer.check import Finding
from normalizer.checks.anthropic_walk import messages
from normalizer.profiles import Rule


def _blank_only(content: Any) -> bool:
    """Content whose only blocks are text blocks holding whitespace (at least one
    character: an empty text is the empty-text-block rule's)."""
    if isinstance(content, str):
        return bool(content) and not content.strip()
    if not isinstance(content, list) or not content:
        return False
    texts = [b.get("text") for b in content if isinstance(b, Mapping) and b.get("type") == "text"]
    return (len(texts) == len(content) and all(isinstance(t, str) and not t.strip()
                                               for t in texts)
            and any(texts))


def whitespace_text_block(body: Mapping[str, Any], rule: Rule,
                          model: str | None) -> Iterator[Finding]:
    """A message whose content is nothing but whitespace text. A blank text block beside
    a tool_use or real text is accepted (recorded: evidence/anthropic/whitespace-text-*)."""
    for i, message in messages(body):
        if _blank_only(message.get("content")):
            yield Finding(location=f"messages[{i}].content", fields={"index": i})


def server_tool_use_as_client(body: Mapping[str, Any], rule: Rule,
                              model: str | None) -> Iterator[Finding]:
    """Client `tool_use` blocks whose id has a server tool prefix (params.prefixes,
    default `srvtoolu_`): the API does not let a client tool_result close it."""
    prefixes = tuple(rule.params.get("prefixes") or ("srvtoolu_",))
    for i, message in messages(body):
        content = message.get("content")
        ids = [b.get("id") for b in (content if isinstance(content, list) else ())
               if isinstance(b, Mapping) and b.get("type") == "tool_use"
               and isinstance(b.get("id"), str) and b["id"].startswith(prefixes)]
        if ids:
            yield Finding(location=f"messages[{i}].content", fields={"index": i,
                                                                    "ids": ", ".join(ids)})
