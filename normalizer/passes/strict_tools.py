"""Tools passes: OpenAI's `strict` flag on a function declaration, where it cannot hold.

The repairs drop the flag and keep the schema as written: closing the schema instead
(additionalProperties false, every property required) would turn the tool's optional
arguments into required ones, a change to the tool's contract the caller did not ask for.
"""

from __future__ import annotations

from dataclasses import replace

from normalizer.model import Change, ToolSpec
from normalizer.passes import Draft, Policy
from normalizer.profiles import Profile
from normalizer.protocols import STRICT_FLAG
from normalizer.strict_mode import open_objects


def drop_strict_from_open_schemas(
    draft: Draft, profile: Profile, policy: Policy
) -> tuple[Draft, tuple[Change, ...]]:
    """Fixes a function declared `strict: true` whose parameters schema is not closed (rule
    strict-tool-schema): `strict` is removed, the schema kept.

    Rejected by: OpenAI "Invalid schema for function 'get_weather': In context=(),
    'additionalProperties' is required to be supplied and to be false." (recorded for the
    Responses API, evidence/openai_responses/strict-optional-property-rejected-gpt-4o-mini.yaml;
    the Chat wording is assumed the same, see the openai profile).

    Before: tools=[get_weather strict=true {properties: {city}, required: [city]}]
    After:  tools=[get_weather {properties: {city}, required: [city]}]
    Lossy: the model's arguments are no longer guaranteed to match the schema.
    """
    changes: list[Change] = []
    tools: list[ToolSpec] = []
    for tool in draft.tools:
        found = next(open_objects(tool.input_schema), None) if tool.strict else None
        if found is None:
            tools.append(tool)
            continue
        where = ".".join(found.path) or "the top level"
        changes.append(Change("drop_strict_from_open_schemas", "drop-tool-strict",
                              f"removed strict from tool {tool.name!r}: its schema is not "
                              f"closed at {where} ({found.why}); the schema is kept as written",
                              f"tools.{tool.name}.strict", lossless=False))
        tools.append(replace(tool, strict=None))
    if not changes:
        return draft, ()
    return replace(draft, tools=tuple(tools)), tuple(changes)


def drop_strict_without_form(
    draft: Draft, profile: Profile, policy: Policy
) -> tuple[Draft, tuple[Change, ...]]:
    """Fixes nothing a vendor rejects: the target protocol has no `strict` flag on its
    declarations (Gemini; Anthropic's have one since its structured outputs), so a flag the
    request stated cannot be sent. Runs for every provider (it follows from the protocol),
    and reports the loss.

    Before: tools=[get_weather strict=true] for a Gemini target
    After:  tools=[get_weather]
    Lossy for `strict: true` (no guarantee that arguments match); lossless for false.
    """
    if profile.protocol in STRICT_FLAG or all(t.strict is None for t in draft.tools):
        return draft, ()
    return _without_flags(draft, "drop_strict_without_form",
                          f"{profile.protocol} declarations have no strict flag")


def drop_mixed_strict_flags(
    draft: Draft, profile: Profile, policy: Policy
) -> tuple[Draft, tuple[Change, ...]]:
    """Fixes functions whose strict flags differ (rule strict-tools-mixed): every flag is
    removed, so that all read alike as not strict; the schemas are kept.

    Rejected by: Cerebras "Tools with mixed values for 'strict' are not allowed. Please set
    all tools to 'strict: true' or 'strict: false'" (mpfaffenberger/code_puppy#368: strict
    on the tools pydantic-ai could close, unstated on the others). Not all true instead:
    that would need every schema closed, turning optional arguments into required ones
    (see `drop_strict_from_open_schemas`); all false is what Kilo Code and Roo Code send.

    Before: tools=[read_file strict=true, mcp_search (no flag)]
    After:  tools=[read_file, mcp_search]
    Lossy for each tool that was strict (its arguments no longer guaranteed to match);
    lossless for a stated false, which reads the same unstated.
    """
    if len({t.strict is True for t in draft.tools}) < 2:
        return draft, ()
    return _without_flags(draft, "drop_mixed_strict_flags",
                          "the target refuses functions whose strict flags differ, so none "
                          "is sent; the schema is kept as written")


def _without_flags(draft: Draft, pass_name: str, why: str) -> tuple[Draft, tuple[Change, ...]]:
    """Every tool without its strict flag, and a change for each that stated one (lossy for
    true, lossless for false)."""
    changes = tuple(Change(pass_name, "drop-tool-strict",
                           f"removed strict={str(t.strict).lower()} from tool {t.name!r}: {why}",
                           f"tools.{t.name}.strict", lossless=not t.strict)
                    for t in draft.tools if t.strict is not None)
    return replace(draft, tools=tuple(replace(t, strict=None) for t in draft.tools)), changes
