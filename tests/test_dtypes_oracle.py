"""dtypes against live torch: promotion, factories' defaults, conversions, item() and tolist().

Each check builds the same thing in both libraries (a function of the library ``L``) and
requires minitorch's result to equal torch's: dtype, shape, values, or the same error.
"""

from __future__ import annotations

import operator
from collections.abc import Callable
from typing import Any

import numpy as np
import pytest
import torch
from oracle import assert_same, assert_same_error, mt, numpy_of, raised_by

# torch prints no warning in any of these checks, so minitorch must not either
# (nbgrader scores a cell 0 when anything reaches stderr).
pytestmark = pytest.mark.filterwarnings("error")
Build = Callable[[Any], Any]

# Binary operands: tensors of each dtype (with dimensions and 0-d) and Python scalars.
TENSORS: dict[str, Build] = {
    "float32[2]": lambda L: L.tensor([1.5, 0.5], dtype=L.float32),
    "float64[2]": lambda L: L.tensor([2.5, 0.25], dtype=L.float64),
    "int64[2]": lambda L: L.tensor([2, 3], dtype=L.int64),
    "bool[2]": lambda L: L.tensor([True, False], dtype=L.bool),
    "float32 0-d": lambda L: L.tensor(1.5, dtype=L.float32),
    "float64 0-d": lambda L: L.tensor(2.5, dtype=L.float64),
    "int64 0-d": lambda L: L.tensor(2, dtype=L.int64),
    "bool 0-d": lambda L: L.tensor(True, dtype=L.bool),
}
SCALARS: dict[str, Build] = {"int 2": lambda L: 2, "float 1.5": lambda L: 1.5,
                             "bool True": lambda L: True}
OPERANDS = {**TENSORS, **SCALARS}
BINARY = {
    "+": operator.add, "-": operator.sub, "*": operator.mul, "/": operator.truediv,
    "**": operator.pow, "<": operator.lt, "<=": operator.le, ">": operator.gt,
    ">=": operator.ge, "==": operator.eq, "!=": operator.ne,
}


def mismatch(build: Build) -> str | None:
    """How ``build(minitorch)`` differs from ``build(torch)`` (result or error), or None."""
    want_error = raised_by(build, torch)
    if want_error is not None:
        try:
            assert_same_error(raised_by(build, mt), want_error)
        except AssertionError as problem:
            return str(problem)
        return None
    try:
        assert_same(build(mt), build(torch))
    except Exception as problem:  # an error or a difference is the answer
        return f"{type(problem).__name__}: {problem}"
    return None


@pytest.mark.parametrize("symbol", BINARY)
@pytest.mark.parametrize("left", OPERANDS)
def test_binary_promotion(left: str, symbol: str) -> None:
    """``left <op> right`` for every right operand: torch's dtype and values, or its error.

    This covers torch's rules: a Python float or a 0-d float64 does not upcast float32,
    int / int gives float32, comparisons give bool, bool - bool is refused.
    """
    problems = {}
    for right in OPERANDS:
        if left in SCALARS and right in SCALARS:
            continue
        problem = mismatch(
            lambda L, right=right: BINARY[symbol](OPERANDS[left](L), OPERANDS[right](L))
        )
        if problem:
            problems[right] = problem
    assert not problems, "\n".join(f"{left} {symbol} {r}: {p}" for r, p in problems.items())


@pytest.mark.parametrize("operand", TENSORS)
def test_negation(operand: str) -> None:
    """Unary minus keeps the dtype, and is refused on bool as in torch."""
    assert mismatch(lambda L: -TENSORS[operand](L)) is None


FACTORIES: dict[str, Build] = {
    "tensor([1, 2])": lambda L: L.tensor([1, 2]),
    "tensor([1.])": lambda L: L.tensor([1.0]),
    "tensor(True)": lambda L: L.tensor(True),
    "tensor(2.5)": lambda L: L.tensor(2.5),
    "tensor(3)": lambda L: L.tensor(3),
    "tensor([1, 2.5])": lambda L: L.tensor([1, 2.5]),
    "tensor([True, 2])": lambda L: L.tensor([True, 2]),
    "tensor([[1, 2], [3, 4]])": lambda L: L.tensor([[1, 2], [3, 4]]),
    "tensor([])": lambda L: L.tensor([]),
    "tensor(float64 array)": lambda L: L.tensor(np.array([1.0, 2.0])),
    "tensor(float32 array)": lambda L: L.tensor(np.array([1.0, 2.0], dtype=np.float32)),
    "tensor(int64 array)": lambda L: L.tensor(np.array([1, 2], dtype=np.int64)),
    "tensor(bool array)": lambda L: L.tensor(np.array([True, False])),
    "tensor(np.float64 scalar)": lambda L: L.tensor(np.float64(2.5)),
    "tensor([1, 2], dtype=float32)": lambda L: L.tensor([1, 2], dtype=L.float32),
    "tensor([1.5, -2.5], dtype=int64)": lambda L: L.tensor([1.5, -2.5], dtype=L.int64),
    "tensor([0., 2.], dtype=bool)": lambda L: L.tensor([0.0, 2.0], dtype=L.bool),
    "tensor([1, 0], dtype=float64)": lambda L: L.tensor([1, 0], dtype=L.float64),
    "tensor([1., 2.], requires_grad=True)": lambda L: L.tensor([1.0, 2.0], requires_grad=True),
    "zeros(2, 3)": lambda L: L.zeros(2, 3),
    "zeros((2, 3))": lambda L: L.zeros((2, 3)),
    "zeros([2])": lambda L: L.zeros([2]),
    "zeros(2, dtype=int64)": lambda L: L.zeros(2, dtype=L.int64),
    "ones(2, 3)": lambda L: L.ones(2, 3),
    "ones(3, dtype=bool)": lambda L: L.ones(3, dtype=L.bool),
    "ones(2, dtype=float64, requires_grad=True)":
        lambda L: L.ones(2, dtype=L.float64, requires_grad=True),
    "full((2, 2), 3)": lambda L: L.full((2, 2), 3),
    "full((2,), 3.)": lambda L: L.full((2,), 3.0),
    "full((2,), True)": lambda L: L.full((2,), True),
    "full((2,), 1.5, dtype=float64)": lambda L: L.full((2,), 1.5, dtype=L.float64),
    "full((2,), 7, dtype=float32)": lambda L: L.full((2,), 7, dtype=L.float32),
    "arange(5)": lambda L: L.arange(5),
    "arange(2, 7)": lambda L: L.arange(2, 7),
    "arange(0., 5)": lambda L: L.arange(0.0, 5),
    "arange(1, 4, 0.5)": lambda L: L.arange(1, 4, 0.5),
    "arange(5, dtype=float64)": lambda L: L.arange(5, dtype=L.float64),
    "arange(3., dtype=int64)": lambda L: L.arange(3.0, dtype=L.int64),
    "eye(3)": lambda L: L.eye(3),
    "eye(2, 3)": lambda L: L.eye(2, 3),
    "eye(2, dtype=int64)": lambda L: L.eye(2, dtype=L.int64),
    "zeros_like(int64)": lambda L: L.zeros_like(L.tensor([1, 2])),
    "zeros_like(float64)": lambda L: L.zeros_like(L.tensor([1.0], dtype=L.float64)),
    "ones_like(bool)": lambda L: L.ones_like(L.tensor([True, False])),
    "ones_like(float32, dtype=int64)": lambda L: L.ones_like(L.tensor([1.5]), dtype=L.int64),
    "zeros_like(int64, dtype=float64)":
        lambda L: L.zeros_like(L.tensor([1, 2]), dtype=L.float64),
}
RANDOM_FACTORIES: dict[str, Build] = {
    "rand(2, 3)": lambda L: L.rand(2, 3),
    "rand((4,))": lambda L: L.rand((4,)),
    "rand(2, dtype=float64)": lambda L: L.rand(2, dtype=L.float64),
    "randn(5)": lambda L: L.randn(5),
    "randn(2, 2, dtype=float64)": lambda L: L.randn(2, 2, dtype=L.float64),
    "randn(3, requires_grad=True)": lambda L: L.randn(3, requires_grad=True),
}


@pytest.mark.parametrize("factory", FACTORIES)
def test_factory(factory: str) -> None:
    """Factories give torch's default dtype (and honour ``dtype=``), shape and values."""
    assert_same(FACTORIES[factory](mt), FACTORIES[factory](torch))


@pytest.mark.parametrize("factory", RANDOM_FACTORIES)
def test_random_factory(factory: str) -> None:
    """Random factories: torch's dtype, shape and requires_grad; rand in [0, 1)."""
    got, want = RANDOM_FACTORIES[factory](mt), RANDOM_FACTORIES[factory](torch)
    assert str(got.dtype) == str(want.dtype)
    assert tuple(got.shape) == tuple(want.shape)
    assert got.requires_grad == want.requires_grad
    values = numpy_of(got)
    assert np.all(np.isfinite(values))
    if factory.startswith("rand("):
        assert np.all((values >= 0) & (values < 1))


SOURCES: dict[str, Build] = {
    "float32": lambda L: L.tensor([1.5, -0.5, 0.0, 2.75], dtype=L.float32),
    "float64": lambda L: L.tensor([-2.5, 0.5, 0.0, 3.0], dtype=L.float64),
    "int64": lambda L: L.tensor([3, -2, 0, 1], dtype=L.int64),
    "bool": lambda L: L.tensor([True, False, True, False], dtype=L.bool),
    "float64 0-d": lambda L: L.tensor(-1.75, dtype=L.float64),
}
CONVERSIONS: dict[str, Callable[[Any, Any], Any]] = {
    "to(float32)": lambda L, x: x.to(L.float32),
    "to(float64)": lambda L, x: x.to(L.float64),
    "to(int64)": lambda L, x: x.to(L.int64),
    "to(bool)": lambda L, x: x.to(L.bool),
    "to(dtype=float64)": lambda L, x: x.to(dtype=L.float64),
    "float()": lambda L, x: x.float(),
    "double()": lambda L, x: x.double(),
    "long()": lambda L, x: x.long(),
    "bool()": lambda L, x: x.bool(),
}
FLOAT_CONVERSIONS = ["to(float32)", "to(float64)", "float()", "double()"]


@pytest.mark.parametrize("conversion", CONVERSIONS)
@pytest.mark.parametrize("source", SOURCES)
def test_conversion(source: str, conversion: str) -> None:
    """``.to(dtype)`` and ``.float()`` & co give torch's dtype and values (floats truncate)."""
    convert = CONVERSIONS[conversion]
    assert_same(convert(mt, SOURCES[source](mt)), convert(torch, SOURCES[source](torch)))


@pytest.mark.parametrize("conversion", FLOAT_CONVERSIONS)
@pytest.mark.parametrize("source", ["float32", "float64"])
def test_conversion_gradient(source: str, conversion: str) -> None:
    """A float conversion is differentiable: torch's grad_fn, and ``.grad`` in the input dtype."""
    results = {}
    for L in (mt, torch):
        x = SOURCES[source](L).requires_grad_()
        y = CONVERSIONS[conversion](L, x)
        (y * L.tensor([1.0, 2.0, 3.0, 4.0], dtype=y.dtype)).sum().backward()
        results[L] = (x, y)
    (x_mt, y_mt), (x_torch, y_torch) = results[mt], results[torch]
    assert_same(y_mt, y_torch)
    assert type(y_mt.grad_fn).__name__ == type(y_torch.grad_fn).__name__
    assert y_mt.is_leaf == y_torch.is_leaf
    assert_same(x_mt.grad, x_torch.grad, "x.grad")


ITEMS: dict[str, Build] = {
    "float32 0-d": lambda L: L.tensor(2.5),
    "float32 [0.1]": lambda L: L.tensor([0.1]),
    "float64 0-d": lambda L: L.tensor(0.1, dtype=L.float64),
    "int64 0-d": lambda L: L.tensor(-7),
    "int64 [[7]]": lambda L: L.tensor([[7]]),
    "bool 0-d": lambda L: L.tensor(True),
    "sum of float32": lambda L: L.tensor([0.25, 0.5]).sum(),
}


@pytest.mark.parametrize("source", ITEMS)
def test_item(source: str) -> None:
    """``item()`` returns torch's Python type (float, int or bool) and value."""
    got, want = ITEMS[source](mt).item(), ITEMS[source](torch).item()
    assert type(got) is type(want)
    assert got == want


LISTS: dict[str, Build] = {
    "float32 0-d": lambda L: L.tensor(2.5),
    "float32 [0.1, 2]": lambda L: L.tensor([0.1, 2.0]),
    "float64 2-D": lambda L: L.tensor([[0.1, 2.0], [3.0, -4.5]], dtype=L.float64),
    "int64 2-D": lambda L: L.tensor([[1, 2, 3], [4, 5, 6]]),
    "bool 1-D": lambda L: L.tensor([True, False]),
    "float32 (2, 1, 2)": lambda L: L.ones(2, 1, 2),
    "empty": lambda L: L.tensor([]),
    "requires grad": lambda L: L.tensor([1.5, 2.5], requires_grad=True),
}


def python_types(value: Any) -> Any:
    """The nested list structure of ``value`` with each element replaced by its type."""
    if isinstance(value, list):
        return [python_types(v) for v in value]
    return type(value)


@pytest.mark.parametrize("source", LISTS)
def test_tolist(source: str) -> None:
    """``tolist()`` gives torch's nested lists of Python numbers (a number for 0-d)."""
    got, want = LISTS[source](mt).tolist(), LISTS[source](torch).tolist()
    assert got == want
    assert python_types(got) == python_types(want)


DTYPE_NAMES = ["float32", "float64", "int64", "bool"]
ALIASES = {"float": "float32", "double": "float64", "long": "int64"}


@pytest.mark.parametrize("name", DTYPE_NAMES + list(ALIASES))
def test_dtype_objects(name: str) -> None:
    """dtypes print as torch's (``minitorch.float32``) and know if they are floating point."""
    got, want = getattr(mt, name), getattr(torch, name)
    assert str(got) == str(want)
    assert repr(got) == repr(want)
    assert got.is_floating_point == want.is_floating_point


@pytest.mark.parametrize("alias", ALIASES)
def test_dtype_aliases(alias: str) -> None:
    """``minitorch.float is minitorch.float32`` and so on, as in torch."""
    assert getattr(torch, alias) is getattr(torch, ALIASES[alias])
    assert getattr(mt, alias) is getattr(mt, ALIASES[alias])


@pytest.mark.parametrize("name", DTYPE_NAMES)
def test_tensor_dtype_attribute(name: str) -> None:
    """``tensor.dtype`` is the library's dtype object and compares equal to it."""
    got = mt.zeros(2, dtype=getattr(mt, name))
    assert got.dtype is getattr(mt, name)
    assert got.dtype == getattr(mt, name)
    assert (got.dtype == mt.float32) == (name == "float32")
