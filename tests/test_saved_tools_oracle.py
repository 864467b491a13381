"""Saved-tensor tools against torch: save_on_cpu, disable_saved_tensors_hooks,
allow_mutation_on_saved_tensors, register_multi_grad_hook, and the order in which ops pack
and unpack their saved tensors."""

from __future__ import annotations

import pytest
import torch

import minitorch as mt

OPS = {
    "mul": (lambda L, a, b: a * b, [(2,), (2,)]),
    "div": (lambda L, a, b: a / b, [(2,), (2,)]),
    "mm": (lambda L, a, b: a @ b, [(2, 2), (2, 2)]),
    "mv": (lambda L, a, b: a @ b, [(2, 2), (2,)]),
    "dot": (lambda L, a, b: a @ b, [(2,), (2,)]),
    "bmm": (lambda L, a, b: a @ b, [(1, 2, 2), (1, 2, 2)]),
    "addmm": (lambda L, c, a, b: L.addmm(c, a, b), [(2,), (2, 2), (2, 2)]),
    "pow": (lambda L, a, b: a ** b, [(2,), (2,)]),
    "maximum": (lambda L, a, b: L.maximum(a, b), [(2,), (2,)]),
    "mse": (lambda L, a, b: L.nn.functional.mse_loss(a, b), [(2,), (2,)]),
    "where": (lambda L, a, b: L.where(a > 2, a, b), [(2,), (2,)]),
    "max_dim": (lambda L, a: a.max(0)[0], [(3,)]),
    "chain": (lambda L, a, b: (a.exp() * b).sin() / a, [(2,), (2,)]),
}


def _pack_log(L, name: str) -> list:
    fn, shapes = OPS[name]
    inputs = [L.full(s, float(i + 2), requires_grad=True) for i, s in enumerate(shapes)]
    log = []

    def pack(t):
        log.append(("pack", round(t.flatten()[0].item(), 4)))
        return t

    def unpack(t):
        log.append(("unpack", round(t.flatten()[0].item(), 4)))
        return t

    with L.autograd.graph.saved_tensors_hooks(pack, unpack):
        y = fn(L, *inputs)
    y.sum().backward()
    return log


@pytest.mark.parametrize("name", sorted(OPS))
def test_ops_pack_and_unpack_in_torchs_order(name: str) -> None:
    assert _pack_log(mt, name) == _pack_log(torch, name)


def test_save_on_cpu_gives_torchs_gradients() -> None:
    grads = []
    for L in (mt, torch):
        x = L.tensor([0.5, 1.0, 2.0], requires_grad=True)
        with L.autograd.graph.save_on_cpu(pin_memory=False):
            y = (x * x.exp()).sin().sum()
        y.backward()
        grads.append(x.grad.tolist())
    assert grads[0] == pytest.approx(grads[1], rel=1e-5)
    assert isinstance(mt.autograd.graph.save_on_cpu(), mt.autograd.graph.saved_tensors_hooks)


def _disable_log(L) -> list:
    graph = L.autograd.graph
    log = []
    with graph.saved_tensors_hooks(lambda t: t, lambda t: t):
        try:
            with graph.disable_saved_tensors_hooks("outer active"):
                log.append("entered")
        except RuntimeError as e:
            log.append(str(e))
    with graph.disable_saved_tensors_hooks("no hooks here"):
        for _ in range(2):
            try:
                with graph.saved_tensors_hooks(lambda t: t, lambda t: t):
                    log.append("hooked")
            except RuntimeError as e:
                log.append(str(e))
            with graph.disable_saved_tensors_hooks("inner"):
                pass
    with graph.saved_tensors_hooks(lambda t: t, lambda t: t):
        log.append("hooks again")
    return log


def test_disable_saved_tensors_hooks_like_torch() -> None:
    assert _disable_log(mt) == _disable_log(torch)


def _mutation(L) -> tuple:
    a = L.tensor([1.0, 2.0, 3.0], requires_grad=True)
    with L.autograd.graph.allow_mutation_on_saved_tensors():
        b = a.clone()
        out = (b * b).sum() + b.exp().sum()
        b.sin_()
        out.backward()
    return a.grad.tolist(), b.tolist()


def test_allow_mutation_on_saved_tensors_like_torch() -> None:
    got, want = _mutation(mt), _mutation(torch)
    assert got[0] == pytest.approx(want[0], rel=1e-6)
    assert got[1] == pytest.approx(want[1], rel=1e-6)


def _multi_log(L, mode: str) -> list:
    # Non-leaves: which leaf's hook runs first among AccumulateGrad nodes follows the order
    # of torch's ready heap, which minitorch's engine does not copy (see the report).
    a = L.tensor(1.0, requires_grad=True) * 1
    b = L.tensor(2.0, requires_grad=True) * 1
    log = []
    handle = L.autograd.graph.register_multi_grad_hook(
        (a, b), lambda g: log.append(repr(g)), mode=mode)
    (a * 2).backward(retain_graph=True)
    (a * b).backward(retain_graph=True)
    (a * b * 3).backward(inputs=[a], retain_graph=True)
    c = a * 1
    L.autograd.grad(c * b, [c], retain_graph=True)
    handle.remove()
    (a * b).backward()
    return log


@pytest.mark.parametrize("mode", ["all", "any"])
def test_register_multi_grad_hook_like_torch(mode: str) -> None:
    assert _multi_log(mt, mode) == _multi_log(torch, mode)
