"""Options passes: sampling parameters a model pins to one value, takes none of, takes in a
narrower range, or takes one of at a time, and stop sequences a vendor refuses."""

from __future__ import annotations

from dataclasses import replace

from normalizer.json_values import value_at
from normalizer.model import Change, JsonMap, thaw
from normalizer.options import OPTION_PATHS
from normalizer.passes import Draft, Policy
from normalizer.profiles import Profile
from normalizer.sampling import (
    bad_stops,
    exclusive,
    out_of_range,
    to_leave_out,
    unfixed,
    unsupported,
)

RULE = "sampling-parameter-fixed"
UNSUPPORTED = "sampling-parameter-unsupported"
EXCLUSIVE = "sampling-parameters-exclusive"
RANGE = "sampling-parameter-out-of-range"
STOPS = "stop-sequence-invalid"


def drop_unfixed_sampling(
    draft: Draft, profile: Profile, policy: Policy
) -> tuple[Draft, tuple[Change, ...]]:
    """Fixes a sampling parameter sent with another value than the one the model takes
    (rule sampling-parameter-fixed, for the models it names: `policy.model`; a copy that
    names models keeps what was sent for an unknown model, one that names none, as
    Anthropic's for thinking on, holds for every model): the parameter is left out, so the
    model uses its own value, as the vendor's clients do. Lossy: the value asked for is not
    the one used (it never could be).

    Rejected by: Moonshot "invalid temperature: only 1 is allowed for this model"
    (countbot-ai/CountBot#61, kimi-k2.5), "invalid top_p: only 0.95 is allowed for this
    model" (CherryHQ/cherry-studio#12691); OpenAI "Unsupported value: 'temperature' does not
    support 0.5 with this model. Only the default (1) value is supported."
    (diffbot/code-gpt-docs#445, gpt-5), and on the Responses API "Unsupported parameter:
    'temperature' is not supported with this model." (OpenHands/software-agent-sdk#992);
    Anthropic "`temperature` may only be set to 1 when thinking is enabled or in adaptive
    mode. ..." (MayDay-wpf/snow-app#42); Gemini "Penalty is not enabled for
    models/gemini-2.5-flash" (BerriAI/litellm#32273), for a penalty in generationConfig
    (params.within), which is left out where nothing else is left in it.

    Before: model kimi-k3, temperature 0.2, top_p 0.9
    After:  model kimi-k3
    """
    rule = profile.copy_for(RULE, policy.model)
    if rule is None:
        return draft, ()
    found = unfixed(draft.options, rule.params, policy.model)
    if not found:
        return draft, ()
    dropped = {f.field for f in found}
    who = policy.model or profile.provider
    when = " while thinking is on" if rule.params.get("when_thinking") else ""
    changes = tuple(Change(
        "drop_unfixed_sampling", "drop-unfixed-sampling",
        f"{f.field} {f.sent!r} left out: {who} takes only {f.allowed!r}{when}, which it "
        "uses when none is sent", f.field, lossless=False) for f in found)
    return _without(draft, dropped), changes


def drop_unsupported_sampling(
    draft: Draft, profile: Profile, policy: Policy
) -> tuple[Draft, tuple[Change, ...]]:
    """Fixes sampling parameters sent to a model that takes none (rule
    sampling-parameter-unsupported, params.fields, for the models it names: `policy.model`;
    an unknown model keeps what was sent): each is left out, and the model samples as it
    does by default. Lossy: the value asked for is not used (it never could be). Apps send
    their one temperature to every model. A value params.taken names is kept (OpenAI's
    reasoning models take a penalty of 0).

    Rejected by: Anthropic "`temperature` is deprecated for this model."
    (UKGovernmentBEIS/inspect_ai#3721, claude-opus-4-7); OpenAI "Unsupported parameter:
    'top_p' is not supported with this model." on both its wires (braintrustdata/lingua's
    recorded gpt-5-nano snapshots), and for 'frequency_penalty' (oracle/ai-optimizer#240,
    gpt-5).

    Before: model claude-opus-4-7, temperature 0.2
    After:  model claude-opus-4-7
    """
    return _drop_sent(draft, profile, policy, UNSUPPORTED, "drop_unsupported_sampling",
                      "drop-unsupported-sampling")


PARAMETER = "request-parameter-unsupported"


def drop_unsupported_parameters(
    draft: Draft, profile: Profile, policy: Policy
) -> tuple[Draft, tuple[Change, ...]]:
    """Fixes request parameters other than sampling ones sent to a model that does not take
    them (rule request-parameter-unsupported, params.fields, for the models it names:
    `policy.model`; an unknown model keeps what was sent): each is left out. Lossy, said:
    the model does as it does by default (an app's parallel_tool_calls false no longer
    holds). Apps set parallel_tool_calls once for every OpenAI model.

    Rejected by: OpenAI "Unsupported parameter: 'parallel_tool_calls' is not supported with
    this model." (UKGovernmentBEIS/inspect_ai#1023, o1; evalstate/fast-agent#279, o4-mini).

    Before: model o4-mini, parallel_tool_calls false
    After:  model o4-mini
    """
    return _drop_sent(draft, profile, policy, PARAMETER, "drop_unsupported_parameters",
                      "drop-unsupported-parameter")


WITH_THINKING = "sampling-parameter-with-thinking"


def drop_sampling_with_thinking(
    draft: Draft, profile: Profile, policy: Policy
) -> tuple[Draft, tuple[Change, ...]]:
    """Fixes sampling parameters sent while thinking is on to a model that takes them only
    without (rule sampling-parameter-with-thinking, params.fields and when_thinking, for the
    models it names): each is left out. Lossy, said. Apps keep a top_k for every model, and
    turn thinking on per request.

    Rejected by: Anthropic "`top_k` must be unset when thinking is enabled. ..."
    (quarkiverse/quarkus-langchain4j#1812, claude-opus-4-1).

    Before: model claude-sonnet-4-6, thinking {type: enabled}, top_k 40
    After:  model claude-sonnet-4-6, thinking {type: enabled}
    """
    return _drop_sent(draft, profile, policy, WITH_THINKING, "drop_sampling_with_thinking",
                      "drop-sampling-with-thinking")


def _drop_sent(draft: Draft, profile: Profile, policy: Policy, rule_id: str, name: str,
               code: str) -> tuple[Draft, tuple[Change, ...]]:
    """The fields the copy of `rule_id` for the model refuses, left out, a change each."""
    rule = profile.copy_for(rule_id, policy.model)
    if rule is None:
        return draft, ()
    found = unsupported(draft.options, rule.params, policy.model)
    if not found:
        return draft, ()
    when = " while thinking is on" if rule.params.get("when_thinking") else ""
    changes = tuple(Change(
        name, code,
        f"{field} {draft.options[field]!r} left out: {policy.model} takes no {field}{when}",
        field, lossless=False) for field in found)
    return _without(draft, set(found)), changes


def clamp_sampling_parameters(
    draft: Draft, profile: Profile, policy: Policy
) -> tuple[Draft, tuple[Change, ...]]:
    """Fixes sampling parameters outside the range the target takes (rule
    sampling-parameter-out-of-range, params.ranges, each copy for the models and dates it
    names): each becomes the nearest end of its range. Lossy, said: the model samples less
    or more freely than asked. Apps offer OpenAI's temperatures, up to 2, for every vendor.

    Rejected by: Anthropic "temperature: range: -1 or 0..1" (anthropics/anthropic-sdk-python#893);
    Mistral 422 "Input should be less than or equal to 1" (vegu-ai/talemate#102, 2024; 1.5
    since, SillyTavern/SillyTavern#4856).

    Before: model claude-haiku-4-5, temperature 1.2
    After:  model claude-haiku-4-5, temperature 1
    """
    rule = profile.copy_for(RANGE, policy.model)
    found = out_of_range(draft.options, rule.params) if rule is not None else []
    if not found:
        return draft, ()
    options = thaw(draft.options)
    changes = []
    for bad in found:
        above = bad.most is not None and bad.sent > bad.most
        options[bad.field] = bad.most if above else bad.least
        said = (f"up to {bad.most!r}" if bad.least is None else f"from {bad.least!r}"
                if bad.most is None else f"from {bad.least!r} to {bad.most!r}")
        changes.append(Change(
            "clamp_sampling_parameters", "clamp-sampling-parameter",
            f"{bad.field} {bad.sent!r} written as {options[bad.field]!r}: "
            f"{policy.model or profile.provider} takes {bad.field} {said}", bad.field,
            lossless=False))
    return replace(draft, options=JsonMap(options)), tuple(changes)


def keep_one_sampling_parameter(
    draft: Draft, profile: Profile, policy: Policy
) -> tuple[Draft, tuple[Change, ...]]:
    """Fixes temperature and top_p sent together to a model that takes one of them (rule
    sampling-parameters-exclusive, params.fields and params.defaults, for the models it
    names: `policy.model`; an unknown model keeps what was sent). One stays: a parameter
    sent at the model's own default (temperature 1; top_p 1, which samples from every
    token) is left out first, lossless; where neither is, top_p is left out and temperature
    kept, as Anthropic's migration guide does, lossy. Apps send both to every model, often
    top_p at 1.

    Rejected by: Anthropic "`temperature` and `top_p` cannot both be specified for this
    model. Please use only one." (charmbracelet/mods#618, claude-sonnet-4-5;
    Vali-98/ChatterUI#564, claude-sonnet-4-6).

    Before: model claude-sonnet-4-5, temperature 0.7, top_p 1
    After:  model claude-sonnet-4-5, temperature 0.7
    """
    rule = profile.copy_for(EXCLUSIVE, policy.model)
    if rule is None:
        return draft, ()
    out = to_leave_out(draft.options, rule.params)
    if not out:
        return draft, ()
    left = {field for field, _ in out}
    kept = [f for f in exclusive(draft.options, rule.params) if f not in left]
    changes = tuple(Change(
        "keep_one_sampling_parameter", "drop-exclusive-sampling",
        f"{field} {draft.options[field]!r} left out: {policy.model} takes one of "
        f"{' and '.join(map(str, rule.params['fields']))}, and {kept[0]} stays"
        + (f" ({field} {draft.options[field]!r} is what it uses when none is sent)"
           if lossless else ""), field, lossless=lossless) for field, lossless in out)
    return _without(draft, left), changes


def _without(draft: Draft, fields: set[str]) -> Draft:
    """`draft` with the request options `fields` left out; a dotted name is a field of an
    object option (Gemini's generationConfig.presencePenalty), which is left out too where
    nothing else is left in it."""
    options = {k: v for k, v in thaw(draft.options).items() if k not in fields}
    for dotted in (f for f in fields if "." in f):
        outer, name = dotted.split(".", 1)
        inner = options.get(outer)
        if isinstance(inner, dict):
            inner.pop(name, None)
            if not inner:
                del options[outer]
    return replace(draft, options=JsonMap(options))


def drop_invalid_stop_sequences(
    draft: Draft, profile: Profile, policy: Policy
) -> tuple[Draft, tuple[Change, ...]]:
    r"""Fixes stop sequences the target refuses (rule stop-sequence-invalid, params.refuse:
    empty, whitespace only): each is left out of the list, and the list itself where none
    is left. Lossy: the reply no longer stops at a newline that was asked for ("\n", the
    usual one), and must be cut by the caller. Apps send OpenAI's stop list to every vendor.

    Rejected by: Anthropic "stop_sequences: each stop sequence must contain non-whitespace"
    (BerriAI/litellm#3286, ["\n"]), "stop_sequences: each stop sequence must be non-empty"
    (MegaGrindStone/mcp-web-ui#5, ["", "\n"]).

    Before: stop_sequences ["\n", "END"]
    After:  stop_sequences ["END"]
    """
    rule = profile.copy_for(STOPS, policy.model)
    path = OPTION_PATHS["stop"].get(profile.protocol)
    stops = value_at(draft.options, path) if rule is not None and path else None
    bad = [] if rule is None else bad_stops(stops, rule.params)
    # Anthropic keeps them at the top; a nested place (Gemini's generationConfig) has no
    # vendor rule here, so none is written.
    if not bad or path is None or len(path) != 1:
        return draft, ()
    dropped = {b.index for b in bad}
    kept = [s for i, s in enumerate(stops) if i not in dropped]
    options = {k: v for k, v in draft.options.items() if k != path[0]}
    if kept:
        options[path[0]] = tuple(kept)
    changes = tuple(Change(
        "drop_invalid_stop_sequences", "drop-stop-sequence",
        f"stop sequence {b.value!r} left out: {profile.provider} takes none that is "
        f"{'empty' if b.fault == 'empty' else 'whitespace only'}", f"{path[0]}[{b.index}]",
        lossless=False) for b in bad)
    return replace(draft, options=JsonMap(options)), changes
