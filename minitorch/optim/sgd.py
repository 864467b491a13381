"""``SGD``: stochastic gradient descent, with momentum, weight decay and Nesterov momentum.

For each parameter ``p`` with gradient ``g`` a step computes, as torch does::

    g = g + weight_decay * p
    buf = g (first step)  or  momentum * buf + (1 - dampening) * g
    g = g + momentum * buf  (nesterov)  or  buf
    p = p - lr * g

>>> import minitorch
>>> from minitorch import nn, optim
>>> p = nn.Parameter(minitorch.tensor([1.0]))
>>> opt = optim.SGD([p], lr=0.5)
>>> (p * p).sum().backward(); opt.step(); p
Parameter containing:
tensor([0.], requires_grad=True)
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any

from .. import _args
from .._tensor import Tensor, broadcast_error
from ..autograd import profiler
from ..ops._fused import add_scaled
from ._elementwise import check_fused, check_tensor_lr, setting, weight_decay_of
from .optimizer import Optimizer

_FUSED_SGD = ("tuple of Tensors self, tuple of Tensors grads, tuple of Tensors "
              "momentum_buffer_list, *, float weight_decay, float momentum, float lr, float "
              "dampening, bool nesterov, bool maximize, bool is_first_step, Tensor grad_scale "
              "= None, Tensor found_inf = None")

__all__ = ["SGD", "sgd_update"]


class SGD(Optimizer):
    """Stochastic gradient descent (see the module docstring for the update).

    >>> optim.SGD([nn.Parameter(minitorch.ones(1))], lr=0.1, momentum=0.9).defaults["momentum"]
    0.9
    """

    _settings = ("weight_decay", "momentum", "lr", "dampening", "nesterov", "maximize",
                 "foreach", "fused")
    _loaded_defaults = {"nesterov": False, "maximize": False, "foreach": None,  # torch's order
                        "differentiable": False, "fused": False}

    def __init__(self, params: Iterable[Any], lr: float = 1e-3, momentum: float = 0,
                 dampening: float = 0, weight_decay: float = 0, nesterov: bool = False, *,
                 maximize: bool = False, foreach: Any = None, differentiable: bool = False,
                 fused: Any = None) -> None:
        if not isinstance(lr, (int, float)) and not hasattr(lr, "item"):
            raise TypeError(f"'<' not supported between instances of '{type(lr).__name__}' "
                            "and 'float'")
        check_tensor_lr(lr)
        op = _args.python_op  # torch's Python comparisons: its TypeError for a non-number
        if op(lr, "<", 0.0):
            raise ValueError(f"Invalid learning rate: {lr}")
        if op(momentum, "<", 0.0):
            raise ValueError(f"Invalid momentum value: {momentum}")
        if op(weight_decay, "<", 0.0):
            raise ValueError(f"Invalid weight_decay value: {weight_decay}")
        if nesterov and (momentum <= 0 or dampening != 0):
            raise ValueError("Nesterov momentum requires a momentum and zero dampening")
        defaults = {"lr": lr, "momentum": momentum, "dampening": dampening,
                    "weight_decay": weight_decay, "nesterov": nesterov, "maximize": maximize,
                    "foreach": foreach, "differentiable": differentiable, "fused": fused}
        super().__init__(params, defaults)

    def step(self, closure: Callable[[], Any] | None = None) -> Any:
        """Update every parameter that has a gradient; returns ``closure()`` if given."""
        loss = self._closure_loss(closure)
        for raw in self.param_groups:
            if raw["fused"] and any(p._grad is not None for p in raw["params"]):
                check_fused("_fused_sgd_", 3, {
                    "weight_decay": raw["weight_decay"], "dampening": raw["dampening"],
                    "found_inf": None, "momentum": raw["momentum"], "lr": raw["lr"],
                    "nesterov": raw["nesterov"], "maximize": raw["maximize"],
                    "grad_scale": None, "is_first_step": True},
                    ("nesterov", "maximize", "is_first_step"), _FUSED_SGD)
        for group in map(self._settings_of, self.param_groups):
            for p in group["params"]:
                if p._grad is not None:
                    self._check_update(p, group)
                    self._update(p, group)
            bool(group.raw("momentum") != 0)  # torch's test of every group after its update
        return loss

    def _update(self, p: Tensor, group: dict[str, Any]) -> None:
        state = self.state[p] if group["momentum"] != 0 else {}
        buf = state.get("momentum_buffer")
        if buf is not None and buf.shape != p.shape:  # another parameter's, loaded
            raise broadcast_error(buf, p)
        buf = sgd_update(p, p._grad, buf, group)
        if buf is not None:
            state["momentum_buffer"] = buf


def sgd_update(p: Tensor, grad: Tensor, buf: Tensor | None,
               group: dict[str, Any]) -> Tensor | None:
    """One SGD step of ``p`` from ``grad`` with the settings of ``group``; returns the momentum
    buffer (``buf`` updated in place, or a new one when ``buf`` is None; None without
    momentum).

    >>> from minitorch.optim.sgd import sgd_update
    >>> p = nn.Parameter(minitorch.tensor([1.0]))
    >>> settings = {"lr": 0.5, "momentum": 0.9, "dampening": 0, "weight_decay": 0,
    ...             "nesterov": False, "maximize": False}
    >>> sgd_update(p, minitorch.tensor([2.0]), None, settings), p.data
    (tensor([2.]), tensor([0.]))
    """
    # Arrays in, arrays out: the update is not recorded, so it needs no autograd ops
    # (which cost ~7x more here); the version bump keeps saved-tensor checks honest.
    # Each step is torch's op, rounded as its kernel (``add(alpha=)`` is one fused
    # multiply-add: see ops/_fused.py).
    xp = p._xp
    d = -grad._data if group["maximize"] else grad._data
    if group["weight_decay"] != 0:
        d = add_scaled(xp, d, p._data, weight_decay_of(group))
    momentum = group["momentum"]
    if momentum != 0:
        if buf is None:
            buf = Tensor._make(xp.asarray(d, copy=True))
        else:  # buf.mul_(momentum).add_(d, alpha=1 - dampening)
            setting(group, "momentum", "mul_", "other", 1, into=buf)
            buf._data[...] = add_scaled(xp, buf._data * momentum, d, 1 - group["dampening"])
            buf._version_counter.value += 1
        d = add_scaled(xp, d, buf._data, momentum) if group["nesterov"] else buf._data
    lr = setting(group, "lr", "add_", "alpha", negated=True)
    with profiler.op_event("aten::add_"):  # torch's p.add_(d, alpha=-lr)
        p._data[...] = add_scaled(xp, p._data, d, lr)
    p._version_counter.value += 1
    return buf
