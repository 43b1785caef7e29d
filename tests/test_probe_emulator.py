"""`conformance probe` against loopback emulators serving profiles that are none of the
built-ins: the measured profile is the served one; the control-request failures exit with
their own code and say why; the written profile works at once with normalize, `check
--profile` and `run --providers-file`; the key is never shown."""

from __future__ import annotations

import json
import socket
from collections.abc import Iterator
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

import fast_yaml
import pytest
import yaml

from conformance.cli.main import main
from conformance.emulator import Emulator, serve
from conformance.probe import observe as probe
from conformance.probe.cases import probe_set
from normalizer import normalize, parse, render
from normalizer.check import check
from normalizer.profiles import Profile, load_profile
from normalizer.scope import scoped


@dataclass(frozen=True, slots=True)
class Variant:
    """A served profile: a built-in one with some rules switched off and some dropped."""

    base: str
    name: str
    model: str
    off: tuple[str, ...]
    drop: tuple[str, ...]

    def profile(self) -> Profile:
        base = load_profile(self.base)
        rules = tuple(replace(r, enforced=False) if r.id in self.off else r
                      for r in base.rules if r.id not in self.drop)
        return replace(base, provider=self.name, rules=rules, source_path=f"<{self.name}>")


VARIANTS = (
    # tool-call-id-too-long is dropped: OpenAI's limit is 64 since 2026-07-14, and the probe
    # sends 41 characters (it measures the common 40 limit), so it cannot see that rule.
    Variant("openai", "acme-chat", "gpt-4.1-mini", off=("tool-name-too-long",),
            drop=("empty-content", "tool-call-id-too-long")),
    # content-with-tool-calls is dropped: it holds for devstral only, not mistral-small.
    Variant("mistral", "acme-mistral", "mistral-small-latest",
            off=("tool-call-id-pattern", "role-order"),
            drop=("tool-name-invalid", "duplicate-tool-result", "content-with-tool-calls")),
    # Mistral's own id rule: exactly 9 characters. The id-length search's floor (1 character)
    # breaks it as much as its ceiling does, so that rule is measured moot, not inconclusive.
    Variant("mistral", "acme-mistral-ids", "mistral-large-latest", off=(), drop=()),
    # verbosity-value-unsupported is dropped: its words are unknown, so the emulator answers
    # placeholder words the probe writes as they came, without the rule's params.supported.
    Variant("openai_responses", "acme-responses", "gpt-4.1-mini",
            off=("assistant-content-type",),
            drop=("reasoning-item-orphan", "verbosity-value-unsupported")),
    Variant("anthropic", "acme-messages", "claude-haiku-4-5",
            off=("thinking-signature-invalid", "tools-not-declared"),
            drop=("empty-text-block",)),
    # tool-arguments-not-object is dropped: google-genai refuses a string functionCall.args
    # before sending, so no probe through the SDK can observe it (inconclusive by design);
    # so are unknown-message-field and unknown-block-field (google-genai refuses a content
    # or part field it does not know), conversation-empty (it refuses empty contents) and
    # image-data-not-base64 (it refuses inline data that is not base64).
    # response-format-with-tools is dropped: it holds for Gemini 2.5 only, and this variant
    # serves gemini-3-pro-preview, which accepts the JSON type with tools.
    Variant("gemini", "acme-gemini", "gemini-3-pro-preview", off=("call-turn-placement",),
            drop=("tool-schema-unsupported", "tool-arguments-not-object",
                  "response-format-with-tools", "unknown-message-field",
                  "unknown-block-field", "conversation-empty", "image-data-not-base64")),
)
BY_NAME = {v.name: v for v in VARIANTS}
STRICT_CONTROL = "acme-strict"  # its id-length limit rejects the valid control request


def strict_profile() -> Profile:
    base = load_profile("openai")
    rules = tuple(replace(r, params=r.params.merged(max_length=5))
                  if r.id == "tool-call-id-too-long" else r for r in base.rules)
    return replace(base, provider=STRICT_CONTROL, rules=rules)


@pytest.fixture(scope="module")
def emu() -> Iterator[Emulator]:
    with serve([v.profile() for v in VARIANTS] + [strict_profile()]) as running:
        yield running


def probe_args(emu: Emulator, variant: Variant, out: Path, *extra: str) -> list[str]:
    return ["probe", "--protocol", emu.protocol(variant.name), "--base-url",
            emu.sdk_base_url(variant.name), "--model", variant.model, "--name", variant.name,
            "--out", str(out), *extra]


@pytest.fixture(scope="module")
def probed(emu: Emulator, tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    """Each variant probed once (through the CLI); name -> the written profile."""
    folder = tmp_path_factory.mktemp("probed")
    written = {}
    for variant in VARIANTS:
        out = folder / f"{variant.name}.yaml"
        assert main(probe_args(emu, variant, out)) == 0, variant.name
        written[variant.name] = out
    return written


def enforced(profile: Profile) -> dict[str, tuple[str, Any, Any]]:
    """Each enforced rule id's message, error and params: of two copies that hold together
    (OpenAI's content-type-unsupported, audio and image types), the first, which is the one
    the probe's single case per rule measures (docs/probe.md)."""
    found: dict[str, tuple[str, Any, Any]] = {}
    for r in profile.rules:
        if r.enforced and r.id not in found:
            found[r.id] = (r.message, r.error.thaw(), r.params.thaw())
    return found


@pytest.mark.parametrize("name", list(BY_NAME))
def test_probe_measures_exactly_the_served_profile(name: str, probed: dict[str, Path]) -> None:
    # What the emulator serves for the variant's model: of a rule's model-scoped copies, the
    # one that holds for it (gemini's orphan-tool-result has a gemini-2.5-flash copy).
    served = scoped(BY_NAME[name].profile(), model=BY_NAME[name].model)
    measured = load_profile(probed[name])
    assert measured.provider == name and measured.protocol == served.protocol
    # A case whose bodies both break a rule the endpoint enforces for this model is moot:
    # written lenient, saying so (gpt-4.1-mini refuses every reasoning item, so the
    # Responses reasoning rules cannot be measured with it).
    cases = probe_set(served.protocol).sendable
    moot = {c.rule for c in cases if c.moot_if and {
        v.rule for v in check(c.accept.thaw(), served, model=BY_NAME[name].model)}
        & set(c.moot_if)}
    expected = {k: v for k, v in enforced(served).items() if k not in moot}
    assert enforced(measured) == expected
    rules = {c.rule for c in cases}
    lenient = {r.id for r in measured.rules if not r.enforced}
    assert lenient == rules - set(expected)
    url = fast_yaml.load(probed[name].read_text())["probed"]["base_url"]
    for rule in measured.rules:
        assert rule.confidence == "high" and rule.last_verified == rule.observed["date"]
        assert rule.source == f"probe of {url} on {rule.last_verified}"
        covered = rule.notes.startswith(("Not enforced on its own: rejected as",
                                         "Not enforced on its own: both requests refused"))
        assert rule.observed["verdict"] == ("reject" if rule.enforced or covered else "accept")


def test_an_exact_length_id_pattern_makes_the_id_length_limit_moot(
        probed: dict[str, Path]) -> None:
    # Every id the length search sends (1 to 256 characters but 9) breaks Mistral's
    # exactly-9 pattern: the limit cannot be found, and the probe says why (it exited 0).
    rule = load_profile(probed["acme-mistral-ids"]).rule("tool-call-id-too-long")
    assert rule is not None and not rule.enforced
    assert "tool-call-id-pattern" in rule.notes and "cannot be measured" in rule.notes
    assert "with a length of 9" in rule.observed["text"]


def test_effort_levels_are_measured_on_a_model_that_reasons_and_moot_on_one_that_does_not(
        emu: Emulator, probed: dict[str, Path], tmp_path: Path) -> None:
    # gpt-4.1-mini refuses reasoning_effort as a field, so both the refused level and its
    # neighbour are refused: the level rule cannot be measured there, and says so, exit 0.
    level, field = "reasoning-effort-value-unsupported", "reasoning-effort-unsupported"
    mini = load_profile(probed["acme-chat"])
    moot, refused = mini.rule(level), mini.rule(field)
    assert moot is not None and refused is not None and refused.enforced
    assert not moot.enforced and moot.observed["verdict"] == "reject"
    assert "cannot be measured with this model" in moot.notes and field in moot.notes
    # gpt-5.1 takes an effort, not every level: the rule is measured, in the served words.
    out = tmp_path / "gpt-5.1.yaml"
    assert main(probe_args(emu, replace(BY_NAME["acme-chat"], model="gpt-5.1"), out)) == 0
    measured = load_profile(out)
    served = scoped(BY_NAME["acme-chat"].profile(), model="gpt-5.1").rule(level)
    found, unrefused = measured.rule(level), measured.rule(field)
    assert served is not None and found is not None and unrefused is not None
    assert found.enforced and found.message == served.message
    assert not unrefused.enforced


def test_written_profile_normalizes_like_the_served_one(probed: dict[str, Path]) -> None:
    variant = BY_NAME["acme-chat"]
    case = probe_set("openai_chat").case("orphan-tool-result")
    assert case is not None
    history = parse({"model": variant.model, **case.reject.thaw()}, "openai_chat")
    measured = normalize(history, load_profile(str(probed[variant.name])))
    assert measured.history == normalize(history, variant.profile()).history
    assert measured.changes
    assert check(render(measured.history, "openai_chat"), measured.profile) == ()


def test_written_profile_works_with_check_profile(probed: dict[str, Path], tmp_path: Path,
                                                  capsys: Any) -> None:
    case = probe_set("anthropic").case("missing-tool-result")
    assert case is not None
    body = tmp_path / "body.json"
    body.write_text(json.dumps({"model": "claude-haiku-4-5", **case.reject.thaw()}))
    profile = str(probed["acme-messages"])
    assert main(["check", str(body), "--profile", profile]) == 1
    assert "`tool_use` ids were found without `tool_result` blocks" in capsys.readouterr().out
    body.write_text(json.dumps({"model": "m", **probe_set("anthropic").control.thaw()}))
    assert main(["check", str(body), "--profile", profile]) == 0


def test_written_profile_works_with_run_providers_file(probed: dict[str, Path],
                                                       tmp_path: Path) -> None:
    providers = tmp_path / "providers.yaml"
    providers.write_text(yaml.safe_dump({"providers": [{
        "name": "acme", "protocol": "openai_chat", "base_url": "http://127.0.0.1:9/v1",
        "model": "gpt-4.1-mini", "profile": str(probed["acme-chat"])}]}))
    out = tmp_path / "report"
    assert main(["run", "--providers-file", str(providers), "--provider", "acme",
                 "--backend", "emulator", "--mode", "normalized", "-k", "pairing/orphan",
                 "--out", str(out)]) == 0
    results = json.loads((out / "strictness.json").read_text())
    rows = results["results"] if isinstance(results, dict) else results
    assert rows and all(r["verdict"] == "accept" for r in rows)


def test_control_rejected_stops_with_its_exit_code(emu: Emulator, tmp_path: Path,
                                                   capsys: Any) -> None:
    variant = replace(VARIANTS[0], name=STRICT_CONTROL)
    out = tmp_path / "strict.yaml"
    assert main(probe_args(emu, variant, out)) == probe.EXIT_CONTROL_REJECTED
    err = capsys.readouterr().err
    assert "control request failed: a valid request was rejected" in err
    assert "string too long. Expected a string with maximum length 5" in err
    assert not out.exists()


def test_wrong_port_and_wrong_path_stop_with_their_exit_codes(emu: Emulator, tmp_path: Path,
                                                              capsys: Any) -> None:
    with socket.socket() as sock:  # a port nothing listens on
        sock.bind(("127.0.0.1", 0))
        port = sock.getsockname()[1]
    out = tmp_path / "none.yaml"
    args = ["probe", "--protocol", "openai_chat", "--model", "m", "--out", str(out),
            "--base-url"]
    assert main([*args, f"http://127.0.0.1:{port}/v1"]) == probe.EXIT_UNREACHABLE
    assert "the endpoint cannot be reached" in capsys.readouterr().err
    assert main([*args, emu["acme-chat"]]) == probe.EXIT_NOT_FOUND  # no /v1
    assert "Check --base-url" in capsys.readouterr().err
    assert not out.exists()


def test_key_comes_from_the_variable_and_is_never_shown(emu: Emulator, tmp_path: Path,
                                                        capsys: Any,
                                                        monkeypatch: pytest.MonkeyPatch) -> None:
    secret = "sk-" + "probe-secret-0123456789"
    variant = BY_NAME["acme-responses"]
    out = tmp_path / "keyed.yaml"
    monkeypatch.delenv("ACME_KEY", raising=False)
    assert main(probe_args(emu, variant, out, "--api-key-env", "ACME_KEY")) == 2
    assert "ACME_KEY is not set" in capsys.readouterr().err
    monkeypatch.setenv("ACME_KEY", secret)
    assert main(probe_args(emu, variant, out, "--api-key-env", "ACME_KEY",
                           "--concurrency", "1")) == 0
    shown = capsys.readouterr()
    assert secret not in shown.out + shown.err + out.read_text()


def test_dry_run_lists_every_request_and_sends_none(emu: Emulator, tmp_path: Path,
                                                    capsys: Any) -> None:
    before = emu.stats
    variant = BY_NAME["acme-gemini"]
    out = tmp_path / "dry.yaml"
    assert main(probe_args(emu, variant, out, "--dry-run")) == 0
    printed = capsys.readouterr().out
    for case in probe_set("gemini").cases:
        shown = f"{case.rule}: breaking request" in printed
        assert shown != bool(case.unsendable), case.rule
    assert emu.stats == before and not out.exists()
