"""Provider profiles: each provider's strictness rules, as data with sources.

A profile YAML file (`normalizer/profiles/<provider>.yaml`) looks like::

    provider: openai
    protocol: openai_chat
    error_format: openai          # the vendor's error JSON shape (used by the emulator)
    inherits: openai_chat         # optional: a base file in profiles/base/
    disable: [rule-id, ...]       # optional: inherited rules this vendor does not enforce
    rules:                        # in the order the vendor evaluates them
      - id: orphan-tool-result    # from normalizer.rules.RULE_IDS
        forbids: one line
        status: 400
        error: {type: invalid_request_error, code: null, param: "messages.[{index}].role"}
        message: "verbatim template with {fields}"   # or: unknown
        source: https://... or owner/repo#123
        last_verified: 2026-11-22
        confidence: high          # high: seen verbatim in a vendor doc or recorded response
        params: {}                # rule parameters (max_length, pattern, ...)
        enforced: true            # false: documented as lenient (probe results)

Rules taken from a base are marked `inherited: true`.
"""

from normalizer.profiles.loader import (
    HERE,
    PROVIDERS,
    UNKNOWN,
    Profile,
    Rule,
    builtin_profiles,
    load_profile,
    profile_from_mapping,
    provider_for,
)

__all__ = [
    "HERE",
    "PROVIDERS",
    "UNKNOWN",
    "Profile",
    "Rule",
    "builtin_profiles",
    "load_profile",
    "profile_from_mapping",
    "provider_for",
]
