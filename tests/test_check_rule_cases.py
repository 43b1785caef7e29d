"""check() against every built-in profile through the shared rule cases
(conformance/probe/cases/rules/<provider>.yaml): each enforced rule has a case and a detector; the
`reject` body fails first on that rule with its status, a location and a filled message;
the `accept` neighbour passes; every template field is filled by the detector; the valid
multi-tool conversation of each protocol passes, also after parse -> render; and wrong types
anywhere in it never crash a detector. Protocol-specific behaviour is in test_check_<protocol>.py.
"""

from __future__ import annotations

import contextlib
import copy
import re
from collections.abc import Iterator
from typing import Any

import fast_yaml
import pytest

import normalizer
from conformance.probe.cases import RULES_DIR
from normalizer.check import check, detectors, template_fields
from normalizer.errors import WireFormatError
from normalizer.profiles import PROVIDERS, load_profile
from normalizer.scope import scoped
from normalizer.tools import parse_declarations

CASES = RULES_DIR  # the rule cases: conformance/probe/cases/rules (the one copy)
LEFTOVER = re.compile(r"\{[a-z_]+\}")  # a template field the detector did not fill


def cases(provider: str) -> list[dict[str, Any]]:
    return fast_yaml.load((CASES / f"{provider}.yaml").read_text(encoding="utf-8")) or []


def valid(protocol: str) -> dict[str, Any]:
    return fast_yaml.load((CASES / f"valid_{protocol}.yaml").read_text(encoding="utf-8"))


ALL = [pytest.param(p, c, id=f"{p}-{c['rule']}") for p in PROVIDERS for c in cases(p)]


@pytest.mark.parametrize(("provider", "case"), ALL)
def test_reject_case_fails_first_on_its_rule(provider: str, case: dict[str, Any]) -> None:
    # The copy that holds today for the case's model (a rule may have copies scoped by date
    # or model, as check() keeps them).
    rule = scoped(load_profile(provider), model=case.get("model")).rule(case["rule"])
    assert rule is not None and rule.enforced
    found = check(case["reject"], provider, model=case.get("model"))
    assert found, "the reject body passed"
    first = found[0]
    assert (first.rule, first.status) == (rule.id, rule.status)
    texts = [first.message, *(v for v in first.error.values() if isinstance(v, str))]
    assert first.location and not any(LEFTOVER.search(text) for text in texts)


@pytest.mark.parametrize(("provider", "case"), ALL)
def test_accept_case_passes(provider: str, case: dict[str, Any]) -> None:
    assert check(case["accept"], provider, model=case.get("model")) == ()


@pytest.mark.parametrize(("provider", "case"), ALL)
def test_detector_fills_every_template_field(provider: str, case: dict[str, Any]) -> None:
    profile = load_profile(provider)
    rule = profile.rule(case["rule"])
    assert rule is not None
    detect = detectors(profile.protocol)[rule.id]
    model = case.get("model") or case["reject"].get("model")  # as check() defaults it
    finding = next(iter(detect(case["reject"], rule, model)))
    wanted: set[str] = set()
    for said in (rule, *rule.wordings):  # a wording's words are filled from the same finding
        wanted |= set(template_fields(said.message))
        for value in (said.error or rule.error).values():
            wanted |= set(template_fields(value)) if isinstance(value, str) else set()
    assert wanted <= {*finding.fields, "location"}


@pytest.mark.parametrize("provider", PROVIDERS)
def test_every_enforced_rule_has_one_case_and_a_detector(provider: str) -> None:
    profile = scoped(load_profile(provider))  # the rules that hold today (normalizer/scope.py)
    enforced = sorted({r.id for r in profile.rules if r.enforced})  # scoped copies: one case
    assert enforced == sorted(case["rule"] for case in cases(provider))
    assert set(enforced) <= set(detectors(profile.protocol))


@pytest.mark.parametrize("provider", PROVIDERS)
def test_valid_conversation_passes(provider: str) -> None:
    assert check(valid(load_profile(provider).protocol), provider) == ()


@pytest.mark.parametrize("provider", PROVIDERS)
def test_a_faithful_render_of_the_valid_body_still_passes(provider: str) -> None:
    """parse -> render keeps a valid body valid (the wire modules and the checks agree)."""
    protocol = load_profile(provider).protocol
    body = valid(protocol)
    history = normalizer.parse(body, protocol)
    tools = parse_declarations(body.get("tools") or [], protocol)
    options = {k: body[k] for k in ("store", "include", "max_tokens") if k in body}
    rendered = normalizer.render(history, protocol, tools=tools, model=body.get("model"),
                                 options=options)
    assert check(rendered, provider) == ()


def _paths(value: Any, path: tuple[Any, ...] = ()) -> Iterator[tuple[Any, ...]]:
    yield path
    items = value.items() if isinstance(value, dict) else enumerate(value) \
        if isinstance(value, list) else ()
    for key, sub in items:
        yield from _paths(sub, (*path, key))


def _replaced(body: Any, path: tuple[Any, ...], new: Any) -> Any:
    out = copy.deepcopy(body)
    target = out
    for key in path[:-1]:
        target = target[key]
    target[path[-1]] = new
    return out


@pytest.mark.parametrize("provider", ["openai", "openai_responses", "anthropic", "gemini",
                                      "mistral", "groq"])
@pytest.mark.parametrize("new", [None, 7, "x", [], {}, [None]])
def test_wrong_types_anywhere_do_not_crash(provider: str, new: Any) -> None:
    body = valid(load_profile(provider).protocol)
    for path in list(_paths(body))[1:]:  # the root stays a mapping
        with contextlib.suppress(WireFormatError):  # off the skeleton: unreadable
            check(_replaced(body, path, new), provider)
