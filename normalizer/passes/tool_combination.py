"""Gemini's built-in tools beside function declarations, in a request body: they travel
outside the history (normalize_request keeps them verbatim), so the repair is made on the
body, as the cached-content one is (normalizer/passes/cached_content.py)."""

from __future__ import annotations

from typing import Any

from normalizer.model import Change
from normalizer.profiles import Profile
from normalizer.tool_combination import (
    declared,
    invocations_on,
    mixed,
    with_invocations,
    without_built_ins,
)

RULE = "hosted-tool-with-functions"


def fit_tool_combination(out: dict[str, Any], profile: Profile,
                         model: str | None) -> tuple[dict[str, Any], tuple[Change, ...]]:
    """Gemini's built-in tools beside function declarations, for the model the copy of
    the rule names: Gemini 3 takes the pair with toolConfig.includeServerSideToolInvocations
    set (params.flag), which is set; Gemini 2 refuses it, and the built-in tools are left out
    (the function declarations are what the history's calls name)."""
    rule = profile.copy_for(RULE, model)
    if rule is None or not mixed(declared(out)):
        return out, ()
    if rule.params.get("flag"):
        if invocations_on(out):
            return out, ()
        return with_invocations(out), (Change(
            "normalize_request", "enable-tool-combination",
            f"set toolConfig.includeServerSideToolInvocations: {model} takes built-in tools "
            "beside function declarations with it (its answers then carry the server's tool "
            "calls and responses as parts)", "toolConfig", True),)
    kept, dropped = without_built_ins(out)
    return kept, tuple(Change(
        "normalize_request", "drop-built-in-tool",
        f"left out the built-in tool {name!r}: {model} refuses built-in tools beside function "
        "declarations; the function declarations stay", "tools", False) for name in dropped)
