"""Leftovers of the fuzzing (issues #20, #21), each checked against torch: the parser's
``*dims`` varargs and the order of its refusals, reductions' ``dtype=``, vmap's in-place
refusals, weight_norm's fused node, GroupNorm and conv3d bits."""

from __future__ import annotations

import numpy as np
import pytest
import torch

import minitorch as mt
from tests.oracle import assert_same, assert_same_error, raised_by


def same_outcome(fn) -> None:
    """``fn(L)`` gives torch's tensor (or value), or raises torch's error."""
    want = raised_by(fn, torch)
    if want is not None:
        assert_same_error(raised_by(fn, mt), want)
        return
    got, expected = fn(mt), fn(torch)
    if isinstance(expected, torch.Tensor):
        assert_same(got, expected)
    else:
        assert got == expected


# ---------------------------------------------------------------- 1. *dims varargs, order

VARARGS = [
    # a method whose only positional parameter is a tuple of ints takes them one by one
    lambda L: L.zeros(1, 1, 3).squeeze(0, 1),
    lambda L: L.zeros(1, 1, 3).squeeze(np.int64(0), 1),
    lambda L: L.zeros(1, 1, 3).squeeze(L.tensor(0), 1),
    lambda L: L.zeros(1, 1, 3).squeeze(0, None),
    lambda L: L.zeros(1, 1, 3).squeeze(0, (1,)),
    lambda L: L.zeros(1, 1, 3).squeeze(1, 1),
    lambda L: L.zeros(1, 1, 3).squeeze(True, 1),
    lambda L: L.zeros(1, 1, 3).squeeze((True, 1)),
    lambda L: L.squeeze(L.zeros(1, 1, 3), (0, 1)),
    lambda L: L.squeeze(L.zeros(1, 1, 3), 0, 1),
    lambda L: L.squeeze(L.zeros(1, 1, 3), (True, 1)),
    lambda L: L.tensor([[0., 1.], [2., 0.]]).count_nonzero(0, 1),
    lambda L: L.tensor([[0., 1.], [2., 0.]]).count_nonzero(0, 1, 1),
    lambda L: L.tensor([[0., 1.], [2., 0.]]).count_nonzero(0, 'a'),
    lambda L: L.tensor([[0., 1.], [2., 0.]]).count_nonzero(0.0, 1),
    lambda L: L.tensor([[0., 1.], [2., 0.]]).count_nonzero(0.0),
    lambda L: L.tensor([[0., 1.], [2., 0.]]).count_nonzero('a'),
    lambda L: L.tensor([[0., 1.], [2., 0.]]).count_nonzero((True, 1)),
    lambda L: L.tensor([[0., 1.], [2., 0.]]).count_nonzero(dims=(0, 1)),
    lambda L: L.count_nonzero(L.tensor([[0., 1.], [2., 0.]]), dim=(0, 1)),
    lambda L: L.count_nonzero(L.tensor([[0., 1.], [2., 0.]]), 0, 1),
    lambda L: L.ones(1, 1).amax((True, 1)),
    lambda L: L.ones(1, 1).nansum((True, 1)),
    lambda L: L.ones(1, 1, 1).flip(0, 1, 1),
    lambda L: L.ones(1, 1, 1).flip(2, 1, 1, 2),
    lambda L: L.ones(1, 2).expand(3, -1, implicit=True),
    lambda L: L.ones(1, 2).expand(3, -1, implicit=1),
    lambda L: L.ones(1, 1).tile(dims=(2, 1)),
    lambda L: L.ones(1, 1).new_zeros(size=(2,)),
    lambda L: L.ones(1, 1).new_ones(size=[2]),
    lambda L: L.ones(1, 1).new_empty(size=(2,)).shape,
    lambda L: L.ones(1, 1).new_zeros(-1),
    lambda L: L.ones(1, 1).new_zeros(2.5, dtype=1),
    lambda L: L.ones(2, 1).sum_to_size(size=(1,)),
    lambda L: L.ones(2, 2).resize_(size=(1,)),
]


@pytest.mark.parametrize("call", VARARGS, ids=range(len(VARARGS)))
def test_int_varargs_are_torchs(call):
    same_outcome(call)


BAD_TWICE = [f"lambda L: L.ones(1, 1).{m}({a})" for m in (
    "permute", "reshape", "repeat", "expand", "tile", "flip", "new_zeros", "new_ones",
    "new_empty", "sum_to_size", "resize_") for a in ("1.5, foo=1", "dim=(0, 1)", "'a', foo=1")]
BAD_TWICE += [f"lambda L: L.{m}(L.ones(1, 1), dim=(0, 1))" for m in (
    "permute", "reshape", "tile", "flip", "roll")]
BAD_TWICE += ["lambda L: L.ones(1, 1).transpose(0, foo=1)",
              "lambda L: L.ones(1, 1).transpose(dims=(0, 1))"]


@pytest.mark.parametrize("call", BAD_TWICE)
def test_the_argument_torchs_parser_reads_first_wins(call):
    """A bad or missing parameter is refused before an unknown keyword, as torch's parser
    reads the parameters before it looks for keywords left over."""
    same_outcome(eval(call))
