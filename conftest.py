"""Doctests: every docstring example in minitorch runs with the names its docs assume
(``minitorch``, ``nn``, ``F`` for nn.functional, ``optim``) already imported."""

import pytest

import minitorch
import minitorch.nn.functional as F
from minitorch import nn, optim

# Percent-format notebooks and the tutorial programs are run by their tests, never imported.
collect_ignore_glob = ["tests/course/fixtures/*", "tests/tutorial_programs/*"]


@pytest.fixture(autouse=True)
def _minitorch_in_doctests(doctest_namespace: dict) -> None:
    doctest_namespace.update(minitorch=minitorch, nn=nn, F=F, optim=optim)
