"""Request pass: a named cache beside the system instruction, tools or tool config it holds."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace
from typing import Any

from normalizer.cached_content import names_cache, set_beside_cache
from normalizer.model import Change, JsonMap, thaw
from normalizer.passes import Draft, Policy
from normalizer.profiles import Profile

RULE = "cached-content-with-prompt-fields"
_PASS = "drop_fields_beside_cached_content"
_CODE = "drop-field-beside-cached-content"
_WHY = "the target takes none beside a named cache (cachedContent), which is taken to hold it"


def drop_fields_beside_cached_content(
    draft: Draft, profile: Profile, policy: Policy
) -> tuple[Draft, tuple[Change, ...]]:
    """Fixes a request that names a cache and sets a system instruction, tools or a tool
    config beside it (rule cached-content-with-prompt-fields): they go, the cache stays.
    Gemini's own words propose moving them into the cache, and apps meet this refusal when
    their framework sends again what the cache was created with (instructor, LiteLLM and
    langchain-google leave them out the same way). Dropping the cache instead would lose
    the cached contents, usually the long part of the prompt. Runs after
    place_system_messages: the system instruction is the one system message at the start.

    Rejected by: Gemini "Tool config, tools and system instruction should not be set in the
    request when using cached content." (567-labs/instructor#2580, 2026-08).

    Before: cachedContent "cachedContents/abc", system "be brief", tools [search], toolConfig
    After:  cachedContent "cachedContents/abc", no system message, no tools, no toolConfig
    Lossy: what the request set there is gone; the cache's own is used. Each is reported.
    """
    if not profile.enforces(RULE) or not names_cache(draft.options):
        return draft, ()
    changes: list[Change] = []
    history = draft.history
    if history.messages and history.messages[0].role == "system":
        changes.append(_dropped("the system instruction (the history's system message)",
                                "messages[0]"))
        history = replace(history, messages=history.messages[1:])
    changes += [_dropped(f"the declaration of function {tool.name!r}", f"tools.{tool.name}")
                for tool in draft.tools]
    options, more = without_prompt_fields(draft.options)
    changes += more
    if not changes:
        return draft, ()
    return replace(draft, history=history, tools=(), options=JsonMap(options)), tuple(changes)


def without_prompt_fields(fields: Mapping[str, Any]
                          ) -> tuple[dict[str, Any], tuple[Change, ...]]:
    """`fields` (request options, or a whole body) without the fields a named cache rules
    out, and a change for each; `fields` as they are when they name no cache."""
    gone = set_beside_cache(fields) if names_cache(fields) else []
    return ({k: v for k, v in thaw(fields).items() if k not in gone},
            tuple(_dropped(_field(key, fields[key]), key) for key in gone))


def _field(key: str, value: Any) -> str:
    """The words for a removed field: a `tools` list left in a body after the passes holds
    the declarations kept as they came (hosted tools: googleSearch, codeExecution, ...)."""
    if key == "tools" and isinstance(value, list):
        kinds = [next(iter(d), "?") if isinstance(d, Mapping) else "?" for d in value]
        return f"the tool declarations in 'tools' ({', '.join(kinds)})"
    return f"request field {key!r}"


def _dropped(what: str, where: str) -> Change:
    return Change(_PASS, _CODE, f"removed {what}: {_WHY}", where, lossless=False)
