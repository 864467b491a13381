"""APIs that the corpus20f programs (others' autograd code) use, against live torch: each
case is run as a program sees it, through its printed form, under both libraries."""

from __future__ import annotations

import torch
from hypothesis import given

import minitorch as mt
from tests.oracle import SETTINGS, shapes


def _printed_broadcast(L, a_shape, b_shape):
    a = L.zeros(a_shape, requires_grad=True)
    b = L.ones(b_shape)
    out = L.broadcast_tensors(a, b)
    return [out[0] is a, out[1] is b] + [repr(t) for t in out]


@SETTINGS
@given(shapes(0, 3), shapes(0, 3))
def test_broadcast_tensors_returns_same_shaped_inputs_themselves(a_shape, b_shape):
    try:
        torch.broadcast_shapes(a_shape, b_shape)
    except RuntimeError:
        return
    assert _printed_broadcast(mt, a_shape, b_shape) == _printed_broadcast(torch, a_shape, b_shape)


def test_distribution_parameters_keep_their_own_grad_fn():
    def run(L):
        mu = L.zeros(1, requires_grad=True)
        log_std = L.zeros(1, requires_grad=True)
        d = L.distributions.Normal(mu, log_std.exp())
        return [repr(d.mean), repr(d.stddev), d.loc is mu]
    assert run(mt) == run(torch)


def _node_apply(L):
    class MultiplyAdd(L.autograd.Function):
        @staticmethod
        def forward(ctx, w, x, b):
            ctx.save_for_backward(w, x)
            return w * x + b

        @staticmethod
        def backward(ctx, grad_output):
            w, x = ctx.saved_tensors
            return grad_output * x, grad_output * w, grad_output

    w = L.tensor([0.25], requires_grad=True)
    b = L.tensor([0.5], requires_grad=True)
    z = MultiplyAdd.apply(w, L.ones(1), b)
    out = [repr(z.grad_fn.apply(L.ones(1))), hasattr(z.exp().grad_fn, "apply")]
    try:
        z.grad_fn.apply(L.ones(1), L.ones(1))
    except TypeError as e:
        out.append(type(e).__name__)
    return out


def test_custom_function_node_apply_runs_its_backward():
    assert _node_apply(mt) == _node_apply(torch)
