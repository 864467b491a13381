"""Forward-mode AD against torch's: tangents through the built-in ops (each op's Jacobian-
vector product), custom Functions with jvp, in-place ops, printed forms and errors."""

from __future__ import annotations

import numpy as np
import pytest
import torch
from hypothesis import given
from hypothesis import strategies as st
from oracle import FEW, assert_same, assert_same_error, raised_by

import minitorch as mt

# torch's forward AD of some ops goes through torch.jit.script, which warns that it is deprecated
pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning")

OPS = {
    "mul": lambda L, x, y: x * y, "div": lambda L, x, y: x / (y * y + 1),
    "add_sub": lambda L, x, y: x + 2 * y - 1, "pow": lambda L, x, y: (x * x + 1) ** y,
    "exp_log": lambda L, x, y: (x.exp() + y).log(), "sin_cos": lambda L, x, y: x.sin() * y.cos(),
    "tanh_sigmoid_relu": lambda L, x, y: x.tanh() + y.sigmoid() + (x - y).relu(),
    "matmul": lambda L, x, y: x.reshape(2, 3) @ y.reshape(3, 2),
    "sum_mean": lambda L, x, y: x.sum(0) * y.mean(),
    "softmax": lambda L, x, y: L.softmax(x * y, 0),
    "log_softmax": lambda L, x, y: L.log_softmax(x.reshape(2, 3), 1),
    "views": lambda L, x, y: x.reshape(3, 2).t().unsqueeze(0).expand(2, 2, 3) * y[0],
    "index": lambda L, x, y: x[1:4] * y[[0, 2, 2]],
    "cat_stack": lambda L, x, y: L.stack([L.cat([x, y]), L.cat([y, x])]),
    "max_where": lambda L, x, y: L.where(x > y, x, y) + x.max() + L.maximum(x, y),
    "norm": lambda L, x, y: x.norm() * y.norm(p=1),
    "mse": lambda L, x, y: L.nn.functional.mse_loss(x, y),
    "bce_logits": lambda L, x, y: L.nn.functional.binary_cross_entropy_with_logits(
        x, y.sigmoid()),
    "conv": lambda L, x, y: L.nn.functional.conv2d(x.reshape(1, 1, 2, 3),
                                                   y[:3].reshape(1, 1, 1, 3), padding=(0, 1)),
    "abs_sqrt_clamp": lambda L, x, y: (x.abs() + 1).sqrt() * y.clamp(-0.5, 0.5),
}


def _jvp(L, name: str, x: np.ndarray, y: np.ndarray, vx: np.ndarray, vy: np.ndarray):
    fw = L.autograd.forward_ad
    with fw.dual_level():
        a = fw.make_dual(L.tensor(x), L.tensor(vx))
        b = fw.make_dual(L.tensor(y), L.tensor(vy))
        primal, tangent = fw.unpack_dual(OPS[name](L, a, b))
    return primal, tangent


vector = st.lists(st.floats(-2, 2), min_size=6, max_size=6).map(np.array)


@pytest.mark.parametrize("name", sorted(OPS))
@given(x=vector, y=vector, vx=vector, vy=vector)
@FEW
def test_tangents_are_torchs(name: str, x, y, vx, vy) -> None:
    got = _jvp(mt, name, x, y, vx, vy)
    want = _jvp(torch, name, x, y, vx, vy)
    assert_same(got[0].detach(), want[0].detach(), "primal")
    assert_same(got[1], want[1], "tangent")


def _custom(L):
    class Exp(L.autograd.Function):
        @staticmethod
        def forward(ctx, a, k):
            ctx.save_for_forward(a)
            ctx.k = k
            return (a * k).exp()

        @staticmethod
        def backward(ctx, g):
            return g, None

        @staticmethod
        def jvp(ctx, t, _k):
            (a,) = ctx.saved_tensors
            return t * ctx.k * (a * ctx.k).exp()

    fw = L.autograd.forward_ad
    with fw.dual_level():
        d = fw.make_dual(L.tensor([0.5, 1.0], dtype=L.float64), L.tensor([1.0, 2.0],
                                                                         dtype=L.float64))
        return fw.unpack_dual(Exp.apply(d, 3.0).sum()).tangent


def test_custom_function_jvp_like_torch() -> None:
    assert_same(_custom(mt), _custom(torch))


def _printed(L) -> list:
    fw = L.autograd.forward_ad
    lines = []
    with fw.dual_level():
        d = fw.make_dual(L.tensor([1.0, 2.0]), L.tensor([1.0, 0.0]))
        lines += [repr(d), repr(d.sum()), repr(fw.unpack_dual(L.ones(1)))]
        lines.append(repr(fw.make_dual(L.ones(2, requires_grad=True), L.ones(2))))
        z = d.clone()
        z.mul_(3)
        z.add_(d)
        lines.append(repr(z))
        lines.append(repr(fw.unpack_dual(d)))
    lines.append(repr(d))
    lines.append(repr(fw.unpack_dual(d)))
    return lines


def test_dual_tensors_print_like_torch() -> None:
    assert _printed(mt) == _printed(torch)


def _no_jvp(L):
    class Twice(L.autograd.Function):
        @staticmethod
        def forward(ctx, a):
            return a * 2

        @staticmethod
        def backward(ctx, g):
            return g * 2

    fw = L.autograd.forward_ad
    with fw.dual_level():
        Twice.apply(fw.make_dual(L.ones(1), L.ones(1)))


@pytest.mark.parametrize("call", [
    lambda L: L.autograd.forward_ad.make_dual(L.ones(2), L.ones(2)),
    lambda L: _dual(L, lambda fw: fw.make_dual(L.ones(2), L.ones(3))),
    _no_jvp,
])
def test_errors_like_torch(call) -> None:
    want = raised_by(call, torch)
    assert want is not None
    assert_same_error(raised_by(call, mt), want)


def _dual(L, body):
    fw = L.autograd.forward_ad
    with fw.dual_level():
        return body(fw)


def test_forward_and_reverse_mode_agree_on_a_small_mlp() -> None:
    mt.manual_seed(0)
    model = mt.nn.Sequential(mt.nn.Linear(3, 4), mt.nn.Tanh(), mt.nn.Linear(4, 1))
    x = mt.randn(5, 3)
    v = mt.randn(5, 3)
    fw = mt.autograd.forward_ad
    with fw.dual_level():
        tangent = fw.unpack_dual(model(fw.make_dual(x, v)).sum()).tangent
    xr = x.clone().requires_grad_()
    (g,) = mt.autograd.grad(model(xr).sum(), xr)
    assert abs(tangent.item() - (g * v).sum().item()) < 1e-5


def _numpy_in_forward(L) -> list:
    class Double(L.autograd.Function):
        @staticmethod
        def forward(ctx, x):
            return L.tensor(x.numpy() * 2)

        @staticmethod
        def backward(ctx, g):
            return g * 2

    x = L.ones(2, requires_grad=True)
    y = Double.apply(x)
    y.sum().backward()
    with L.no_grad():
        inside = x.numpy().tolist()
    return [repr(y), repr(x.grad), inside, repr(raised_by(lambda _: x.numpy(), L))]


def test_numpy_of_a_tensor_that_requires_grad_works_without_grad_mode_like_torch() -> None:
    got, want = _numpy_in_forward(mt), _numpy_in_forward(torch)
    assert got == want


def _nested_dual_level(L):
    fw = L.autograd.forward_ad
    with fw.dual_level(), fw.dual_level():
        pass


def test_dual_level_does_not_nest_like_torch() -> None:
    """torch.autograd.forward_ad refuses a level inside another (torch.func nests its own)."""
    assert_same_error(raised_by(_nested_dual_level, mt), raised_by(_nested_dual_level, torch))


def _backward_under_forward_ad(L, create_graph: bool) -> list:
    """autograd.grad inside a dual level: the backward's ops carry tangents
    (forward-over-reverse), saved outputs (exp's) too, with or without create_graph."""
    fw = L.autograd.forward_ad
    p = L.tensor([0.3, -0.7, 1.2], dtype=L.float64, requires_grad=True)
    with fw.dual_level():
        x = fw.make_dual(p, L.tensor([1.0, 0.5, -2.0], dtype=L.float64))
        (g,) = L.autograd.grad((x.exp() * x.tanh()).sum(), p, create_graph=create_graph)
        return [g.tolist(), fw.unpack_dual(g).tangent.tolist()]


@pytest.mark.parametrize("create_graph", [False, True])
def test_backward_under_forward_ad_carries_tangents_like_torch(create_graph: bool) -> None:
    np.testing.assert_allclose(_backward_under_forward_ad(mt, create_graph),
                               _backward_under_forward_ad(torch, create_graph), rtol=1e-12)
