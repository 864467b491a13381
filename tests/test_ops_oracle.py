"""Every differentiable op against live torch: values, gradients of order 1 and 2, graph nodes.

A ``Case`` is one way of calling an op (operator, function or method), written once as
``fn(L, *tensors, **params)`` and run with ``L = minitorch`` and ``L = torch`` on the same
float64 arrays, which hypothesis draws together with the parameters (dims, shapes, indices).
"""

from __future__ import annotations

import operator
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
import pytest
import torch
from hypothesis import given
from hypothesis import strategies as st
from hypothesis.extra import numpy as hnp
from oracle import (
    BROADCAST_PAIRS,
    FEW,
    FEW_VALUES,
    NONZERO,
    POSITIVE,
    REAL,
    SETTINGS,
    arrays,
    assert_same,
    assert_same_grads,
    dim_tuples,
    dims,
    distinct_arrays,
    floats,
    mt,
    next_functions_summary,
    numpy_of,
    same_structure,
    shapes,
    twins,
)

# torch prints no warning in any of these checks, so minitorch must not either
# (nbgrader scores a cell 0 when anything reaches stderr).
pytestmark = pytest.mark.filterwarnings("error")
Example = tuple[tuple[np.ndarray, ...], dict[str, Any]]


@dataclass(frozen=True)
class Case:
    """One way of calling an op, on data drawn from ``data``.

    ``requires_grad`` says which arrays become tensors that require grad (default: all);
    a case that is not ``differentiable`` (comparisons) is checked forward only.
    """

    id: str
    fn: Callable[..., Any]
    data: st.SearchStrategy[Example]
    requires_grad: tuple[bool, ...] | None = None
    differentiable: bool = True


# ---------------------------------------------------------------------------- example strategies


def one(elements: st.SearchStrategy[float] = REAL, unique: bool = False, **shape_limits: int):
    """A single array, no parameters."""
    return arrays(shapes(**shape_limits), elements, unique).map(lambda a: ((a,), {}))


@st.composite
def pair(draw: Any, left=REAL, right=REAL) -> Example:
    """Two arrays of mutually broadcastable shapes (0-d included)."""
    left_shape, right_shape = draw(BROADCAST_PAIRS)
    return (draw(arrays(left_shape, left)), draw(arrays(right_shape, right))), {}


@st.composite
def distinct_pair(draw: Any) -> Example:
    """Two broadcastable arrays without ties (maximum/minimum are not differentiable there)."""
    return draw(distinct_arrays(draw(BROADCAST_PAIRS))), {}


@st.composite
def with_scalar(draw: Any, elements: st.SearchStrategy[float], scalars: Sequence[Any]) -> Example:
    """One array and a Python number ``s``."""
    return (draw(arrays(shapes(), elements)),), {"s": draw(st.sampled_from(scalars))}


@st.composite
def with_dim(
    draw: Any,
    keepdim: bool,
    tuples: bool = False,
    unique: bool = False,
    min_dims: int = 1,
    **shape_limits: int,
) -> Example:
    """An array (at least 1-D unless told) and a ``dim`` (an int, or also a tuple of dims),
    plus ``keepdim`` if asked."""
    x = draw(arrays(shapes(min_dims=min_dims, **shape_limits), unique=unique))
    dim = draw(st.one_of(dims(x.ndim), dim_tuples(x.ndim)) if tuples else dims(x.ndim))
    params = {"dim": dim, "keepdim": draw(st.booleans())} if keepdim else {"dim": dim}
    return (x,), params


def with_unbiased(examples: st.SearchStrategy[Example]) -> st.SearchStrategy[Example]:
    """Add an ``unbiased`` flag to each example's parameters."""
    return st.tuples(examples, st.booleans()).map(
        lambda p: (p[0][0], {**p[0][1], "unbiased": p[1]})
    )


MATMUL_SHAPES = {
    "1-D @ 1-D": lambda b, m, k, n: ((k,), (k,)),
    "2-D @ 2-D": lambda b, m, k, n: ((m, k), (k, n)),
    "1-D @ 2-D": lambda b, m, k, n: ((k,), (k, n)),
    "2-D @ 1-D": lambda b, m, k, n: ((m, k), (k,)),
    "3-D @ 3-D": lambda b, m, k, n: ((b, m, k), (b, k, n)),
    "3-D @ 3-D, batch 1 broadcast": lambda b, m, k, n: ((b, m, k), (1, k, n)),
    "3-D @ 2-D": lambda b, m, k, n: ((b, m, k), (k, n)),
    "2-D @ 3-D": lambda b, m, k, n: ((m, k), (b, k, n)),
    "3-D @ 1-D": lambda b, m, k, n: ((b, m, k), (k,)),
    "1-D @ 3-D": lambda b, m, k, n: ((k,), (b, k, n)),
}
SIDES = st.integers(1, 4)


@st.composite
def matmul_pair(draw: Any, kind: str) -> Example:
    """Operands of one matmul kind (a key of MATMUL_SHAPES)."""
    left, right = MATMUL_SHAPES[kind](*draw(st.tuples(SIDES, SIDES, SIDES, SIDES)))
    return (draw(arrays(left)), draw(arrays(right))), {}


ANY_MATMUL = st.sampled_from(sorted(MATMUL_SHAPES)).flatmap(matmul_pair)


@st.composite
def addmm_operands(draw: Any) -> Example:
    """A bias broadcastable to (m, n), then an (m, k) and a (k, n) matrix."""
    m, k, n = draw(st.tuples(SIDES, SIDES, SIDES))
    bias = draw(st.sampled_from([(), (n,), (1, n), (m, 1), (m, n)]))
    return (draw(arrays(bias)), draw(arrays((m, k))), draw(arrays((k, n)))), {}


@st.composite
def reshape_target(draw: Any) -> Example:
    """An array and a new shape with the same number of elements, maybe with a -1."""
    x = draw(arrays(shapes()))
    sides = [s for s in x.shape if s != 1] + [1] * draw(st.integers(0, 2))
    shape = list(draw(st.permutations(sides)))
    if shape and draw(st.booleans()):
        shape[draw(st.integers(0, len(shape) - 1))] = -1
    return (x,), {"shape": tuple(shape)}


@st.composite
def two_dims(draw: Any) -> Example:
    """An array of at least one dimension and two dims ``d0``, ``d1`` to swap."""
    x = draw(arrays(shapes(min_dims=1)))
    return (x,), {"d0": draw(dims(x.ndim)), "d1": draw(dims(x.ndim))}


@st.composite
def permutation(draw: Any) -> Example:
    """An array of at least one dimension and a permutation of its dims (some negative)."""
    x = draw(arrays(shapes(min_dims=1)))
    order = draw(st.permutations(range(x.ndim)))
    return (x,), {"dims": tuple(d - x.ndim if draw(st.booleans()) else d for d in order)}


@st.composite
def new_dim(draw: Any) -> Example:
    """An array and a position where a new dimension of size 1 can go."""
    x = draw(arrays(shapes()))
    return (x,), {"dim": draw(st.integers(-x.ndim - 1, x.ndim))}


@st.composite
def expand_sizes(draw: Any) -> Example:
    """An array and sizes it can be expanded to (-1 keeps a size, new dims go in front)."""
    target = draw(shapes(min_dims=1))
    first_kept = len(target) - draw(st.integers(0, len(target)))
    x = draw(arrays(tuple(s if draw(st.booleans()) else 1 for s in target[first_kept:])))
    sizes = [
        -1 if i >= first_kept and x.shape[i - first_kept] == s and draw(st.booleans()) else s
        for i, s in enumerate(target)
    ]
    return (x,), {"sizes": tuple(sizes)}


@st.composite
def cat_operands(draw: Any) -> Example:
    """One to three arrays that differ only in the size of ``dim``."""
    shape = draw(shapes(min_dims=1))
    dim = draw(dims(len(shape)))
    axis = dim % len(shape)
    sized = [
        (*shape[:axis], draw(st.integers(1, 3)), *shape[axis + 1 :])
        for _ in range(draw(st.integers(1, 3)))
    ]
    return tuple(draw(arrays(s)) for s in sized), {"dim": dim}


@st.composite
def stack_operands(draw: Any) -> Example:
    """One to three arrays of one shape, and a dim where the new axis goes."""
    shape = draw(shapes())
    xs = tuple(draw(arrays(shape)) for _ in range(draw(st.integers(1, 3))))
    return xs, {"dim": draw(st.integers(-len(shape) - 1, len(shape)))}


@st.composite
def index_item(draw: Any, size: int, tensor: bool) -> Any:
    """An index for a dimension of ``size``: an int, a non-empty slice (steps 1-3) or an
    int64 array of 1-4 positions, repeats and negative positions included."""
    if tensor:
        return draw(hnp.arrays(np.int64, st.integers(1, 4), elements=st.integers(-size, size - 1)))
    bound = st.none() | st.integers(-size - 1, size + 1)
    a_slice = st.builds(slice, bound, bound, st.none() | st.integers(1, 3))
    return draw(
        st.integers(-size, size - 1) | a_slice.filter(lambda s: len(range(size)[s]) > 0)
    )


@st.composite
def basic_and_tensor_index(draw: Any) -> Example:
    """An array and an index combining ints, slices, None, ``...`` and at most one int tensor."""
    x = draw(arrays(shapes(min_dims=1)))
    count = draw(st.integers(1, x.ndim))
    ellipsis = draw(st.sampled_from(["none", "first", "last"]))
    first_dim = x.ndim - count if ellipsis == "first" else 0
    tensor_at = draw(st.sampled_from([None, *range(count)]))
    items: list[Any] = [
        draw(index_item(x.shape[first_dim + i], tensor=i == tensor_at)) for i in range(count)
    ]
    if ellipsis != "none":
        items.insert(0 if ellipsis == "first" else len(items), Ellipsis)
    for _ in range(draw(st.integers(0, 2))):
        items.insert(draw(st.integers(0, len(items))), None)
    return (x,), {"index": items[0] if len(items) == 1 else tuple(items)}


@st.composite
def two_tensor_index(draw: Any) -> Example:
    """An array of at least 2 dims and two int64 index arrays of one length for dims 0 and 1."""
    x = draw(arrays(shapes(min_dims=2)))
    length = draw(st.integers(1, 4))
    rows, cols = (
        draw(hnp.arrays(np.int64, length, elements=st.integers(-s, s - 1))) for s in x.shape[:2]
    )
    return (x,), {"index": (rows, cols)}


def as_index(L: Any, index: Any) -> Any:
    """The drawn index with its numpy arrays turned into ``L`` int64 tensors."""
    if isinstance(index, tuple):
        return tuple(as_index(L, i) for i in index)
    return L.tensor(index) if isinstance(index, np.ndarray) else index


# ---------------------------------------------------------------------------- the cases

ARITHMETIC = [
    ("+", "add", operator.add),
    ("-", "sub", operator.sub),
    ("*", "mul", operator.mul),
    ("/", "div", operator.truediv),
]
COMPARISONS = [
    ("<", "lt", operator.lt),
    ("<=", "le", operator.le),
    (">", "gt", operator.gt),
    (">=", "ge", operator.ge),
    ("==", "eq", operator.eq),
    ("!=", "ne", operator.ne),
]
SCALARS = [2, -1.5, 0.5, 3.0]
# clamp's bounds are -0.5 and 0.5: values stay clear of them (no derivative there)
AWAY_FROM_BOUNDS = floats(-3, -0.6) | floats(-0.4, 0.4) | floats(0.6, 3)


def elementwise_cases() -> list[Case]:
    """Unary functions, each as ``L.f(x)`` and ``x.f()``, on their safe domain."""
    domains = {"exp": REAL, "log": POSITIVE, "sqrt": POSITIVE, "sin": REAL, "cos": REAL,
               "abs": NONZERO, "sigmoid": REAL, "tanh": REAL, "relu": NONZERO, "neg": REAL}
    cases = [Case("-x", lambda L, x: -x, one())]
    for name, domain in domains.items():
        cases += [
            Case(f"{name}(x)", lambda L, x, name=name: getattr(L, name)(x), one(domain)),
            Case(f"x.{name}()", lambda L, x, name=name: getattr(x, name)(), one(domain)),
        ]
    return cases


def arithmetic_cases() -> list[Case]:
    """+ - * / between tensors, with Python numbers on either side, as operator/function/method."""
    cases = []
    for symbol, name, op in ARITHMETIC:
        divisor = NONZERO if name == "div" else REAL
        cases += [
            Case(f"x {symbol} y", lambda L, x, y, op=op: op(x, y), pair(REAL, divisor)),
            Case(f"{name}(x, y)", lambda L, x, y, f=name: getattr(L, f)(x, y), pair(REAL, divisor)),
            Case(f"x.{name}(y)", lambda L, x, y, f=name: getattr(x, f)(y), pair(REAL, divisor)),
            Case(f"x {symbol} s", lambda L, x, s, op=op: op(x, s), with_scalar(REAL, SCALARS)),
            Case(f"s {symbol} x", lambda L, x, s, op=op: op(s, x), with_scalar(divisor, SCALARS)),
            Case(f"{name}(x, s)", lambda L, x, s, f=name: getattr(L, f)(x, s),
                 with_scalar(REAL, SCALARS)),
        ]
    return cases


def pow_cases() -> list[Case]:
    """tensor ** number, number ** tensor and tensor ** tensor.

    Tensor exponents stay away from 0, where torch's backward switches to a constant zero
    (so its second derivative there is not the mathematical one).
    """
    return [
        Case("x ** s (s = 2, 3)", lambda L, x, s: x**s, with_scalar(REAL, [2, 3])),
        Case("x ** s (s = -1, -2)", lambda L, x, s: x**s, with_scalar(NONZERO, [-1, -2])),
        Case("x ** s (real s)", lambda L, x, s: x**s, with_scalar(POSITIVE, [0.5, -1.5, 2.5])),
        Case("pow(x, s)", lambda L, x, s: L.pow(x, s), with_scalar(POSITIVE, [2, 0.5, -1.5])),
        Case("x.pow(s)", lambda L, x, s: x.pow(s), with_scalar(POSITIVE, [3, 0.5, -1.5])),
        Case("s ** x", lambda L, x, s: s**x, with_scalar(REAL, [0.5, 2, 2.5])),
        Case("pow(s, x)", lambda L, x, s: L.pow(s, x), with_scalar(REAL, [0.5, 2, 2.5])),
        Case("x ** y", lambda L, x, y: x**y, pair(POSITIVE, NONZERO)),
        Case("pow(x, y)", lambda L, x, y: L.pow(x, y), pair(POSITIVE, NONZERO)),
        Case("x.pow(y)", lambda L, x, y: x.pow(y), pair(POSITIVE, NONZERO)),
    ]


def partly_constant_cases() -> list[Case]:
    """Binary ops where one operand does not require grad (a None in next_functions)."""
    return [
        Case("x * y, y constant", lambda L, x, y: x * y, pair(), (True, False)),
        Case("x / y, x constant", lambda L, x, y: x / y, pair(REAL, NONZERO), (False, True)),
        Case("x - y, x constant", lambda L, x, y: x - y, pair(), (False, True)),
        Case("x ** y, y constant", lambda L, x, y: x**y, pair(POSITIVE, NONZERO), (True, False)),
        Case("x @ y, x constant", lambda L, x, y: x @ y, matmul_pair("2-D @ 2-D"), (False, True)),
        Case("maximum(x, y), y constant", lambda L, x, y: L.maximum(x, y), distinct_pair(),
             (True, False)),
    ]


def clamp_and_extrema_cases() -> list[Case]:
    """clamp, and maximum/minimum between tensors."""
    return [
        Case("clamp(x, -0.5, 0.5)", lambda L, x: L.clamp(x, -0.5, 0.5), one(AWAY_FROM_BOUNDS)),
        Case("x.clamp(min=-0.5, max=0.5)", lambda L, x: x.clamp(min=-0.5, max=0.5),
             one(AWAY_FROM_BOUNDS)),
        Case("x.clamp(min=-0.5)", lambda L, x: x.clamp(min=-0.5), one(AWAY_FROM_BOUNDS)),
        Case("x.clamp(max=0.5)", lambda L, x: x.clamp(max=0.5), one(AWAY_FROM_BOUNDS)),
        Case("clamp(x, min=-0.5)", lambda L, x: L.clamp(x, min=-0.5), one(AWAY_FROM_BOUNDS)),
        Case("maximum(x, y)", lambda L, x, y: L.maximum(x, y), distinct_pair()),
        Case("x.maximum(y)", lambda L, x, y: x.maximum(y), distinct_pair()),
        Case("minimum(x, y)", lambda L, x, y: L.minimum(x, y), distinct_pair()),
        Case("x.minimum(y)", lambda L, x, y: x.minimum(y), distinct_pair()),
    ]


def matmul_cases() -> list[Case]:
    """``@`` for every kind of operand, ``L.matmul``/``x.matmul`` and addmm."""
    return [
        *(Case(f"x @ y ({kind})", lambda L, x, y: x @ y, matmul_pair(kind))
          for kind in MATMUL_SHAPES),
        Case("matmul(x, y)", lambda L, x, y: L.matmul(x, y), ANY_MATMUL),
        Case("x.matmul(y)", lambda L, x, y: x.matmul(y), ANY_MATMUL),
        Case("addmm(b, m1, m2)", lambda L, b, m1, m2: L.addmm(b, m1, m2), addmm_operands()),
        Case("b.addmm(m1, m2)", lambda L, b, m1, m2: b.addmm(m1, m2), addmm_operands()),
        Case("addmm(b, m1, m2, beta=0.5, alpha=2.0)",
             lambda L, b, m1, m2: L.addmm(b, m1, m2, beta=0.5, alpha=2.0), addmm_operands()),
    ]


def max_with_dim(L: Any, x: Any, dim: int, keepdim: bool) -> tuple[Any, Any]:
    """``L.max(x, dim, keepdim)`` unpacked as a (values, indices) pair."""
    values, indices = L.max(x, dim, keepdim=keepdim)
    return values, indices


def min_with_dim(L: Any, x: Any, dim: int, keepdim: bool) -> tuple[Any, Any]:
    """``L.min(x, dim, keepdim)`` unpacked as a (values, indices) pair."""
    values, indices = L.min(x, dim, keepdim=keepdim)
    return values, indices


def reduction_cases() -> list[Case]:
    """sum, mean, var and max/min, over everything or over dims."""
    cases = []
    for name in ("sum", "mean"):
        cases += [
            Case(f"x.{name}()", lambda L, x, f=name: getattr(x, f)(), one()),
            Case(f"{name}(x)", lambda L, x, f=name: getattr(L, f)(x), one()),
            Case(f"x.{name}(dim)", lambda L, x, dim, f=name: getattr(x, f)(dim),
                 with_dim(keepdim=False, tuples=True)),
            Case(f"{name}(x, dim, keepdim=k)",
                 lambda L, x, dim, keepdim, f=name: getattr(L, f)(x, dim, keepdim=keepdim),
                 with_dim(keepdim=True, tuples=True)),
            Case(f"x.{name}(dim=dim, keepdim=k)",
                 lambda L, x, dim, keepdim, f=name: getattr(x, f)(dim=dim, keepdim=keepdim),
                 with_dim(keepdim=True, tuples=True)),
        ]
    # at least two elements along every reduced dim, so that the unbiased variance exists
    var_dims = with_unbiased(with_dim(keepdim=True, tuples=True, min_side=2))
    cases += [
        Case("x.var()", lambda L, x: x.var(), one(min_dims=1, min_side=2)),
        Case("var(x)", lambda L, x: L.var(x), one(min_dims=1, min_side=2)),
        Case("x.var(unbiased=False)", lambda L, x: x.var(unbiased=False),
             one(min_dims=1, min_side=2)),
        Case("x.var(dim, unbiased=u, keepdim=k)",
             lambda L, x, dim, unbiased, keepdim: x.var(dim, unbiased=unbiased, keepdim=keepdim),
             var_dims),
        Case("var(x, dim, unbiased=u, keepdim=k)",
             lambda L, x, dim, unbiased, keepdim: L.var(x, dim, unbiased=unbiased,
                                                        keepdim=keepdim),
             var_dims),
        Case("x.max()", lambda L, x: x.max(), one(unique=True)),
        Case("max(x)", lambda L, x: L.max(x), one(unique=True)),
        Case("x.min()", lambda L, x: x.min(), one(unique=True)),
        Case("min(x)", lambda L, x: L.min(x), one(unique=True)),
        Case("values, indices = max(x, dim, keepdim=k)", max_with_dim,
             with_dim(keepdim=True, unique=True)),
        Case("values, indices = min(x, dim, keepdim=k)", min_with_dim,
             with_dim(keepdim=True, unique=True)),
        Case("x.max(dim=d).values/.indices",
             lambda L, x, dim: (x.max(dim=dim).values, x.max(dim=dim).indices),
             with_dim(keepdim=False, unique=True)),
        Case("x.min(d)[0]/[1]", lambda L, x, dim: (x.min(dim)[0], x.min(dim)[1]),
             with_dim(keepdim=False, unique=True)),
    ]
    return cases


def zero_d_dim_cases() -> list[Case]:
    """A dim argument on a 0-d tensor, which torch accepts as 0 or -1."""
    zero_d = with_dim(keepdim=True, tuples=True, min_dims=0, max_dims=0)
    return [
        Case("0-d: x.sum(dim, keepdim=k)",
             lambda L, x, dim, keepdim: x.sum(dim, keepdim=keepdim), zero_d),
        Case("0-d: x.mean(dim, keepdim=k)",
             lambda L, x, dim, keepdim: x.mean(dim, keepdim=keepdim), zero_d),
        Case("0-d: max(x, dim, keepdim=k)", max_with_dim,
             with_dim(keepdim=True, min_dims=0, max_dims=0)),
        Case("0-d: x.squeeze(dim)", lambda L, x, dim: x.squeeze(dim),
             with_dim(keepdim=False, min_dims=0, max_dims=0)),
    ]


def shape_cases() -> list[Case]:
    """Views and shape changes: reshape/view, t/transpose/permute, (un)squeeze, expand."""
    return [
        Case("x.reshape(shape)", lambda L, x, shape: x.reshape(shape), reshape_target()),
        Case("reshape(x, shape)", lambda L, x, shape: L.reshape(x, shape), reshape_target()),
        Case("x.view(shape)", lambda L, x, shape: x.view(shape), reshape_target()),
        Case("x.view(*shape)", lambda L, x, shape: x.view(*shape),
             reshape_target().filter(lambda ex: ex[1]["shape"])),
        Case("x.reshape(-1)", lambda L, x: x.reshape(-1), one()),
        Case("x.t()", lambda L, x: x.t(), one(max_dims=2)),
        Case("t(x)", lambda L, x: L.t(x), one(max_dims=2)),
        Case("x.transpose(d0, d1)", lambda L, x, d0, d1: x.transpose(d0, d1), two_dims()),
        Case("transpose(x, d0, d1)", lambda L, x, d0, d1: L.transpose(x, d0, d1), two_dims()),
        Case("x.permute(dims)", lambda L, x, dims: x.permute(dims), permutation()),
        Case("x.permute(*dims)", lambda L, x, dims: x.permute(*dims), permutation()),
        Case("permute(x, dims)", lambda L, x, dims: L.permute(x, dims), permutation()),
        Case("x.unsqueeze(dim)", lambda L, x, dim: x.unsqueeze(dim), new_dim()),
        Case("unsqueeze(x, dim)", lambda L, x, dim: L.unsqueeze(x, dim), new_dim()),
        Case("x.squeeze()", lambda L, x: x.squeeze(), one(max_side=2)),
        Case("squeeze(x)", lambda L, x: L.squeeze(x), one(max_side=2)),
        Case("x.squeeze(dim)", lambda L, x, dim: x.squeeze(dim),
             with_dim(keepdim=False, max_side=2)),
        Case("squeeze(x, dim)", lambda L, x, dim: L.squeeze(x, dim),
             with_dim(keepdim=False, max_side=2)),
        Case("x.expand(*sizes)", lambda L, x, sizes: x.expand(*sizes), expand_sizes()),
        Case("x.expand(sizes)", lambda L, x, sizes: x.expand(sizes), expand_sizes()),
    ]


def joining_and_indexing_cases() -> list[Case]:
    """cat/stack, unbind and iteration, and indexing."""
    return [
        Case("cat([xs], dim)", lambda L, *xs, dim: L.cat(list(xs), dim), cat_operands()),
        Case("cat((xs), dim=dim)", lambda L, *xs, dim: L.cat(xs, dim=dim), cat_operands()),
        Case("stack([xs], dim)", lambda L, *xs, dim: L.stack(list(xs), dim), stack_operands()),
        Case("x.unbind(dim)", lambda L, x, dim: x.unbind(dim), with_dim(keepdim=False)),
        Case("unbind(x, dim)", lambda L, x, dim: L.unbind(x, dim), with_dim(keepdim=False)),
        Case("[row for row in x]", lambda L, x: [row for row in x], one(min_dims=1)),
        Case("x[index]", lambda L, x, index: x[as_index(L, index)], basic_and_tensor_index()),
        Case("x[None]", lambda L, x: x[None], one()),
        Case("x[...]", lambda L, x: x[...], one()),
        Case("x[rows, cols]", lambda L, x, index: x[as_index(L, index)], two_tensor_index()),
    ]


def comparison_cases() -> list[Case]:
    """< <= > >= == != as operator, function and method: bool results, never requiring grad."""
    cases = []
    for symbol, name, op in COMPARISONS:
        scalar = with_scalar(FEW_VALUES, [0.5, 0, 1.0, -1])
        pairs = pair(FEW_VALUES, FEW_VALUES)
        cases += [
            Case(f"x {symbol} y", lambda L, x, y, op=op: op(x, y), pairs, differentiable=False),
            Case(f"{name}(x, y)", lambda L, x, y, f=name: getattr(L, f)(x, y), pairs,
                 differentiable=False),
            Case(f"x.{name}(y)", lambda L, x, y, f=name: getattr(x, f)(y), pairs,
                 differentiable=False),
            Case(f"x {symbol} s", lambda L, x, s, op=op: op(x, s), scalar, differentiable=False),
            Case(f"s {symbol} x", lambda L, x, s, op=op: op(s, x), scalar, differentiable=False),
        ]
    return cases


CASES = [
    *elementwise_cases(),
    *arithmetic_cases(),
    *pow_cases(),
    *partly_constant_cases(),
    *clamp_and_extrema_cases(),
    *matmul_cases(),
    *reduction_cases(),
    *zero_d_dim_cases(),
    *shape_cases(),
    *joining_and_indexing_cases(),
    *comparison_cases(),
]
GRAD_CASES = [case for case in CASES if case.differentiable]


# ---------------------------------------------------------------------------- running a case


def run(case: Case, example: Example, dtype: type = np.float64):
    """Inputs and outputs (as tuples) of ``case`` on ``example``, in minitorch and in torch."""
    arrays_, params = example
    xs_mt, xs_torch = twins([a.astype(dtype) for a in arrays_], case.requires_grad)

    def outputs(lib: Any, xs: list[Any]) -> tuple[Any, ...]:
        result = case.fn(lib, *xs, **params)
        return tuple(result) if isinstance(result, (tuple, list)) else (result,)

    return xs_mt, xs_torch, outputs(mt, xs_mt), outputs(torch, xs_torch)


def random_like(tensors: Sequence[torch.Tensor], seed: int) -> list[np.ndarray]:
    """Standard-normal arrays shaped and typed like ``tensors`` (upstream gradients)."""
    rng = np.random.default_rng(seed)
    return [rng.standard_normal(tuple(t.shape)).astype(numpy_of(t).dtype) for t in tensors]


def differentiable(outputs: Sequence[Any], torch_outputs: Sequence[torch.Tensor]) -> list[Any]:
    """The outputs whose torch twin requires grad."""
    return [o for o, t in zip(outputs, torch_outputs) if t.requires_grad]


def two_orders(L: Any, outputs: list[Any], inputs: list[Any], vs: list[Any], ws: list[Any]):
    """First gradients ``g`` of outputs·v (with a graph), then the gradient of Σ(g·w).

    Gradients that do not depend on the inputs contribute nothing to the second order.
    """
    firsts = L.autograd.grad(outputs, inputs, [L.tensor(v) for v in vs], create_graph=True)
    terms = [(g * L.tensor(w)).sum() for g, w in zip(firsts, ws) if g.requires_grad]
    if not terms:
        return firsts, [None] * len(inputs)
    return firsts, L.autograd.grad(sum(terms[1:], terms[0]), inputs, allow_unused=True)


def output_links(outputs: Sequence[Any]) -> list[tuple[int, int] | None]:
    """Per output: which output first has the same grad_fn, and the output's output_nr."""
    links: list[tuple[int, int] | None] = []
    for o in outputs:
        if o.grad_fn is None:
            links.append(None)
            continue
        owner = next(i for i, p in enumerate(outputs) if p.grad_fn is o.grad_fn)
        links.append((owner, o.sum().grad_fn.next_functions[0][1]))
    return links


# ---------------------------------------------------------------------------- the tests


def case_id(case: Case) -> str:
    return case.id


@pytest.mark.parametrize("case", CASES, ids=case_id)
@SETTINGS
@given(data=st.data())
def test_forward(case: Case, data: st.DataObject) -> None:
    """Values, shapes, dtypes and requires_grad of every output equal torch's."""
    _, _, got, want = run(case, data.draw(case.data))
    assert len(got) == len(want), "number of outputs"
    for i, (g, w) in enumerate(zip(got, want)):
        assert_same(g, w, f"output {i}")


@pytest.mark.parametrize("case", GRAD_CASES, ids=case_id)
@SETTINGS
@given(data=st.data())
def test_backward(case: Case, data: st.DataObject) -> None:
    """``autograd.backward`` with a random upstream gradient fills the same leaf ``.grad``."""
    xs_mt, xs_torch, got, want = run(case, data.draw(case.data))
    vs = random_like(differentiable(want, want), data.draw(st.integers(0, 2**32 - 1)))
    for L, outputs in ((mt, got), (torch, want)):
        L.autograd.backward(differentiable(outputs, want), [L.tensor(v) for v in vs])
    for x_mt, x_torch in zip(xs_mt, xs_torch):
        assert (x_mt.grad is None) == (x_torch.grad is None), "which leaves got a .grad"
    assert_same_grads([x.grad for x in xs_mt], [x.grad for x in xs_torch], "x.grad")


@pytest.mark.parametrize("case", GRAD_CASES, ids=case_id)
@SETTINGS
@given(data=st.data())
def test_second_order(case: Case, data: st.DataObject) -> None:
    """With ``create_graph=True`` the gradient, and the gradient of (grad·w).sum(), match."""
    xs_mt, xs_torch, got, want = run(case, data.draw(case.data))
    seed = data.draw(st.integers(0, 2**32 - 1))
    inputs_torch = [x for x in xs_torch if x.requires_grad]
    vs = random_like(differentiable(want, want), seed)
    ws = random_like(inputs_torch, seed + 1)
    inputs_mt = [x for x in xs_mt if x.requires_grad]
    first_mt, second_mt = two_orders(mt, differentiable(got, want), inputs_mt, vs, ws)
    first_torch, second_torch = two_orders(torch, differentiable(want, want), inputs_torch, vs, ws)
    assert all(g is not None for g in first_mt), "autograd.grad returned None"
    assert_same_grads(first_mt, first_torch, "first-order gradient")
    assert_same_grads(second_mt, second_torch, "second-order gradient")


@pytest.mark.parametrize("case", CASES, ids=case_id)
@FEW
@given(data=st.data())
def test_grad_fn_name(case: Case, data: st.DataObject) -> None:
    """Each output's grad_fn has torch's class name and ``name()`` (or is None like torch's)."""
    _, _, got, want = run(case, data.draw(case.data))
    for g, w in zip(got, want):
        if w.grad_fn is None:
            assert g.grad_fn is None
            continue
        assert type(g.grad_fn).__name__ == type(w.grad_fn).__name__
        assert g.grad_fn.name() == w.grad_fn.name()


@pytest.mark.parametrize("case", GRAD_CASES, ids=case_id)
@FEW
@given(data=st.data())
def test_next_functions(case: Case, data: st.DataObject) -> None:
    """next_functions entries (None, AccumulateGrad of which input, or a node; output_nr) and
    how the outputs share nodes match torch."""
    xs_mt, xs_torch, got, want = run(case, data.draw(case.data))
    for g, w in zip(got, want):
        if w.grad_fn is not None and g.grad_fn is not None:
            rows_mt = next_functions_summary(g.grad_fn, xs_mt)
            rows_torch = next_functions_summary(w.grad_fn, xs_torch)
            assert same_structure(rows_mt, rows_torch), f"{rows_mt} != torch's {rows_torch}"
    assert output_links(got) == output_links(want), "grad_fn shared between outputs / output_nr"


@pytest.mark.parametrize("case", GRAD_CASES, ids=case_id)
@FEW
@given(data=st.data())
def test_float32(case: Case, data: st.DataObject) -> None:
    """In float32 the results and the gradients stay float32, as in torch."""
    xs_mt, xs_torch, got, want = run(case, data.draw(case.data), np.float32)
    for i, (g, w) in enumerate(zip(got, want)):
        assert_same(g, w, f"output {i}")
    vs = random_like(differentiable(want, want), 0)
    for L, outputs in ((mt, got), (torch, want)):
        L.autograd.backward(differentiable(outputs, want), [L.tensor(v) for v in vs])
    assert_same_grads([x.grad for x in xs_mt], [x.grad for x in xs_torch], "x.grad")


SPECIAL_VALUES = [float("nan"), float("inf"), -float("inf"), 0.0, -0.0, 1.0, -2.5]


@pytest.mark.parametrize("name", ["relu", "abs", "exp", "tanh", "sigmoid", "neg", "sign"])
def test_unary_ops_on_nan_and_inf_like_torch(name: str) -> None:
    # NaN in, NaN out (relu too); infinities follow torch, forward and backward.
    a, b = (L.tensor(SPECIAL_VALUES, dtype=L.float64, requires_grad=True) for L in (mt, torch))
    ya, yb = getattr(a, name)(), getattr(b, name)()
    np.testing.assert_allclose(ya.detach().numpy(), yb.detach().numpy(), rtol=1e-12)
    ya.sum().backward()
    yb.sum().backward()
    np.testing.assert_allclose(a.grad.numpy(), b.grad.numpy(), rtol=1e-12)


@pytest.mark.parametrize(("a", "b"), [(1.0, 0.5), (1, 0), (True, False), (1, 0.5)])
def test_where_of_two_python_scalars_like_torch(a: Any, b: Any) -> None:
    got, want = (L.where(L.tensor([1.0, -1.0]) > 0, a, b) for L in (mt, torch))
    assert str(got.dtype).split(".")[1] == str(want.dtype).split(".")[1]
    np.testing.assert_array_equal(got.numpy(), want.numpy())


def test_relu_gradient_is_threshold_backward_like_torch() -> None:
    # relu's backward is one op, threshold_backward; differentiated again it is itself
    names, grads = [], []
    for L in (mt, torch):
        x = L.tensor([-1.0, 0.0, 2.0, float("nan")], dtype=L.float64, requires_grad=True)
        g, = L.autograd.grad((x.relu() ** 2).sum(), x, create_graph=True)
        gg, = L.autograd.grad(g.sum(), x, create_graph=True)
        names.append([g.grad_fn.name(), *(n.name() for n, _ in g.grad_fn.next_functions)])
        grads.append((g.detach().numpy(), gg.detach().numpy()))
    assert names[0] == names[1] == ["ThresholdBackwardBackward0", "MulBackward0", "ReluBackward0"]
    for got, want in zip(*grads):
        np.testing.assert_array_equal(got, want)


def test_relu_backward_gives_zero_where_relu_is_zero_even_for_an_infinite_gradient() -> None:
    grads = []
    for L in (mt, torch):
        x = L.tensor([-1.0, 0.0, 2.0], requires_grad=True)
        x.relu().backward(L.tensor([float("inf"), float("nan"), 1.0]))
        grads.append(x.grad.numpy())
    np.testing.assert_array_equal(grads[0], grads[1])  # [0, 0, 1]: a mask product gives nan


@pytest.mark.parametrize("dtype", ["float32", "float64"])
def test_relu_backward_keeps_every_bit_of_torchs_gradient(dtype: str) -> None:
    # the sign of a zero shows when printed (-0. against 0.): dropped entries are +0, kept
    # ones pass unchanged, infinities and NaN included; a NaN result passes its gradient
    special = [-1.0, -0.0, 0.0, 2.0, float("inf"), float("-inf"), float("nan")]
    xs, gs = np.meshgrid([*special, -3.0], [*special, 5.0])
    grads = []
    for L in (mt, torch):
        x = L.tensor(xs, dtype=getattr(L, dtype), requires_grad=True)
        x.relu().backward(L.tensor(gs, dtype=getattr(L, dtype)))
        grads.append(x.grad.numpy())
    np.testing.assert_array_equal(grads[0].view(f"u{grads[0].itemsize}"),
                                  grads[1].view(f"u{grads[1].itemsize}"))


ROUNDED_AS_TORCH = {  # torch's order of the products: another order differs in the last bit
    "x ** 2": lambda x: x ** 2, "x ** 3": lambda x: x ** 3,  # g * (p * x ** (p - 1))
    "reciprocal": lambda x: x.reciprocal(),  # -g * (r * r)
    "1.3 / x": lambda x: 1.3 / x,
    "x / (1.5x + .25)": lambda x: x / (x * 1.5 + 0.25),  # -g * (a / b / b)
}


@pytest.mark.parametrize("dtype", ["float32", "float64"])
@pytest.mark.parametrize("name", ROUNDED_AS_TORCH)
def test_backward_rounds_as_torch(name: str, dtype: str) -> None:
    rng = np.random.default_rng(len(name))
    xs, gs = rng.standard_normal((2, 1000)).astype(dtype)
    grads = []
    for L in (mt, torch):
        x = L.tensor(xs, requires_grad=True)
        ROUNDED_AS_TORCH[name](x).backward(L.tensor(gs))
        grads.append(x.grad.numpy())
    np.testing.assert_array_equal(grads[0], grads[1])


def test_pow_zero_backward_is_zeros_even_for_an_infinite_gradient() -> None:
    grads = []
    for L in (mt, torch):
        x = L.tensor([1.0, 2.0, 3.0], requires_grad=True)
        (x ** 0).backward(L.tensor([float("inf"), float("nan"), 1.0]))
        grads.append(x.grad.numpy())
    np.testing.assert_array_equal(grads[0], grads[1])  # [0, 0, 0]: g * 0 gives nan


@pytest.mark.parametrize("a_shape,b_shape", [
    ((2, 3), (2, 3, 4)), ((1, 3), (2, 3, 4)), ((2, 3), (2, 3, 1)), ((2, 3), (2, 5, 3, 4)),
    ((0, 3), (2, 3, 4)), ((3,), (2, 3, 4)), ((3,), (2, 5, 3, 1)), ((3,), (0, 3, 4))])
@pytest.mark.parametrize("a_grad", [True, False])
def test_small_times_batch_builds_torchs_graph(a_shape: tuple, b_shape: tuple,
                                               a_grad: bool) -> None:
    # torch folds b's batch when a needs a gradient (then a matrix's product is transposed
    # back and made contiguous: a clone unless a size-1 dim makes it so); else it broadcasts
    rng = np.random.default_rng(len(b_shape))
    a_np, b_np = rng.standard_normal(a_shape), rng.standard_normal(b_shape)
    seen = []
    for L in (mt, torch):
        a, b = L.tensor(a_np, requires_grad=a_grad), L.tensor(b_np, requires_grad=True)
        y = a @ b
        y.sum().backward()
        names = [y.grad_fn.name(), *(n.name() for n, _ in y.grad_fn.next_functions if n)]
        seen.append((names, y.detach().numpy(), b.grad.numpy(),
                     a.grad.numpy() if a_grad else None))
    assert seen[0][0] == seen[1][0]
    for got, want in zip(seen[0][1:], seen[1][1:]):
        if want is not None:
            np.testing.assert_allclose(got, want, rtol=1e-12, atol=1e-12)


@pytest.mark.parametrize("act", ["relu", "leaky_relu", "hardtanh", "relu6"])
def test_a_gradient_penalty_through_a_kink_gives_the_layer_below_zeros(act: str) -> None:
    """Differentiated again, a piecewise-linear backward gives its input zeros (torch's
    zeros_like), so the first layer's bias gets a zero gradient, not none."""
    grads = []
    for L in (mt, torch):
        L.manual_seed(0)
        first, second = L.nn.Linear(3, 4), L.nn.Linear(4, 1)
        x = L.randn(5, 3, requires_grad=True)
        (g,) = L.autograd.grad(second(getattr(L.nn.functional, act)(first(x))).sum(), x,
                               create_graph=True)
        g.norm().backward()
        grads.append(first.bias.grad)
    assert grads[0] is not None
    np.testing.assert_array_equal(grads[0].numpy(), grads[1].numpy())
