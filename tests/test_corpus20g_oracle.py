"""APIs that the corpus20g programs (others' autograd code) use, against live torch: each case
is run as a program sees it, through its printed form, under both libraries."""

from __future__ import annotations

import importlib

import numpy as np
import pytest
import torch
from hypothesis import given
from hypothesis import strategies as st

import minitorch as mt
from tests.oracle import SETTINGS, shapes


def _raised(call) -> tuple | None:
    """The type and words of what a call raised (None where it did not)."""
    try:
        call()
    except Exception as e:
        return type(e).__name__, str(e)
    return None


@SETTINGS
@given(shape=shapes(min_dims=1, max_dims=3), k=st.integers(1, 3), weighted=st.booleans(),
       eps=st.sampled_from([None, 1e-5, 0.5]), dtype=st.sampled_from(["float32", "float64"]),
       seed=st.integers(0, 2**16))
def test_rms_norm_values_grads_and_graph_bitwise(shape, k, weighted, eps, dtype, seed):
    """torch's CPU rms_norm is a composite of pointwise ops and a mean: the same bits."""
    k = min(k, len(shape))
    rng = np.random.default_rng(seed)
    x = rng.normal(size=shape).astype(dtype)
    w = rng.normal(size=shape[len(shape) - k:]).astype(dtype)

    def run(L):
        xt = L.tensor(x, requires_grad=True)
        wt = L.tensor(w, requires_grad=True) if weighted else None
        y = L.nn.functional.rms_norm(xt, tuple(shape[len(shape) - k:]), wt, eps)
        y.pow(2).sum().backward()
        return repr(y.detach()), y.grad_fn.name(), repr(xt.grad), wt is None or repr(wt.grad)

    assert run(mt) == run(torch)


def test_rms_norm_module_and_errors():
    def run(L):
        x = L.ones(2, 3, 4)
        m = L.nn.RMSNorm([3, 4], eps=1e-5, elementwise_affine=False)
        return (repr(L.nn.RMSNorm(4)), repr(m), m.weight, list(L.nn.RMSNorm(4).state_dict()),
                repr(L.rms_norm(x, (4,))),
                _raised(lambda: L.nn.functional.rms_norm(x, (3,))),
                _raised(lambda: L.nn.functional.rms_norm(x, 4)),
                _raised(lambda: L.nn.functional.rms_norm(x, (4,), L.ones(3))),
                _raised(lambda: L.nn.functional.rms_norm(x, (4,), eps="a")),
                _raised(lambda: L.nn.functional.rms_norm(x.int(), (4,))))

    assert run(mt) == run(torch)


def test_batchnorm_private_base_is_importable_for_isinstance():
    def run(L):
        bn = importlib.import_module(f"{L.__name__}.nn.modules.batchnorm")
        return [isinstance(m, bn._BatchNorm) for m in
                (L.nn.BatchNorm1d(2), L.nn.BatchNorm2d(2), L.nn.LayerNorm(2), L.nn.Linear(1, 1))]

    assert run(mt) == run(torch)


@pytest.mark.parametrize("create_graph", [False, True])
def test_grad_materialized_zeros_follow_create_graph(create_graph):
    def run(L):
        a = L.tensor(2.0, requires_grad=True)
        b = L.ones(2, 3, requires_grad=True)
        return repr(L.autograd.grad(a ** 3, (a, b), create_graph=create_graph,
                                    materialize_grads=True))

    assert run(mt) == run(torch)


@SETTINGS
@given(n=st.integers(0, 40), bins=st.integers(1, 9), ranged=st.booleans(),
       density=st.booleans(), weighted=st.booleans(), edges=st.booleans(),
       dtype=st.sampled_from(["float32", "float64"]), seed=st.integers(0, 2**16))
def test_histogram_counts_edges_and_density(n, bins, ranged, density, weighted, edges, dtype,
                                            seed):
    rng = np.random.default_rng(seed)
    x = rng.normal(size=n).round(1).astype(dtype)  # rounded: values on the edges too
    w = rng.uniform(size=n).astype(dtype)
    cuts = np.sort(rng.normal(size=bins + 1)).astype(dtype)

    def run(L):
        kw = {"range": (-1.0, 1.0)} if ranged and not edges else {}
        b = L.tensor(cuts) if edges else bins
        wt = L.tensor(w) if weighted else None
        return repr(L.histogram(L.tensor(x), b, weight=wt, density=density, **kw))

    assert run(mt) == run(torch)


def test_histogram_errors_and_method():
    def run(L):
        x = L.tensor([1.0, 2.0, 1.0, 5.0, 3.0])
        return (repr(x.histogram(3)), repr(L.histogram(L.ones(3), bins=2)),
                _raised(lambda: L.histogram(x.int(), 2)), _raised(lambda: L.histogram(x, 0)),
                _raised(lambda: L.histogram(x, 2, range=(3.0, 1.0))),
                _raised(lambda: L.histogram(x, 2, weight=L.ones(3))),
                _raised(lambda: L.histogram(x, L.tensor([[1.0, 2.0]]))))

    assert run(mt) == run(torch)


@SETTINGS
@given(batch=st.sampled_from([(), (2,)]), n=st.integers(1, 4),
       p=st.sampled_from([None, 2, -2, 1, -1, float("inf"), -float("inf"), "fro", "nuc"]),
       seed=st.integers(0, 2**16))
def test_cond_values_graph_and_grads(batch, n, p, seed):
    a = np.random.default_rng(seed).normal(size=(*batch, n, n)) + 3 * np.eye(n)

    def run(L):
        A = L.tensor(a, requires_grad=True)
        c = L.linalg.cond(A, p)
        grad = _raised(lambda: L.autograd.grad(c.sum(), A))  # torch refuses the filled inverse
        return c.grad_fn.name(), c.shape, grad, c.detach().numpy()

    got, want = run(mt), run(torch)
    assert got[:3] == want[:3]
    np.testing.assert_allclose(got[3], want[3], rtol=1e-10)


@SETTINGS
@given(shape=st.sampled_from([(3, 3), (2, 3, 4), (4, 2)]), rank=st.integers(0, 3),
       atol=st.sampled_from([None, 0.0, 1e-3]), rtol=st.sampled_from([None, 0.0, 0.1]),
       hermitian=st.booleans(), seed=st.integers(0, 2**16))
def test_matrix_rank_of_low_rank_products(shape, rank, atol, rtol, hermitian, seed):
    rng = np.random.default_rng(seed)
    m, n = shape[-2:]
    a = rng.normal(size=(*shape[:-2], m, rank)) @ rng.normal(size=(*shape[:-2], rank, n))
    if hermitian:
        a = a[..., :m] @ np.swapaxes(a[..., :m], -1, -2)

    def run(L):
        return repr(L.linalg.matrix_rank(L.tensor(a), atol=atol, rtol=rtol, hermitian=hermitian))

    assert run(mt) == run(torch)


def test_cond_and_matrix_rank_errors():
    def run(L):
        B = L.ones(2, 3, 4)
        return [_raised(call) for call in (
            lambda: L.linalg.cond(B, 1), lambda: L.linalg.cond(B, -1.0),
            lambda: L.linalg.cond(B, float("inf")), lambda: L.linalg.cond(B, "abc"),
            lambda: L.linalg.cond(B, 3), lambda: L.linalg.cond(L.ones(3)),
            lambda: L.linalg.matrix_rank(L.ones(3)),
            lambda: L.linalg.matrix_rank(L.ones(2, 2, dtype=L.long)))]

    assert run(mt) == run(torch)


_FUNCTIONS = {
    "cube": lambda L: (lambda a: a.pow(3).sum(), L.tensor([[0.5, 1.5], [2.0, -1.0]])),
    "two_inputs": lambda L: (lambda a, b: (a.sin() * b.exp()).sum(),
                             (L.tensor([0.1, 0.7, 1.2]), L.tensor([0.3, -0.2, 0.4]))),
    "matrix": lambda L: (lambda a: L.tanh(a @ a.T).sum(),
                         L.tensor([[0.2, 0.4], [0.6, 0.8]], dtype=L.float64)),
}


@pytest.mark.parametrize("name", _FUNCTIONS)
def test_hessian_forward_over_reverse(name):
    """The outer jacobian by forward mode over the inner reverse one: torch's values, its
    graph on the result (the tangents keep theirs), the inputs left as they were."""
    def run(L):
        func, inputs = _FUNCTIONS[name](L)
        h = L.autograd.functional.hessian(func, inputs, vectorize=True,
                                          outer_jacobian_strategy="forward-mode")
        leaves = inputs if isinstance(inputs, tuple) else (inputs,)
        return repr(h), [x.requires_grad for x in leaves]

    assert run(mt) == run(torch)


def test_forward_mode_jacobian_keeps_the_tangents_graph_and_refusals():
    def run(L):
        F = L.autograd.functional
        x, y = L.tensor([0.5, 2.0]), L.tensor([1.5, -0.5], requires_grad=True)
        cube = lambda a: a.pow(3).sum()  # noqa: E731
        return (repr(F.jacobian(lambda a: a.pow(3) * y, x, vectorize=True,
                                strategy="forward-mode")),
                repr(F.jacobian(lambda a, b: (a * y, a * b), (x, y.detach()), vectorize=True,
                                strategy="forward-mode")),
                [_raised(lambda kw=kw: F.hessian(cube, x, outer_jacobian_strategy="forward-mode",
                                                 **kw))
                 for kw in ({}, {"create_graph": True, "vectorize": True},
                            {"strict": True, "vectorize": True}, {"strict": True})])

    assert run(mt) == run(torch)


@SETTINGS
@given(shape=st.sampled_from([(3,), (2, 3), (2, 3, 4), ()]), steps=st.integers(1, 4),
       lr=st.sampled_from([1e-2, 0.3]), weight_decay=st.sampled_from([0.0, 0.05]),
       eps=st.sampled_from([(None, 1e-3), (1e-6, 0.5)]), d=st.sampled_from([1.0, 3.0]),
       maximize=st.booleans(), seed=st.integers(0, 2**16))
def test_adafactor_steps_bitwise(shape, steps, lr, weight_decay, eps, d, maximize, seed):
    rng = np.random.default_rng(seed)
    start = rng.normal(size=shape).astype(np.float32)
    grads = [rng.normal(size=shape).astype(np.float32) for _ in range(steps)]

    def run(L):
        p = L.nn.Parameter(L.tensor(start))
        opt = L.optim.Adafactor([p], lr=lr, weight_decay=weight_decay, eps=eps, d=d,
                                maximize=maximize)
        for g in grads:
            p.grad = L.tensor(g)
            opt.step()
        return p.detach().numpy().tobytes(), sorted(opt.state[p]), repr(opt.state[p]["step"])

    assert run(mt) == run(torch)


def test_adafactor_settings_and_refusals():
    def run(L):
        p = [L.nn.Parameter(L.ones(2, 2))]
        opt = L.optim.Adafactor(p)
        return (list(opt.param_groups[0]), opt.defaults, [_raised(
            lambda kw=kw: L.optim.Adafactor(p, **kw)) for kw in (
                {"lr": -1}, {"beta2_decay": 0.5}, {"eps": (-1, 1e-3)}, {"eps": (None, -1)},
                {"d": 0.5}, {"weight_decay": -1}, {"lr": L.ones(2)})])

    assert run(mt) == run(torch)
    assert [n for n in dir(mt.optim) if n[0].isupper()][:5] == \
        [n for n in dir(torch.optim) if n[0].isupper()][:5]


@SETTINGS
@given(tolerance_change=st.sampled_from([1e-12, 1e-9, 1e-5]), steps=st.integers(1, 3),
       seed=st.integers(0, 2**16))
def test_lbfgs_strong_wolfe_keeps_its_own_tolerance(tolerance_change, steps, seed):
    """torch's step hands the line search none of the group's tolerance_change: the closure
    calls, the state's counts and the weights follow from that; ``_params`` is torch's list."""
    rng = np.random.default_rng(seed)
    x = rng.normal(size=(40, 3)).astype(np.float32)
    y = (rng.uniform(size=40) > 0.5).astype(np.float32)

    def run(L):
        w = L.zeros(3, requires_grad=True)
        opt = L.optim.LBFGS([w], max_iter=30, line_search_fn="strong_wolfe",
                            tolerance_grad=1e-9, tolerance_change=tolerance_change)
        calls = []

        def closure():
            opt.zero_grad()
            loss = L.nn.functional.binary_cross_entropy_with_logits(L.tensor(x) @ w, L.tensor(y))
            loss = loss + 1e-3 * w.pow(2).sum()
            loss.backward()
            calls.append(1)
            return loss

        out = [(opt.step(closure).item(), len(calls)) for _ in range(steps)]
        state = opt.state[opt._params[0]]
        return out, state["func_evals"], state["n_iter"], w.detach().numpy().tobytes()

    assert run(mt) == run(torch)
