"""Role pass: system (and developer) messages for a model that takes none."""

from __future__ import annotations

from dataclasses import replace

from normalizer.model import Change
from normalizer.passes import Draft, Policy
from normalizer.profiles import Profile

RULE = "role-unsupported-by-model"


def system_as_user(
    draft: Draft, profile: Profile, policy: Policy
) -> tuple[Draft, tuple[Change, ...]]:
    """Fixes system and developer messages sent to a model that takes neither (rule
    role-unsupported-by-model, for the models the rule names; `policy.model` must be known):
    each becomes a user message with the same parts, where it stood. Google's ADK does the
    same for Gemma ("converts system instructions into a first user message", google/
    adk-python#3900), LiteLLM for OpenAI's o1-mini. Runs after place_system_messages, so
    Gemini's one system instruction is the first message.

    Rejected by: Gemini "Developer instruction is not enabled for models/gemma-3-27b-it"
    (0xPlaygrounds/rig#788); OpenAI o1-mini "Unsupported value: 'messages[0].role' does not
    support 'system' with this model." (pydantic/pydantic-ai's recorded cassettes).

    Before: [system "Answer in French.", user "Hi"]
    After:  [user "Answer in French.", user "Hi"]
    Lossy: the words stay, their standing as the model's instructions does not.
    """
    rule = profile.copy_for(RULE, policy.model)
    if rule is None:
        return draft, ()
    refused = frozenset(rule.params.get("roles") or ("system", "developer"))
    messages = list(draft.history.messages)
    changes: list[Change] = []
    for m, message in enumerate(messages):
        named = "developer" if message.extras.get("role") == "developer" else message.role
        if message.role != "system" or named not in refused:
            continue
        messages[m] = replace(message, role="user", extras=message.extras.without("role"))
        changes.append(Change("system_as_user", "system-as-user",
                              f"sent the {named} message as a user message: the model "
                              f"{policy.model!r} takes no {named} messages", f"messages[{m}]",
                              lossless=False))
    if not changes:
        return draft, ()
    return replace(draft, history=replace(draft.history, messages=tuple(messages))), \
        tuple(changes)
