"""Errors against live torch: the same exception type and message, ``torch.`` → ``minitorch.``.

Each scenario is a function of the library ``L`` that must fail; it runs on torch first (the
scenario is wrong if torch does not fail), then on minitorch.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
import torch
from oracle import assert_same_error, mt, raised_by

# torch prints no warning in any of these checks, so minitorch must not either
# (nbgrader scores a cell 0 when anything reaches stderr).
pytestmark = pytest.mark.filterwarnings("error")
SCENARIOS: dict[str, Callable[[Any], Any]] = {}


def scenario(name: str) -> Callable[[Callable[[Any], Any]], Callable[[Any], Any]]:
    """Register a scenario under ``name``."""

    def register(fn: Callable[[Any], Any]) -> Callable[[Any], Any]:
        SCENARIOS[name] = fn
        return fn

    return register


def leaf(L: Any, *shape: int, dtype: str = "float32") -> Any:
    """A leaf of ones that requires grad."""
    return L.ones(*shape, dtype=getattr(L, dtype), requires_grad=True)


# ---------------------------------------------------------------------------- broadcasting

SCENARIOS.update({
    "broadcast: (2, 4) + (2, 3)": lambda L: L.ones(2, 4) + L.ones(2, 3),
    "broadcast: (2, 4) * (3,)": lambda L: L.ones(2, 4) * L.ones(3),
    "broadcast: (5, 2, 4) - (3, 1, 4)": lambda L: L.ones(5, 2, 4) - L.ones(3, 1, 4),
    "broadcast: (3,) / (2, 4)": lambda L: L.ones(3) / L.ones(2, 4),
    "broadcast: (2, 4) ** (3,)": lambda L: L.ones(2, 4) ** L.ones(3),
    "broadcast: maximum((2, 4), (2, 3))": lambda L: L.maximum(L.ones(2, 4), L.ones(2, 3)),
    "broadcast: (2, 4) < (3,)": lambda L: L.ones(2, 4) < L.ones(3),
    "broadcast: with grad": lambda L: leaf(L, 2, 4) + leaf(L, 2, 3),
})


# ---------------------------------------------------------------------------- requires_grad


@scenario("requires_grad=True on an int64 tensor")
def _(L):
    return L.tensor([1, 2], requires_grad=True)


@scenario("requires_grad=True on a bool tensor")
def _(L):
    return L.tensor([True], requires_grad=True)


@scenario("zeros(dtype=int64, requires_grad=True)")
def _(L):
    return L.zeros(2, dtype=L.int64, requires_grad=True)


@scenario("requires_grad_() on an int64 tensor")
def _(L):
    return L.tensor([1, 2]).requires_grad_()


@scenario("requires_grad = True on an int64 tensor")
def _(L):
    L.tensor([1, 2]).requires_grad = True


@scenario("requires_grad = False on a non-leaf")
def _(L):
    (leaf(L, 3) * 2).requires_grad = False


@scenario("requires_grad_(False) on a non-leaf")
def _(L):
    (leaf(L, 3) * 2).requires_grad_(False)


@scenario("requires_grad = True on a non-leaf")
def _(L):
    (leaf(L, 3) * 2).requires_grad = True


@scenario("retain_grad without requires_grad")
def _(L):
    L.ones(2).retain_grad()


@scenario("register_hook without requires_grad")
def _(L):
    L.ones(2).register_hook(lambda grad: grad)


# ---------------------------------------------------------------------------- backward and grad


@scenario("backward of a non-scalar without gradient")
def _(L):
    (leaf(L, 3) * 2).backward()


@scenario("backward twice through Mul's saved tensors")
def _(L):
    x = leaf(L, 3)
    y = (x * x).sum()
    y.backward()
    y.backward()


@scenario("backward twice through Exp's saved result")
def _(L):
    y = leaf(L, 3).exp().sum()
    y.backward()
    y.backward()


@scenario("autograd.grad twice")
def _(L):
    x = leaf(L, 3)
    y = x.exp().sum()
    L.autograd.grad(y, x)
    L.autograd.grad(y, x)


@scenario("backward of a 0-d tensor without grad")
def _(L):
    L.tensor(1.0).backward()


@scenario("backward of a sum without grad")
def _(L):
    L.ones(2).sum().backward()


@scenario("autograd.grad of an output without grad")
def _(L):
    L.autograd.grad(L.ones(2).sum(), leaf(L, 3))


@scenario("autograd.grad of an output without grad wrt a tensor without grad: outputs first")
def _(L):
    d = L.randn(3)
    L.autograd.grad(d.sum(), d)


@scenario("autograd.grad wrt a tensor without grad")
def _(L):
    x = leaf(L, 3)
    L.autograd.grad((x * 2).sum(), [x, L.ones(2)])


@scenario("autograd.grad with an unused input at index 1")
def _(L):
    x = leaf(L, 3)
    L.autograd.grad((x * 2).sum(), [x, leaf(L, 2)])


@scenario("autograd.grad with an unused input at index 0")
def _(L):
    x = leaf(L, 3)
    L.autograd.grad((x * 2).sum(), [leaf(L, 2), x])


@scenario("autograd.grad with grad_outputs of the wrong shape")
def _(L):
    x = leaf(L, 3)
    L.autograd.grad(x * 2, x, grad_outputs=L.ones(2))


@scenario("autograd.grad with grad_outputs of the wrong rank")
def _(L):
    x = leaf(L, 3)
    L.autograd.grad(x * 2, x, grad_outputs=L.ones(1, 3))


@scenario("backward with a gradient of the wrong shape")
def _(L):
    (leaf(L, 3) * 2).backward(L.ones(2))


@scenario("autograd.grad with 2 outputs and 1 grad_output")
def _(L):
    x = leaf(L, 3)
    L.autograd.grad([x * 2, x * 3], x, grad_outputs=[L.ones(3)])


@scenario("autograd.backward with 2 tensors and 1 grad_tensor")
def _(L):
    x = leaf(L, 3)
    L.autograd.backward([(x * 2).sum(), (x * 3).sum()], grad_tensors=[L.tensor(1.0)])


# ---------------------------------------------------------------------------- in-place


@scenario("add_ on a leaf that requires grad")
def _(L):
    leaf(L, 2).add_(1)


@scenario("mul_ on a leaf that requires grad")
def _(L):
    leaf(L, 2).mul_(2)


@scenario("zero_ on a leaf that requires grad")
def _(L):
    leaf(L, 2).zero_()


@scenario("+= on a leaf that requires grad")
def _(L):
    x = leaf(L, 2)
    x += 1


@scenario("setitem on a leaf that requires grad")
def _(L):
    x = leaf(L, 2)
    x[0] = 1.0


@scenario("add_ on a view of a leaf that requires grad")
def _(L):
    leaf(L, 2)[0].add_(1)


def modify_saved_leaf(L: Any, dtype: str) -> None:
    """Mul saves its constant operand w, a leaf; changing w before backward is caught."""
    w = L.ones(1, 10, dtype=getattr(L, dtype))
    y = leaf(L, 1, 10, dtype=dtype) * w
    w.add_(1)
    y.sum().backward()


def modify_saved_output(L: Any, dtype: str) -> None:
    """Sigmoid saves its output y; changing y in place before backward is caught."""
    y = leaf(L, 1, 10, dtype=dtype).sigmoid()
    y.add_(1)
    y.sum().backward()


for _dtype in ("float32", "float64"):
    scenario(f"version: saved leaf modified, {_dtype}")(
        lambda L, d=_dtype: modify_saved_leaf(L, d)
    )
    scenario(f"version: saved output modified, {_dtype}")(
        lambda L, d=_dtype: modify_saved_output(L, d)
    )


@scenario("version: saved output of a second op, modified by another consumer")
def _(L):
    y = leaf(L, 1, 10, dtype="float64").sigmoid()
    z = y * 2
    y.mul_(2)
    z.sum().backward()


@scenario("version: x += 1 under no_grad on a saved exp output (the seed's cell)")
def _(L):
    y = leaf(L, 3).exp()
    with L.no_grad():
        y += 1
    y.sum().backward()


@scenario("version: 0-d saved output")
def _(L):
    y = L.tensor(1.0, requires_grad=True).exp()
    with L.no_grad():
        y.mul_(2)
    y.backward()


@scenario("version: leaf modified under no_grad after x ** 2")
def _(L):
    x = leaf(L, 3)
    y = x**2
    with L.no_grad():
        x += 1
    y.sum().backward()


# ---------------------------------------------------------------------------- inference mode


def inference_ones(L: Any) -> Any:
    """ones(2) made under inference_mode (an inference tensor)."""
    with L.inference_mode():
        return L.ones(2)


@scenario("inference tensor saved for backward")
def _(L):
    return leaf(L, 2) * inference_ones(L)


@scenario("add_ on an inference tensor outside inference_mode")
def _(L):
    inference_ones(L).add_(1)


@scenario("+= on an inference tensor outside inference_mode")
def _(L):
    t = inference_ones(L)
    t += 1


# ---------------------------------------------------------------------------- matmul shapes

SCENARIOS.update({
    "matmul: (2, 3) @ (4, 5)": lambda L: L.ones(2, 3) @ L.ones(4, 5),
    "matmul: matmul((2, 3), (4, 5))": lambda L: L.matmul(L.ones(2, 3), L.ones(4, 5)),
    "matmul: (3,) @ (4,)": lambda L: L.ones(3) @ L.ones(4),
    "matmul: (2, 3) @ (4,)": lambda L: L.ones(2, 3) @ L.ones(4),
    "matmul: (3,) @ (4, 5)": lambda L: L.ones(3) @ L.ones(4, 5),
    "matmul: (2, 2, 3) @ (2, 4, 5)": lambda L: L.ones(2, 2, 3) @ L.ones(2, 4, 5),
    "matmul: (2, 2, 3) @ (4, 5)": lambda L: L.ones(2, 2, 3) @ L.ones(4, 5),
    "matmul: batch (2,) vs (3,)": lambda L: L.ones(2, 2, 3) @ L.ones(3, 3, 5),
    "matmul: 0-d operand": lambda L: L.tensor(1.0) @ L.ones(4, 5),
    "addmm: (2, 3) and (4, 5)": lambda L: L.addmm(L.ones(2, 5), L.ones(2, 3), L.ones(4, 5)),
    "addmm: bias (3, 5) for (2, 5)": lambda L: L.addmm(L.ones(3, 5), L.ones(2, 3), L.ones(3, 5)),
    "addmm: 1-D mat1": lambda L: L.addmm(L.zeros(2), L.ones(3), L.ones(3, 2)),
    "addmm: 3-D bias": lambda L: L.addmm(L.ones(1, 2, 5), L.ones(2, 3), L.ones(3, 5)),
    "expand to fewer dims": lambda L: L.ones(1, 2, 5).expand(2, 5),
    "sum_to_size: 3 from 1": lambda L: L.ones(1).sum_to_size(3),
    "sum_to_size: 4 from (2, 3)": lambda L: L.ones(2, 3).sum_to_size(4),
    "sum_to_size: (2, 3) from 3": lambda L: L.ones(3).sum_to_size(2, 3),
    "addmm: 1-D mat2": lambda L: L.addmm(L.zeros(2), L.ones(2, 3), L.ones(3)),
})


# ---------------------------------------------------------------------------- other bad input

SCENARIOS.update({
    "view to a size with other numel": lambda L: L.ones(2, 3).view(4),
    "expand a non-singleton dim": lambda L: L.ones(2, 3).expand(3, 3),
    "cat of mismatched sizes": lambda L: L.cat([L.ones(2, 3), L.ones(2, 4)]),
    "int index out of range": lambda L: L.ones(2, 3)[5],
    "tensor index out of range": lambda L: L.ones(2, 3)[L.tensor([5])],
    "item() of 2 elements": lambda L: L.ones(2).item(),
    "numpy() of a tensor that requires grad": lambda L: leaf(L, 2).numpy(),
    "mean of an int64 tensor": lambda L: L.tensor([1, 2]).mean(),
})


@pytest.mark.parametrize("name", SCENARIOS)
def test_error_matches_torch(name: str) -> None:
    """minitorch raises torch's exception type with torch's message."""
    want = raised_by(SCENARIOS[name], torch)
    assert want is not None, "the scenario is wrong: torch raised nothing"
    assert_same_error(raised_by(SCENARIOS[name], mt), want)
