"""tensor_repr against live torch (the oracle) and against the strings printed in the seeds."""

import functools
import math

import numpy as np
import pytest
import torch
from hypothesis import assume, given, settings
from hypothesis import strategies as st
from hypothesis.extra import numpy as hnp

from minitorch._tensor_str import tensor_repr

DTYPES = ["float32", "float64", "int64", "bool"]
# how the tensor is tracked by autograd: the suffix torch adds, or None
GRADS = [None, "leaf", "MulBackward0", "custom"]


@functools.cache
def _identity_function(name: str) -> type:
    """A custom autograd Function whose grad_fn prints as ``<{name}Backward>``."""
    return type(
        name,
        (torch.autograd.Function,),
        {
            "forward": staticmethod(lambda ctx, x: x.clone()),
            "backward": staticmethod(lambda ctx, grad: grad),
        },
    )


def torch_says(array: np.ndarray, grad: str | None = None, name: str = "F") -> str:
    """repr of the torch tensor holding ``array``, tracked as ``grad`` says."""
    t = torch.from_numpy(np.array(array))
    if grad == "leaf":
        t.requires_grad_()
    elif grad == "MulBackward0":
        t = t.requires_grad_() * 1
    elif grad == "custom":
        t = _identity_function(name).apply(t.requires_grad_())
    return repr(t)


def we_say(array: np.ndarray, grad: str | None = None, name: str = "F") -> str:
    suffixes = {
        None: [],
        "leaf": ["requires_grad=True"],
        "MulBackward0": ["grad_fn=<MulBackward0>"],
        "custom": [f"grad_fn=<{name}Backward>"],
    }[grad]
    return tensor_repr(array, str(array.dtype), suffixes)


def _floats(dtype: str) -> st.SearchStrategy[float]:
    return st.floats(width=32 if dtype == "float32" else 64)


def _elements(dtype: str) -> st.SearchStrategy:
    if dtype == "int64":
        return st.integers(-(2**63), 2**63 - 1) | st.integers(-1000, 1000)
    if dtype == "bool":
        return st.booleans()
    return _floats(dtype) | st.integers(-(10**6), 10**6).map(float)


@st.composite
def small_cases(draw):
    """Small arrays with any values hypothesis likes (subnormals, 1e308, nan, -0.)."""
    dtype = draw(st.sampled_from(DTYPES))
    shape = draw(hnp.array_shapes(min_dims=0, max_dims=4, min_side=0, max_side=5))
    array = draw(hnp.arrays(dtype, shape, elements=_elements(dtype)))
    grad = draw(st.sampled_from(GRADS if dtype.startswith("float") else [None]))
    return array, grad, draw(st.text("ABCxyz", min_size=1, max_size=60))


def _values(rng: np.random.Generator, dtype: str, size: int, low: int, high: int, kind: str):
    """``size`` values of magnitude 10**low .. 10**high, integer-valued or with specials."""
    if dtype == "bool":
        return rng.random(size) < 0.5
    magnitude = 10.0 ** rng.uniform(low, high, size)
    values = rng.choice([-1.0, 1.0], size) * magnitude
    if dtype == "int64":
        return np.round(values / 10.0**low).astype(np.int64)
    if kind == "integers":
        values = np.round(values)
    elif kind == "specials":
        where = rng.random(size) < 0.2
        values[where] = rng.choice([np.nan, np.inf, -np.inf, 0.0, -0.0], where.sum())
    return values.astype(dtype)


@st.composite
def realistic_cases(draw):
    """Arrays up to 4-D, some long enough to be summarised, with values of chosen magnitude."""
    dtype = draw(st.sampled_from(DTYPES))
    sides = st.sampled_from([0, 1, 2, 3, 5, 6, 7, 8, 13, 40, 300, 1001])
    shape = tuple(draw(st.lists(sides, max_size=4)))
    assume(math.prod(shape) <= 20_000)
    low = draw(st.integers(-8, 10))
    high = draw(st.integers(low, min(10, low + draw(st.sampled_from([0, 1, 3, 18])))))
    kind = draw(st.sampled_from(["reals", "integers", "specials"]))
    rng = np.random.default_rng(draw(st.integers(0, 2**32 - 1)))
    values = _values(rng, dtype, math.prod(shape), low, high, kind).reshape(shape)
    grad = draw(st.sampled_from(GRADS if dtype.startswith("float") else [None]))
    return values, grad, draw(st.text("ABCxyz", min_size=1, max_size=60))


@settings(max_examples=100, deadline=None)
@given(small_cases())
def test_small_arrays_match_torch(case):
    array, grad, name = case
    assert we_say(array, grad, name) == torch_says(array, grad, name)


@settings(max_examples=100, deadline=None)
@given(realistic_cases())
def test_realistic_arrays_match_torch(case):
    array, grad, name = case
    assert we_say(array, grad, name) == torch_says(array, grad, name)


EDGE_CASES = [
    np.zeros((0,), np.float32),
    np.zeros((0, 3), np.float32),
    np.zeros((2, 0, 4), np.float64),
    np.zeros((0,), np.int64),
    np.zeros((3, 0), np.bool_),
    np.float32(0.0),
    np.float64(-0.0),
    np.int64(-(2**63)),
    np.bool_(True),
    np.array([np.nan, np.inf, -np.inf], np.float32),
    np.array([0.0, -0.0, np.nan], np.float32),
    np.array([1e-4, 1.0], np.float32),  # float32 1e-4 is just below 1e-4: scientific
    np.array([1e-4, 0.1], np.float64),
    np.array([1e8, 1.0], np.float64),
    np.array([1e8 + 2, 1e5], np.float64),
    np.array([123456789.0], np.float32),
    np.array([0.001, 0.999], np.float32),  # ratio 999: fixed point
    np.array([0.001, 1.001], np.float32),  # ratio just above 1000: scientific
    np.array([[1e10, -3.0], [np.nan, 0.5]], np.float32),
    np.arange(1001, dtype=np.float32),
    np.arange(1000, dtype=np.int64),
    np.arange(2 * 3 * 200, dtype=np.int64).reshape(2, 3, 200),
    np.arange(7 * 7 * 7 * 7, dtype=np.float64).reshape(7, 7, 7, 7) / 7,
    np.ones((1, 10), np.float32) * 32,
    np.full(30, 1e-8, np.float32),
]


EDGE_CASES_WITH_GRAD = [
    pytest.param(array, grad, id=f"{array.dtype}{array.shape}-{grad}")
    for array in map(np.asarray, EDGE_CASES)
    for grad in (GRADS if array.dtype.kind == "f" else [None])
]


@pytest.mark.parametrize(("array", "grad"), EDGE_CASES_WITH_GRAD)
def test_edge_cases_match_torch(array, grad):
    assert we_say(array, grad) == torch_says(array, grad)


def _f32(values):
    return np.array(values, np.float32)


# (array, suffixes, the text printed in shared/seeds/000, 002 and 004)
SEED_PRINTS = [
    (_f32(np.e + 1), ["grad_fn=<AddBackward0>"], "tensor(3.7183, grad_fn=<AddBackward0>)"),
    (_f32(np.e / 2), [], "tensor(1.3591)"),
    (_f32(2 * np.e), [], "tensor(5.4366)"),
    (_f32(1.0), [], "tensor(1.)"),
    (_f32(np.e), [], "tensor(2.7183)"),
    (_f32([24.0]), ["grad_fn=<MulBackward0>"], "tensor([24.], grad_fn=<MulBackward0>)"),
    (_f32([1.5023, 0.4178, 0.3391, 0.0]), [], "tensor([1.5023, 0.4178, 0.3391, 0.0000])"),
    (_f32([0.2323, 0.1669, 0.0, 2.2866]), [], "tensor([0.2323, 0.1669, 0.0000, 2.2866])"),
    (
        _f32([-0.4646, -0.4403, 1.2525, -0.5953]),
        ["requires_grad=True"],
        "tensor([-0.4646, -0.4403,  1.2525, -0.5953], requires_grad=True)",
    ),
    (
        np.array([-0.4646, -0.4403, 1.2525, -0.5953]),
        ["requires_grad=True"],
        # the seed prints this on one line; torch 2.13 moves requires_grad to the next
        "tensor([-0.4646, -0.4403,  1.2525, -0.5953], dtype=torch.float64,\n"
        "       requires_grad=True)",
    ),
    (_f32([[1.0, 1.0]]), ["requires_grad=True"], "tensor([[1., 1.]], requires_grad=True)"),
    (
        _f32([1.6608, 3.4878, 2.5317, 1.2168, 2.0211]),
        ["grad_fn=<AddBackward0>"],
        "tensor([1.6608, 3.4878, 2.5317, 1.2168, 2.0211], grad_fn=<AddBackward0>)",
    ),
    (_f32([[4.0, 4.0]]), [], "tensor([[4., 4.]])"),
    (_f32([[1.0, 1.0]]), ["grad_fn=<PowBackward0>"], "tensor([[1., 1.]], grad_fn=<PowBackward0>)"),
    (np.full((1, 10), 8, np.float32), [], "tensor([[8., 8., 8., 8., 8., 8., 8., 8., 8., 8.]])"),
    (
        np.full((1, 10), 2, np.float32),
        ["grad_fn=<AddBackward0>"],
        "tensor([[2., 2., 2., 2., 2., 2., 2., 2., 2., 2.]], grad_fn=<AddBackward0>)",
    ),
    (
        np.full((1, 10), 32, np.float32),
        ["grad_fn=<AddBackward0>"],
        "tensor([[32., 32., 32., 32., 32., 32., 32., 32., 32., 32.]],\n"
        "       grad_fn=<AddBackward0>)",
    ),
    (_f32(4.0), ["grad_fn=<SumBackward0>"], "tensor(4., grad_fn=<SumBackward0>)"),
    (
        _f32([[2, 6, 12], [20, 30, 42]]),
        ["grad_fn=<AddBackward0>"],
        "tensor([[ 2.,  6., 12.],\n        [20., 30., 42.]], grad_fn=<AddBackward0>)",
    ),
    (_f32([[3, 5, 7], [9, 11, 13]]), [], "tensor([[ 3.,  5.,  7.],\n        [ 9., 11., 13.]])"),
    (_f32([2.0, 0.4, 0.006]), [], "tensor([2.0000, 0.4000, 0.0060])"),
    (_f32(75.0), ["grad_fn=<MulBackward0>"], "tensor(75., grad_fn=<MulBackward0>)"),
    (_f32(30.0), [], "tensor(30.)"),
    (
        np.ones((3, 4), np.float32),
        [],
        "tensor([[1., 1., 1., 1.],\n        [1., 1., 1., 1.],\n        [1., 1., 1., 1.]])",
    ),
    (
        _f32(
            [
                [1.7010e-03, 1.7171e00, 2.9237e-01, 1.1170e-01],
                [1.4809e-03, 2.6344e01, 1.3164e-01, 4.0763e00],
                [3.2292e-01, 2.2965e01, 5.3342e-01, 5.3551e-01],
            ]
        ),
        ["grad_fn=<MulBackward0>"],
        "tensor([[1.7010e-03, 1.7171e+00, 2.9237e-01, 1.1170e-01],\n"
        "        [1.4809e-03, 2.6344e+01, 1.3164e-01, 4.0763e+00],\n"
        "        [3.2292e-01, 2.2965e+01, 5.3342e-01, 5.3551e-01]],\n"
        "       grad_fn=<MulBackward0>)",
    ),
    (
        _f32(
            [
                [-0.0791, 5.7351, -0.4285, 0.8841],
                [-0.0740, 53.4620, -0.4462, 11.2205],
                [-0.4075, 47.4507, -0.0703, -0.0598],
            ]
        ),
        ["grad_fn=<AddBackward0>"],
        "tensor([[-0.0791,  5.7351, -0.4285,  0.8841],\n"
        "        [-0.0740, 53.4620, -0.4462, 11.2205],\n"
        "        [-0.4075, 47.4507, -0.0703, -0.0598]], grad_fn=<AddBackward0>)",
    ),
]


@pytest.mark.parametrize(("array", "suffixes", "printed"), SEED_PRINTS)
def test_seed_prints(array, suffixes, printed):
    assert tensor_repr(array, str(array.dtype), suffixes) == printed
