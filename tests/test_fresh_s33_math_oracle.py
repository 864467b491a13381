"""Session 33's math-op fuzz findings (``/work/scratch33/h2``): each case runs under torch and
minitorch (``L``) and must raise torch's exception with torch's message, or give torch's
result (and gradient)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

from tests.oracle import assert_as_torch, assert_same

Program = Callable[[Any], Any]


def _grad(program: Program, *leaves: Any) -> Program:
    """``program(L, *leaves)`` summed and run backward: the leaves' gradients (``leaves`` as
    nested lists, made float tensors requiring grad)."""
    def run(L: Any) -> tuple:
        made = [L.tensor(v, requires_grad=True) for v in leaves]
        program(L, *made).sum().backward()
        return tuple(t.grad for t in made)

    return run


@pytest.mark.parametrize("program", [
    lambda L: L.addr(L.ones(2, 3), L.ones(2), L.ones(3), beta=True),
    lambda L: L.addr(L.ones(2, 3), L.ones(2), L.ones(3), alpha=True),
    lambda L: L.addr(L.ones(2, 3, dtype=L.int64), L.ones(2, dtype=L.int64),
                     L.ones(3, dtype=L.int64), beta=True),
    lambda L: L.addr(L.ones(2, 3), L.ones(2), L.ones(3), beta=True, out=L.empty(2, 3)),
    lambda L: L.ones(2, 3).addr_(L.ones(2), L.ones(3), alpha=True),
    lambda L: L.addr(L.ones(2, 3, dtype=L.int64), L.ones(2, dtype=L.int64),
                     L.ones(3, dtype=L.int64), beta=True, alpha=0.5),
    lambda L: L.addr(L.ones(2, 3, dtype=L.bool), L.ones(2, dtype=L.bool),
                     L.ones(3, dtype=L.bool), beta=True, alpha=False),
])
def test_addr_refuses_a_bool_scale_for_a_result_not_bool(program: Program) -> None:
    """addr took ``beta=True`` (or ``alpha=True``) for a float or integer result; torch's
    ``check_addr_scalar`` refuses it, beta's checks before alpha's."""
    assert_as_torch(program)


@pytest.mark.parametrize("fn", ["std", "var"])
@pytest.mark.parametrize("program", [
    lambda L, fn: getattr(L, fn)(L.ones(2, 3), False, out=L.empty(())),
    lambda L, fn: getattr(L, fn)(L.ones(2, 3), unbiased=False, out=L.empty(())),
    lambda L, fn: getattr(L, fn)(L.tensor([True, False]), True, out=L.empty(())),
    lambda L, fn: getattr(L, fn)(L.ones(2, 3, requires_grad=True), True, out=L.empty(())),
    lambda L, fn: getattr(L, fn)(L.ones(2, 3), 1, unbiased=False, out=L.empty(2)),
    lambda L, fn: getattr(L, fn)(L.ones(2, 3), correction=0, out=L.empty(())),
])
def test_std_and_var_with_out_match_an_overload_as_torch(program: Callable, fn: str) -> None:
    """``std(x, False, out=y)`` returned: its function was the method's, which read out=
    apart from torch's overloads (only the ones with a dim take both ``unbiased`` and out=).
    ``var(x, unbiased=False, out=y)`` too: no overload without dim takes both."""
    assert_as_torch(lambda L: program(L, fn), assert_same)


@pytest.mark.parametrize("program", [
    lambda L: L.tensor([-3.0, 0.25], requires_grad=True).prod(dtype=L.bool),
    lambda L: L.tensor([-3.0, 0.25], requires_grad=True).prod(0, dtype=L.bool),
    lambda L: L.prod(L.ones((), requires_grad=True), 0, dtype=L.bool),
    lambda L: L.ones(0, requires_grad=True).prod(dtype=L.bool),
    lambda L: L.cumsum(L.ones((), requires_grad=True), 0, dtype=L.bool),
    lambda L: L.tensor([-3.0, 0.25]).prod(dtype=L.bool),
])
def test_a_bool_dtype_is_refused_for_an_input_recording_a_gradient(program: Program) -> None:
    """``prod(dtype=bool)`` of an input requiring grad returned a bool product; torch's
    autograd refuses a bool result as it refuses an integer one."""
    assert_as_torch(program)


@pytest.mark.parametrize("dtype", ["float32", "float64"])
@pytest.mark.parametrize("args", [(), (0,), ((0, 1), True)])
def test_a_float16_mean_of_another_dtype_is_one_mean_node(dtype: str, args: tuple) -> None:
    """``x.mean(dtype=float16)`` of a float32 input requiring grad recorded a
    ``ToCopyBackward0`` over a float32 mean; torch's ``MeanBackward`` sums in float32 and
    rounds inside its one node."""
    def program(L: Any) -> tuple:
        a = L.tensor([[1.5, -2.25, 3.0], [0.1, 0.2, 0.3]], dtype=getattr(L, dtype),
                     requires_grad=True)
        result = a.mean(*args, dtype=L.float16)
        result.sum().backward()
        return result, a.grad, result.grad_fn.name()

    assert_as_torch(program)


@pytest.mark.parametrize("program", [
    lambda L: L.tensor([1., 2.]).__setitem__(0, 1, 2.0),
    lambda L: L.tensor([1., 2.]).__setitem__(0),
    lambda L: L.tensor([1., 2.]).__getitem__(),
    lambda L: L.tensor([1., 2.]).__getitem__(0, 1),
    lambda L: L.tensor([1., 2.]).__getitem__(key=0),
    lambda L: L.tensor([1., 2.]).__setitem__(0, value=1.0),
    lambda L: L.tensor([1., 2.]).__delitem__(0),
    lambda L: L.Tensor.__setitem__(L.tensor([1., 2.]), 0, 1, 2.0),
])
def test_item_slots_refuse_another_count_as_python_wrappers(program: Program) -> None:
    """``t.__setitem__(0, 1, 2.0)`` failed naming minitorch's ``_setitem()``; torch's item
    methods are C slots, whose wrappers count their arguments and take no keywords (and
    its ``__delitem__`` refuses any deletion)."""
    assert_as_torch(program)


@pytest.mark.parametrize("dtype", ["bool", "uint8", "int8", "float16"])
@pytest.mark.parametrize("alpha", [-1, 2, -255, 2.7, -0.5, False])
def test_index_add_reads_alpha_in_the_self_dtype(dtype: str, alpha: Any) -> None:
    """``index_add(bool, ..., alpha=-1)`` multiplied by -1 (True OR True gave False) and a
    uint8 self's ``alpha=-1`` overflowed numpy; torch's kernel reads alpha as the self's
    type: non-zero for bool, wrapped for a small integer, truncated for a float."""
    def program(L: Any) -> Any:
        d = getattr(L, dtype)
        return L.index_add(L.tensor([3, 0, 1, 0]).to(d), 0, L.tensor([0, 1, 2, 3]),
                           L.tensor([1, 2, 0, 0]).to(d), alpha=alpha)

    assert_as_torch(program)


_NAN_MATRIX = [[float("nan"), 1.0], [1.0, float("inf")]]


@pytest.mark.parametrize("dtype", ["float32", "float64", "float16"])
@pytest.mark.parametrize("program", [
    lambda L, d: L.addmv(L.ones(2, dtype=d), L.tensor(_NAN_MATRIX, dtype=d), L.ones(2, dtype=d),
                         alpha=0),
    lambda L, d: L.addmv(L.ones(2, dtype=d), L.tensor(_NAN_MATRIX, dtype=d).t(),
                         L.ones(2, dtype=d), alpha=0.0, beta=2),
    lambda L, d: L.ones(2, dtype=d).addmv_(L.tensor(_NAN_MATRIX, dtype=d), L.ones(2, dtype=d),
                                           alpha=0),
    lambda L, d: L.addbmm(L.ones(2, 2, dtype=d), L.tensor([_NAN_MATRIX] * 2, dtype=d),
                          L.ones(2, 2, 2, dtype=d), alpha=0),
    lambda L, d: L.baddbmm(L.ones(1, 2, 2, dtype=d), L.tensor([_NAN_MATRIX], dtype=d),
                           L.ones(1, 2, 2, dtype=d), alpha=0),
])
def test_a_zero_alpha_leaves_out_a_blas_product(program: Callable, dtype: str) -> None:
    """``addmv`` and ``addbmm`` with ``alpha=0`` let the product's nans through; torch's
    float32 and float64 kernels call BLAS's gemv and gemm, which leave the product out when
    alpha is 0 (float16's, and baddbmm's, do not)."""
    assert_as_torch(lambda L: program(L, getattr(L, dtype)))


@pytest.mark.parametrize("program", [
    lambda L: L.addmv(L.tensor([5.]), L.ones(2, 0), L.ones(0)),
    lambda L: L.addmv(L.tensor(5.), L.ones(2, 0), L.ones(0), beta=2),
    lambda L: L.addmv(L.tensor([5.]), L.ones(0, 3), L.ones(3), beta=0.5),
    lambda L: L.addmv(L.tensor([5]), L.ones(2, 0, dtype=L.int64), L.ones(0, dtype=L.int64),
                      beta=2),
    lambda L: L.addmv(L.tensor([5.]), L.ones(2, 0), L.ones(0), beta=0),
    lambda L: L.addmv(L.tensor([True, False]), L.ones(2, 0, dtype=L.bool),
                      L.ones(0, dtype=L.bool), beta=0.5),
    lambda L: L.addmv(L.tensor([True, False]), L.ones(2, 2, dtype=L.bool),
                      L.ones(2, dtype=L.bool)),
    lambda L: L.addmv(L.tensor(1.), L.ones(2, 2), L.ones(3)),
    _grad(lambda L, i: L.addmv(i, L.ones(2, 0), L.ones(0), beta=2), [5.]),
])
def test_addmv_of_an_empty_matrix_scales_its_input_as_torch(program: Program) -> None:
    """``addmv`` of a matrix with no elements broadcast the input to the rows; torch's kernel
    returns ``beta * input`` in the input's own shape (zeros of the rows' where beta is 0).
    Also: a bool addmv has no kernel, and a 0-d input's size mismatch fails reading its
    size(0)."""
    assert_as_torch(program, assert_same)


@pytest.mark.parametrize("dtypes", [("float64", "float16"), ("float32", "float16"),
                                    ("int64", "float16"), ("float16", "float16"),
                                    ("float16", "float32")])
def test_ldexp_rounds_a_float_power_to_the_exponent_dtype(dtypes: tuple) -> None:
    """``ldexp(float64, float16)`` computed ``2 ** other`` in float64; torch's is
    ``mul(input, pow(2, other))``: the power is rounded to the exponent's dtype first."""
    def program(L: Any) -> Any:
        a = L.tensor([2.5, 0.7, -3.1, 1e-3]).to(getattr(L, dtypes[0]))
        return L.ldexp(a, L.tensor([1.75, -1.5, 0.3, 10.2], dtype=getattr(L, dtypes[1])))

    assert_as_torch(program)


@pytest.mark.parametrize("program", [
    lambda L, a: L.linalg.slogdet(a)[0].sum().backward(),
    lambda L, a: L.slogdet(a).sign.sum().backward(),
    lambda L, a: L.logdet(a).backward(),
    lambda L, a: (lambda s: (s.sign * s.logabsdet).sum().backward())(L.linalg.slogdet(a)),
])
def test_slogdet_sign_alone_gives_no_gradient(program: Callable) -> None:
    """A backward through slogdet's sign alone set a zero gradient; torch's node gives none
    for a real matrix (its a.grad stays None), and a zero logabsdet gradient is +0."""
    def run(L: Any) -> Any:
        a = L.tensor([[1., 2.], [3., 4.]], requires_grad=True)
        program(L, a)
        return a.grad

    assert_as_torch(run, assert_same)
