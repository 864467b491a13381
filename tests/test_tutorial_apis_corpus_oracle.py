"""APIs that an independent corpus of tutorial programs failed on (issue #20), each against
live torch: the constants ``pi``/``e``/``inf``/``nan``; ``sinh``/``cosh``/``asinh``/``acosh``/
``atanh``; ``nonzero``/``argwhere``; ``diagonal``/``diag``/``diag_embed``; ``nn.LazyLinear``
and ``nn.RNN``.
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np
import pytest
import torch

import minitorch as mt
from tests.oracle import assert_same, assert_same_error, avx512_bits, raised_by, twins
from tests.test_rnn_family_oracle import assert_same_numbers

HYPERBOLIC = ["sinh", "cosh", "asinh", "acosh", "atanh"]


def _domain(name: str, rng: np.random.Generator, n: int) -> np.ndarray:
    """Random values inside ``name``'s domain, over the range tutorials meet."""
    if name == "acosh":
        return 1 + rng.random(n) * 20
    if name == "atanh":
        return rng.random(n) * 1.98 - 0.99
    return rng.standard_normal(n) * (10 if name == "asinh" else 4)


def _bits(a: np.ndarray) -> np.ndarray:
    return a.view(np.int32 if a.dtype == np.float32 else np.int64)


# ---------------------------------------------------------------------------- 1. constants


def test_constants_are_torch_floats() -> None:
    for name in ("pi", "e", "inf", "nan"):
        got, want = getattr(mt, name), getattr(torch, name)
        assert type(got) is type(want) is float
        assert repr(got) == repr(want)
    x = mt.tensor([0.0, mt.pi / 2])
    assert repr(mt.sin(x)) == repr(torch.sin(torch.tensor([0.0, torch.pi / 2])))
    assert repr(mt.full((2,), mt.inf)) == repr(torch.full((2,), torch.inf))


# ---------------------------------------------------------------------------- 2. hyperbolic


@pytest.mark.parametrize("name", HYPERBOLIC)
@pytest.mark.parametrize("dtype", ["float32", "float64"])
@pytest.mark.parametrize("n", [1, 7, 33, 20000])
def test_hyperbolic_bits(name: str, dtype: str, n: int) -> None:
    """Nearly all bits are torch's (see minitorch/ops/hyperbolic.py); short tensors, which
    torch's kernel computes element by element with the C library, all of them."""
    if dtype == "float64":
        avx512_bits(f"float64 {name}")
    x = _domain(name, np.random.default_rng(n), n).astype(dtype)
    got = getattr(mt, name)(mt.tensor(x)).numpy()
    want = getattr(torch, name)(torch.tensor(x)).numpy()
    same = float(np.mean(_bits(got) == _bits(want)))
    floor = 1.0 if n < 32 or name in ("asinh", "acosh") else 0.9999 if dtype == "float32" else 0.95
    assert same >= floor, f"{name} {dtype}: {same:.4%} of the bits are torch's"


@pytest.mark.parametrize("name", ["sinh", "cosh", "atanh"])
def test_hyperbolic_vector_kernel_edges(name: str) -> None:
    """SLEEF's path (64 values: two pairs of AVX512 vectors) at its edges: zeros, tiny,
    overflow at 89, infinities, NaN, atanh's ±1 and beyond."""
    edges = [0.0, -0.0, 1e-30, -1e-38, 1e-3, 0.5, -0.999999, 1.0, -1.0, 1.5, 88.5, 89.5,
             -100.0, np.inf, -np.inf, np.nan]
    x = np.array(edges * 4, dtype=np.float32)
    got = getattr(mt, name)(mt.tensor(x)).numpy()
    want = getattr(torch, name)(torch.tensor(x)).numpy()
    np.testing.assert_array_equal(_bits(got), _bits(want))


@pytest.mark.parametrize("name", HYPERBOLIC)
@pytest.mark.parametrize("dtype", ["float32", "float64"])
def test_hyperbolic_grad_and_node(name: str, dtype: str) -> None:
    if dtype == "float64":
        avx512_bits(f"float64 {name}")
    x = _domain(name, np.random.default_rng(1), 12).astype(dtype).reshape(3, 4)
    (a,), (b,) = twins([x])
    got, want = getattr(a, name)(), getattr(b, name)()
    assert_same(got, want)
    assert repr(got.grad_fn).split(" ")[0] == repr(want.grad_fn).split(" ")[0]
    assert type(got.grad_fn).__name__ == type(want.grad_fn).__name__
    got.backward(mt.ones(3, 4, dtype=getattr(mt, dtype)))
    want.backward(torch.ones(3, 4, dtype=getattr(torch, dtype)))
    assert_same(a.grad, b.grad, "grad")
    assert np.mean(_bits(a.grad.numpy()) == _bits(b.grad.numpy())) >= 0.9


@pytest.mark.parametrize("name", HYPERBOLIC)
def test_hyperbolic_inplace_aliases_and_print(name: str) -> None:
    def run(L: Any) -> str:
        x = L.tensor([0.5, 1.5 if name == "acosh" else 0.25], requires_grad=True)
        y = x * 1
        getattr(y, name + "_")()
        arc = "arc" + name[1:] if name.startswith("a") else name
        z = getattr(L, arc)(x.detach())
        try:  # torch has no derivative for the in-place inverses (AsinhBackward1, ...)
            y.sum().backward()
        except NotImplementedError as e:
            return f"{y} {y._version} {e} {z}"
        return f"{y} {y._version} {x.grad} {z} {getattr(L, name)(L.tensor([2, 3]))}"

    assert run(mt) == run(torch)


def test_hyperbolic_outside_the_domain_is_nan_and_int_is_float() -> None:
    def run(L: Any) -> str:
        return f"{L.acosh(L.tensor([0.5, 1.0]))} {L.atanh(L.tensor([1.0, -1.0, 2.0]))} " \
               f"{L.sinh(L.tensor([100.0, -100.0]))} {L.cosh(L.tensor(3))}"

    assert run(mt) == run(torch)


def test_hyperbolic_misuse() -> None:
    assert_same_error(raised_by(lambda L: L.sinh([1.0]), mt), raised_by(lambda L: L.sinh([1.0]),
                                                                        torch))
    leaf = raised_by(lambda L: L.ones(2, requires_grad=True).cosh_(), torch)
    assert_same_error(raised_by(lambda L: L.ones(2, requires_grad=True).cosh_(), mt), leaf)


def test_math_constants_in_formulas() -> None:
    """The corpus' use: a Gaussian density with torch.pi, and masks with torch.inf."""
    def run(L: Any) -> str:
        x = L.linspace(-2, 2, 5)
        pdf = L.exp(-x ** 2 / 2) / math.sqrt(2 * L.pi)
        masked = L.tensor([1.0, 2.0]).masked_fill(L.tensor([True, False]), -L.inf)
        return f"{pdf} {masked} {L.tensor([L.nan]).isnan()} {L.tensor(L.e).log()}"

    assert run(mt) == run(torch)


# ---------------------------------------------------------------------------- 3. nonzero


@pytest.mark.parametrize("data", [[[0.0, 1.0], [2.0, 0.0]], [True, False, True], 5.0, 0.0,
                                  [[0, 0, 0]], [[[1, 0], [0, 3]], [[0, 0], [7, 0]]]])
def test_nonzero_and_argwhere(data: Any) -> None:
    def run(L: Any) -> str:
        x = L.tensor(data)
        t = L.nonzero(x, as_tuple=True)
        return (f"{L.nonzero(x)} {x.nonzero()} {t} {x.nonzero(as_tuple=True)} "
                f"{L.argwhere(x)} {x.argwhere()} {x[t] if x.dim() else ''}")

    assert run(mt) == run(torch)


def test_nonzero_of_a_graph_needs_no_grad() -> None:
    (a,), (b,) = twins([np.array([0.0, -1.0, 2.0])])
    got, want = (a * 2).nonzero(), (b * 2).nonzero()
    assert_same(got, want)
    assert got.grad_fn is None and want.grad_fn is None


@pytest.mark.parametrize("call", [
    lambda L: L.nonzero([1]), lambda L: L.argwhere([1]), lambda L: L.ones(2).nonzero(True),
    lambda L: L.nonzero(L.ones(2), 1), lambda L: L.ones(2).nonzero(as_tuple=1),
    lambda L: L.argwhere(L.ones(2), as_tuple=True)])
def test_nonzero_misuse(call: Any) -> None:
    assert_same_error(raised_by(call, mt), raised_by(call, torch))


# ---------------------------------------------------------------------------- 4. diagonals


def _diagonal_story(L: Any) -> list[str]:
    x = L.arange(12.0).reshape(3, 4).requires_grad_()
    v = L.tensor([1.0, 2.0], requires_grad=True)
    out = [f"{x.diagonal()} {L.diagonal(x, 1)} {x.diagonal(-1)} {x.diagonal(5)} {L.diag(x)} "
           f"{L.diag(x, -1)} {x.diag(1)}",
           f"{L.diag(v)} {L.diag(v, 1)} {L.diag_embed(v)} {v.diag_embed(-1)} "
           f"{L.diag_embed(L.ones(2, 2), offset=1, dim1=0, dim2=2).shape}"]
    (x.diagonal(1) * L.tensor([1.0, 2.0, 3.0])).sum().backward()
    (L.diag(v) * L.arange(4.0).reshape(2, 2)).sum().backward()
    (g,) = L.autograd.grad((x.diagonal() ** 2).sum(), x, create_graph=True)
    out.append(f"{x.grad} {v.grad} {g}")
    y = L.zeros(3, 3)
    y.diagonal().fill_(5)  # a view: the write reaches y
    z = L.arange(12.0).reshape(3, 4)
    z.diagonal().mul_(2)
    b = L.ones(2, 3, 4)
    out.append(f"{y} {z} {z._version} {b.diagonal(0, 0, 2).shape} "
               f"{b.diagonal(dim1=-1, dim2=0).shape} {x.diagonal().is_contiguous()}")
    return out


def test_diagonal_diag_diag_embed() -> None:
    assert _diagonal_story(mt) == _diagonal_story(torch)


@pytest.mark.parametrize("dtype", ["float32", "float64"])
def test_diagonal_values_and_grads_on_random_batches(dtype: str) -> None:
    x = np.random.default_rng(3).standard_normal((2, 3, 4, 5)).astype(dtype)
    for offset, dim1, dim2 in [(0, 0, 1), (1, 2, 3), (-2, 3, 1), (3, -1, 0), (0, 1, -2)]:
        (a,), (b,) = twins([x])
        got, want = a.diagonal(offset, dim1, dim2), b.diagonal(offset, dim1, dim2)
        assert_same(got, want)
        weights = np.random.default_rng(4).standard_normal(tuple(want.shape)).astype(dtype)
        (got * mt.tensor(weights)).sum().backward()
        (want * torch.tensor(weights)).sum().backward()
        assert_same(a.grad, b.grad, "grad")
        embedded = mt.diag_embed(got, offset, dim1, dim2), torch.diag_embed(want, offset,
                                                                            dim1, dim2)
        assert_same(*embedded)
        assert embedded[0].grad_fn.name() == embedded[1].grad_fn.name() == "DiagEmbedBackward0"


def test_diagonal_on_a_strict_array_namespace() -> None:
    """Arrays without strides (the array API standard) get the diagonal as a copy."""
    xs = pytest.importorskip("array_api_strict")
    from minitorch.backend import diagonal, embed_diagonal

    a = np.arange(24.0).reshape(2, 3, 4)
    for offset, dim1, dim2 in [(0, 0, 1), (1, 2, 0), (-1, 1, 2)]:
        want = torch.tensor(a).diagonal(offset, dim1, dim2).numpy()
        got = diagonal(xs, xs.asarray(a), offset, dim1, dim2)
        np.testing.assert_array_equal(np.asarray(got), want)
        back = embed_diagonal(xs, got, a.shape, offset, dim1, dim2)
        zeros = torch.zeros(a.shape, dtype=torch.float64)
        zeros.diagonal(offset, dim1, dim2).copy_(torch.tensor(want))
        np.testing.assert_array_equal(np.asarray(back), zeros.numpy())


@pytest.mark.parametrize("call", [
    lambda L: L.arange(4.0).reshape(2, 2).diagonal(0, 0, 0),
    lambda L: L.ones(2, 2).diagonal(0, 0, 2), lambda L: L.diag(L.ones(2, 2, 2)),
    lambda L: L.diagonal([1]), lambda L: L.diag(L.tensor(1.0)),
    lambda L: L.ones(2, 2).diagonal(1.5), lambda L: L.diagonal(L.ones(2, 2), 0.5),
    lambda L: L.diag_embed(L.ones(2), dim1=0, dim2=0), lambda L: L.ones(2, 2).diagonal(0, -1, 1),
    lambda L: L.diagonal(L.ones(3)), lambda L: L.diag([1.0]), lambda L: L.diag(L.ones(2), 0.5)])
def test_diagonal_misuse(call: Any) -> None:
    assert_same_error(raised_by(call, mt), raised_by(call, torch))


# ---------------------------------------------------------------------------- 5. LazyLinear


def _lazy_story(L: Any) -> list[str]:
    L.manual_seed(0)
    m = L.nn.LazyLinear(3)
    out = [f"{m} {m.weight!r} {m.bias!r} {type(m.weight).__name__} "
           f"{m.has_uninitialized_params()} {m.in_features}"]
    opt = L.optim.SGD(m.parameters(), lr=0.1)  # made before the shapes are known
    y = m(L.randn(2, 4))
    out.append(f"{m} {type(m).__name__} {type(m.weight).__name__} {m.weight} {m.bias} {y}")
    y.sum().backward()
    opt.step()
    out.append(f"{m.weight} {list(dict(m.named_parameters()))} {m.weight.grad}")
    m2 = L.nn.LazyLinear(3, bias=False)
    out.append(f"{m2} {m2.bias} {m2.state_dict()}")
    s = L.nn.Sequential(L.nn.LazyLinear(5), L.nn.ReLU(), L.nn.LazyLinear(2))
    out.append(str(s))
    s(L.ones(1, 7))
    out.append(f"{s} {s[2].weight} {s[0].bias}")
    m3 = L.nn.LazyLinear(2, dtype=L.float64)
    m3(L.ones(1, 2, dtype=L.float64))
    out.append(f"{m3.weight.dtype} {isinstance(m3, L.nn.LazyLinear)}")
    return out


def test_lazy_linear_draws_torchs_weights() -> None:
    assert _lazy_story(mt) == _lazy_story(torch)


def _address_free(e: BaseException | None) -> str:
    import re

    return f"{type(e).__name__}: {re.sub(' at 0x[0-9a-f]+', '', str(e))}"


@pytest.mark.parametrize("use", [
    lambda w: w * 2, lambda w: w @ w, lambda w: w.sum(), lambda w: w.dim(),
    lambda w: 2 + w, lambda w: w.detach(), lambda w: w.view(-1), lambda w: w[0],
    lambda w: w.shape, lambda w: w.numel(), lambda w: w - 1, lambda w: 1 - w, lambda w: -w,
    lambda w: str(w), lambda w: w.size(), lambda w: w.data, lambda w: w.requires_grad,
    lambda w: (w.dtype, w.is_leaf, w.grad)])
def test_uninitialized_parameter_use(use: Any) -> None:
    def run(L: Any) -> str:
        w = L.nn.LazyLinear(3).weight
        try:
            return str(use(w))
        except (ValueError, RuntimeError) as e:
            return _address_free(e)

    assert run(mt) == run(torch)
    assert mt.nn.parameter.UninitializedParameter is mt.nn.UninitializedParameter


# ---------------------------------------------------------------------------- 6. RNN

RNN_CONFIGS = [{}, {"nonlinearity": "relu"}, {"num_layers": 2}, {"batch_first": True},
               {"bias": False}, {"bidirectional": True},
               {"num_layers": 3, "bidirectional": True, "batch_first": True,
                "nonlinearity": "relu"}]


def _rnn_run(L: Any, cfg: dict, batched: bool, with_h: bool, dtype: str) -> tuple:
    """Build an RNN after seed 0, run it on fixed data, backpropagate: every number."""
    L.manual_seed(0)
    rnn = L.nn.RNN(4, 3, **cfg)
    if dtype == "float64":
        rnn = rnn.double()
    shape = ((2, 5, 4) if cfg.get("batch_first") else (5, 2, 4)) if batched else (7, 4)
    x = L.tensor(np.random.default_rng(1).standard_normal(shape).astype(dtype),
                 requires_grad=True)
    args = [x]
    if with_h:
        directions = 2 if cfg.get("bidirectional") else 1
        h_shape = (cfg.get("num_layers", 1) * directions, *((2,) if batched else ()), 3)
        args.append(L.tensor(np.random.default_rng(2).standard_normal(h_shape).astype(dtype),
                             requires_grad=True))
    output, h_n = rnn(*args)
    (output.pow(2).sum() + h_n.sum()).backward()
    numbers = [output, h_n, *(p.grad for p in rnn.parameters()), *(a.grad for a in args)]
    names = (repr(rnn), [n for n, _ in rnn.named_parameters()], output.grad_fn.name(),
             h_n.grad_fn.name())
    return [t.detach().numpy() for t in numbers], names


@pytest.mark.parametrize("cfg", RNN_CONFIGS)
@pytest.mark.parametrize("batched", [True, False])
@pytest.mark.parametrize("with_h", [False, True])
@pytest.mark.parametrize("dtype", ["float32", "float64"])
def test_rnn_weights_values_grads_bit_for_bit(cfg: dict, batched: bool, with_h: bool,
                                              dtype: str) -> None:
    """torch's init stream, outputs, h_n and every gradient: float32 bit for bit; float64
    to its last bits (its tanh is numpy's, not torch's vectorised one)."""
    got, got_names = _rnn_run(mt, cfg, batched, with_h, dtype)
    want, want_names = _rnn_run(torch, cfg, batched, with_h, dtype)
    assert got_names == want_names
    assert_same_numbers(got, want, dtype)


def test_rnn_dropout_between_layers_draws_torchs_masks() -> None:
    def run(L: Any) -> list:
        L.manual_seed(0)
        rnn = L.nn.RNN(4, 3, num_layers=3, dropout=0.4)
        x = L.tensor(np.random.default_rng(1).standard_normal((6, 2, 4)).astype("float32"))
        training = rnn(x)
        rnn.eval()
        return [t.detach().numpy() for t in (*training, *rnn(x))]

    for got, want in zip(run(mt), run(torch), strict=True):
        np.testing.assert_array_equal(_bits(got), _bits(want))


@pytest.mark.parametrize("call", [
    lambda L: L.nn.RNN(4, 3)(L.ones(1, 2, 3, 4)), lambda L: L.nn.RNN(4, 3)(L.ones(5, 2, 5)),
    lambda L: L.nn.RNN(4, 3)(L.ones(5, 2, 4), L.zeros(1, 3, 3)),
    lambda L: L.nn.RNN(4, 3)(L.ones(5, 4), L.zeros(1, 2, 3)),
    lambda L: L.nn.RNN(4, 3)(L.ones(5, 2, 4), L.zeros(1, 2)),
    lambda L: L.nn.RNN(4, 3, nonlinearity="sigmoid"), lambda L: L.nn.RNN(4, 3, dropout=2),
    lambda L: L.nn.RNN(4, 3)(L.ones(5, 2, 4, dtype=L.float64)),
    lambda L: L.nn.RNN(4, 3)(L.ones(0, 2, 4))])
def test_rnn_misuse(call: Any) -> None:
    assert_same_error(raised_by(call, mt), raised_by(call, torch))


def test_rnn_dropout_on_one_layer_warns_as_torch() -> None:
    with pytest.warns(UserWarning) as got:
        mt.nn.RNN(4, 3, dropout=0.5)
    with pytest.warns(UserWarning) as want:
        torch.nn.RNN(4, 3, dropout=0.5)
    assert str(got[0].message) == str(want[0].message)


def test_lazy_linear_loads_a_state_dict() -> None:
    """Loading materialises the parameters in the checkpoint's shapes, as torch's hook."""
    def run(L: Any) -> str:
        L.manual_seed(0)
        source = L.nn.Linear(4, 3)
        lazy = L.nn.LazyLinear(3)
        loaded = lazy.load_state_dict(source.state_dict())
        before = f"{loaded} {lazy} {type(lazy.weight).__name__} {lazy.weight.shape}"
        out = lazy(L.ones(1, 4))
        wrong = L.nn.LazyLinear(3)
        wrong.load_state_dict(source.state_dict())
        try:
            wrong(L.ones(1, 5))
        except AssertionError as e:
            return f"{before} {out} {lazy} {e}"
        return "no error"

    assert run(mt) == run(torch)


def test_rnn_all_weights_and_flatten_parameters() -> None:
    def run(L: Any) -> str:
        L.manual_seed(0)
        rnn = L.nn.RNN(2, 3, num_layers=2, bidirectional=True)
        rnn.flatten_parameters()
        return f"{[[tuple(w.shape) for w in ws] for ws in rnn.all_weights]} " \
               f"{rnn.all_weights[3][1]} {rnn.mode} {rnn.nonlinearity} {rnn.dropout}"

    assert run(mt) == run(torch)


def test_new_ops_on_a_strict_array_namespace() -> None:
    """The array-API seam: hyperbolic functions, diagonals and nonzero also run (and
    differentiate) on array-api-strict arrays, to the values numpy gives."""
    xs = pytest.importorskip("array_api_strict")
    from minitorch import backend

    def run(strict: bool) -> list[np.ndarray]:
        data = [[0.5, 0.0], [0.25, 2.0]]
        if strict:
            with backend.device_namespace("cpu", xs):
                x = mt.tensor(data, requires_grad=True)
        else:
            x = mt.tensor(data, requires_grad=True)
        y = x.sinh() + x.asinh() + (x * 0.1).atanh() + x.cosh() + (x + 2).acosh()
        d = x.diagonal()
        e = mt.diag(d)
        (y.sum() + (d * 2).sum() + (e * 3).sum()).backward()
        return [backend.to_numpy(t._data) for t in (y, d, e, x.nonzero(), x.grad)]

    for got, want in zip(run(True), run(False), strict=True):
        np.testing.assert_allclose(got, want, rtol=1e-6)
