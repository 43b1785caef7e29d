"""Which model a repaired request names, and whose rules apply (normalize_request).

A body's model carries over within a protocol and between OpenAI's two; across other
protocols the target's default is named, with a change. `deployment` (Azure OpenAI, whose
body names a deployment) is what the body sends, while `model` says whose rules apply.
"""

from __future__ import annotations

from dataclasses import dataclass

from normalizer.model import Change
from normalizer.profiles import Profile

# One vendor's two protocols: a model name is good for both.
_OPENAI = frozenset({"openai_chat", "openai_responses"})


@dataclass(frozen=True, slots=True)
class Naming:
    """The model a request is repaired for: `chosen` (given, or the body's where it carries
    over), `sent` (the name the body sends: a deployment's, or `chosen`), `unnamed` (the
    body gets the target's default), `named` (whose rules apply), and the changes said."""

    chosen: str | None
    sent: str | None
    unnamed: bool
    named: str | None
    changes: tuple[Change, ...]


def name_model(body_model: str | None, from_protocol: str, profile: Profile,
               model: str | None, deployment: str | None) -> Naming:
    """The naming of a request in `from_protocol` whose body named `body_model`, repaired
    for `profile`: raises ValueError for a `deployment` with a Gemini target."""
    target = profile.protocol
    same = target == from_protocol
    if deployment is not None and target == "gemini":
        raise ValueError("deployment: a Gemini request names its model in the URL, not in "
                         "the body")
    keep_model = same or {from_protocol, target} <= _OPENAI
    chosen = model or (body_model if keep_model else None)
    sent = deployment or chosen
    changes: list[Change] = []
    if model is None and deployment is None and not keep_model and body_model:
        named_as = ("a Gemini request names its model in the URL, not the body "
                    f"({profile.default_model!r} by default; pass model= for its rules)"
                    if target == "gemini" else
                    f"the body for {profile.provider} names {profile.default_model!r} "
                    "(pass model=)")
        changes.append(Change("normalize_request", "replace-model",
                              f"model {body_model!r} was for {from_protocol}; {named_as}",
                              "model", False))
    # A Responses body may name no model: a stored `prompt` names it, and one written here
    # would override it. Any other body gets the target's default, said.
    unnamed = sent is None and not (same and target == "openai_responses")
    if unnamed and target != "gemini" and not body_model:
        changes.append(Change("normalize_request", "add-model",
                              f"the body named no model; the body for {profile.provider} "
                              f"names {profile.default_model!r} (pass model=)", "model", True))
    # The rules that hold for some models only are read for the model given, else for the
    # name the body will send (a deployment's, as the vendor reads it): the target's default
    # where none was chosen (Gemini names it in the URL: unknown here).
    named = model or sent or (profile.default_model if unnamed and target != "gemini"
                              else None)
    return Naming(chosen, sent, unnamed, named, tuple(changes))
