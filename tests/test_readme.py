"""The README's python code blocks run as written (issue 17: the example must work): each
block is executed in a fresh namespace, in order, with nothing defined for it beforehand."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

README = Path(__file__).resolve().parent.parent / "README.md"
BLOCKS = re.findall(r"```python\n(.*?)```", README.read_text(encoding="utf-8"), re.S)


def test_the_readme_has_python_examples() -> None:
    assert BLOCKS


@pytest.mark.parametrize("code", BLOCKS, ids=[f"block{i}" for i in range(len(BLOCKS))])
def test_readme_block_runs(code: str) -> None:
    exec(compile(code, str(README), "exec"), {"__name__": "readme"})
