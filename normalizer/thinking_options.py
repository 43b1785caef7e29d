"""Thinking settings carried from one protocol to another: whether the model thinks, how
much (an effort level or a token budget) and whether its thought summaries come back.

Each protocol says it its own way:
- OpenAI Chat: `reasoning_effort` ("none", "minimal", "low", "medium", "high", "xhigh");
- OpenAI Responses: `reasoning.effort` (the same levels) and `reasoning.summary` ("auto",
  "concise", "detailed": summaries of the reasoning come back);
- Anthropic: `thinking` {type: enabled, budget_tokens} | {type: adaptive} | {type:
  disabled}, and `output_config.effort` (adaptive thinking's level);
- Gemini: `generationConfig.thinkingConfig` with `thinkingBudget` (0: off, -1: the model
  decides, else tokens; Gemini 2.5), `thinkingLevel` (Gemini 3) and `includeThoughts`
  (thought summaries come back; it does not switch thinking on or off).

Each is read into one neutral reading and written in the target's words. What the request
leaves unsaid stays unsaid: a Gemini config that only asks for summaries does not switch
OpenAI's reasoning off. Where the target has no word for a setting, or takes a level where
the source gave tokens, the change says so.

Sources for the fields: OpenAI's API reference (Chat `reasoning_effort`, Responses
`reasoning`), Anthropic's extended-thinking and effort guides, Gemini's thinking guide
(ai.google.dev/gemini-api/docs/thinking: budgets 0 and -1, `thinkingLevel` for Gemini 3,
`includeThoughts`).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, Final

from normalizer.json_values import value_at
from normalizer.model import Change
from normalizer.thinking_budget import BUDGET, INCLUDE, LEVEL, config_field

Path = tuple[str, ...]
_GEN = "generationConfig"

# Where each protocol keeps its thinking settings (read and written here only).
PATHS: Final[dict[str, tuple[Path, ...]]] = {
    "openai_chat": (("reasoning_effort",),),
    "openai_responses": (("reasoning",),),
    "anthropic": (("thinking",), ("output_config", "effort")),
    "gemini": ((_GEN, "thinkingConfig"),),
}
# Our choice, not a vendor's: how an effort level and a thinking token budget correspond.
EFFORT_BUDGET: Final[dict[str, int]] = {"minimal": 1024, "low": 1024, "medium": 8192,
                                        "high": 24576, "xhigh": 32768, "max": 32768}
# Anthropic's highest effort is "max" (output_config.effort "max" taken with adaptive
# thinking in BerriAI/litellm#27074's recorded table); OpenAI's is "xhigh".
OPENAI_EFFORT: Final[dict[str, str]] = {"max": "xhigh"}
# The largest budget every Gemini 2.5 model takes (Flash and Flash-Lite: up to 24,576;
# Pro: up to 32,768; Gemini's thinking guide); a larger one is refused by some of them
# ("The thinking budget (52428) is invalid.", RooCodeInc/Roo-Code#4399).
GEMINI_MAX_BUDGET: Final = 24576
_SUMMARIES: Final = ("auto", "concise", "detailed")


@dataclass(frozen=True)
class Thinking:
    """A request's thinking settings, protocol-free. None: the request does not say (the
    model's default applies). `budget` -1: the model decides how much."""

    on: bool | None = None
    effort: str | None = None
    budget: int | None = None
    summaries: bool | None = None

    @property
    def said(self) -> bool:
        """Whether the request says anything about thinking."""
        return (self.on, self.effort, self.budget, self.summaries) != (None,) * 4


def read_thinking(options: Mapping[str, Any], protocol: str) -> Thinking:
    """The thinking settings of a request in `protocol`."""
    if protocol == "openai_chat":
        return _read_effort(options.get("reasoning_effort"), None)
    if protocol == "openai_responses":
        reasoning = options.get("reasoning")
        if not isinstance(reasoning, Mapping):
            return Thinking()
        return _read_effort(reasoning.get("effort"), reasoning.get("summary"))
    if protocol == "anthropic":
        return _read_anthropic(options)
    if protocol == "gemini":
        return _read_gemini(value_at(options, (_GEN, "thinkingConfig")))
    return Thinking()


def _read_effort(effort: Any, summary: Any) -> Thinking:
    summaries = summary in _SUMMARIES if summary is not None else None
    if not isinstance(effort, str):
        return Thinking(summaries=summaries)
    if effort == "none":
        return Thinking(on=False, summaries=summaries)
    return Thinking(on=True, effort=effort, summaries=summaries)


def _read_anthropic(options: Mapping[str, Any]) -> Thinking:
    thinking = options.get("thinking")
    effort = value_at(options, ("output_config", "effort"))
    effort = effort if isinstance(effort, str) else None
    kind = thinking.get("type") if isinstance(thinking, Mapping) else None
    if kind == "disabled":
        return Thinking(on=False)
    if kind == "enabled":
        budget = thinking.get("budget_tokens")
        return Thinking(on=True, effort=effort,
                        budget=budget if isinstance(budget, int) else None)
    if kind == "adaptive":
        return Thinking(on=True, effort=effort, budget=None if effort else -1)
    return Thinking(effort=effort)


def _read_gemini(config: Any) -> Thinking:
    if not isinstance(config, Mapping):
        return Thinking()
    include = _field(config, INCLUDE)
    summaries = include if isinstance(include, bool) else None
    level, budget = _field(config, LEVEL), _field(config, BUDGET)
    effort = level.lower() if isinstance(level, str) else None
    budget = budget if isinstance(budget, int) and not isinstance(budget, bool) else None
    if budget == 0:
        return Thinking(on=False, summaries=summaries)
    on = True if effort or budget is not None or summaries else None
    return Thinking(on=on, effort=effort, budget=budget, summaries=summaries)


def _field(config: Mapping[str, Any], names: tuple[str, ...]) -> Any:
    found = config_field(config, names)
    return found[1] if found is not None else None


def thinking_field(request: Mapping[str, Any], protocol: str) -> tuple[str, Any] | None:
    """Where a request in `protocol` asks the model to think, and what it sends there: Chat
    `reasoning_effort` (any value, "none" too), Responses `reasoning.effort`, Gemini's
    `generationConfig.thinkingConfig` (any field), Anthropic `thinking` enabled or
    adaptive; None where it does not. What a model that does not reason refuses."""
    if protocol == "openai_chat":
        value = request.get("reasoning_effort")
        return ("reasoning_effort", value) if value is not None else None
    if protocol == "openai_responses":
        value = value_at(request, ("reasoning", "effort"))
        return ("reasoning.effort", value) if value is not None else None
    if protocol == "gemini":
        config = value_at(request, (_GEN, "thinkingConfig"))
        return (f"{_GEN}.thinkingConfig", config) if isinstance(config, Mapping) and config \
            else None
    thinking = request.get("thinking")
    on = isinstance(thinking, Mapping) and thinking.get("type") in ("enabled", "adaptive")
    return ("thinking", thinking) if on else None


def convert_thinking(options: Mapping[str, Any], source: str, target: str
                     ) -> tuple[list[tuple[Path, Any]], list[Change]]:
    """The thinking settings of `options` (in `source`) as `target` writes them: the
    (path, value) pairs to set and a change for each setting not carried as it was."""
    thinking = read_thinking(options, source)
    if not thinking.said:
        return [], []
    writer = {"openai_chat": _write_chat, "openai_responses": _write_responses,
              "anthropic": _write_anthropic, "gemini": _write_gemini}[target]
    pairs, said = writer(thinking)
    where = ".".join(PATHS[source][0])
    return pairs, [Change("convert_options", code, what, where, lossless)
                   for code, what, lossless in said]


Said = list[tuple[str, str, bool]]  # code, what, lossless


def _effort_for(thinking: Thinking) -> str | None:
    """The effort level a thinking reading comes to: its own, else the level of our table
    whose budget first covers its budget (a larger budget: "high")."""
    if thinking.effort is not None:
        return thinking.effort
    if thinking.budget is None or thinking.budget < 0:
        return None
    return effort_for_budget(thinking.budget)


def effort_for_budget(budget: int) -> str:
    """The level of our table whose budget first covers `budget` ("low" to "high"; a larger
    budget: "high")."""
    return next((e for e, b in EFFORT_BUDGET.items()
                 if budget <= b and e not in ("minimal", "xhigh", "max")), "high")


def budget_for_effort(effort: str) -> int:
    """Our table's token budget for an effort level (a level the table does not know:
    medium's)."""
    return EFFORT_BUDGET.get(effort, EFFORT_BUDGET["medium"])


def _budget_for(thinking: Thinking) -> int | None:
    """The token budget a thinking reading comes to: its own, else our table's for its
    level (a level the table does not know: medium's); None where the model decides."""
    if thinking.budget is not None:
        return None if thinking.budget < 0 else thinking.budget
    if thinking.effort is None:
        return None
    return budget_for_effort(thinking.effort)


def _level(thinking: Thinking, target: str) -> tuple[str | None, Said]:
    """The OpenAI effort level of `thinking`, and what was said on the way."""
    said: Said = []
    if thinking.on is False:
        return "none", said
    effort = _effort_for(thinking)
    if effort is None:
        if thinking.on:
            said.append(("default-thinking-effort", "thinking on with no level or budget: "
                         f"{target} reasons at the model's default effort", True))
        return None, said
    if thinking.effort is None:
        said.append(("budget-as-effort", f"thinking budget of {thinking.budget} tokens "
                     f"written as effort {effort!r} (our table; {target} takes a level)", False))
    elif effort in OPENAI_EFFORT:
        said.append(("rename-effort", f"thinking effort {effort!r} written as "
                     f"{OPENAI_EFFORT[effort]!r}, {target}'s highest", True))
        effort = OPENAI_EFFORT[effort]
    return effort, said


def _summaries(thinking: Thinking, target: str) -> Said:
    """What becomes of a request for thought summaries (or against them) in a target that
    has no such switch: Chat returns no reasoning, Anthropic its thinking whenever it is on."""
    if thinking.summaries is None:
        return []
    if target == "anthropic" and thinking.on is not False:
        return [("drop-option", "thought summaries: anthropic returns the thinking whenever "
                 "thinking is on", True)]
    if thinking.summaries and target == "openai_chat":
        return [("drop-option", "dropped thought summaries: no counterpart in openai_chat", False)]
    return [("drop-option", f"dropped a request for no thought summaries: {target} returns "
             "none unless asked", True)]


def _write_chat(thinking: Thinking) -> tuple[list[tuple[Path, Any]], Said]:
    effort, said = _level(thinking, "openai_chat")
    said += _summaries(thinking, "openai_chat")
    return ([(("reasoning_effort",), effort)] if effort else []), said


def _write_responses(thinking: Thinking) -> tuple[list[tuple[Path, Any]], Said]:
    effort, said = _level(thinking, "openai_responses")
    if thinking.summaries is False:
        said += _summaries(thinking, "openai_responses")
    reasoning: dict[str, Any] = {}
    if effort:
        reasoning["effort"] = effort
    if thinking.summaries and effort != "none":
        reasoning["summary"] = "auto"
    return ([(("reasoning",), reasoning)] if reasoning else []), said


def _write_anthropic(thinking: Thinking) -> tuple[list[tuple[Path, Any]], Said]:
    said = _summaries(thinking, "anthropic")
    if thinking.on is False:
        return [(("thinking",), {"type": "disabled"})], said
    if not thinking.on and thinking.effort is None:
        return [], said  # only summaries asked for: Anthropic's default (off) stays
    budget = _budget_for(thinking)
    if budget is None:
        budget = EFFORT_BUDGET["medium"]
        said.append(("default-thinking-budget", "thinking on with no level or budget: "
                     f"written as a budget of {budget} tokens (our table; anthropic's "
                     "enabled thinking takes a budget)", False))
    elif thinking.budget is None:
        said.append(("effort-as-budget", f"thinking effort {thinking.effort!r} written as a "
                     f"budget of {budget} tokens (our table; anthropic's enabled thinking "
                     "takes a budget)", False))
    return [(("thinking",), {"type": "enabled", "budget_tokens": budget})], said


def _write_gemini(thinking: Thinking) -> tuple[list[tuple[Path, Any]], Said]:
    said: Said = []
    config: dict[str, Any] = {}
    if thinking.on is False:
        config["thinkingBudget"] = 0
    else:
        budget = _budget_for(thinking)
        if budget is None and thinking.on:
            budget = -1  # the model decides, as adaptive thinking or a default level does
        if budget is not None and budget > GEMINI_MAX_BUDGET:
            said.append(("clamp-thinking-budget", f"thinking budget of {budget} tokens "
                         f"written as {GEMINI_MAX_BUDGET}, the most every Gemini thinking "
                         "model takes",
                         False))
            budget = GEMINI_MAX_BUDGET
        elif budget is not None and thinking.budget is None and budget != -1:
            said.append(("effort-as-budget", f"thinking effort {thinking.effort!r} written "
                         f"as a budget of {budget} tokens (our table; every Gemini "
                         "thinking model takes a budget, not every one a level)", False))
        if budget is not None:
            config["thinkingBudget"] = budget
        if thinking.on or thinking.summaries:
            config["includeThoughts"] = thinking.summaries is not False
    return ([((_GEN, "thinkingConfig"), config)] if config else []), said
