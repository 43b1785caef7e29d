"""Every subcommand over a list of bad inputs (issue 14, reliability): never a traceback,
always a one-line error on stderr and an exit code from the documented set (README,
"Exit codes"): 0 clean, 1 violations/failures, 2 unreadable input, arguments or profile."""

from __future__ import annotations

from pathlib import Path

import pytest

from conformance.cli.main import main

DEEP = "[" * 5000 + "]" * 5000
DEEP_IN_BODY = '{"model": "m", "messages": [{"role": "user", "content": ' + DEEP + "}]}"
SURROGATE = '{"model": "m\\ud800", "messages": [{"role": "user", "content": "hi \\udc00"}]}'
NAN = '{"model": "m", "messages": [{"role": "user", "content": "hi"}], "temperature": NaN}'
INF = '{"model": "m", "messages": [{"role": "user", "content": "hi"}], "top_p": -Infinity}'

# name -> file content (str, bytes, or None for "a directory")
FILES: dict[str, str | bytes | None] = {
    "empty.json": "",
    "garbage.json": "{not json",
    "array.json": "[1, 2]",
    "number.json": "7",
    "deep.json": DEEP,
    "deep-in-body.json": DEEP_IN_BODY,
    "deep-object.json": '{"a": ' * 3000 + "1" + "}" * 3000,
    "surrogate.json": SURROGATE,
    "nan.json": NAN,
    "inf.json": INF,
    "latin1.json": b'{"model": "caf\xe9"}',
    "messages-number.json": '{"model": "m", "messages": 3}',
    "adir.json": None,
}
STRICTNESS = {
    "r-list.json": "[]",
    "r-results-number.json": '{"results": 3}',
    "r-results-strings.json": '{"results": ["x", 1, null]}',
    "r-results-empty-objects.json": '{"results": [{}, {"provider": 1}]}',
    "r-results-partial.json": '{"results": [{"provider": "p", "mode": "raw", "verdict": "x"}]}',
    "r-odd-values.json": ('{"results": [{"id": "a", "mode": "weird", "predicted": "?", '
                          '"provider": "p<x>", "scenario": "s", "title": "t", "topic": "t", '
                          '"verdict": "bogus"}]}'),
    "r-results-wrong-types.json": ('{"results": [{"provider": ["p"], "mode": 1, "verdict": {},'
                                   ' "topic": null, "scenario": 2, "predicted": [],'
                                   ' "source": "s", "problem": 3}]}'),
}
YAMLS = {
    "bad-profile.yaml": "provider: [\n",
    "list-profile.yaml": "- 1\n",
    "bomb-profile.yaml": "a: &a [1, 1]\nb: &b [*a, *a]\n",
    "providers-list.yaml": "- x\n",
    "providers-bad.yaml": "providers:\n  - {name: x, protocol: nope, base_url: u, model: m}\n",
    "scenario-tag.yaml": "title: !!python/object:os.system x\n",
}


@pytest.fixture(scope="module")
def folder(tmp_path_factory: pytest.TempPathFactory) -> Path:
    tmp_path = tmp_path_factory.mktemp("badinput")
    for name, content in {**FILES, **STRICTNESS, **YAMLS}.items():
        path = tmp_path / name
        if content is None:
            path.mkdir()
        elif isinstance(content, bytes):
            path.write_bytes(content)
        else:
            path.write_text(content, encoding="utf-8", errors="surrogatepass")
    (tmp_path / "a-file").write_text("x", encoding="utf-8")
    (tmp_path / "scenarios").mkdir()
    return tmp_path


@pytest.fixture
def files(folder: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.chdir(folder)
    return folder


def _cases() -> list[list[str]]:
    cases: list[list[str]] = []
    for name in [*FILES, "missing.json"]:
        cases += [["check", name, "--provider", p] for p in ("openai", "anthropic", "gemini")]
        cases += [["check", name, "--profile", y] for y in ("bad-profile.yaml", "list-profile.yaml",
                                                             "bomb-profile.yaml", "missing.yaml")]
        cases += [["normalize", name, "--from", f, "--to", "openai"]
                  for f in ("openai_chat", "anthropic", "gemini", "openai_responses")]
        cases += [["normalize", name, "--from", "openai_chat", "--to", t]
                  for t in ("nobody", "bad-profile.yaml", "anthropic")]
        cases += [["report", "--from", name, "--out", "out"]]
    cases += [["report", "--from", name, "--out", "out"] for name in STRICTNESS]
    cases += [["normalize", "scenario-tag.yaml", "--to", "openai"],
              ["normalize", "surrogate.json", "--from", "openai_chat", "--to", "openai",
               "--budget", "-3"],
              ["run", "--scenarios", "nowhere"], ["run", "--scenarios", "a-file"],
              ["run", "--out", "a-file", "--provider", "openai"],
              ["report", "--out", "a-file", "--from", "r-list.json"],
              ["run", "--providers-file", "providers-list.yaml"],
              ["run", "--providers-file", "providers-bad.yaml"],
              ["run", "--providers-file", "missing.yaml"],
              ["run", "--providers-file", "bomb-profile.yaml"],
              ["record"], ["record", "--provider", "openai", "--backend", "cassette"],
              ["probe", "--protocol", "openai_chat", "--base-url", "x", "--model", "m",
               "--concurrency", "0"],
              ["probe", "--protocol", "openai_chat", "--base-url", "::::", "--model", "m\ud800",
               "--dry-run"],
              ["emulate", "--provider", "nobody", "--quiet"],
              ["emulate", "--provider", "bad-profile.yaml", "--quiet"],
              ["emulate", "--port", "70000", "--quiet"]]
    return cases


CASES = _cases()
DOCUMENTED = {0, 1, 2}


def _run(argv: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, str, str]:
    try:
        code = main(argv)
    except SystemExit as exc:  # argparse's usage errors exit 2 by themselves
        code = exc.code if isinstance(exc.code, int) else 2
    out, err = capsys.readouterr()
    return code, out, err


@pytest.mark.parametrize("argv", CASES, ids=lambda a: " ".join(a).encode("ascii",
                                                                         "backslashreplace")
                         .decode())
def test_bad_input_never_a_traceback(files: Path, argv: list[str],
                                     capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = _run(argv, capsys)
    assert "Traceback" not in out + err
    assert code in DOCUMENTED, (code, err)
    if code == 2:
        assert err.strip(), "an exit 2 says why"
    for text in (out, err):
        text.encode("utf-8")  # printable: no lone surrogate reaches the stream


def test_normalize_never_prints_nan(files: Path, capsys: pytest.CaptureFixture[str]) -> None:
    for name in ("nan.json", "inf.json"):
        code, out, err = _run(["normalize", name, "--from", "openai_chat", "--to", "openai"],
                              capsys)
        assert code == 2 and "NaN" not in out and "Infinity" not in out, (out, err)
        assert "not a JSON number" in err


def test_out_that_is_a_file_is_refused_before_the_run(
        files: Path, capsys: pytest.CaptureFixture[str],
        monkeypatch: pytest.MonkeyPatch) -> None:
    import conformance.cli.batch_command as batch_command

    def never(*_: object, **__: object) -> list[object]:
        raise AssertionError("the run started")

    monkeypatch.setattr(batch_command, "execute", never)
    code, _, err = _run(["run", "--out", "a-file", "--provider", "openai"], capsys)
    assert code == 2 and "a-file" in err and "not a folder" in err

