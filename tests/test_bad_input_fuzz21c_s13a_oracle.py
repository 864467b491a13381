"""Bad input found by issue #21's third fuzz (seeds 2202-2203, session 13) where minitorch's
answer differed from torch's, against live torch. Each case is a small program run on torch
and on minitorch (``L``); its outcome, the value of ``R`` or the exception's type and message,
must be the same.
"""

from __future__ import annotations

import pytest
import torch
from test_bad_input_fuzz21b_oracle import assert_as_torch

import minitorch as mt


def test_tensor_has_no_method_torch_lacks() -> None:
    """Every public attribute of minitorch's Tensor is one of torch's Tensor's too (torch has
    only the function ``torch.rsub``, no ``Tensor.rsub``)."""
    extra = {n for n in dir(mt.Tensor) if not n.startswith("_")} - set(dir(torch.Tensor))
    assert not extra, sorted(extra)


@pytest.mark.parametrize("program", [
    "R = L.ones(2).rsub(L.ones(2))", "R = L.rsub(L.ones(2), L.tensor([3., 4.]), alpha=2)",
    "R = L.rsub(L.tensor([1, 2]), 5)"])
def test_rsub_is_a_function_only(program: str) -> None:
    assert_as_torch(program)
