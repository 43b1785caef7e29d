"""`normalize(history, provider)`: repair a history for one provider with the least loss,
and report every change.

Which passes run, and in what order, follows the provider's profile:

1. A pass runs only if the profile enforces a rule it fixes (`STEPS[...].fixes`).
   A step marked `when_unknown` also runs where the profile does not list its rule.
2. The profile's rules are walked in the order the vendor evaluates them; each enforced
   rule schedules the passes that fix it, after first scheduling the enabled passes it
   depends on (`STEPS[...].after`: e.g. results are moved home before orphans are dropped,
   so a result that can be moved is never dropped). So the profile orders the repairs
   wherever correctness does not.
3. The schedule is run until a round changes nothing (at most `MAX_ROUNDS`), which makes
   `normalize` idempotent by construction.

With a `budget`, the history is first windowed (`normalizer.window.fit`), then repaired.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

from normalizer.collector import collector_paused
from normalizer.model import EMPTY, Change, History, JsonMap, ToolSpec, thaw
from normalizer.options import thinking_enabled
from normalizer.passes import Draft, Policy
from normalizer.passes._blocks import forget_pairing
from normalizer.passes._content_walk import forget_media_count
from normalizer.passes._known_ids import forget_ids
from normalizer.passes.crossing import cross_parts
from normalizer.passes.rounds import run_rounds
from normalizer.passes.strict_tools import drop_strict_without_form
from normalizer.profiles import Profile, load_profile
from normalizer.scope import scoped
from normalizer.steps import STEPS, schedule
from normalizer.window import Budget, fit
from normalizer.wire import render

MAX_ROUNDS = 4


@dataclass(frozen=True, slots=True)
class Normalized:
    """The repaired history and tools, every change made, and the maps (new -> original) of
    the tool-call ids, tool names and (per tool) property names that were rewritten, to map
    a response back."""

    history: History
    tools: tuple[ToolSpec, ...]
    changes: tuple[Change, ...]
    profile: Profile
    id_map: JsonMap = EMPTY
    name_map: JsonMap = EMPTY
    options: JsonMap = EMPTY
    model: str | None = None  # what the history was repaired for (normalize's `model`)
    key_map: JsonMap = EMPTY  # per tool name as sent: property name new -> original

    def render(self, *, model: str | None = None,
               options: Mapping[str, Any] | None = None) -> dict[str, Any]:
        """The request body for the provider's protocol, with the repaired options (and
        `options` given here on top), for `model`: by default the model the history was
        repaired for, else the provider's default model. A body for another model than the
        one repaired for may break that model's rules (check() it): without a model,
        normalize repairs nothing that holds for some models only (not on a guess)."""
        return render(self.history, self.profile.protocol, tools=self.tools,
                      model=model or self.model or self.profile.default_model,
                      options={**thaw(self.options), **(options or {})})


def normalize(
    history: History,
    provider: str | Path | Profile,
    *,
    tools: Sequence[ToolSpec] = (),
    budget: Budget | int | None = None,
    policy: Policy | None = None,
    model: str | None = None,
    options: Mapping[str, Any] | None = None,
    on: dt.date | str | None = None,
) -> Normalized:
    """Repair `history` (and its `tools`) for `provider`: a built-in provider name, a path to
    a profile YAML file, or a Profile. `budget` (see `normalizer.window.fit`) windows the
    history first (an int is a number of messages). Never mutates its input; the same input
    gives the same output. `model` is the model the request is for (rules that hold for some
    models only, such as Gemini 3's thought signatures, read it; also settable on Policy).
    `options` are the request's other fields in the provider's protocol (`tool_choice`,
    `thinking`, ...): passes that fix options repair them, and whether thinking is on is
    read from them unless `policy.thinking` says. Rules scoped to other models, or to dates
    other than `on` (default today), do not apply (normalizer/scope.py)."""
    policy = policy or Policy()
    if model is not None:
        policy = replace(policy, model=model)
    profile = scoped(load_profile(provider), model=policy.model, on=on)
    if policy.thinking is None:
        thinking = thinking_enabled(options or {}, profile.protocol)
        policy = replace(policy, thinking="on" if thinking else "off")
    with collector_paused(len(history.messages)):
        return _normalize(history, profile, policy, tools, budget, options)


def _normalize(history: History, profile: Profile, policy: Policy, tools: Sequence[ToolSpec],
               budget: Budget | int | None, options: Mapping[str, Any] | None) -> Normalized:
    draft = Draft(history=history, tools=tuple(tools), options=JsonMap(options or {}))
    changes: list[Change] = []
    if budget is not None:
        draft, windowed = _window(draft, profile, budget)
        changes.extend(windowed)
    # Parts the target protocol has no form for are crossed first, for every provider: it
    # follows from the protocol, not from a rule of the profile.
    draft, crossed = cross_parts(draft, profile, policy)
    changes.extend(crossed)
    draft, unsendable = drop_strict_without_form(draft, profile, policy)
    changes.extend(unsendable)
    steps = [(STEPS[name].run, STEPS[name].local) for name in schedule(profile)]
    try:
        draft, found = run_rounds(draft, profile, policy, steps, MAX_ROUNDS)
    finally:
        forget_pairing()
        forget_ids()
        forget_media_count()
    changes.extend(found)
    return Normalized(history=draft.history, tools=draft.tools, changes=tuple(changes),
                      profile=profile, id_map=draft.id_map, name_map=draft.name_map,
                      options=draft.options, model=policy.model, key_map=draft.key_map)


def _window(draft: Draft, profile: Profile,
            budget: Budget | int) -> tuple[Draft, tuple[Change, ...]]:
    history, changes = fit(draft.history, budget, profile)
    return replace(draft, history=history), tuple(changes)
