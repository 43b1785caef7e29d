"""Detectors, one module per wire protocol. Each module exports
`DETECTORS: dict[str, Detector]` mapping a rule id (normalizer.rules) to a function
`(body, rule) -> Iterable[Finding]`. Detectors read the body as sent and the rule's
`params`; they never decide wording (that is the profile's message template)."""
