"""``nn.utils.parametrize`` and ``nn.utils.parametrizations`` (weight_norm, spectral_norm),
and the old hook-based ``nn.utils.weight_norm`` / ``spectral_norm``, against torch: printed
modules, names of parameters, buffers and state_dict keys, values, gradients through the
parametrization (second order too), warnings and errors."""

from __future__ import annotations

import warnings
from typing import Any

import numpy as np
import pytest
import torch

import minitorch as mt
from tests.oracle import assert_same, assert_same_error, numpy_of, raised_by

LIBS = pytest.mark.parametrize("L", [mt, torch], ids=["minitorch", "torch"])


def _symmetric(L: Any, with_inverse: bool = True) -> Any:
    class Symmetric(L.nn.Module):
        def forward(self, X: Any) -> Any:
            return X.triu() + X.triu(1).transpose(-1, -2)

    if with_inverse:
        Symmetric.right_inverse = lambda self, A: A.triu()
    return Symmetric()


def _names(m: Any) -> list[list[str]]:
    return [[n for n, _ in m.named_parameters()], [n for n, _ in m.named_buffers()],
            list(m.state_dict())]


def _both(run: Any) -> None:
    """``run(L)`` gives the same printed forms and (close) tensors under both libraries."""
    got, want = run(mt), run(torch)
    assert len(got) == len(want)
    for g, w in zip(got, want):
        if isinstance(w, torch.Tensor):
            assert_same(g, w)
        else:
            assert g == w


def test_register_prints_names_and_values_as_torch() -> None:
    def run(L: Any) -> list[Any]:
        L.manual_seed(0)
        P = L.nn.utils.parametrize
        layer = P.register_parametrization(L.nn.Linear(3, 3), "weight", _symmetric(L))
        out = [repr(layer), type(layer).__name__, *_names(layer),
               repr(layer.parametrizations.weight.original), layer.weight,
               P.is_parametrized(layer), P.is_parametrized(layer, "bias"),
               P.type_before_parametrizations(layer).__name__]
        layer(L.ones(2, 3)).pow(2).sum().backward()
        return [*out, layer.parametrizations.weight.original.grad, layer.bias.grad]
    _both(run)


def test_assignment_goes_through_right_inverse() -> None:
    def run(L: Any) -> list[Any]:
        L.manual_seed(1)
        layer = L.nn.utils.parametrize.register_parametrization(L.nn.Linear(3, 3), "weight",
                                                                _symmetric(L))
        original = layer.parametrizations.weight.original
        X = L.rand(3, 3)
        layer.weight = X + X.T
        return [layer.weight, original, layer.parametrizations.weight.original is original]
    _both(run)


def test_chained_parametrizations_and_removal() -> None:
    def run(L: Any) -> list[Any]:
        L.manual_seed(2)
        P = L.nn.utils.parametrize
        layer = P.register_parametrization(L.nn.Linear(3, 3), "weight", _symmetric(L))
        P.register_parametrization(layer, "weight", L.nn.Tanh())
        P.register_parametrization(layer, "bias", L.nn.Sigmoid())
        out = [repr(layer), *_names(layer), layer.weight]
        P.remove_parametrizations(layer, "weight")
        out += [repr(layer), *_names(layer), layer.weight]
        P.remove_parametrizations(layer, "bias", leave_parametrized=False)
        return [*out, repr(layer), *_names(layer), layer.bias, P.is_parametrized(layer)]
    _both(run)


def test_unsafe_may_change_the_shape() -> None:
    def run(L: Any) -> list[Any]:
        L.manual_seed(3)

        class Double(L.nn.Module):
            def forward(self, X: Any) -> Any:
                return L.cat([X, X])

        layer = L.nn.utils.parametrize.register_parametrization(L.nn.Linear(2, 2), "bias",
                                                                Double(), unsafe=True)
        return [layer.bias, layer.parametrizations.bias.unsafe]
    _both(run)


def test_cached_computes_once() -> None:
    def run(L: Any) -> list[int]:
        calls = []

        class Count(L.nn.Module):
            def forward(self, X: Any) -> Any:
                calls.append(1)
                return X

        P = L.nn.utils.parametrize
        layer = P.register_parametrization(L.nn.Linear(2, 2), "weight", Count())
        counts = [len(calls)]
        layer.weight + layer.weight
        counts.append(len(calls))
        with P.cached():
            layer.weight + layer.weight
            with P.cached():
                layer.weight.sum()
        counts.append(len(calls))
        layer.weight
        return [*counts, len(calls)]
    assert run(mt) == run(torch)


@pytest.mark.parametrize("call", [
    lambda L: L.nn.utils.parametrize.register_parametrization(L.nn.Linear(2, 2), "foo",
                                                              L.nn.Tanh()),
    lambda L: L.nn.utils.parametrize.register_parametrization(L.nn.Linear(2, 3), "weight",
                                                              _Transpose(L)),
    lambda L: L.nn.utils.parametrize.register_parametrization(
        L.nn.utils.parametrize.register_parametrization(L.nn.Linear(2, 3), "weight",
                                                        L.nn.Tanh()), "weight", _Transpose(L)),
    lambda L: L.nn.utils.parametrize.remove_parametrizations(L.nn.Linear(2, 2), "weight"),
    lambda L: setattr(L.nn.utils.parametrize.register_parametrization(
        L.nn.Linear(2, 2), "weight", _symmetric(L, with_inverse=False)), "weight", L.ones(2, 2)),
    lambda L: L.nn.utils.parametrize.remove_parametrizations(
        L.nn.utils.parametrizations.weight_norm(L.nn.Linear(2, 2)), "weight",
        leave_parametrized=False),
])
def test_errors(call: Any) -> None:
    assert_same_error(raised_by(call, mt), raised_by(call, torch))


def _Transpose(L: Any) -> Any:
    class Transpose(L.nn.Module):
        def forward(self, X: Any) -> Any:
            return X.T

    return Transpose()


@pytest.mark.parametrize("dim", [0, 1, None])
def test_weight_norm_parametrization(dim: Any) -> None:
    def run(L: Any) -> list[Any]:
        L.manual_seed(4)
        m = L.nn.utils.parametrizations.weight_norm(L.nn.Conv2d(2, 3, 2), dim=dim)
        weights = m.parametrizations.weight
        out = [repr(m), *_names(m), weights.original0, weights.original1, m.weight]
        m(L.randn(1, 2, 3, 3)).pow(2).sum().backward()
        return [*out, weights.original0.grad, weights.original1.grad]
    _both(run)


def test_weight_norm_second_order() -> None:
    """torch's fused ``_weight_norm`` node keeps the norms it saved as constants in its double
    backward (so its own gradgradcheck fails); minitorch's node does the same, and the
    second derivatives are torch's."""
    def grads(L: Any) -> list[Any]:
        L.manual_seed(5)
        g, v = L.rand(2, 1, dtype=L.float64), L.randn(2, 3, dtype=L.float64)
        x = L.randn(4, 3, dtype=L.float64)
        m = L.nn.utils.parametrizations.weight_norm(L.nn.Linear(3, 2, bias=False).double())
        m.weight = v  # right_inverse: original0 = the norms of v's rows, original1 = v
        weights = m.parametrizations.weight
        with L.no_grad():
            weights.original0.copy_(g)
        leaves = (weights.original0, weights.original1)
        loss = (x @ m.weight.T).pow(2).sum()
        dg, dv = L.autograd.grad(loss, leaves, create_graph=True)
        return list(L.autograd.grad(dg.pow(2).sum() + dv.pow(3).sum(), leaves))

    for got, want in zip(grads(mt), grads(torch)):
        assert_same(got, want)


def test_spectral_norm_parametrization_buffers_and_values() -> None:
    def run(L: Any) -> list[Any]:
        L.manual_seed(6)
        m = L.nn.utils.parametrizations.spectral_norm(L.nn.Linear(5, 4))
        sn = m.parametrizations.weight[0]
        out = [repr(m), *_names(m), sn._u, sn._v, m.weight]
        out += [sn._u, m.eval().weight, sn._u]
        m.train()(L.randn(2, 5)).sum().backward()
        return [*out, m.parametrizations.weight.original.grad]
    _both(run)


def test_spectral_norm_of_a_vector_and_dim_errors() -> None:
    def run(L: Any) -> list[Any]:
        L.manual_seed(5)  # the layer's weights and the power iteration's start are random
        m = L.nn.utils.parametrizations.spectral_norm(L.nn.Linear(2, 3), "bias")
        return [*_names(m), m.bias]
    _both(run)
    def call(L: Any) -> Any:
        return L.nn.utils.parametrizations.spectral_norm(L.nn.Linear(2, 3), dim=2)
    assert_same_error(raised_by(call, mt), raised_by(call, torch))


def test_old_weight_norm_warns_and_uses_hooks() -> None:
    def run(L: Any) -> list[Any]:
        L.manual_seed(7)
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            m = L.nn.utils.weight_norm(L.nn.Linear(3, 2))
        out = [[(w.category.__name__, str(w.message)) for w in caught], repr(m), *_names(m),
               m.weight_g, m.weight_v]
        m(L.randn(4, 3)).pow(2).sum().backward()
        out += [m.weight_g.grad, m.weight_v.grad]
        L.nn.utils.remove_weight_norm(m)
        return [*out, *_names(m), m.weight]
    _both(run)
    def call(L: Any) -> Any:
        return L.nn.utils.remove_weight_norm(L.nn.Linear(2, 2))
    assert_same_error(raised_by(call, mt), raised_by(call, torch))


def test_old_spectral_norm() -> None:
    def run(L: Any) -> list[Any]:
        L.manual_seed(8)
        m = L.nn.utils.spectral_norm(L.nn.Linear(5, 3))
        out = [*_names(m), m.weight_u, m.weight_v]
        m(L.randn(2, 5)).sum().backward()
        out += [m.weight_u, m.weight, m.weight_orig.grad]
        L.nn.utils.remove_spectral_norm(m)
        return [*out, *_names(m), m.weight]
    _both(run)


@pytest.mark.parametrize("call", [
    lambda L: L.nn.utils.weight_norm(L.nn.utils.weight_norm(L.nn.Linear(2, 2))),
    lambda L: L.nn.utils.spectral_norm(L.nn.utils.spectral_norm(L.nn.Linear(2, 2))),
    lambda L: L.nn.utils.remove_spectral_norm(L.nn.Linear(2, 2)),
    lambda L: L.nn.utils.remove_spectral_norm(L.nn.utils.weight_norm(L.nn.Linear(2, 2))),
    lambda L: L.nn.utils.remove_weight_norm(L.nn.utils.spectral_norm(L.nn.Linear(2, 2)), "bias"),
])
def test_old_norm_hooks_refuse_as_torch(call: Any) -> None:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        assert_same_error(raised_by(call, mt), raised_by(call, torch))


def test_spectral_norm_weight_has_norm_one_after_iterations() -> None:
    mt.manual_seed(0)  # unseeded, 2 initial weights in 400 stay 1e-4 off after 20 iterations
    m = mt.nn.utils.parametrizations.spectral_norm(mt.nn.Linear(6, 4), n_power_iterations=20)
    assert np.isclose(np.linalg.norm(numpy_of(m.weight), 2), 1.0, atol=1e-4)
