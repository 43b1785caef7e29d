"""`media-role-unsupported`: a media part in a message whose role may not carry one
(params.roles, the roles that may; params.kinds, the media kinds the rule speaks of):
OpenAI Chat takes images from user messages only, Anthropic has no image blocks in
assistant turns."""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from typing import Any

from normalizer.check import Finding
from normalizer.profiles import Rule

# The part (Chat) or block (Anthropic) type of each media kind.
_CHAT_TYPES = {"image": "image_url", "audio": "input_audio", "file": "file", "document": "file"}
_ANTHROPIC_TYPES = {"image": "image", "document": "document", "file": "document"}


def _kinds(rule: Rule, types: Mapping[str, str]) -> tuple[set[str], set[str]]:
    roles = {str(r) for r in rule.params.get("roles") or ("user",)}
    wanted = {types[str(k)] for k in rule.params.get("kinds") or ("image",) if str(k) in types}
    return roles, wanted


def _messages(body: Mapping[str, Any]) -> Iterator[tuple[int, str, list[Any]]]:
    messages = body.get("messages") if isinstance(body, Mapping) else None
    for i, message in enumerate(messages if isinstance(messages, list) else ()):
        if isinstance(message, Mapping) and isinstance(message.get("content"), list):
            yield i, str(message.get("role")), message["content"]


def chat_media_role(body: Mapping[str, Any], rule: Rule, model: str | None
                    ) -> Iterator[Finding]:
    """A Chat message of a role outside params.roles holding a media part: one finding per
    message, as OpenAI names the message."""
    roles, wanted = _kinds(rule, _CHAT_TYPES)
    for i, role, content in _messages(body):
        if role in roles:
            continue
        found = next((p.get("type") for p in content
                      if isinstance(p, Mapping) and p.get("type") in wanted), None)
        if found is not None:
            yield Finding(location=f"messages[{i}]", fields={"index": i, "role": role,
                                                             "type": found})


def anthropic_media_role(body: Mapping[str, Any], rule: Rule, model: str | None
                         ) -> Iterator[Finding]:
    """An image (or document) block in an Anthropic message of a role outside params.roles."""
    roles, wanted = _kinds(rule, _ANTHROPIC_TYPES)
    for i, role, content in _messages(body):
        if role in roles:
            continue
        for j, block in enumerate(content):
            if isinstance(block, Mapping) and block.get("type") in wanted:
                yield Finding(location=f"messages.{i}.content.{j}",
                              fields={"index": i, "block": j, "role": role,
                                      "type": block["type"]})
