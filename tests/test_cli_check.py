"""`conformance check`: exit 0 clean, 1 violations, 2 unreadable input; and docs/generated/rules.md
is generated from the profiles (fresh)."""

from __future__ import annotations

import contextlib
import io
import json
import subprocess
import sys
from pathlib import Path

from conformance.cli.main import main
from conformance.probe.cases import RULES_DIR
from conformance.publish.rules_doc import OUT, render
from normalizer.profiles import builtin_profiles

CASES = RULES_DIR  # the rule cases: conformance/probe/cases/rules (the one copy)


def run(*args: str, stdin: str | None = None) -> subprocess.CompletedProcess[str]:
    """`conformance check ARGS` in this process (the command's own main, its streams
    redirected): a subprocess per call spent a second importing. The console script itself
    is run by tests/test_foundation.py and tests/test_cli_closed_pipe.py."""
    out, err = io.StringIO(), io.StringIO()
    saved = sys.stdin
    sys.stdin = io.StringIO(stdin or "")
    try:
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
            code = main(["check", *args])
    except SystemExit as exc:  # argparse's own refusals
        code = exc.code if isinstance(exc.code, int) else 2
    finally:
        sys.stdin = saved
    return subprocess.CompletedProcess(["conformance", "check", *args], code,
                                       out.getvalue(), err.getvalue())


def test_clean_body_exits_0(tmp_path: Path) -> None:
    body = {"model": "m", "max_tokens": 16, "messages": [{"role": "user", "content": "hi"}]}
    path = tmp_path / "b.json"
    path.write_text(json.dumps(body))
    out = run(str(path), "--provider", "anthropic")
    assert out.returncode == 0 and "anthropic: no violation" in out.stdout


def test_violations_exit_1_with_vendor_text_from_stdin() -> None:
    body = {"model": "gpt-4.1", "messages": [{"role": "tool", "tool_call_id": "c1",
                                              "content": "x"}]}
    out = run("-", "--provider", "openai", stdin=json.dumps(body))
    assert out.returncode == 1
    assert "[orphan-tool-result] HTTP 400" in out.stdout and "preceeding" in out.stdout


def test_json_output() -> None:
    body = {"model": "gpt-4.1", "messages": [{"role": "tool", "tool_call_id": "c1",
                                              "content": "x"}]}
    out = run("-", "--provider", "openai", "--json", stdin=json.dumps(body))
    found = json.loads(out.stdout)
    assert found[0]["rule"] == "orphan-tool-result" and found[0]["location"].startswith(
        "messages[0]")


def test_unreadable_input_exits_2(tmp_path: Path) -> None:
    bad = tmp_path / "bad.json"
    bad.write_text('{"model": "m",\n "messages": [}')
    out = run(str(bad), "--provider", "openai")
    assert out.returncode == 2 and f"{bad}:2:" in out.stderr and "not valid JSON" in out.stderr
    assert run(str(tmp_path / "none.json"), "--provider", "openai").returncode == 2
    array = run("-", "--provider", "openai", stdin="[1]")
    assert array.returncode == 2 and "expected a JSON object" in array.stderr


def test_profile_file_and_unknown_provider(tmp_path: Path) -> None:
    assert run("-", "--profile", str(tmp_path / "x.yaml"), stdin="{}").returncode == 2
    assert run("-", "--provider", "nope", stdin="{}").returncode == 2


def test_rules_table_is_generated_and_fresh() -> None:
    assert OUT.read_text(encoding="utf-8") == render(builtin_profiles()), (
        "docs/generated/rules.md is stale: run python -m conformance.publish.rules_doc")


def test_a_guess_without_a_model_is_said() -> None:
    # A Gemini body names no model: a rule for some models only (thinking for Gemini 2.0 and
    # 1.5) is applied as the vendor may enforce it, and stderr says it was a guess.
    body = {"contents": [{"role": "user", "parts": [{"text": "hi"}]}],
            "generationConfig": {"thinkingConfig": {"thinkingBudget": 1024}}}
    out = run("-", "--provider", "gemini", stdin=json.dumps(body))
    assert out.returncode == 1 and "[reasoning-effort-unsupported]" in out.stdout
    assert out.stderr == ("conformance check: no model given (--model), so rules that hold "
                          "for some models only were applied, as the vendor may enforce "
                          "them: reasoning-effort-unsupported\n")
    out = run("-", "--provider", "gemini", "--model", "gemini-2.5-flash",
              stdin=json.dumps(body))
    assert (out.returncode, out.stderr) == (0, "")
    plain = {"model": "gpt-4.1", "messages": [{"role": "tool", "tool_call_id": "c1",
                                               "content": "x"}]}
    assert run("-", "--provider", "openai", stdin=json.dumps(plain)).stderr == ""
