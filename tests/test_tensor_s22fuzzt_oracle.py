"""Fuzz s22 fuzzt (tensor API, seed 22001): what torch takes or refuses otherwise than
minitorch did. Each expression runs under torch and minitorch (``L``): the same exception type
and message, or a result of the same dtype, shape and values."""

from __future__ import annotations

import pytest
import torch
from hypothesis import given
from hypothesis import strategies as st

import minitorch as mt
from tests.oracle import SETTINGS, assert_same_error, raised_by
from tests.test_badinput_s21fuzzt_oracle import assert_as_torch

CASES = [
    # several ``...``: each moves on by every spare dim, so what follows the second meets
    # dims past the tensor's (torch's errors), or nothing does (the key indexes as one ``...``)
    "L.zeros(2, 3)[..., ..., False, 2]", "L.zeros(2, 3)[..., ..., 0]",
    "L.zeros(2, 3, 4)[..., ..., None]", "L.zeros(2, 3)[..., ..., 1:]",
    "L.zeros(2, 3)[..., ..., True]", "L.zeros(2, 3)[..., ..., [0]]",
    "L.zeros(2, 3, 4)[..., 1, ..., 1]", "L.zeros(2, 3)[..., ..., L.tensor(0)]",
    "L.zeros(2, 3)[..., ..., 1.5]", "L.zeros(2, 3)[..., 5, ...]",
    "L.zeros(2, 3).__setitem__((..., ..., 0), 1)",
    "L.zeros(2, 3)[..., ...]", "L.zeros(2, 3)[..., ..., :]", "L.zeros(2, 3)[0, ..., ...]",
    "L.zeros(2, 3, 4)[..., 0, ...]", "L.zeros(2, 3)[..., [0], ...]",
    "L.zeros(2, 3)[..., False, 2]", "L.zeros(5, 3)[..., ..., 0, 0]",
    # a slice's bounds may be bools (ints to Python), not numpy's bools
    "L.zeros(3)[True:]", "L.zeros(3)[:True]", "L.zeros(3)[::True]", "L.zeros(3)[::False]",
    "L.zeros(2, 3)[:, True:]", "L.arange(3.).__setitem__(slice(True, None), 5)",
    "L.zeros(3)[np.True_:]", "L.zeros(())[True:]",
    # randperm's output is allocated before its dtype's checks
    "L.randperm(2 ** 40, dtype=L.int8)", "L.randperm(2 ** 40, dtype=L.float16)",
    "L.randperm(2 ** 40, dtype=L.bool)", "L.randperm(2 ** 61)", "L.randperm(3, dtype=L.bool)",
    # an integer dtype's linspace and logspace space the ends truncated to it
    "L.logspace(-1.3227976591589878, 0.5, 4, dtype=L.int8)",
    "L.logspace(0, 2.5, 6, base=2, dtype=L.int64)", "L.logspace(0.7, 2.5, 1, dtype=L.int64)",
    "L.logspace(L.tensor(0.5), 2.5, 6, dtype=L.int64)", "L.linspace(0, 2.5, 6, dtype=L.int64)",
    "L.linspace(-1.7, 2.5, 5, dtype=L.int32)", "L.logspace(3, 0, 7, base=2, dtype=L.uint8)",
    # the keywords of an invalid combination in the order of torch's hash map
    "L.randn((1, 2), dtype=L.uint8, requires_grad=True, bad='meta')",
    "L.randn((1, 2), dtype=L.uint8, device='cpu', bad='meta')",
    "L.rand((1, 2), dtype=L.uint8, requires_grad=True, pin_memory=False, bad='meta')",
    "L.randint(3, (1, 2), dtype=L.uint8, requires_grad=True, bad='meta')",
    "L.arange(3, dtype=L.uint8, layout=None, bad='meta')",
    # a list in a key with several ``...`` is read as it is met
    "L.zeros(1, 3, 1).__setitem__((..., ..., [0, [1]], ...), 0.5)",
    "L.zeros(1, 3, 1)[..., ..., L.tensor([0.5]), ...]",
    # new(int, ...) reads its sizes as new's parser (every item an int, none past int64)
    "L.ones(2).new(2, 2, 'a')", "L.ones(2).new(2, 2.5)", "L.ones(2).new(2, [2])",
    "L.ones(2).new(2, -1)", "L.ones(2).new(2.5, 2)", "L.ones(2).new(np.int64(2), None)",
    # the parser's overflow of a dim comes before the checks of the input
    "L.zeros(()).stride(2 ** 63)", "L.zeros(()).size(-2 ** 63 - 1)", "L.zeros(()).size(-2 ** 63)",
    "L.nanmean(L.zeros((), dtype=L.int64), 2 ** 63)",
    "L.zeros(2, dtype=L.int64).nanmean(-2 ** 63 - 1)",
    # and a number operand's, before subtraction's refusal of bools
    "L.zeros(3, dtype=L.bool).sub_(-2 ** 63 - 1)", "L.zeros(3, dtype=L.bool) - 2 ** 64",
    "L.sub(2 ** 64, L.zeros(3, dtype=L.bool))", "L.zeros(3, dtype=L.bool).sub(2 ** 63)",
    # randint(low, high, size) matches its overload by the size's first item only
    "L.randint(-1, 8, (3, [2], 0))", "L.randint(-1, 8, (3, None))", "L.randint(-1, 8, [3, 2.5])",
    "L.randint(-1, 8, (2.5, 3))",
    # range reads its bounds in int64 for an integer dtype, with torch's refusal
    "L.range(-0.6, float('nan'), dtype=L.int32)", "L.range(0, float('inf'), dtype=L.int64)",
    "L.range(0, 1e30, dtype=L.int64)", "L.range(0, 2 ** 63, dtype=L.int64)",
    "L.range(0, 3.7, 1.5, dtype=L.int64)",
    # an in-place op's int operand past int64 is torch's uint64, which a bool tensor does not
    # promote with
    "L.zeros(3, dtype=L.bool).ne_(2 ** 63)", "L.zeros(3, dtype=L.bool).eq_(2 ** 63)",
    "L.zeros(3, dtype=L.bool).mul_(2 ** 63)", "L.zeros(3, dtype=L.bool).add_(2 ** 63)",
    "L.zeros(3, dtype=L.bool).__ior__(2 ** 63)", "L.zeros(3, dtype=L.bool).bitwise_or_(2 ** 63)",
    "L.zeros(3, dtype=L.int64).ne_(2 ** 63)", "L.zeros(3, dtype=L.uint8).lt_(2 ** 63)",
    "L.zeros(3, dtype=L.bool).fill_(2 ** 63)",
    # tensor_split's sections: an int past int64 overflows; a vector of so many tensors fails
    "L.tensor_split(L.zeros(1, dtype=L.uint8), 10 ** 30, 0)",
    "L.zeros(2).tensor_split(2 ** 63)", "L.tensor_split(L.zeros(1), 2 ** 63 - 1, 0)",
    # writing into an expanded tensor: its overlap is refused before the shapes and dtypes
    "L.zeros(1, dtype=L.bool).expand(5).mul_(L.tensor(1, dtype=L.int8))",
    "L.zeros(5, dtype=L.bool).expand(5).mul_(L.tensor(1, dtype=L.int8))",
    "L.zeros(1, dtype=L.uint8).expand(4).sigmoid_()",
    "L.zeros(1, 1, 1).expand(1, 3, 1).bitwise_or_(L.zeros(3, dtype=L.int64))",
    "L.zeros(1, 1, dtype=L.int16).expand(2, 3).atan2_(L.zeros(2, 1, 2, dtype=L.int64))",
    "L.zeros(1).expand(3).add_(L.ones(2))", "L.zeros(1, dtype=L.int64).expand(3).copy_(L.zeros(2))",
    "L.zeros(1, dtype=L.int64).expand(3).clamp_(2.5)",
    "L.zeros(1, requires_grad=True).expand(3).add_(1)",
    # logspace's one value is filled, with fill_'s check that the dtype holds it
    "L.logspace(256, 1, 1)", "L.logspace(400, 1, 1)", "L.logspace(30, 1, 1, dtype=L.int64)",
    "L.logspace(3, 1, 1, dtype=L.int8)", "L.logspace(5, 1, 1, dtype=L.uint8)",
    "L.logspace(5, 1, 1, dtype=L.float16)", "L.logspace(0.5, 1, 1, base=-2.0, dtype=L.int64)",
    "L.logspace(256, 1, 2)", "L.logspace(0.5, 1, 1, base=-2.0)",
    # a reduction's dims: a bool after the first item is unpacked as an int
    "L.zeros(2, 3).sum((0, True))", "L.zeros(2, 3).sum((0, False))", "L.zeros(2, 3).var((0, True))",
    "L.zeros(2, 3).amax((0, True))", "L.zeros(2, 3).sum((True, 0))",
    "L.zeros(2, 3).sum((0, np.bool_(True)))",
    # index_fill's tensor value that requires grad cannot flow into an integer or bool copy
    "L.zeros((), dtype=L.bool).index_fill(-1, L.tensor(0), L.zeros((), requires_grad=True))",
    "L.zeros(3, dtype=L.int64).index_fill(0, L.tensor([0]), L.zeros((), requires_grad=True))",
    "L.zeros(3).index_fill(0, L.tensor([0]), L.zeros((), requires_grad=True)).dtype",
    # real and imag of a real dtype: the tensor itself, torch's refusal
    "L.zeros(2, dtype=L.int8).real", "L.zeros(2).imag", "L.real(L.zeros(2))", "L.imag(L.zeros(2))",
    "L.real(3)", "L.imag(None)", "L.zeros(2, requires_grad=True).real.requires_grad",
    # past 13 keywords the map grows (29 buckets) and places them again
    "L.randn((1, 2), **dict.fromkeys('abcdefghijklmnopq'))",
    "L.randn((1, 2), **dict.fromkeys(['dtype', 'layout', 'device', 'pin_memory', 'out', 'names',"
    " 'requires_grad', 'aa', 'bb', 'cc', 'dd', 'ee', 'ff', 'gg', 'hh', 'bad']))",
]


@pytest.mark.parametrize("expression", CASES)
def test_as_torch(expression: str) -> None:
    assert_as_torch(expression)


KEYWORDS = ["out", "dtype", "layout", "device", "pin_memory", "requires_grad", "a",
            "b", "cc", "names", "foo", "memory_format", "x1", "y22"]


@SETTINGS
@given(st.lists(st.sampled_from(KEYWORDS), min_size=1, max_size=4, unique=True))
def test_keyword_order(keywords: list) -> None:
    """Any set of keywords (an unknown one among them) is listed as torch lists it."""
    kwargs = dict.fromkeys([*keywords, "bad"])
    want = raised_by(lambda L: L.randn((1, 2), **kwargs), torch)
    assert_same_error(raised_by(lambda L: L.randn((1, 2), **kwargs), mt), want)


@SETTINGS
@given(st.lists(st.integers(1, 4), min_size=1, max_size=3),
       st.lists(st.sampled_from(["...", "0", "1:", ":", "None", "False", "[0]"]), min_size=2,
                max_size=4))
def test_several_ellipses(shape: list, parts: list) -> None:
    """A key with two ``...`` or more (and spare dims or none) indexes, or is refused, as
    torch does."""
    assert_as_torch(f"L.zeros({tuple(shape)})[..., {', '.join(parts)}]")


@SETTINGS
@given(st.floats(-3, 3), st.floats(-3, 3), st.integers(0, 7),
       st.sampled_from(["int64", "int32", "int16", "float64"]), st.sampled_from([10, 2, 2.5]))
def test_integer_spacing(start: float, end: float, steps: int, dtype: str, base: float) -> None:
    assert_as_torch(f"L.linspace({start!r}, {end!r}, {steps}, dtype=L.{dtype})")
    assert_as_torch(f"L.logspace({start!r}, {end!r}, {steps}, base={base}, dtype=L.{dtype})")
