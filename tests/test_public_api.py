"""The public face: `__all__` is exactly the public names of the package (Hypothesis's
pattern: nothing leaks, nothing is forgotten); the errors form one tree; importing the
library pulls in none of the suite's dependencies."""

from __future__ import annotations

import json
import subprocess
import sys
import types

import pytest

import normalizer
from normalizer import errors


def test_all_equals_public_names() -> None:
    # Submodules are bound as attributes of the package when imported; they are not API.
    public = {name for name, value in vars(normalizer).items()
              if not name.startswith("_") and not isinstance(value, types.ModuleType)}
    exported = set(normalizer.__all__)
    assert exported == public, (exported - public, public - exported)


def test_design_api_exported() -> None:
    # DESIGN.md: History, parse, render, check, normalize, window, PROVIDERS.
    for name in ("History", "parse", "render", "check", "normalize", "PROVIDERS", "Budget",
                 "fit"):
        assert name in normalizer.__all__, name


def test_every_library_error_is_a_normalizer_error() -> None:
    classes = [value for value in vars(errors).values()
               if isinstance(value, type) and issubclass(value, Exception)]
    assert all(issubclass(cls, errors.NormalizerError) for cls in classes)
    # Each one is drawn in the tree of the module docstring.
    for cls in classes:
        assert cls.__name__ in (errors.__doc__ or ""), cls.__name__


@pytest.mark.parametrize(("error", "builtin"), [
    (errors.BudgetError, ValueError),
    (errors.BudgetTypeError, TypeError),
    (errors.MissingDetectorError, LookupError),
    (errors.NoFreshIdError, ValueError),
    (errors.StreamEventError, TypeError),
    (errors.UnstreamablePartError, ValueError),
    (errors.MissingExtraError, ImportError),
], ids=lambda cls: cls.__name__.removesuffix("Error").lower())
def test_errors_keep_the_builtin_they_replaced(error: type, builtin: type) -> None:
    assert issubclass(error, builtin)


def test_bad_budget_raises_a_normalizer_error() -> None:
    with pytest.raises(errors.BudgetError):
        normalizer.Budget(messages=0)


_SUITE_ONLY = ("pytest", "vcr", "openai", "anthropic", "google", "hypothesis", "pydantic",
               "conformance")


def test_import_pulls_in_no_suite_dependency() -> None:
    # A fresh interpreter, so this test's own imports do not count.
    code = ("import json, sys; import normalizer, normalizer.streaming, normalizer.tools; "
            "print(json.dumps(sorted({m.split('.')[0] for m in sys.modules})))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         check=True).stdout
    loaded = set(json.loads(out))
    assert not loaded & set(_SUITE_ONLY), sorted(loaded & set(_SUITE_ONLY))


def test_testing_without_hypothesis_names_the_extra() -> None:
    # sys.modules[name] = None makes `import name` fail, as if it were not installed.
    code = ("import sys; sys.modules['hypothesis'] = None\n"
            "try:\n    import normalizer.testing\n"
            "except ImportError as exc:\n    print(type(exc).__name__, exc)\n")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         check=True).stdout
    assert out.startswith("MissingExtraError")
    assert "provider-conformance[testing]" in out


def test_the_command_without_the_suite_names_the_extra_to_install() -> None:
    """`pip install provider-conformance` gives the library; the command says what it lacks."""
    code = ("import sys, builtins\n"
            "real = builtins.__import__\n"
            "def refuse(name, *a, **k):\n"
            "    if name.split('.')[0] == 'vcr':\n"
            "        raise ModuleNotFoundError(f'No module named {name!r}', name=name)\n"
            "    return real(name, *a, **k)\n"
            "builtins.__import__ = refuse\n"
            "from conformance.cli.main import main\n"
            "sys.exit(main(['--help']))\n")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          timeout=120)
    assert done.returncode == 2, done.stderr
    assert "pip install 'provider-conformance[suite]'" in done.stderr
    assert "Traceback" not in done.stderr
