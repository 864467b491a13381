"""Doctests: every docstring example in minitorch runs with the names its docs assume
(``minitorch``, ``nn``, ``F`` for nn.functional, ``optim``) already imported."""

import pytest

import minitorch
import minitorch.nn.functional as F
from minitorch import nn, optim

# Percent-format notebooks: running them is the course tests' job, not an import's.
collect_ignore_glob = ["tests/course/fixtures/*"]


@pytest.fixture(autouse=True)
def _minitorch_in_doctests(doctest_namespace: dict) -> None:
    doctest_namespace.update(minitorch=minitorch, nn=nn, F=F, optim=optim)
