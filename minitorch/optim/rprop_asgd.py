"""``Rprop`` (steps by the sign of the gradient, each element's step size adapted) and
``ASGD`` (averaged SGD), each as torch's single-tensor update on CPU, in torch's order.

Rprop, ``s`` the step sizes (``lr`` at first), ``prev`` the last gradient kept::

    f = etaplus where g * prev > 0, etaminus where < 0, else 1;  s = clamp(s * f, min, max)
    g = 0 where f == etaminus;  p = p - sign(g) * s;  prev = g

ASGD, ``eta`` and ``mu`` 0-d float32 tensors (``lr`` and 1 at first), ``t`` the step::

    g = g + weight_decay * p;  p = p * (1 - lambd * eta) - eta * g
    ax = ax + (p - ax) * mu  (ax = p while mu is 1)
    eta = lr / (1 + lambd * lr * t) ** alpha;  mu = 1 / max(1, t - t0)

>>> import minitorch
>>> from minitorch import nn, optim
>>> p = nn.Parameter(minitorch.tensor([1.0, -1.0]))
>>> opt = optim.Rprop([p], lr=0.5)
>>> (p * p).sum().backward(); opt.step(); p
Parameter containing:
tensor([ 0.5000, -0.5000], requires_grad=True)
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from .. import _args
from .._as_tensor import as_tensor
from .._dtype import float32
from .._tensor import Tensor
from ..ops._fused import add_scaled, addcmul
from ._elementwise import (
    ElementwiseOptimizer,
    check_settings,
    inplace_shape,
    state_tensor,
    weight_decay_of,
)
from .optimizer import CAPTURABLE_NO_XLA

__all__ = ["ASGD", "Rprop"]


class Rprop(ElementwiseOptimizer):
    """Resilient backpropagation (see the module docstring for the update).

    >>> optim.Rprop([nn.Parameter(minitorch.ones(1))]).defaults["etas"]
    (0.5, 1.2)
    """

    _settings = ("etas", "step_sizes", "foreach", "maximize", "lr", "differentiable",
                 "capturable")
    _state = ("step", "prev", "step_size")
    _loaded_defaults = {**ElementwiseOptimizer._loaded_defaults, "capturable": False}

    def __init__(self, params: Iterable[Any], lr: float = 1e-2,
                 etas: tuple[float, float] = (0.5, 1.2),
                 step_sizes: tuple[float, float] = (1e-6, 50), *, capturable: bool = False,
                 foreach: Any = None, maximize: bool = False,
                 differentiable: bool = False) -> None:
        check_settings(lr=lr)
        if not 0.0 < etas[0] < 1.0 < etas[1]:
            raise ValueError(f"Invalid eta values: {etas[0]}, {etas[1]}")
        defaults = {"lr": lr, "etas": etas, "step_sizes": step_sizes, "foreach": foreach,
                    "maximize": maximize, "differentiable": differentiable,
                    "capturable": capturable}
        super().__init__(params, defaults)

    def _settings_of(self, group: dict) -> dict:
        settings = super()._settings_of(group)
        for key in ("etas", "step_sizes"):  # torch's step unpacks them for every group
            _args.python_unpack(group[key], 2)
        return settings

    def _update(self, p: Tensor, grad: Any, state: dict, group: dict) -> None:
        xp = p._xp
        if not state:  # torch's entries, in its order
            _args.number_types("full_like", (group["lr"], "fill_value", 2))
            state["step"] = state_tensor(xp.zeros((), dtype=xp.float32))
            self._zeros_state(p, state, "prev")
            state["step_size"] = state_tensor(xp.full(p._data.shape, group["lr"],
                                                      dtype=p._data.dtype))
        self._count_step(p, state)
        prev, step_size = state["prev"], state["step_size"]
        etas = group["etas"]
        for eta in reversed(etas):  # torch writes etaplus, then etaminus, into the signs
            _args.item_assigned(eta, p.dtype)
        etaminus, etaplus = (xp.asarray(e, dtype=p._data.dtype) for e in etas)
        sign = xp.sign(grad * prev._data)
        factor = xp.where(sign > 0, etaplus, xp.where(sign < 0, etaminus, 1)).astype(sign.dtype)
        low, high = group["step_sizes"]
        if not all(v is None or isinstance(v, (int, float)) for v in (low, high)):
            raise _args.invalid_combination("clamp_", (low, high), "Tensor min = None, Tensor "
                                            "max = None", "Number min = None, Number max = None")
        step_size._data[...] = xp.clip(step_size._data * factor, low, high)
        grad = xp.where(factor == etaminus, xp.zeros_like(grad), grad)
        p._data[...] = addcmul(xp, p._data, xp.sign(grad), step_size._data, -1)
        prev._data[...] = grad


class ASGD(ElementwiseOptimizer):
    """Averaged stochastic gradient descent (see the module docstring for the update); the
    average is ``optimizer.state[p]["ax"]``.

    >>> optim.ASGD([nn.Parameter(minitorch.ones(1))]).defaults["t0"]
    1000000.0
    """

    _capturable_what = "params, mus, etas, and state_steps"
    _foreach_capturable = (_capturable_what, CAPTURABLE_NO_XLA)

    _settings = ("lr", "lambd", "t0", "alpha", "weight_decay", "foreach", "maximize",
                 "differentiable", "capturable")
    _state = ("step", "eta", "mu", "ax")
    _loaded_defaults = {**ElementwiseOptimizer._loaded_defaults, "capturable": False}
    _loaded_scalars = ("step", "eta", "mu")

    def __init__(self, params: Iterable[Any], lr: float = 1e-2, lambd: float = 1e-4,
                 alpha: float = 0.75, t0: float = 1e6, weight_decay: float = 0,
                 foreach: Any = None, maximize: bool = False, differentiable: bool = False,
                 capturable: bool = False) -> None:
        check_settings(lr=lr, weight_decay=weight_decay)
        defaults = {"lr": lr, "lambd": lambd, "alpha": alpha, "t0": t0,
                    "weight_decay": weight_decay, "foreach": foreach, "maximize": maximize,
                    "differentiable": differentiable, "capturable": capturable}
        super().__init__(params, defaults)

    def _update(self, p: Tensor, grad: Any, state: dict, group: dict) -> None:
        xp = p._xp
        if not state:
            if not isinstance(group["lr"], (int, float, Tensor)):  # torch's as_tensor(lr)
                as_tensor(group["lr"], dtype=float32)
            for name, value in (("step", 0.0), ("eta", group["lr"]), ("mu", 1.0)):
                state[name] = state_tensor(xp.asarray(value, dtype=xp.float32))
            self._zeros_state(p, state, "ax")
        step = self._count_step(p, state)
        eta, mu, ax = state["eta"], state["mu"], state["ax"]
        inplace_shape(group.raw("lambd"), p)  # torch's param.mul_(1 - lambd * eta), then
        for key in ("lambd", "alpha"):       # eta.copy_(lr / (1 + lambd * lr * step) ** alpha)
            inplace_shape(group.raw(key), eta)
        lr, lambd = group["lr"], group["lambd"]
        if group["weight_decay"] != 0:
            grad = add_scaled(xp, grad, p._data, weight_decay_of(group))
        eta_value = float(eta._data.reshape(()))  # torch's item() of a one-element lr
        p._data *= 1 - lambd * eta_value
        p._data[...] = add_scaled(xp, p._data, grad, -eta_value)
        if float(mu._data) != 1:
            ax._data[...] = ax._data + (p._data - ax._data) * mu._data.astype(p._data.dtype)
        else:
            ax._data[...] = p._data
        eta._data = xp.asarray(lr / ((1 + lambd * lr * step) ** group["alpha"]), dtype=xp.float32)
        if step - group["t0"] > 1:  # torch's max(1, step - t0) is the tensor, copied into mu
            inplace_shape(group.raw("t0"), mu)
        mu._data = xp.asarray(1 / max(1, step - group["t0"]), dtype=xp.float32)
