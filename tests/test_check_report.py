"""check() turns each finding into a violation with one reporter per rule (normalizer/check.py
`_reporter`), which fills once per rule what does not depend on the finding. It must give
exactly what filling every template per violation gives (the definition, written out here),
for templates with and without fields, `{location}` in its forms, escaped braces, unknown
fields, and text that is not a format string."""

from __future__ import annotations

from typing import Any

import pytest

from normalizer.check import Finding, Violation, _reporter, fill
from normalizer.model import JsonMap
from normalizer.profiles import Rule

TEMPLATES = ("unknown", "plain text", "id {id} at {index}", "at {location}",
             "first {location[0]}", "braces {{kept}}", "missing {nope}", "broken {",
             "positional {0}", "attr {location.upper}", "{id!r:>12}")
FINDINGS = (Finding("messages[3]", {"id": "x", "index": 3}),
            Finding("messages[4]", {"location": "given", "id": 7}), Finding("body"))


def by_definition(rule: Rule, finding: Finding) -> Violation:
    fields: dict[str, Any] = {**finding.fields}
    fields.setdefault("location", finding.location)
    error = {k: (fill(v, fields) if isinstance(v, str) else v) for k, v in rule.error.items()}
    return Violation(rule=rule.id, location=finding.location, status=rule.status,
                     message=fill(rule.message, fields), error=JsonMap(error),
                     confidence=rule.confidence, source=rule.source)


@pytest.mark.parametrize("message", TEMPLATES)
@pytest.mark.parametrize("param", [None, "messages.{index}", "{location}", "fixed"])
def test_reporter_gives_what_filling_each_violation_gives(message: str, param: str | None
                                                          ) -> None:
    rule = Rule(id="r", forbids="", status=400, message=message, source="s", last_verified="",
                confidence="high", error=JsonMap({"type": "invalid", "param": param,
                                                  "code": 3}))
    report = _reporter(rule)
    for finding in FINDINGS:
        assert report(finding) == by_definition(rule, finding)
