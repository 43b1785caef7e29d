"""The steps that repair a request's options rather than its history: response format,
sampling, output limits, request fields, reasoning effort and thinking budgets (the order
and the reasons for it are in each Step's `after`). normalizer/steps.py puts them after the
history's steps, as `normalize` runs them."""

from __future__ import annotations

from normalizer.passes.adaptive_thinking import adapt_thinking, budget_thinking
from normalizer.passes.json_mode import json_schema_as_json_mode, mention_json_for_json_mode
from normalizer.passes.options import (
    drop_json_response_type_with_tools,
    unforce_tool_choice_with_thinking,
)
from normalizer.passes.output_limit import fit_max_tokens, move_max_tokens
from normalizer.passes.reasoning_effort import (
    drop_effort,
    drop_reasoning_effort,
    fit_effort_to_thinking_off,
    fit_reasoning_effort,
    fit_verbosity,
    prompt_mode_as_reasoning_effort,
    reason_at_none_beside_tools,
)
from normalizer.passes.request_fields import drop_unknown_request_fields, move_request_fields
from normalizer.passes.sampling import (
    clamp_sampling_parameters,
    drop_invalid_stop_sequences,
    drop_sampling_with_thinking,
    drop_unfixed_sampling,
    drop_unsupported_parameters,
    drop_unsupported_sampling,
    keep_one_sampling_parameter,
)
from normalizer.passes.thinking_budget import (
    fit_gemini_thinking_budget,
    fit_thinking_budget,
    fix_gemini_thinking_config,
)
from normalizer.passes.thinking_params import resolve_thinking_params
from normalizer.step import Step

OPTION_STEPS: dict[str, Step] = {
    "json_schema_as_json_mode": Step(json_schema_as_json_mode,
                                     ("response-format-type-unsupported",)),
    "mention_json_for_json_mode": Step(mention_json_for_json_mode,
                                       ("response-format-json-word",),
                                       ("json_schema_as_json_mode",)),
    "resolve_thinking_params": Step(resolve_thinking_params, ("thinking-param-conflict",)),
    "drop_unfixed_sampling": Step(drop_unfixed_sampling, ("sampling-parameter-fixed",),
                                  ("resolve_thinking_params",)),
    "drop_invalid_stop_sequences": Step(drop_invalid_stop_sequences, ("stop-sequence-invalid",)),
    "drop_unsupported_sampling": Step(drop_unsupported_sampling,
                                      ("sampling-parameter-unsupported",)),
    "drop_unsupported_parameters": Step(drop_unsupported_parameters,
                                        ("request-parameter-unsupported",)),
    # After the thinking settings are final (a budget or an effort may turn thinking on).
    "drop_sampling_with_thinking": Step(drop_sampling_with_thinking,
                                        ("sampling-parameter-with-thinking",),
                                        ("resolve_thinking_params",)),
    # A parameter left out needs no clamping.
    "clamp_sampling_parameters": Step(clamp_sampling_parameters,
                                      ("sampling-parameter-out-of-range",),
                                      ("drop_unsupported_sampling", "drop_unfixed_sampling",
                                       "drop_sampling_with_thinking")),
    # A model that takes no sampling parameter has none left to choose between; a clamped
    # one may be at its default.
    "keep_one_sampling_parameter": Step(keep_one_sampling_parameter,
                                        ("sampling-parameters-exclusive",),
                                        ("drop_unsupported_sampling", "drop_unfixed_sampling",
                                         "clamp_sampling_parameters")),
    "move_max_tokens": Step(move_max_tokens, ("max-tokens-field-unsupported",
                                              "max-completion-tokens-unsupported")),
    "fit_max_tokens": Step(fit_max_tokens, ("max-tokens-too-large", "max-tokens-too-small"),
                           ("move_max_tokens",)),
    "prompt_mode_as_reasoning_effort": Step(prompt_mode_as_reasoning_effort,
                                            ("prompt-mode-unsupported",)),
    # After the passes that write a field the target knows for one it does not.
    "drop_unknown_request_fields": Step(drop_unknown_request_fields,
                                        ("unknown-request-field",),
                                        ("prompt_mode_as_reasoning_effort", "move_max_tokens")),
    "move_request_fields": Step(move_request_fields, ("moved-request-field",)),
    # An effort the prompt mode became, or Chat's effort moved to reasoning.effort, is an
    # effort like any other.
    "drop_reasoning_effort": Step(drop_reasoning_effort, ("reasoning-effort-unsupported",),
                                  ("prompt_mode_as_reasoning_effort", "move_request_fields")),
    # The effort read first where adaptive thinking becomes a budget.
    "drop_effort": Step(drop_effort, ("effort-unsupported",), ("budget_thinking",)),
    "fit_reasoning_effort": Step(fit_reasoning_effort, ("reasoning-effort-value-unsupported",),
                                 ("prompt_mode_as_reasoning_effort", "move_request_fields",
                                  "drop_reasoning_effort", "drop_effort")),
    # A level fitted to the model's own first, then below the ones thinking off refuses.
    "fit_effort_to_thinking_off": Step(fit_effort_to_thinking_off, ("thinking-off-unsupported",),
                                       ("fit_reasoning_effort",)),
    # The level fitted to the model first; beside function tools none of them is taken.
    "reason_at_none_beside_tools": Step(reason_at_none_beside_tools,
                                        ("reasoning-effort-with-tools",),
                                        ("fit_reasoning_effort", "drop_reasoning_effort")),
    "fit_verbosity": Step(fit_verbosity, ("verbosity-value-unsupported",)),
    "adapt_thinking": Step(adapt_thinking, ("thinking-budget-unsupported",)),
    "budget_thinking": Step(budget_thinking, ("thinking-adaptive-unsupported",)),
    # A budget adaptive thinking replaced is no budget to fit.
    # A budget must stay below the limit the model takes.
    "fit_thinking_budget": Step(fit_thinking_budget, ("thinking-budget-too-small",
                                                      "thinking-budget-exceeds-max-tokens"),
                                ("adapt_thinking", "budget_thinking", "fit_max_tokens")),
    "fix_gemini_thinking_config": Step(fix_gemini_thinking_config,
                                       ("thinking-level-unsupported", "thinking-budget-and-level",
                                        "thinking-off-unsupported")),
    # A budget of 0 raised to a model's least budget is in range; one out of range is not 0.
    "fit_gemini_thinking_budget": Step(fit_gemini_thinking_budget,
                                       ("thinking-budget-out-of-range",),
                                       ("fix_gemini_thinking_config",)),
    # Thinking a budget pass switched off forces nothing: the choice stays as it was.
    "unforce_tool_choice_with_thinking": Step(unforce_tool_choice_with_thinking,
                                              ("tool-choice-with-thinking",),
                                              ("drop_unknown_tool_choice",
                                               "fit_thinking_budget")),
    "drop_json_response_type_with_tools": Step(drop_json_response_type_with_tools,
                                               ("response-format-with-tools",),
                                               ("declare_missing_tools",)),
}
