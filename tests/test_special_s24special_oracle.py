"""torch.special's own functions (Bessel, Airy, normal distribution, incomplete gamma,
orthogonal polynomials, zeta, xlog1py) against torch: values at edge points, dtypes,
refusals and derivatives."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest
import torch
from hypothesis import given, settings
from hypothesis import strategies as st

import minitorch as mt
from tests.oracle import arrays, assert_same, assert_same_error, numpy_of, raised_by, shapes

UNARY = ["airy_ai", "bessel_j0", "bessel_j1", "bessel_y0", "bessel_y1", "entr", "erfcx", "i0e",
         "i1", "i1e", "log_ndtr", "modified_bessel_i0", "modified_bessel_i1",
         "modified_bessel_k0", "modified_bessel_k1", "ndtr", "ndtri",
         "scaled_modified_bessel_k0", "scaled_modified_bessel_k1", "spherical_bessel_j0"]
EDGES = [float("-inf"), -50.0, -20.0, -7.5, -3.0, -1.0, -1e-6, -0.0, 0.0, 1e-8, 0.3, 0.5,
         1.0, 1.6, 2.5, 5.0, 13.9, 14.1, 29.0, 31.0, 100.0, 700.0, float("inf"), float("nan")]
POLYNOMIALS = ["chebyshev_polynomial_t", "chebyshev_polynomial_u", "chebyshev_polynomial_v",
               "chebyshev_polynomial_w", "hermite_polynomial_h", "hermite_polynomial_he",
               "laguerre_polynomial_l", "legendre_polynomial_p",
               "shifted_chebyshev_polynomial_t", "shifted_chebyshev_polynomial_u",
               "shifted_chebyshev_polynomial_v", "shifted_chebyshev_polynomial_w"]


def _close(got: Any, want: torch.Tensor, rtol: float) -> None:
    """Values to ``rtol`` (torch's Cephes kernels are good to about 1e-6 in float64: where
    ``rtol`` is tighter, minitorch's are the closer to the true values), tiny ones to 1e-12
    (float32's to its smallest subnormals)."""
    assert str(got.dtype) == str(want.dtype)
    assert got.requires_grad == want.requires_grad
    atol = 1e-12 if want.dtype == torch.float64 else 1e-6
    np.testing.assert_allclose(numpy_of(got), numpy_of(want), rtol=rtol, atol=atol)


def test_every_torch_special_function_exists() -> None:
    names = [n for n in dir(torch.special) if not n.startswith("_")
             and callable(getattr(torch.special, n)) and n not in ("torch",)]
    assert [n for n in names if not hasattr(mt.special, n)] == []


@pytest.mark.parametrize("name", UNARY)
@pytest.mark.parametrize("dtype", ["float64", "float32"])
def test_values_at_edge_points(name: str, dtype: str) -> None:
    def f(L: Any) -> Any:
        return getattr(L.special, name)(L.tensor(EDGES, dtype=getattr(L, dtype)))

    _close(f(mt), f(torch), 1e-5 if dtype == "float64" else 1e-4)


@pytest.mark.parametrize("name", UNARY)
def test_integers_compute_in_the_default_float_and_halves_as_torch(name: str) -> None:
    for dtype in ("int64", "bool", "float16"):
        def f(L: Any, dtype: str = dtype) -> Any:
            return getattr(L.special, name)(L.tensor([0, 1, 3]).to(getattr(L, dtype)))

        want = raised_by(f, torch)
        if want is not None:
            assert_same_error(raised_by(f, mt), want)
        else:
            _close(f(mt), f(torch), 1e-2)


@pytest.mark.parametrize("name", UNARY)
def test_a_non_tensor_is_refused_under_torchs_argument_name(name: str) -> None:
    assert_same_error(raised_by(lambda L: getattr(L.special, name)("a"), mt),
                      raised_by(lambda L: getattr(L.special, name)("a"), torch))


@pytest.mark.parametrize("name", UNARY)
def test_derivative_or_none_as_torch(name: str) -> None:
    def f(L: Any) -> Any:
        x = L.tensor([0.2, 0.7, 1.5, 3.0], dtype=L.float64, requires_grad=True)
        y = getattr(L.special, name)(x)
        return y, (L.autograd.grad(y.sum(), x)[0] if y.requires_grad else None)

    (got, got_grad), (want, want_grad) = f(mt), f(torch)
    _close(got.detach(), want.detach(), 1e-5)
    if want.grad_fn is not None:
        assert type(got.grad_fn).__name__ == type(want.grad_fn).__name__
        np.testing.assert_allclose(numpy_of(got_grad), numpy_of(want_grad), rtol=1e-5)
    else:
        assert got.grad_fn is None


@settings(max_examples=25, deadline=None)
@given(shape=shapes(), data=st.data())
def test_any_shape_and_out(shape: tuple, data: Any) -> None:
    values = data.draw(arrays(shape))
    name = data.draw(st.sampled_from(UNARY))

    def f(L: Any) -> Any:
        out = L.empty(0, dtype=L.float64)
        result = getattr(L.special, name)(L.tensor(values), out=out)
        return out, result is out

    (got, same), (want, want_same) = f(mt), f(torch)
    assert same == want_same
    _close(got, want, 1e-5)


@pytest.mark.parametrize("name", POLYNOMIALS)
def test_polynomials_of_degrees_and_edges(name: str) -> None:
    xs = [-2.0, -1.0, -0.99, -0.5, 0.0, 0.3, 0.5, 0.75, 1.0, 1.5, 3.0]
    ns = [-1.0, 0.0, 1.0, 2.0, 3.0, 7.0, 9.0, 12.0, 2.7, float("nan"), 1e20]

    def f(L: Any) -> Any:
        x = L.tensor(xs, dtype=L.float64)[None, :]
        n = L.tensor(ns, dtype=L.float64)[:, None]
        return (getattr(L.special, name)(x, n), getattr(L.special, name)(x.float(), 3),
                getattr(L.special, name)(0.5, L.tensor([2, 4])))

    for got, want in zip(f(mt), f(torch)):
        _close(got, want, 1e-6)


@pytest.mark.parametrize("call", [
    "f(2, 3)", "f(L.ones(2).half(), 2)", "f(L.ones(2), 'a')", "f(x=L.ones(1), n=2)",
    "f(input=L.ones(2), n=2)", "f(L.ones(2), n=2, out=L.empty(2))",
    "f(L.ones(2), L.ones(3))"])
def test_polynomial_refusals(call: str) -> None:
    def run(L: Any) -> Any:
        return eval(call, {"L": L, "f": L.special.chebyshev_polynomial_t})

    want = raised_by(run, torch)
    if want is None:
        assert_same(run(mt), run(torch))
    else:
        assert_same_error(raised_by(run, mt), want)


IGAMMA_A = [0.0, 0.0, 1.0, 0.5, 2.0, 10.0, 100.0, 1e-3, 5.0, float("inf"), 1.0, -1.0, 3.0, 30.0]
IGAMMA_X = [0.0, 1.0, 0.0, 2.0, 3.0, 9.0, 120.0, 1e-3, 0.1, 1.0, float("inf"), 1.0, 50.0, 25.0]


@pytest.mark.parametrize("name", ["igamma", "igammac"])
def test_incomplete_gamma_values_and_aliases(name: str) -> None:
    special = {"igamma": "gammainc", "igammac": "gammaincc"}[name]

    def f(L: Any) -> Any:
        a, x = L.tensor(IGAMMA_A, dtype=L.float64), L.tensor(IGAMMA_X, dtype=L.float64)
        return (getattr(L, name)(a, x), getattr(L.special, special)(a.float(), x.float()),
                getattr(a, name)(x), getattr(a.clone(), f"{name}_")(x))

    for got, want in zip(f(mt), f(torch)):
        _close(got, want, 1e-8 if got.dtype == mt.float64 else 1e-5)


@pytest.mark.parametrize("call", [
    "L.igamma(L.ones(2), 2.0)", "L.igamma(L.ones(2, dtype=L.int64), L.ones(2, dtype=L.int64))",
    "L.special.gammainc('a', L.ones(1))", "L.igamma(L.ones(2), L.ones(3))",
    "L.ones(2).igamma_(L.ones(2, dtype=L.float64))"])
def test_incomplete_gamma_refusals(call: str) -> None:
    def run(L: Any) -> Any:
        return eval(call, {"L": L})

    want = raised_by(run, torch)
    if want is None:  # (in place, a wider other is cast into self)
        assert_same(run(mt), run(torch))
    else:
        assert_same_error(raised_by(run, mt), want)


@pytest.mark.parametrize("name", ["igamma", "igammac"])
def test_incomplete_gamma_edges_in_torchs_order(name: str) -> None:
    edges = [float("nan"), float("inf"), -float("inf"), 0.0, -0.0, -1.0, 0.5, 2.0]

    def f(L: Any) -> Any:
        a = L.tensor(edges, dtype=L.float64)[:, None]
        return getattr(L, name)(a, L.tensor(edges, dtype=L.float64))

    _close(f(mt), f(torch), 1e-12)


def test_incomplete_gamma_derivative_in_x_only() -> None:
    def grads(L: Any) -> Any:
        a = L.tensor([0.5, 2.0, 4.0], dtype=L.float64)
        x = L.tensor([0.3, 1.5, 6.0], dtype=L.float64, requires_grad=True)
        return (L.autograd.grad(L.igamma(a, x).sum(), x)[0],
                L.autograd.grad(L.igammac(a, x).sum(), x)[0])

    for got, want in zip(grads(mt), grads(torch)):
        _close(got, want, 1e-9)

    def refused(L: Any) -> Any:
        a = L.tensor([0.5], requires_grad=True)
        return L.igamma(a, L.tensor([1.0])).sum().backward()

    assert_same_error(raised_by(refused, mt), raised_by(refused, torch))


def test_xlog1py_forms_nodes_and_grads() -> None:
    def f(L: Any) -> Any:
        x = L.tensor([0.0, 1.0, 2.0, 0.0], dtype=L.float64, requires_grad=True)
        y = L.tensor([-1.0, 0.5, float("nan"), -2.0], dtype=L.float64, requires_grad=True)
        results = [L.special.xlog1py(x, y), L.special.xlog1py(2, y), L.special.xlog1py(x, -1.0)]
        grads = L.autograd.grad(sum(r.sum() for r in results[:2]), (x, y))
        return results, grads

    (got, got_grads), (want, want_grads) = f(mt), f(torch)
    for g, w in zip(got, want):
        assert type(g.grad_fn).__name__ == type(w.grad_fn).__name__
        _close(g.detach(), w.detach(), 1e-12)
    for g, w in zip(got_grads, want_grads):
        _close(g, w, 1e-12)
    for call in ("L.special.xlog1py(True, -1.0)", "L.special.xlog1py('a', L.ones(1))"):
        assert_same_error(raised_by(lambda L, c=call: eval(c, {"L": L}), mt),
                          raised_by(lambda L, c=call: eval(c, {"L": L}), torch))


def test_zeta_values_forms_and_derivative() -> None:
    xs = [2.0, 2.0, 3.0, 2.0, 2.5, 1.0, 0.5, 2.0, 60.0, 1.5, 4.0, 3.0, 2.0]
    qs = [1.0, -1.0, -1.5, 0.0, -1.5, 1.0, 1.0, 1e10, 1.0, 0.3, -3.7, -20.5, float("inf")]

    def f(L: Any) -> Any:
        x = L.tensor(xs, dtype=L.float64)
        q = L.tensor(qs, dtype=L.float64)
        return (L.special.zeta(x, q), L.special.zeta(2.0, q.float()),
                L.special.zeta(L.tensor([2, 3]), 2))

    for got, want in zip(f(mt), f(torch)):
        _close(got, want, 1e-10 if got.dtype == mt.float64 else 1e-5)

    def grad(L: Any) -> Any:
        q = L.tensor([1.0, 2.5], dtype=L.float64, requires_grad=True)
        return L.autograd.grad(L.special.zeta(L.tensor([2.0, 3.0], dtype=L.float64), q).sum(),
                               q)[0]

    _close(grad(mt), grad(torch), 1e-10)

    def refused(L: Any) -> Any:
        x = L.tensor([2.0], requires_grad=True)
        return L.special.zeta(x, 1.0).sum().backward()

    assert_same_error(raised_by(refused, mt), raised_by(refused, torch))


def test_half_backward_of_i1_is_refused_as_torch() -> None:
    def f(L: Any) -> Any:
        x = L.tensor([0.5], dtype=L.float16, requires_grad=True)
        return L.autograd.grad(L.special.i1e(x).sum(), x)

    assert_same_error(raised_by(f, mt), raised_by(f, torch))


def test_ndtri_keeps_the_digits_of_subnormal_and_central_probabilities() -> None:
    def f(L: Any) -> Any:
        return L.special.ndtri(L.tensor([5e-324, 1e-310, 1e-200, 0.4999999, 0.5000001, 0.75],
                                        dtype=L.float64))

    _close(f(mt), f(torch), 1e-13)


@pytest.mark.parametrize("call", [
    "L.special.bessel_j0(L.ones(2, requires_grad=True), out=L.empty(2))",
    "L.special.entr(L.ones(2, requires_grad=True), out=L.empty(2))",
    "L.special.airy_ai(L.tensor([-1e3, -100.0, 103.0, 105.0], dtype=L.float64))",
    "L.special.airy_ai(L.tensor([-2147483648, -1000000, -12345, 4], dtype=L.int32))",
    "L.special.bessel_y0(L.tensor([1e-300, 5e-324], dtype=L.float64))",
    "L.special.modified_bessel_k1(L.tensor([1e-300, 5e-324, 1e-10], dtype=L.float64))",
    "L.special.scaled_modified_bessel_k0(L.tensor([1e-300, 5e-324, 1e-10], dtype=L.float64))",
    "L.special.scaled_modified_bessel_k1(L.tensor([1e-45, 1e-40, 2.0]))",
    "L.special.modified_bessel_k0(L.tensor([1e-45, 1e-40, 2.0]))",
    "L.special.bessel_j1(L.tensor([1e10, 1e15], dtype=L.float64))",
    "L.special.hermite_polynomial_h(L.tensor([0.5, 3.0]), 1000)",
    "L.special.legendre_polynomial_p(L.tensor([0.5, 1.5]), 3000)",
])
def test_edges_as_torch(call: str) -> None:
    def run(L: Any) -> Any:
        return eval(call, {"L": L})

    want = raised_by(run, torch)
    if want is None:
        _close(run(mt), run(torch), 1e-5)
    else:
        assert_same_error(raised_by(run, mt), want)
