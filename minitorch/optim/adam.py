"""``Adam`` and ``AdamW``: steps scaled by running averages of the gradient and its square.

For each parameter ``p`` with gradient ``g`` at step ``t`` (torch's update)::

    g = g + weight_decay * p            (Adam)   |   p = p * (1 - lr * weight_decay)  (AdamW)
    m = m + (1 - beta1) * (g - m)
    v = beta2 * v + (1 - beta2) * g * g
    p = p - lr / (1 - beta1**t) * m / (sqrt(v) / sqrt(1 - beta2**t) + eps)

>>> import minitorch
>>> from minitorch import nn, optim
>>> p = nn.Parameter(minitorch.tensor([1.0, -1.0]))
>>> opt = optim.Adam([p], lr=0.1)
>>> (p * p).sum().backward(); opt.step(); p
Parameter containing:
tensor([ 0.9000, -0.9000], requires_grad=True)
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from .. import _args
from .._tensor import Tensor
from ..backend import cpu_math
from ..ops._fused import add_scaled, addcdiv, addcmul, lerp
from ._elementwise import (
    ElementwiseOptimizer,
    check_fused,
    check_settings,
    check_tensor_lr,
    inplace_shape,
    op_number,
    setting,
    weight_decay_of,
)
from .optimizer import CAPTURABLE_NO_XLA

__all__ = ["Adam", "AdamW"]

_FUSED_ADAM = ("tuple of Tensors self, tuple of Tensors grads, tuple of Tensors exp_avgs, "
               "tuple of Tensors exp_avg_sqs, tuple of Tensors max_exp_avg_sqs, tuple of "
               "Tensors state_steps, *, float lr, float beta1, float beta2, float weight_decay, "
               "float eps, bool amsgrad, bool maximize, Tensor grad_scale = None, Tensor "
               "found_inf = None")
_FOREACH_LR = "lr as a Tensor is not supported for capturable=False and foreach=True"


class Adam(ElementwiseOptimizer):
    """Adaptive moment estimation (see the module docstring for the update).

    >>> optim.Adam([nn.Parameter(minitorch.ones(1))]).defaults["betas"]
    (0.9, 0.999)
    """

    _foreach_capturable = ("params and state_steps", CAPTURABLE_NO_XLA)

    _settings = ("betas", "amsgrad", "lr", "weight_decay", "eps", "maximize", "foreach",
                 "capturable", "differentiable", "fused", "decoupled_weight_decay")
    _loaded_defaults = {"amsgrad": False, "maximize": False, "foreach": None,  # torch's order
                        "capturable": False, "differentiable": False,
                        "decoupled_weight_decay": False, "fused": None}

    def __init__(self, params: Iterable[Any], lr: float = 1e-3,
                 betas: tuple[float, float] = (0.9, 0.999), eps: float = 1e-8,
                 weight_decay: float = 0, amsgrad: bool = False, *, foreach: Any = None,
                 maximize: bool = False, capturable: bool = False,
                 differentiable: bool = False, fused: Any = None,
                 decoupled_weight_decay: bool = False) -> None:
        if isinstance(lr, Tensor) and foreach and not capturable:
            raise ValueError(_FOREACH_LR)
        check_settings(betas=betas, lr=lr, eps=eps, weight_decay=weight_decay)
        for i, beta in enumerate(betas[:2]):
            if isinstance(beta, Tensor) and foreach and not capturable:
                raise ValueError(f"betas[{i}] as a Tensor is not supported for capturable=False "
                                 "and foreach=True")
            if isinstance(beta, Tensor) and beta.numel() != 1:
                raise ValueError(f"Tensor betas[{i}] must be 1-element")
        defaults = {"lr": lr, "betas": tuple(betas), "eps": eps, "weight_decay": weight_decay,
                    "amsgrad": amsgrad, "maximize": maximize, "foreach": foreach,
                    "capturable": capturable, "differentiable": differentiable,
                    "fused": fused, "decoupled_weight_decay": decoupled_weight_decay}
        super().__init__(params, defaults)

    def _state_keys(self, group: dict) -> tuple[str, ...]:
        peak = ("max_exp_avg_sq",) if group["amsgrad"] else ()
        return ("exp_avg", "exp_avg_sq", *peak, "step")

    def _settings_of(self, group: dict[str, Any]) -> dict[str, Any]:
        lr = group.get("lr")  # (a group's lr made a tensor after __init__)
        if group.get("foreach") and isinstance(lr, Tensor) \
                and any(p._grad is not None for p in group["params"]):
            if not group.get("capturable"):
                raise RuntimeError(_FOREACH_LR)
            check_tensor_lr(lr)
        if group.get("fused") and any(p._grad is not None for p in group["params"]):
            kernel = "_fused_adamw_" if group.get("decoupled_weight_decay") else "_fused_adam_"
            beta1, beta2 = _args.python_unpack(group["betas"], 2)
            check_fused(kernel, 6, {
                "amsgrad": group["amsgrad"], "weight_decay": group["weight_decay"],
                "found_inf": None, "lr": lr, "beta1": beta1, "beta2": beta2,
                "eps": group["eps"], "maximize": group["maximize"], "grad_scale": None},
                ("amsgrad", "maximize"), _FUSED_ADAM)
        return super()._settings_of(group)

    def _update(self, p: Tensor, grad: Any, state: dict, group: dict) -> None:
        xp = p._xp
        step = self._count_step(p, state)
        lr, (beta1, beta2), wd = group["lr"], group["betas"], group["weight_decay"]
        if wd != 0:
            if group["decoupled_weight_decay"]:
                factor = 1 - lr * group.raw("weight_decay")  # (Python's refusal of a str)
                inplace_shape(op_number(factor, "mul_", "other", 1), p)
                p._data *= 1 - lr * wd
            else:
                grad = add_scaled(xp, grad, p._data, weight_decay_of(group))
        m, v = self._zeros_state(p, state, "exp_avg", "exp_avg_sq")
        m._data[...] = lerp(xp, m._data, grad, 1 - beta1)
        op_number(beta2, "mul_", "other", 1)  # exp_avg_sq.mul_(beta2)
        v._data[...] = addcmul(xp, v._data * beta2, grad, grad, 1 - beta2)
        second = v._data
        if group["amsgrad"]:
            (peak,) = self._zeros_state(p, state, "max_exp_avg_sq")
            peak._data = xp.maximum(peak._data, v._data)
            second = peak._data
        denom = (cpu_math(xp.sqrt, second) / (1 - beta2 ** step) ** 0.5
                 + setting(group, "eps", "add_", "other", 1, into=v))
        p._data[...] = addcdiv(xp, p._data, m._data, denom, -(lr / (1 - beta1 ** step)))


class AdamW(Adam):
    """Adam with decoupled weight decay (default 0.01): ``p`` shrinks before the Adam step.

    >>> optim.AdamW([nn.Parameter(minitorch.ones(1))]).defaults["weight_decay"]
    0.01
    """

    def __init__(self, params: Iterable[Any], lr: float = 1e-3,
                 betas: tuple[float, float] = (0.9, 0.999), eps: float = 1e-8,
                 weight_decay: float = 1e-2, amsgrad: bool = False, *, maximize: bool = False,
                 foreach: Any = None, capturable: bool = False, differentiable: bool = False,
                 fused: Any = None) -> None:
        super().__init__(params, lr, betas, eps, weight_decay, amsgrad, foreach=foreach,
                         maximize=maximize, capturable=capturable,
                         differentiable=differentiable, fused=fused,
                         decoupled_weight_decay=True)
