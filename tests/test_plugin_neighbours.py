"""The plugin in someone else's project: it loads for every pytest run where the package is
installed, so it must mind its own business. A user-shaped project (its own
`tests/scenarios/*.yaml` of another format, a test that opens a non-loopback socket) runs
with and without our scenario items, next to pytest-recording. Inner runs are subprocesses,
so the plugins load from their entry points as they would for a user."""

from __future__ import annotations

import re
import shutil
import subprocess
import sys
import textwrap
from importlib.metadata import entry_points
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parent.parent
SCENARIO = "pairing/orphan-tool-result"
# The user's own socket test. 192.0.2.1 is TEST-NET-1 (RFC 5737): never routed, so the
# attempt fails (timeout or unreachable) without reaching any network. Our guard would
# refuse it at getaddrinfo with NetworkBlockedError; the test says which it met.
USER_TESTS = '''
import socket


def test_app_reaches_its_ci_host():
    assert socket.getaddrinfo.__module__ == "socket"
    assert socket.socket.connect.__qualname__ == "socket.connect"
    try:
        socket.create_connection(("192.0.2.1", 9), timeout=0.01).close()
    except OSError as exc:
        assert type(exc).__name__ != "NetworkBlockedError", exc
        assert "provider-conformance" not in str(exc), exc


def test_app_options(request):
    assert request.config.getoption("--conformance-record-mode") == "none"
'''
USER_YAML = "steps:\n  - visit: /login\n  - expect: {status: 200}\n"


@pytest.fixture
def project(pytester: pytest.Pytester) -> pytest.Pytester:
    """A user's project: their tests, their own `scenarios` folder, no opt-in yet."""
    pytester.makepyfile(**{"tests/test_app": USER_TESTS})
    own = pytester.path / "tests" / "scenarios"
    own.mkdir()
    (own / "login.yaml").write_text(USER_YAML, encoding="utf-8")
    (own / "signup.yml").write_text("title: 3\nhistory: nope\n", encoding="utf-8")
    return pytester


def opt_in(project: pytest.Pytester, *, wrong_raw: bool) -> None:
    """Our scenario and its two OpenAI cassettes, in a folder the project names. With
    `wrong_raw` the raw item expects accept, so it fails against the recorded reject."""
    text = (REPO / "scenarios" / f"{SCENARIO}.yaml").read_text(encoding="utf-8")
    if wrong_raw:
        text = text.replace("raw: {openai: reject", "raw: {openai: accept")
    target = project.path / "provider_checks" / f"{SCENARIO}.yaml"
    target.parent.mkdir(parents=True)
    target.write_text(text, encoding="utf-8")
    for mode in ("raw", "normalized"):
        cassette = Path("cassettes", "openai", f"{SCENARIO}.{mode}.yaml")
        (project.path / cassette).parent.mkdir(parents=True, exist_ok=True)
        shutil.copy(REPO / cassette, project.path / cassette)
    project.makeini("[pytest]\ntestpaths = provider_checks tests\n"
                    "conformance_scenarios = provider_checks\n")


def test_a_project_that_did_not_opt_in_sees_nothing(project: pytest.Pytester) -> None:
    project.makeini("[pytest]\ntestpaths = tests\n")
    result = project.runpytest_subprocess("-p", "no:cacheprovider", "-v")
    result.assert_outcomes(passed=2)
    out = result.stdout.str()
    assert "scenarios/login.yaml" not in out and "signup.yml" not in out
    # Its options are all prefixed: tests/test_options.py reads them off the table.


def test_scenario_items_run_and_leave_the_users_tests_alone(project: pytest.Pytester) -> None:
    opt_in(project, wrong_raw=True)
    # pytest-recording is loaded too: its --record-mode and ours are different options.
    result = project.runpytest_subprocess(
        "-p", "no:cacheprovider", "-rA", "--conformance-provider", "openai",
        "--conformance-backend", "cassette", "--record-mode", "none",
        "--conformance-record-mode", "none")
    out = result.stdout.str()
    # Scenario items run first (testpaths order): the raw one fails, and the guard it ran
    # under is gone for the user's socket test that follows.
    result.assert_outcomes(passed=3, failed=1)
    ours = "provider_checks/pairing/orphan-tool-result.yaml::openai"
    assert f"PASSED {ours}[normalized]" in out and f"FAILED {ours}[raw]" in out
    assert "expected accept, got reject" in out
    assert "PASSED tests/test_app.py::test_app_reaches_its_ci_host" in out
    assert "login.yaml" not in out and "signup.yml" not in out


def test_pytest_recording_and_the_plugin_share_a_command_line(
        project: pytest.Pytester) -> None:
    project.makepyfile(**{"tests/test_recording": '''
        def test_both_options_understood(request):
            manager = request.config.pluginmanager
            assert manager.hasplugin("recording") and manager.hasplugin("conformance")
            assert request.config.getoption("--record-mode") == "none"
            assert request.config.getoption("--conformance-record-mode") == "none"
        '''})
    opt_in(project, wrong_raw=False)
    result = project.runpytest_subprocess("-p", "no:cacheprovider", "tests/test_recording.py",
                                          "--record-mode", "none",
                                          "--conformance-record-mode", "none")
    result.assert_outcomes(passed=1)


def test_without_the_suites_dependencies_a_bystander_notices_nothing(
        project: pytest.Pytester, monkeypatch: pytest.MonkeyPatch) -> None:
    """The library may be installed without the suite: SDKs, vcrpy and pydantic missing.
    Each is shadowed by a package that refuses to import (pytest-recording needs vcrpy, so
    it would be absent as well)."""
    blocked = project.path / "blocked"
    for name in ("vcr", "openai", "anthropic", "google", "pydantic"):
        (blocked / name).mkdir(parents=True)
        (blocked / name / "__init__.py").write_text(f"raise ImportError('{name} blocked')\n")
    monkeypatch.setenv("PYTHONPATH", str(blocked))
    project.makeini("[pytest]\ntestpaths = tests\n")
    absent = [arg for name in _plugins_needing(SUITE_DISTRIBUTIONS) for arg in ("-p", f"no:{name}")]
    result = project.runpytest_subprocess("-p", "no:cacheprovider", *absent)
    result.assert_outcomes(passed=2)


# The distributions the library-only install lacks (the packages blocked above).
SUITE_DISTRIBUTIONS = frozenset({"vcrpy", "openai", "anthropic", "google-genai", "pydantic"})


def _plugins_needing(distributions: frozenset[str]) -> list[str]:
    """The auto-loaded pytest plugins of other installed packages that require one of
    `distributions`: without them those packages would be absent too (pytest-recording
    needs vcrpy; langsmith, which langchain-core of the `bench` extra brings, needs
    pydantic)."""
    found = []
    for point in entry_points(group="pytest11"):
        dist = point.dist
        if dist is None or dist.name == "provider-conformance":
            continue
        needs = {re.split(r"[\s;<>=!~\[(]", req, maxsplit=1)[0].lower().replace("_", "-")
                 for req in dist.requires or () if "extra ==" not in req}
        if needs & distributions:
            found.append(point.name)
    return sorted(set(found))


def test_loading_the_plugin_imports_nothing_heavy() -> None:
    code = textwrap.dedent("""
        import sys
        import conformance.pytest_plugin.hooks
        heavy = {"vcr", "openai", "anthropic", "google", "pydantic", "yaml", "normalizer"}
        print(sorted(m for m in sys.modules if m.split(".")[0] in heavy
                     or m.startswith(("conformance.backends", "conformance.pytest_plugin.c"))))
    """)
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         check=True).stdout
    assert out.strip() == "[]"
