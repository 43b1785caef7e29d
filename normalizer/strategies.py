"""Deprecated alias of `normalizer.testing` (the Hypothesis strategies moved there so that
the library's core needs no Hypothesis). Import `normalizer.testing` instead."""

import warnings

from normalizer.testing import *  # noqa: F403  (the alias re-exports testing's __all__)
from normalizer.testing import __all__  # noqa: F401

warnings.warn("normalizer.strategies is deprecated; import normalizer.testing",
              DeprecationWarning, stacklevel=2)
