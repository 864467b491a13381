"""``torch.func`` (grad, vjp, jvp, jacrev, jacfwd, hessian, vmap, functional_call) against live
torch: each program runs with both libraries and prints the same text, grad_fn included;
misuse gets torch's exception type and message.
"""

from __future__ import annotations

from typing import Any

import pytest
import torch
import torch.func

import minitorch as mt
from tests.oracle import assert_same, assert_same_error, raised_by


def _printed(program: Any, lib: Any) -> str:
    lib.manual_seed(0)
    return repr(program(lib))


def _data(L: Any) -> tuple:
    return L.randn(3, 4, dtype=L.float64), L.randn(4, dtype=L.float64)


PROGRAMS = {
    "grad": lambda L: L.func.grad(lambda x: (x.sin() * x).sum())(_data(L)[0]),
    "grad of a 0-d": lambda L: L.func.grad(lambda x: L.sin(x))(L.tensor(0.3)),
    "grad argnums tuple": lambda L: L.func.grad(lambda a, b: (a @ b).sum(), argnums=(0, 1))(
        *_data(L)),
    "grad negative argnum": lambda L: L.func.grad(lambda a, b: (a @ b).pow(2).sum(),
                                                  argnums=-1)(*_data(L)),
    "grad has_aux": lambda L: L.func.grad(lambda x: ((x ** 2).sum(), x.mean()),
                                          has_aux=True)(_data(L)[1]),
    "grad of grad": lambda L: L.func.grad(L.func.grad(lambda x: x ** 3 + x.exp()))(
        L.tensor(0.7, dtype=L.float64)),
    "grad dict input": lambda L: L.func.grad(lambda p: (p["w"] * p["b"]).sum())(
        {"w": L.randn(3), "b": L.randn(3)}),
    "grad_and_value": lambda L: L.func.grad_and_value(lambda x: x.tanh().sum())(
        _data(L)[1]),
    "grad input requires grad": lambda L: L.func.grad(lambda x: (x ** 3).sum())(
        L.randn(3, requires_grad=True)),
    "grad unused input": lambda L: L.func.grad(lambda a, b: a.sum(), argnums=1)(*_data(L)),
    "vjp": lambda L: _vjp(L),
    "vjp tuple output": lambda L: _vjp_tuple(L),
    "jvp": lambda L: L.func.jvp(lambda x, y: x * y.sin(), (*_data(L)[:1], L.ones(3, 4)),
                                (L.ones(3, 4, dtype=L.float64), L.zeros(3, 4))),
    "jvp has_aux": lambda L: L.func.jvp(lambda x: (x.exp(), x.sum()), (L.randn(3),),
                                        (L.ones(3),), has_aux=True),
    "jvp dict": lambda L: _jvp_module(L),
    "jvp requires grad": lambda L: L.func.jvp(lambda x: x ** 2, (L.randn(4).requires_grad_(),),
                                              (L.randn(4),)),
    "jacrev": lambda L: L.func.jacrev(lambda x: x.sin() * x.sum())(_data(L)[1]),
    "jacrev matrix": lambda L: L.func.jacrev(lambda a, b: a @ b, argnums=(0, 1))(*_data(L)),
    "jacfwd": lambda L: L.func.jacfwd(lambda x: x.sin() * x.sum())(_data(L)[1]),
    "jacfwd matrix": lambda L: L.func.jacfwd(lambda a, b: a @ b, argnums=1)(*_data(L)),
    "hessian": lambda L: L.func.hessian(lambda x: (x.sin() * x ** 2).sum())(_data(L)[1]),
    "vmap": lambda L: L.func.vmap(L.dot)(L.randn(3, 4), L.randn(3, 4)),
    "vmap in_dims": lambda L: L.func.vmap(lambda a, b: a * b + 1, in_dims=(1, None))(
        L.randn(2, 5), L.randn(2)),
    "vmap out_dims": lambda L: L.func.vmap(lambda r: r.exp(), out_dims=1)(L.randn(3, 2)),
    "vmap tuple output": lambda L: L.func.vmap(lambda r: (r.sum(), r.max()))(L.randn(4, 3)),
    "vmap of grad": lambda L: L.func.vmap(L.func.grad(lambda x: (x ** 3).sum()))(
        L.randn(3, 2, dtype=L.float64)),
    "functional_call": lambda L: _functional_call(L),
    "per-sample grads": lambda L: _per_sample_grads(L),
}


def _vjp(L: Any) -> Any:
    out, fn = L.func.vjp(lambda a, b: (a * b).tanh(), L.randn(3), L.randn(3))
    return out, fn(L.ones(3))


def _vjp_tuple(L: Any) -> Any:
    out, fn = L.func.vjp(lambda x: (x.exp(), x.sum()), L.randn(2, dtype=L.float64))
    return out, fn((L.ones(2, dtype=L.float64), L.tensor(2.0, dtype=L.float64)))


def _jvp_module(L: Any) -> Any:
    model = L.nn.Linear(5, 3)
    x = L.randn(4, 5)
    params = dict(model.named_parameters())
    tangents = {name: L.rand_like(p) for name, p in params.items()}
    return L.func.jvp(lambda p: L.func.functional_call(model, p, x), (params,), (tangents,))


def _functional_call(L: Any) -> Any:
    model = L.nn.Sequential(L.nn.Linear(3, 2), L.nn.BatchNorm1d(2))
    new = {"0.weight": L.ones(2, 3), "0.bias": L.zeros(2)}
    out = L.func.functional_call(model, new, (L.randn(4, 3),))
    return out, model[0].weight, model[1].running_mean


def _per_sample_grads(L: Any) -> Any:
    """PyTorch's per-sample-gradients tutorial, small."""
    model = L.nn.Linear(3, 2)
    params = {k: v.detach() for k, v in model.named_parameters()}
    data, targets = L.randn(5, 3), L.tensor([0, 1, 1, 0, 1])

    def loss(p: dict, x: Any, t: Any) -> Any:
        out = L.func.functional_call(model, p, (x.unsqueeze(0),))
        return L.nn.functional.cross_entropy(out, t.unsqueeze(0))

    grads = L.func.vmap(L.func.grad(loss), in_dims=(None, 0, 0))(params, data, targets)
    return {k: v.shape for k, v in grads.items()}, grads["bias"]


@pytest.mark.parametrize("name", sorted(PROGRAMS))
def test_programs_print_as_torch(name: str) -> None:
    program = PROGRAMS[name]
    assert _printed(program, mt) == _printed(program, torch)


MISUSE = {
    "grad of a vector": lambda L: L.func.grad(lambda x: x * 2)(L.ones(3)),
    "grad of a number": lambda L: L.func.grad(lambda x: 2.0)(L.ones(3)),
    "grad argnum out of range": lambda L: L.func.grad(lambda x: x.sum(), argnums=2)(L.ones(3)),
    "grad has_aux not a pair": lambda L: L.func.grad(lambda x: x.sum(), has_aux=True)(
        L.ones(3)),
    "jvp primals not a tuple": lambda L: L.func.jvp(lambda x: x, L.ones(2), (L.ones(2),)),
    "jvp shapes differ": lambda L: L.func.jvp(lambda x: x, (L.ones(2),), (L.ones(3),)),
    "jvp structures differ": lambda L: L.func.jvp(lambda x, y: x, (L.ones(2), L.ones(2)),
                                                  (L.ones(2),)),
    "vmap sizes differ": lambda L: L.func.vmap(L.dot)(L.ones(2, 3), L.ones(3, 3)),
    "vmap in_dim out of range": lambda L: L.func.vmap(lambda x: x, in_dims=2)(L.ones(2, 3)),
    "vmap in_dims too short": lambda L: L.func.vmap(L.mul, in_dims=(0,))(L.ones(2), L.ones(2)),
    "vmap in_dims None": lambda L: L.func.vmap(L.neg, in_dims=None)(L.ones(2)),
    "vmap in_dims list": lambda L: L.func.vmap(L.neg, in_dims=[0])(L.ones(2)),
    "vmap over a number": lambda L: L.func.vmap(lambda x, n: x * n, in_dims=(0, 0))(L.ones(2), 3),
    "vmap all None": lambda L: L.func.vmap(L.mul, in_dims=(None, None))(L.ones(2), L.ones(2)),
    "vmap returns a number": lambda L: L.func.vmap(lambda x: 1.0)(L.ones(2)),
    "jvp of no tensor": lambda L: L.func.jvp(lambda: 1, (), ()),
    "jvp of a number": lambda L: L.func.jvp(lambda x: x, (1.0,), (1.0,)),
    "vmap randomness": lambda L: L.func.vmap(lambda x: x, randomness="maybe")(L.ones(2)),
    "vjp wrong cotangents": lambda L: L.func.vjp(lambda x: (x, x), L.ones(2))[1](L.ones(2)),
    "functional_call twice the same name": lambda L: L.func.functional_call(
        L.nn.Linear(1, 1), ({"bias": L.ones(1)}, {"bias": L.ones(1)}), (L.ones(1),)),
    "get_submodule of a parameter": lambda L: L.nn.Sequential(L.nn.Linear(1, 1)).get_submodule(
        "0.weight"),
    "get_submodule missing": lambda L: L.nn.Sequential(L.nn.Linear(1, 1)).get_submodule("1"),
}


@pytest.mark.parametrize("name", sorted(MISUSE))
def test_misuse_is_refused_as_torch(name: str) -> None:
    want = raised_by(MISUSE[name], torch)
    assert want is not None
    assert_same_error(raised_by(MISUSE[name], mt), want)


LINEARIZE_CALLS = {
    "docs example": (lambda L: L.sin, lambda L: (L.zeros(3, 3),), lambda L: (L.ones(3, 3),)),
    "two primals": (lambda L: lambda x, y: x * y.exp(),
                    lambda L: (L.tensor([1.0, 2.0]), L.tensor([0.5, -1.0])),
                    lambda L: (L.tensor([1.0, 0.0]), L.tensor([2.0, 3.0]))),
    "bad shape": (lambda L: L.sin, lambda L: (L.zeros(3),), lambda L: (L.ones(2),)),
    "bad dtype": (lambda L: L.sin, lambda L: (L.zeros(3),),
                  lambda L: (L.ones(3, dtype=L.float64),)),
    "bad structure": (lambda L: L.sin, lambda L: (L.zeros(3),),
                      lambda L: (L.ones(3), L.ones(3))),
}


@pytest.mark.parametrize("name", LINEARIZE_CALLS)
def test_linearize(name: str) -> None:
    fn, primals, tangents = LINEARIZE_CALLS[name]

    def run(L: Any) -> tuple:
        out, jvp_fn = L.func.linearize(fn(L), *primals(L))
        return out, jvp_fn(*tangents(L))
    want_error = raised_by(run, torch)
    if want_error is not None:
        assert_same_error(raised_by(run, mt), want_error)
        return
    for got, want in zip(run(mt), run(torch)):
        assert_same(got, want)
