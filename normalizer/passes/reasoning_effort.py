"""Options passes: a reasoning effort sent to a model that does not reason or takes no
effort, at a level it does not take, at a level at which it cannot stop thinking while
thinking is off, or beside function tools where the endpoint takes none; and a verbosity
level the model does not take."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import replace
from typing import Any

from normalizer.effort_levels import (
    ORDER,
    effort_beside_tools,
    effort_level,
    nearest_level,
    null_effort,
    off_at_level,
    refused_level,
    verbosity_level,
    with_effort_level,
    with_verbosity_level,
)
from normalizer.model import Change, JsonMap, thaw
from normalizer.passes import Draft, Policy
from normalizer.profiles import Profile
from normalizer.thinking_budget import with_thinking_config
from normalizer.thinking_options import thinking_field

RULE = "reasoning-effort-unsupported"


def drop_reasoning_effort(
    draft: Draft, profile: Profile, policy: Policy
) -> tuple[Draft, tuple[Change, ...]]:
    """Fixes a reasoning effort the model refuses because it does not reason (rule
    reasoning-effort-unsupported, for a model the rule names: `policy.model`): Chat's
    `reasoning_effort`, Responses' `reasoning` (its effort and summary), Gemini's
    `thinkingConfig`, Anthropic's enabled or adaptive `thinking` is left out.
    Lossless: such a model answers as it would with no effort at all. An effort arrives
    this way from another vendor's thinking settings (normalizer/thinking_options.py) or an
    app that sends one setting to every model.

    Rejected by: OpenAI Chat "Unrecognized request argument supplied: reasoning_effort"
    (davidmigloz/langchain_dart#712, gpt-4o-mini); Responses "Unsupported parameter:
    'reasoning.effort' is not supported with this model." (RageAgainstThePixel/OpenAI-DotNet#500,
    gpt-4o); Gemini "thinking_config is not supported." (Gemini 2.0,
    immersive-translate/immersive-translate#2976); Anthropic "'claude-3-5-sonnet-20241022'
    does not support thinking." (anthropics/claude-code#2245).

    Before: model gpt-4.1-mini, reasoning_effort "low"
    After:  model gpt-4.1-mini
    """
    if profile.copy_for(RULE, policy.model) is None:
        return draft, ()
    options = thaw(draft.options)
    found = thinking_field(options, profile.protocol)
    if found is None:
        return draft, ()
    where, sent = found
    if profile.protocol == "gemini":
        options = with_thinking_config(options, {})
    else:  # the whole field: Responses' `reasoning` with its effort and summary
        key = where.split(".")[0]
        options = {k: v for k, v in options.items() if k != key}
    change = Change("drop_reasoning_effort", "drop-reasoning-effort",
                    f"reasoning setting {sent!r} left out: {policy.model} does not reason "
                    "and refuses the field", where, True)
    return replace(draft, options=JsonMap(options)), (change,)


EFFORT_RULE = "effort-unsupported"


def drop_effort(
    draft: Draft, profile: Profile, policy: Policy
) -> tuple[Draft, tuple[Change, ...]]:
    """Fixes an effort sent to a model that takes none (rule effort-unsupported, Anthropic's
    copies, for the models they name: `policy.model`): `output_config.effort` is left out,
    and `output_config` with it where nothing else is left. Lossy, said: the model spends
    its own effort, not the level asked for. Thinking stays as sent (Haiku 4.5 takes thinking
    with a budget; budget_thinking has already turned adaptive thinking into that, reading
    the effort first). Apps set one effort for every Claude model and hand some turns to
    Haiku.

    Rejected by: Anthropic "This model does not support the effort parameter."
    (anthropics/claude-code#30010; oratis/LISA#218, claude-haiku-4-5).

    Before: model claude-haiku-4-5, output_config {effort: low}
    After:  model claude-haiku-4-5
    """
    if profile.protocol != "anthropic" or profile.copy_for(EFFORT_RULE, policy.model) is None:
        return draft, ()
    options = thaw(draft.options)
    config = options.get("output_config")
    if not isinstance(config, dict) or config.get("effort") is None:
        return draft, ()
    sent = config["effort"]
    rest = {k: v for k, v in config.items() if k != "effort"}
    if rest:
        options["output_config"] = rest
    else:
        del options["output_config"]
    change = Change("drop_effort", "drop-effort",
                    f"effort {sent!r} left out: {policy.model} takes no effort and refuses "
                    "the field", "output_config.effort", False)
    return replace(draft, options=JsonMap(options)), (change,)


LEVEL_RULE = "reasoning-effort-value-unsupported"


def fit_reasoning_effort(
    draft: Draft, profile: Profile, policy: Policy
) -> tuple[Draft, tuple[Change, ...]]:
    """Fixes an effort level the model does not take (rule reasoning-effort-value-unsupported,
    each copy for the models it names, `policy.model`, with its params.supported): the
    nearest level it takes, more reasoning on a tie (xhigh -> high for gpt-5.1, minimal ->
    low). Lossy, said: the model reasons more or less than asked.

    Rejected by: OpenAI Responses "Unsupported value: 'minimal' is not supported with the
    'gpt-5.1' model. Supported values are: 'none', 'low', 'medium', and 'high'."
    (openai/openai-agents-python#2089); Chat "Unsupported value: 'reasoning_effort' does
    not support 'high' with this model. Supported values are: 'medium'."
    (egoist/chatwise-releases#1257, gpt-5.2-chat); Gemini "Thinking level MEDIUM is not
    supported for this model. Please retry with other thinking level."
    (egoist/chatwise-releases#1206, Gemini 3 Pro: low and high); Anthropic "This model does
    not support effort level 'xhigh'. Supported levels: high, low, max, medium."
    (diegosouzapw/OmniRoute#7276, claude-sonnet-4-6).

    Before: model gpt-5.1, reasoning_effort "xhigh"
    After:  model gpt-5.1, reasoning_effort "high"

    A null effort, where the copy says the model refuses one (params.null_refused: gpt-5.1,
    "'reasoning_effort' does not support null with this model", livekit/agents#3966), is
    left out: the model then reasons at its default, which is what null asks for (lossless).
    """
    left_out = _null_left_out(draft, profile, policy)
    if left_out is not None:
        return left_out
    refused = _refused_level(draft, profile, policy, LEVEL_RULE, effort_level)
    if refused is None:
        return draft, ()
    options, where, value, supported = refused
    level = nearest_level(value, supported)
    level = level.upper() if value.isupper() else level  # as the request spells it
    options = with_effort_level(options, where, level)
    change = Change("fit_reasoning_effort", "fit-reasoning-effort",
                    f"reasoning effort {value!r} written as {level!r}, the nearest "
                    f"level {policy.model} takes", where, False)
    return replace(draft, options=JsonMap(options)), (change,)


def _null_left_out(draft: Draft, profile: Profile,
                   policy: Policy) -> tuple[Draft, tuple[Change, ...]] | None:
    """The draft without its null effort, where the copy for the model refuses one."""
    rule = profile.copy_for(LEVEL_RULE, policy.model)
    where = null_effort(draft.options, profile.protocol) \
        if rule is not None and rule.params.get("null_refused") else None
    if where is None:
        return None
    options = {k: v for k, v in thaw(draft.options).items() if k != where}
    change = Change("fit_reasoning_effort", "drop-null-reasoning-effort",
                    f"reasoning_effort null left out: {policy.model} refuses a null effort; "
                    "without the field it reasons at its default, which null asks for",
                    where, True)
    return replace(draft, options=JsonMap(options)), (change,)


OFF_RULE = "thinking-off-unsupported"


def fit_effort_to_thinking_off(
    draft: Draft, profile: Profile, policy: Policy
) -> tuple[Draft, tuple[Change, ...]]:
    """Fixes thinking switched off at an effort level at which the model cannot stop
    thinking (rule thinking-off-unsupported, Anthropic's copy, params.levels, for the models
    it names: `policy.model`): the effort becomes the highest level below those, and thinking
    stays off as the request asked. Lossy, said: the model spends less effort than asked.
    Anthropic's own advice is either ("Use effort 'high' or below, or enable thinking."); of
    the two, the switch the app set stays as set.

    Rejected by: Anthropic "output_config.effort 'xhigh' is not supported when thinking is
    disabled on this model. Use effort 'high' or below, or enable thinking."
    (anthropics/claude-code#81084, Claude Opus 5).

    Before: model claude-opus-5, thinking {type: disabled}, output_config {effort: max}
    After:  model claude-opus-5, thinking {type: disabled}, output_config {effort: high}
    """
    rule = profile.copy_for(OFF_RULE, policy.model) if profile.protocol == "anthropic" \
        else None
    levels = tuple(rule.params.get("levels") or ()) if rule is not None else ()
    options = thaw(draft.options)
    found = off_at_level(options, levels) if levels else None
    if found is None:
        return draft, ()
    # Anthropic's levels start at low; of those the model takes with thinking off, the
    # nearest (high, for xhigh and max).
    level = nearest_level(found[1], [x for x in ORDER[ORDER.index("low"):] if x not in levels])
    options = with_effort_level(options, found[0], level)
    change = Change("fit_effort_to_thinking_off", "lower-effort-for-thinking-off",
                    f"effort {found[1]!r} written as {level!r}: {policy.model} cannot stop "
                    f"thinking at {found[1]!r}, and the request switches thinking off",
                    found[0], False)
    return replace(draft, options=JsonMap(options)), (change,)


PROMPT_MODE_RULE = "prompt-mode-unsupported"


def prompt_mode_as_reasoning_effort(
    draft: Draft, profile: Profile, policy: Policy
) -> tuple[Draft, tuple[Change, ...]]:
    """Fixes Mistral's `prompt_mode: "reasoning"` sent to a model that reasons through
    reasoning_effort instead (rule prompt-mode-unsupported, for the models it names:
    `policy.model`): the field is left out and, where the request names no effort,
    `reasoning_effort` is the rule's params.use (high: Mistral's own word for Magistral's
    depth of reasoning). Lossy, said: the reasoning system prompt the mode adds is not sent.
    Lossless where the request names an effort already. Apps wrote prompt_mode for Magistral
    and kept it when Small 4 and Medium 3.5 replaced Magistral behind the same names.

    Rejected by: Mistral "Reasoning prompt mode is not enabled for this model", code 3051
    (earendil-works/pi#3096, mistral-small-2603; pi#8700, mistral-medium-2604).

    Before: model mistral-small-latest, prompt_mode "reasoning"
    After:  model mistral-small-latest, reasoning_effort "high"
    """
    rule = profile.copy_for(PROMPT_MODE_RULE, policy.model)
    if rule is None or draft.options.get("prompt_mode") != "reasoning":
        return draft, ()
    options = {k: v for k, v in thaw(draft.options).items() if k != "prompt_mode"}
    if options.get("reasoning_effort") is not None:
        change = Change("prompt_mode_as_reasoning_effort", "drop-prompt-mode",
                        f"prompt_mode 'reasoning' left out: {policy.model} refuses it and "
                        "reasons at the reasoning_effort the request names", "prompt_mode", True)
    else:
        level = str(rule.params.get("use") or "high")
        options["reasoning_effort"] = level
        change = Change("prompt_mode_as_reasoning_effort", "prompt-mode-as-reasoning-effort",
                        f"prompt_mode 'reasoning' written as reasoning_effort {level!r}: "
                        f"{policy.model} refuses the mode and reasons at an effort (the mode's "
                        "reasoning system prompt is not sent)", "prompt_mode", False)
    return replace(draft, options=JsonMap(options)), (change,)


TOOLS_RULE = "reasoning-effort-with-tools"


def reason_at_none_beside_tools(
    draft: Draft, profile: Profile, policy: Policy
) -> tuple[Draft, tuple[Change, ...]]:
    """Fixes function tools sent with a reasoning effort other than none to a Chat
    Completions model that takes the pair on the Responses API only (rule
    reasoning-effort-with-tools, for the models it names: `policy.model`; the effort sent,
    else the model's own, params.default): `reasoning_effort` is "none", the one effort the
    model takes beside tools there, as the vendor's words advise. Lossy, said: the model does
    not reason on this turn; /v1/responses takes both. Dropping the tools would lose the
    turn's calls.

    Rejected by: OpenAI "Function tools with reasoning_effort are not supported for gpt-5.4
    in /v1/chat/completions. Please use /v1/responses instead." (pipecat-ai/pipecat#4043);
    for gpt-5.6-terra, which reasons at medium unless told none, "... To use function tools,
    use /v1/responses or set reasoning_effort to 'none'." (GEMISIS/leviath#333).

    Before: model gpt-5.4, tools [get_weather], reasoning_effort "medium"
    After:  model gpt-5.4, tools [get_weather], reasoning_effort "none"
    """
    rule = profile.copy_for(TOOLS_RULE, policy.model)
    if rule is None or not draft.tools:
        return draft, ()
    effort = effort_beside_tools(draft.options, rule.params.get("default"))
    if effort is None:
        return draft, ()
    sent = "reasoning_effort" in draft.options
    change = Change("reason_at_none_beside_tools", "reasoning-effort-none-with-tools",
                    f"reasoning effort {effort!r}{'' if sent else ' (the model default)'} "
                    f"written as 'none': {policy.model} takes function tools on Chat "
                    "Completions only without reasoning (the Responses API takes both)",
                    "reasoning_effort", False)
    return replace(draft, options=JsonMap({**thaw(draft.options), "reasoning_effort": "none"})), (
        change,)


VERBOSITY_RULE = "verbosity-value-unsupported"


def fit_verbosity(
    draft: Draft, profile: Profile, policy: Policy
) -> tuple[Draft, tuple[Change, ...]]:
    """Fixes a verbosity level the model does not take (rule verbosity-value-unsupported,
    each copy for the models it names, `policy.model`, with its params.supported): the
    nearest level it takes (medium, for the models before GPT-5). Lossy, said: the answer is
    as long as the model's default. A GPT-5 app's verbosity meets an older model on a switch.

    Rejected by: OpenAI "Unsupported value: 'verbosity' does not support 'low' with this
    model. Supported values are: 'medium'." (google-deepmind/concordia#164, gpt-4o).

    Before: model gpt-4o, verbosity "low"
    After:  model gpt-4o, verbosity "medium"
    """
    refused = _refused_level(draft, profile, policy, VERBOSITY_RULE, verbosity_level)
    if refused is None:
        return draft, ()
    options, where, value, supported = refused
    level = nearest_level(value, supported)
    change = Change("fit_verbosity", "fit-verbosity",
                    f"verbosity {value!r} written as {level!r}, the level {policy.model} takes",
                    where, False)
    return replace(draft, options=JsonMap(with_verbosity_level(options, where, level))), (
        change,)


def _refused_level(
    draft: Draft, profile: Profile, policy: Policy, rule_id: str,
    read: Callable[[Mapping[str, Any], str], tuple[str, str] | None],
) -> tuple[dict[str, Any], str, str, tuple[str, ...]] | None:
    """(options, where, level, supported) where the request sends a level (as `read` finds
    it) that the copy of `rule_id` for the model does not take (params.supported); else None."""
    rule = profile.copy_for(rule_id, policy.model)
    if rule is None:
        return None
    supported = tuple(str(level) for level in rule.params.get("supported") or ())
    options = thaw(draft.options)
    found = read(options, profile.protocol)
    value = refused_level(found[1], supported) if found is not None else None
    return None if found is None or value is None else (options, found[0], value, supported)
