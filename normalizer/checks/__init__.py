"""Detectors, one module per wire protocol (`openai_chat` spreads over several files). Each
module exports `DETECTORS: dict[str, Detector]` mapping a rule id (normalizer.rules) to a
function `(body, rule, model) -> Iterable[Finding]` (`normalizer.check.Detector`; `model`
is the model the request is for, or None when unknown). Detectors read the body as sent
and the rule's `params`; they never decide wording (that is the profile's message
template)."""
