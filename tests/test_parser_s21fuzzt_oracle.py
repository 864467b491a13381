"""Fuzz s21 fuzzt (tensor API, seeds 21001 and 21002): torch's argument parser reads each
parameter's type as it binds it, in order, before it looks at arguments missing or keywords
left over; an overloaded function is parsed again by the one signature that takes that many
arguments. Each case runs under torch and minitorch (``L``): the same exception."""

from __future__ import annotations

import warnings

import pytest
import torch

import minitorch as mt
from tests.oracle import assert_same_error, raised_by


def assert_refused_as_torch(expression: str) -> None:
    """``expression`` (in ``L``) raises torch's exception type and message."""
    fn = eval(f"lambda L: {expression}")  # the test's own expressions
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        want = raised_by(fn, torch)
        assert want is not None, f"torch accepts {expression}"
        assert_same_error(raised_by(fn, mt), want)


# a positional argument of the wrong type given again by keyword: the type error, not
# Python's "multiple values" (plain annotations, torch types declared for `Any`, overloads)
TYPES_BEFORE_KEYWORDS = [
    "L.zeros(2, 3).max(True, dim=-2)", "L.zeros(2, 3).min(True, dim=-2)",
    "L.max(L.zeros(2, 3), L.zeros(3), dim=[0], keepdim=None)",
    "L.zeros(2, 3).max(L.zeros(3), dim=-2)", "L.zeros(2, 3).sum(True, dim=-2)",
    "L.zeros(2, 3).cumsum(0.5, dim=1)", "L.zeros(2, 3).cumsum('a', dim=1)",
    "L.zeros(2, 3).cumprod(0.5, dim=1)", "L.zeros(2, 3).cumsum_(0.5, dim=1)",
    "L.zeros(2, 3).softmax(0.5, dim=1)", "L.zeros(2, 3).log_softmax(0.5, dim=1)",
    "L.zeros(2, 3).amax(0.5, dim=1)", "L.zeros(2, 3).amin(0.5, dim=1)",
    "L.zeros(2, 3).nansum(0.5, dim=1)", "L.zeros(2, 3).nanmean(0.5, dim=1)",
    "L.zeros(2, 3).median(0.5, dim=1)", "L.zeros(2, 3).nanmedian(0.5, dim=1)",
    "L.zeros(2, 3).renorm(0.0, -1, 'x', dim=(0, 1))",
    "L.zeros(2, 3).renorm_(0.0, -1, 'x', dim=(0, 1))",
    "L.renorm(L.zeros(2, 3), 'x', -1, 1.0, dim=(0, 1))",
]
# what torch counts before any type: too many positional arguments; a required one missing
# before a keyword given twice
COUNTS_FIRST = [
    "L.zeros(2, 3).aminmax(-1, keepdim=1)", "L.aminmax(L.zeros(2, 3), 0, keepdim='a')",
    "L.zeros(2, 3).transpose(0, dim0=1)", "L.zeros(2, 3).sum(1, dim=-2)",
    "L.zeros(2, 3).cumsum(0, dim=1)", "L.zeros(2, 3).max(1, dim=-2)",
]


@pytest.mark.parametrize("expression", TYPES_BEFORE_KEYWORDS + COUNTS_FIRST)
def test_the_parser_reads_types_in_order_before_leftover_keywords(expression: str) -> None:
    assert_refused_as_torch(expression)


def test_a_call_that_binds_still_runs() -> None:
    assert mt.zeros(2, 3).renorm(1, 0, 2.0).shape == (2, 3)
    assert mt.zeros(2, 3).cumsum(dim=1).shape == (2, 3)
    assert mt.aminmax(mt.zeros(2, 3), dim=0).min.shape == (3,)


# torch's legacy constructors (and Tensor.new) take a device, its string or its index for
# ``device``: anything else matches none of their signatures, before the sizes or data are read
LEGACY_DEVICES = [
    "L.BoolTensor(-1, 0, device=True)", "L.HalfTensor(device=True)",
    "L.BoolTensor(L.tensor([1, 2]), device=True)",
    "L.LongTensor([[1, 2], [3, 4.5]], device=(2,))", "L.DoubleTensor([1, [2]], device=L.float64)",
    "L.Tensor(2, 3, device=1.5)", "L.Tensor([1.0], device=1.5)",
    "L.zeros(2).new(2, 3, device=True)", "L.zeros(2).new([1.0], device=(0,))",
]


@pytest.mark.parametrize("expression", LEGACY_DEVICES)
def test_a_legacy_constructor_refuses_a_device_of_another_type(expression: str) -> None:
    assert_refused_as_torch(expression)


def test_a_legacy_constructor_takes_a_device_string_or_none() -> None:
    assert mt.DoubleTensor([1, 2], device="cpu").dtype is mt.float64
    assert mt.Tensor(2, 3, device=None).shape == (2, 3)


# an overloaded op's one plausible signature that does not parse (a keyword naming an
# argument given by position, a required one left out) is parsed again by torch to word its
# refusal, though minitorch's own parameter names would bind the call
OVERLOAD_REFUSALS = [
    "L.randint(3, high=[2])", "L.randint((), high=2)", "L.randint(3, high=2)",
    "L.zeros(2, 3).max(1, dim=0)",
]


@pytest.mark.parametrize("expression", OVERLOAD_REFUSALS)
def test_the_one_plausible_overload_is_parsed_again(expression: str) -> None:
    assert_refused_as_torch(expression)


def test_torchs_keywords_of_overloads_still_bind() -> None:
    assert mt.randint(high=3, size=(2,)).shape == (2,)
    assert mt.randint(3, high=5, size=(2,)).shape == (2,)
    assert mt.zeros(2, dtype=mt.uint8).random_(to=5).shape == (2,)
    assert int(mt.zeros(9, dtype=mt.uint8).random_(0, to=1).sum()) == 0
    assert mt.zeros(2, 3).max(dim=1).values.shape == (2,)
