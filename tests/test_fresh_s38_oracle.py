"""Fresh fuzz seeds of session 38, and what their findings opened: matrix products whose
kernel does not run (an empty result, or a product of no terms), where torch checks neither
the kernel's dtypes nor reads alpha and beta as the result's type. Each case runs under
torch and minitorch (``L``) and must raise torch's exception with torch's message, or give
torch's result, strides and gradients included."""

from __future__ import annotations

import itertools
from collections.abc import Callable
from typing import Any

import pytest

from tests.oracle import assert_as_torch

# (n, k, m): rows, terms, columns; a batch of 0 or 2 where the product takes one
SIZES = list(itertools.product((0, 2), (0, 2), (0, 2)))
DTYPES = [("float32", "float32"), ("float32", "float64"), ("bool", "bool"),
          ("int64", "int64"), ("int8", "int8"), ("int64", "bool")]
SCALES = [{}, {"alpha": 1j}, {"beta": 1j}, {"beta": 2.5}, {"beta": 0}, {"beta": 1000},
          {"beta": True, "alpha": True}, {"beta": 2}]


def _ones(L: Any, shape: tuple, dtype: str, grad: bool) -> Any:
    return L.ones(shape, dtype=getattr(L, dtype), requires_grad=grad)


PRODUCTS: dict[str, Callable[..., Any]] = {
    # name: (L, n, k, m, batch, (da, db), grad, scales) -> the result
    "mm": lambda L, n, k, m, B, d, g, s: L.mm(_ones(L, (n, k), d[0], g), _ones(L, (k, m), d[1], g)),
    "mv": lambda L, n, k, m, B, d, g, s: L.mv(_ones(L, (n, k), d[0], g), _ones(L, (k,), d[1], g)),
    "bmm": lambda L, n, k, m, B, d, g, s: L.bmm(_ones(L, (B, n, k), d[0], g),
                                               _ones(L, (B, k, m), d[1], g)),
    "matmul": lambda L, n, k, m, B, d, g, s: L.matmul(_ones(L, (B, n, k), d[0], g),
                                                     _ones(L, (k, m), d[1], g)),
    "multi_dot": lambda L, n, k, m, B, d, g, s: L.linalg.multi_dot(
        [_ones(L, (n, k), d[0], g), _ones(L, (k, m), d[1], g)]),
    "addmm": lambda L, n, k, m, B, d, g, s: L.addmm(
        _ones(L, (n, m), d[0], g), _ones(L, (n, k), d[0], g), _ones(L, (k, m), d[1], g), **s),
    "addmm bias row": lambda L, n, k, m, B, d, g, s: L.addmm(
        _ones(L, (m,), d[0], g), _ones(L, (n, k), d[0], g), _ones(L, (k, m), d[1], g), **s),
    "addmv": lambda L, n, k, m, B, d, g, s: L.addmv(
        _ones(L, (n,), d[0], g), _ones(L, (n, k), d[0], g), _ones(L, (k,), d[1], g), **s),
    "baddbmm": lambda L, n, k, m, B, d, g, s: L.baddbmm(
        _ones(L, (B, n, m), d[0], g), _ones(L, (B, n, k), d[0], g), _ones(L, (B, k, m), d[1], g),
        **s),
    "addbmm": lambda L, n, k, m, B, d, g, s: L.addbmm(
        _ones(L, (n, m), d[0], g), _ones(L, (B, n, k), d[0], g), _ones(L, (B, k, m), d[1], g),
        **s),
    "addmm_": lambda L, n, k, m, B, d, g, s: _ones(L, (n, m), d[0], False).addmm_(
        _ones(L, (n, k), d[0], g), _ones(L, (k, m), d[1], g), **s),
    "baddbmm_": lambda L, n, k, m, B, d, g, s: _ones(L, (B, n, m), d[0], False).baddbmm_(
        _ones(L, (B, n, k), d[0], g), _ones(L, (B, k, m), d[1], g), **s),
}
SCALED = {"addmm", "addmm bias row", "addmv", "baddbmm", "addbmm", "addmm_", "baddbmm_"}


def _product_program(name: str, sizes: tuple, batch: int, dtypes: tuple, scales: dict,
                     grad: bool) -> Callable[[Any], Any]:
    def program(L: Any) -> Any:
        r = PRODUCTS[name](L, *sizes, batch, dtypes, grad, scales)
        if not grad:
            return r, r.stride()
        r.sum().backward()
        return r, r.stride(), type(r.grad_fn).__name__
    return program


@pytest.mark.parametrize("dtypes", DTYPES, ids="-".join)
@pytest.mark.parametrize("name", PRODUCTS)
def test_a_product_whose_kernel_does_not_run_checks_what_torch_checks(name: str,
                                                                        dtypes: tuple) -> None:
    """An empty result comes back as it is, a product of no terms as ``beta * input`` by
    ``mul_``'s rules; neither checks the kernel's dtypes (bool, batch2's), nor reads alpha
    (and an empty result beta) as the result's type; a product that runs does all of it.
    Before: minitorch refused bool and mixed dtypes and complex or overflowing scales on
    every product, and truncated a float beta of an integer result."""
    failures = []
    scale_sets = SCALES if name in SCALED else [{}]
    for sizes, batch, scales in itertools.product(SIZES, (0, 2), scale_sets):
        program = _product_program(name, sizes, batch, dtypes, scales, grad=False)
        try:
            assert_as_torch(program)
        except AssertionError as e:
            failures.append(f"{sizes} batch {batch} {scales}: {str(e).splitlines()[0]}")
    assert not failures, f"{len(failures)} cases differ from torch:\n" + "\n".join(failures)


@pytest.mark.parametrize("name", PRODUCTS)
def test_a_product_of_no_terms_has_torchs_gradients(name: str) -> None:
    """Gradients through the short cuts (empty ones for the factors, ``beta`` times the
    output's for the input); a complex scale left unread gives the complex gradient that
    torch's engine refuses."""
    failures = []
    scale_sets = [{}, {"alpha": 1j}, {"beta": 3, "alpha": 2}] if name in SCALED else [{}]
    for sizes, batch, scales in itertools.product(SIZES, (0, 2), scale_sets):
        program = _product_program(name, sizes, batch, ("float64", "float64"), scales,
                                   grad=not name.endswith("_"))
        try:
            assert_as_torch(program)
        except AssertionError as e:
            failures.append(f"{sizes} batch {batch} {scales}: {str(e).splitlines()[0]}")
    assert not failures, f"{len(failures)} cases differ from torch:\n" + "\n".join(failures)
