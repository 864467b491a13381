"""Shared helpers for the torch-oracle tests: twin tensors, data strategies and comparisons.

An oracle test builds the same numpy data into a minitorch tensor and a torch tensor, runs the
same code on both libraries (each test function takes the library as ``L``), and requires
minitorch's answer to equal torch's: values, shapes, dtypes, graph nodes and error messages.

>>> (a,), (b,) = twins([np.arange(3.0)])
>>> assert_same(a * 2, b * 2)
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from typing import Any

import numpy as np
import pytest
import torch
from hypothesis import HealthCheck, settings
from hypothesis import strategies as st
from hypothesis.extra import numpy as hnp

import minitorch as mt
from minitorch.ops._softmax_order import lanes

# the CPUs whose torch kernels minitorch's bit-for-bit paths repeat (16 float32 lanes); on
# others (AVX2) torch and oneDNN take kernels of another vector width
AVX512 = lanes() == 16

# Deterministic in CI: the same examples on every run, nothing stored in .hypothesis/.
SETTINGS = settings(
    max_examples=25,
    deadline=None,
    derandomize=True,
    database=None,
    suppress_health_check=[HealthCheck.too_slow],
)
FEW = settings(SETTINGS, max_examples=5)

# Tolerances per floating dtype: float64 is the real test, float32 checks dtype handling.
TOLERANCES = {"float64": {"rtol": 1e-7, "atol": 1e-10}, "float32": {"rtol": 1e-4, "atol": 1e-5}}


# ---------------------------------------------------------------------------- building twins


def twins(
    arrays: Sequence[np.ndarray], requires_grad: Sequence[bool] | None = None
) -> tuple[list[Any], list[torch.Tensor]]:
    """One minitorch and one torch tensor per float array; all require grad unless told.

    >>> (a,), (b,) = twins([np.ones(2)], requires_grad=[False])
    >>> a.requires_grad, b.requires_grad
    (False, False)
    """
    if requires_grad is None:
        requires_grad = [True] * len(arrays)
    pairs = list(zip(arrays, requires_grad))
    return (
        [mt.tensor(a, requires_grad=rg) for a, rg in pairs],
        [torch.tensor(a, requires_grad=rg) for a, rg in pairs],
    )


def raised_by(fn: Callable[[Any], Any], lib: Any) -> BaseException | None:
    """The exception ``fn(lib)`` raises, or None.

    >>> type(raised_by(lambda L: L.ones(2) + L.ones(3), torch)).__name__
    'RuntimeError'
    """
    try:
        fn(lib)
    except Exception as error:  # any exception is the observation
        return error
    return None


def assert_same_error(got: BaseException | None, want: BaseException) -> None:
    """minitorch raised torch's exception type with torch's message."""
    assert got is not None, f"{mt.__name__} raised nothing; torch raised {want!r}"
    assert type(got).__name__ == type(want).__name__, f"{got!r} instead of {want!r}"
    expected = re.sub(r"^\[enforce fail at [^\]]*\] [^.]*\. ", "", str(want))  # (less the
    # allocator's C++ prefix, which minitorch leaves out)
    assert _set_order(str(got)) == _set_order(expected), \
        f"message:\n  {str(got)!r}\nexpected (torch's):\n  {expected!r}"


def _set_order(message: str) -> str:
    """``message`` with each printed set of strings (``{'zeros', 'reflect'}``) sorted: torch
    prints Python sets, whose order depends on the process's string hashes (and on the order
    the set was stored in the compiled module), so two runs of torch itself can differ."""
    return re.sub(r"\{('[^'{}]*'(?:, '[^'{}]*')*)\}",
                  lambda m: "{" + ", ".join(sorted(m.group(1).split(", "))) + "}", message)


# ---------------------------------------------------------------------------- comparing


def numpy_of(t: Any) -> np.ndarray:
    """A tensor's values as a numpy array (works for tensors that require grad)."""
    if isinstance(t, torch.Tensor):
        return t.detach().numpy(force=True)  # torch may answer with a lazy "ZeroTensor"
    return np.asarray(t.detach().numpy())


def dtype_name(t: Any) -> str:
    """``"float32"`` for a float32 tensor of either library."""
    return str(t.dtype).rsplit(".", 1)[-1]


def assert_same(got: Any, want: torch.Tensor, what: str = "result") -> None:
    """A minitorch tensor equals a torch tensor: type, dtype, shape, requires_grad, values.

    Floating values are compared with the tolerance of their dtype, others exactly.
    """
    assert isinstance(got, mt.Tensor), f"{what}: expected a Tensor, got {type(got).__name__}"
    assert str(got.dtype) == str(want.dtype), f"{what}: dtype {got.dtype} vs {want.dtype}"
    assert tuple(got.shape) == tuple(want.shape), f"{what}: shape {got.shape} vs {want.shape}"
    assert got.requires_grad == want.requires_grad, f"{what}: requires_grad {got.requires_grad}"
    expected = numpy_of(want)
    if want.dtype.is_floating_point:
        tolerance = TOLERANCES[dtype_name(want)]
        np.testing.assert_allclose(numpy_of(got), expected, err_msg=what, **tolerance)
    else:
        np.testing.assert_array_equal(numpy_of(got), expected, err_msg=what)


def assert_exact(got: Any, want: torch.Tensor, what: str = "result") -> None:
    """A minitorch tensor is torch's bit for bit: dtype, shape, requires_grad and each value
    (nan equal to nan; float16 too, which :data:`TOLERANCES` does not know).

    >>> assert_exact(mt.tensor([0.1], dtype=mt.float16), torch.tensor([0.1], dtype=torch.float16))
    """
    assert isinstance(got, mt.Tensor), f"{what}: expected a Tensor, got {got!r}"
    assert str(got.dtype) == str(want.dtype), f"{what}: dtype {got.dtype} vs {want.dtype}"
    assert tuple(got.shape) == tuple(want.shape), f"{what}: shape {got.shape} vs {want.shape}"
    assert got.requires_grad == want.requires_grad, f"{what}: requires_grad {got.requires_grad}"
    np.testing.assert_array_equal(numpy_of(got), numpy_of(want), err_msg=what)


def assert_as_torch(program: Callable[[Any], Any],
                    compare: Callable[[Any, torch.Tensor], None] = assert_exact) -> None:
    """``program(L)`` raises on minitorch torch's exception, or returns torch's result: each
    tensor compared by ``compare``, tuples and lists element by element, anything else (numbers,
    dtypes, None) by its printed form.

    >>> assert_as_torch(lambda L: L.ones(2) + L.ones(3))  # both refuse: "The size of ..."
    >>> assert_as_torch(lambda L: (L.ones(2).sum(), L.float16))
    """
    want = raised_by(program, torch)
    if want is not None:
        assert_same_error(raised_by(program, mt), want)
    else:
        assert_alike(program(mt), program(torch), compare)


def mismatches(programs: dict[str, Callable[[Any], Any]]) -> list[str]:
    """Each program (by its name) whose run under minitorch is not torch's
    (:func:`assert_as_torch`), with how: a sweep reports them all at once.

    >>> mismatches({"sum": lambda L: L.ones(2).sum()})
    []
    """
    found = []
    for name, program in programs.items():
        try:
            assert_as_torch(program)
        except AssertionError as error:
            found.append(f"{name}: {error}")
    return found


def program(text: str) -> Callable[[Any], Any]:
    """``text`` (statements ending in ``result = ...``) as a program of the library ``L``
    (``F``: its functional; ``N(node)``: a node's class name; ``np``: numpy).

    >>> program("result = L.ones(2).sum()")(mt)
    tensor(2.)
    """
    def run(L: Any) -> Any:
        scope = {"L": L, "F": L.nn.functional, "N": lambda node: type(node).__name__,
                 "np": np}
        exec(text, scope)
        return scope["result"]

    return run


def sweep(texts: Sequence[str]) -> None:
    """Each :func:`program` run as torch runs it; every mismatch reported at once."""
    assert not (found := mismatches({t: program(t) for t in texts})), "\n".join(found)


def assert_conv_bits(got: np.ndarray, want: np.ndarray) -> None:
    """A float32 convolution's result equal to torch's to the bit where minitorch repeats
    oneDNN's kernels (AVX-512 CPUs, ``ops._conv_order``); elsewhere oneDNN takes kernels of
    another vector width, which minitorch does not repeat: equal to float32 rounding of sums
    as large as the largest result."""
    if AVX512:
        np.testing.assert_array_equal(got, want)
    else:
        scale = float(np.abs(want).max(initial=1.0))
        np.testing.assert_allclose(got, want, rtol=1e-5, atol=1e-5 * scale)


def avx512_bits(what: str) -> None:
    """Skip a bit-for-bit claim about ``what`` on a CPU without AVX-512 (:data:`AVX512`)."""
    if not AVX512:
        pytest.skip(f"{what}: torch's bits are repeated for its AVX-512 kernels")


def assert_alike(got: Any, want: Any,
                 compare: Callable[[Any, torch.Tensor], None] = assert_exact) -> None:
    """minitorch's result ``got`` is torch's ``want``: each tensor compared by ``compare``,
    tuples and lists element by element, anything else by its printed form.

    >>> assert_alike((mt.ones(1), 2), (torch.ones(1), 2))
    """
    if isinstance(want, (tuple, list)):
        assert type(got).__name__ == type(want).__name__ and len(got) == len(want), \
            f"{got!r} vs {want!r}"  # (torch.return_types of either library by name)
        for g, w in zip(got, want):
            assert_alike(g, w, compare)
    elif isinstance(want, torch.Tensor):
        compare(got, want)
    else:
        assert str(got) == str(want), f"{got!r} vs {want!r}"  # dtypes of the two libraries


def assert_same_grads(got: Sequence[Any], want: Sequence[Any], what: str) -> None:
    """Two sequences of gradients agree; a missing gradient (None) counts as zeros."""
    assert len(got) == len(want), f"{what}: {len(got)} gradients instead of {len(want)}"
    for i, (g, w) in enumerate(zip(got, want)):
        if g is None and w is None:
            continue
        if w is None:
            np.testing.assert_allclose(numpy_of(g), 0.0, err_msg=f"{what}[{i}] must be zero")
        elif g is None:
            np.testing.assert_allclose(0.0, numpy_of(w), err_msg=f"{what}[{i}] is missing")
        else:
            assert str(g.dtype) == str(w.dtype), f"{what}[{i}]: {g.dtype} vs {w.dtype}"
            assert tuple(g.shape) == tuple(w.shape), f"{what}[{i}]: {g.shape} vs {w.shape}"
            tolerance = TOLERANCES[dtype_name(w)]
            np.testing.assert_allclose(
                numpy_of(g), numpy_of(w), err_msg=f"{what}[{i}]", **tolerance
            )


def next_functions_summary(node: Any, inputs: Sequence[Any]) -> list[tuple[Any, ...]]:
    """``node.next_functions`` as comparable rows ``(kind, output_nr, leaf index)``.

    kind is None, ``"AccumulateGrad"`` or ``"node"``. The third field says, for an
    AccumulateGrad, which of ``inputs`` its ``.variable`` is (by identity); for an inner node it
    is the node's class name, shown in failure messages but ignored by :func:`same_structure`.
    """
    rows = []
    for fn, output_nr in node.next_functions:
        if fn is None:
            rows.append((None, output_nr, None))
        elif type(fn).__name__ == "AccumulateGrad":
            leaf = next((i for i, x in enumerate(inputs) if fn.variable is x), "other")
            rows.append(("AccumulateGrad", output_nr, leaf))
        else:
            rows.append(("node", output_nr, type(fn).__name__))
    return rows


def node_chain(node: Any) -> list[str]:
    """The names of ``node`` and of each first input's node below it, down to the leaf."""
    names = []
    while node is not None:
        names.append(type(node).__name__)
        node = node.next_functions[0][0] if node.next_functions else None
    return names


def same_structure(got: list[tuple[Any, ...]], want: list[tuple[Any, ...]]) -> bool:
    """Rows of :func:`next_functions_summary` match, ignoring the names of inner nodes."""
    def key(row: tuple[Any, ...]) -> tuple[Any, ...]:
        return row if row[0] != "node" else row[:2]

    return [key(r) for r in got] == [key(r) for r in want]


# ---------------------------------------------------------------------------- strategies


def floats(low: float, high: float) -> st.SearchStrategy[float]:
    """Finite, normal floats in ``[low, high]``."""
    return st.floats(low, high, allow_nan=False, allow_infinity=False, allow_subnormal=False)


REAL = floats(-3, 3)
POSITIVE = floats(0.1, 3)  # log, sqrt, bases of real powers
NONZERO = st.one_of(floats(-3, -0.1), floats(0.1, 3))  # divisors; abs and relu away from 0
# comparisons: few distinct values, so that ties (==, <=) really happen
FEW_VALUES = st.sampled_from([-1.0, 0.0, 0.5, 1.0])

BROADCAST_PAIRS = hnp.mutually_broadcastable_shapes(num_shapes=2, max_dims=3, max_side=4).map(
    lambda shapes: shapes.input_shapes
)


def shapes(min_dims: int = 0, max_dims: int = 3, min_side: int = 1, max_side: int = 4):
    """Array shapes: 0-d up to 3-D, each side 1-4 unless told."""
    return hnp.array_shapes(min_dims=min_dims, max_dims=max_dims, min_side=min_side,
                            max_side=max_side)


def arrays(shape: Any, elements: st.SearchStrategy[float] = REAL, unique: bool = False):
    """float64 arrays of ``shape`` (a tuple or a strategy of tuples)."""
    return hnp.arrays(np.float64, shape, elements=elements, unique=unique)


@st.composite
def distinct_arrays(draw: Any, shape_list: Sequence[tuple[int, ...]]) -> tuple[np.ndarray, ...]:
    """Arrays of the given shapes whose values are all different, across arrays too.

    max/min and maximum/minimum have no derivative where values tie, so ties are excluded.
    """
    sizes = [int(np.prod(s)) for s in shape_list]
    flat = draw(arrays(sum(sizes), unique=True))
    parts = np.split(flat, np.cumsum(sizes)[:-1])
    return tuple(p.reshape(s) for p, s in zip(parts, shape_list))


def dims(ndim: int) -> st.SearchStrategy[int]:
    """A valid dim argument for a tensor of ``ndim`` dimensions, negative ones included.

    As in torch, a 0-d tensor accepts 0 and -1.
    """
    n = max(ndim, 1)
    return st.integers(-n, n - 1)


@st.composite
def dim_tuples(draw: Any, ndim: int) -> tuple[int, ...]:
    """A non-empty tuple of distinct dims, each possibly written as a negative number."""
    n = max(ndim, 1)
    chosen = draw(st.lists(st.integers(0, n - 1), min_size=1, max_size=n, unique=True))
    return tuple(d - n if draw(st.booleans()) else d for d in chosen)
