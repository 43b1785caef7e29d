"""A reader that stops early (`conformance normalize ... | head -1`) ends the command quietly:
no traceback, no "Exception ignored" at exit, exit code 141 (128 + SIGPIPE, what a shell
reports for `cat` in the same place)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from conformance.cli.main import CLOSED_PIPE

BODY = {"model": "gpt-4.1", "messages": [
    {"role": "user", "content": "hi"},
    {"role": "tool", "tool_call_id": "c1", "content": "orphan"}]}


@pytest.mark.parametrize(("command", "code"), [
    (["normalize", "{body}", "--from", "openai_chat", "--to", "openai"], CLOSED_PIPE),
    (["check", "{body}", "--provider", "openai", "--json"], CLOSED_PIPE),
    (["--help"], 0),  # argparse drops a failed write of its help itself
], ids=["normalize", "check", "help"])
def test_a_closed_pipe_ends_the_command_quietly(command: list[str], code: int,
                                                tmp_path: Path) -> None:
    body = tmp_path / "body.json"
    body.write_text(json.dumps(BODY), encoding="utf-8")
    proc = subprocess.Popen(
        [sys.executable, "-m", "conformance.cli.main",
         *(a.format(body=body) for a in command)],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    assert proc.stdout is not None and proc.stderr is not None
    proc.stdout.close()  # the reader is gone before the command writes a byte
    err = proc.stderr.read().decode()
    assert proc.wait(timeout=60) == code, err
    assert err == ""
