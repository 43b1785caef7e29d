"""Long base64 data written short (conformance/sized_yaml.py): `!base64-of-length {head,
length}` in rule cases, evidence and scenarios reads as the head and "A"s, a probe's
evidence files write such data back as the tag, and a bad tag is a located error."""

from __future__ import annotations

import base64

import pytest

from conformance.probe.cases import probe_set, rule_cases
from conformance.scenarios.safe_yaml import read_yaml
from conformance.sized_yaml import TAG, dump, filled, safe_load

HEAD = ("iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAIAAACQd1PeAAAADElEQVR4nGP4//8/AAX+Av4N70a4AAAAAElF"
        "TkSuQmCC")


def test_the_tag_reads_as_the_head_and_zeros_in_valid_base64() -> None:
    data = safe_load(f"data: {TAG} {{head: '{HEAD}', length: 100000}}\n")["data"]
    assert len(data) == 100_000 and data.startswith(HEAD)
    decoded = base64.b64decode(data, validate=True)
    assert decoded.startswith(base64.b64decode(HEAD)) and not decoded[70:].strip(b"\0")


def test_a_long_filled_string_is_written_as_the_tag_and_read_back_the_same() -> None:
    doc = {"long": filled(HEAD, 70_000), "short": filled(HEAD, 200),
           "noise": "xyz" * 30_000}  # long, but not filler: written as it is
    text = dump(doc, sort_keys=False)
    assert text.count(TAG) == 1 and len(text) < 100_000
    assert safe_load(text) == doc


def test_the_rule_case_and_the_probe_case_hold_the_whole_length() -> None:
    (case,) = [c for c in rule_cases("anthropic") if c["rule"] == "image-too-large"]
    data = case["reject"]["messages"][0]["content"][1]["source"]["data"]
    assert len(data) == 10_485_761
    probed = probe_set("anthropic").case("image-too-large")
    assert probed is not None
    assert probed.reject["messages"][0]["content"][1]["source"]["data"] == data


@pytest.mark.parametrize(("value", "words"), [
    ("5", "takes a mapping {head: <base64 text>, length: <characters>}"),
    ("{head: 1, length: 5}", "head must be a string, got 1"),
    ("{head: ab, length: '9'}", "length must be an integer, got '9'"),
    ("{head: abcd, length: 2}", "length must be between the head's length (4) and "
                                "67,108,864, got 2"),
    ("{head: ab, length: 999999999999}", "got 999,999,999,999"),
    ("{head: ab, length: 3, tail: x}", "takes only head and length, not ['tail']"),
])
def test_a_bad_tag_is_refused_with_its_line_and_column(value: str, words: str) -> None:
    node, data, problems = read_yaml(f"title: t\nwire:\n  data: {TAG} {value}\n")
    assert node is None and data is None
    (problem,) = problems
    assert (problem.line, problem.col) == (3, 9)
    assert words in problem.message


def test_other_tags_stay_refused() -> None:
    _, _, problems = read_yaml("about: !include other.yaml\n")
    assert [p.message for p in problems] == [
        f"tag !include refused: scenarios use plain YAML values (and {TAG} for long base64 "
        "data)"]
