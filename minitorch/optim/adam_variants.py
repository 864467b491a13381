"""Adam's relatives: ``Adamax`` (an infinity norm for the second moment), ``NAdam`` (Nesterov
momentum) and ``RAdam`` (a rectified variance), each as torch's single-tensor update on CPU,
operation by operation in torch's order, so the parameters keep torch's bits step after step.

Adamax, for a parameter ``p`` with gradient ``g`` at step ``t``::

    m = lerp(m, g, 1 - beta1);  u = max(beta2 * u, |g| + eps);  p = p - lr / (1 - beta1**t) * m / u

NAdam (``mu_t = beta1 * (1 - 0.5 * 0.96**(t * momentum_decay))``, ``prod`` their product)::

    v = beta2 * v + (1 - beta2) * g * g;  d = sqrt(v / (1 - beta2**t)) + eps
    p = p - lr * (1 - mu_t) / (1 - prod_t) * g / d - lr * mu_t+1 / (1 - prod_t+1) * m / d

RAdam: Adam's moments; while the variance's estimate is too short (``rho_t <= 5``) a plain
momentum step, then Adam's step scaled by the rectification ``r_t``.

>>> import minitorch
>>> from minitorch import nn, optim
>>> p = nn.Parameter(minitorch.tensor([1.0, -1.0]))
>>> opt = optim.Adamax([p], lr=0.1)
>>> (p * p).sum().backward(); opt.step(); p
Parameter containing:
tensor([ 0.9000, -0.9000], requires_grad=True)
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from .._tensor import Tensor
from ..backend import cpu_math
from ..ops._fused import add_scaled, addcdiv, addcmul, lerp
from ._elementwise import (
    ElementwiseOptimizer,
    check_settings,
    op_number,
    setting,
    state_tensor,
    weight_decay_of,
)
from .optimizer import CAPTURABLE_NO_XLA

__all__ = ["Adamax", "NAdam", "RAdam"]


class _AdamFamily(ElementwiseOptimizer):
    """What the three share: the weight decay (added to ``g``, or decoupled: ``p`` shrunk)
    and the first moment ``m = lerp(m, g, 1 - beta1)``."""

    _foreach_capturable = ("params and state_steps", CAPTURABLE_NO_XLA)

    def _decayed_grad(self, p: Tensor, grad: Any, group: dict) -> Any:
        wd = group["weight_decay"]
        if wd == 0:
            return grad
        if group.get("decoupled_weight_decay"):
            setting(group, "weight_decay", "mul_", "other", 1, into=p)
            p._data *= 1 - group["lr"] * wd
            return grad
        return add_scaled(p._xp, grad, p._data, weight_decay_of(group))

    def _moments(self, p: Tensor, grad: Any, state: dict, group: dict, second: str
                 ) -> tuple[Tensor, Tensor]:
        m, v = self._zeros_state(p, state, "exp_avg", second)
        m._data[...] = lerp(p._xp, m._data, grad, 1 - group["betas"][0])
        return m, v

    @staticmethod
    def _second_moment(v: Tensor, grad: Any, beta2: float) -> None:
        """``v.mul_(beta2).addcmul_(g, g, value=1 - beta2)``."""
        op_number(beta2, "mul_", "other", 1)
        v._data[...] = addcmul(v._xp, v._data * beta2, grad, grad, 1 - beta2)


class Adamax(_AdamFamily):
    """Adam with the infinity norm (see the module docstring for the update).

    >>> optim.Adamax([nn.Parameter(minitorch.ones(1))]).defaults["lr"]
    0.002
    """

    _settings = ("betas", "eps", "lr", "weight_decay", "foreach", "maximize", "differentiable",
                 "capturable")
    _state = ("exp_avg", "exp_inf", "step")
    _loaded_defaults = {**ElementwiseOptimizer._loaded_defaults, "capturable": False}

    def __init__(self, params: Iterable[Any], lr: float = 2e-3,
                 betas: tuple[float, float] = (0.9, 0.999), eps: float = 1e-8,
                 weight_decay: float = 0, foreach: Any = None, *, maximize: bool = False,
                 differentiable: bool = False, capturable: bool = False) -> None:
        check_settings(betas=betas, same_kind_betas=False, lr=lr, eps=eps,
                       weight_decay=weight_decay)
        defaults = {"lr": lr, "betas": betas, "eps": eps, "weight_decay": weight_decay,
                    "foreach": foreach, "maximize": maximize,
                    "differentiable": differentiable, "capturable": capturable}
        super().__init__(params, defaults)

    def _update(self, p: Tensor, grad: Any, state: dict, group: dict) -> None:
        xp = p._xp
        step = self._count_step(p, state)
        beta1, beta2 = group["betas"]
        grad = self._decayed_grad(p, grad, group)
        m, u = self._moments(p, grad, state, group, "exp_inf")
        op_number(beta2, "mul_", "other", 1)  # exp_inf.mul_(beta2), then |g|.add_(eps)
        eps = setting(group, "eps", "add_", "other", 1, into=u)
        u._data[...] = xp.maximum(u._data * beta2, xp.abs(grad) + eps)
        lr = group.raw("lr")  # torch's clr = lr / bias_correction, a Tensor lr squeezed
        if isinstance(lr, Tensor) and lr.squeeze().dim():
            raise TypeError("addcdiv_(): argument 'value' must be Number, not Tensor")
        p._data[...] = addcdiv(xp, p._data, m._data, u._data, -(group["lr"] / (1 - beta1 ** step)))


class NAdam(_AdamFamily):
    """Adam with Nesterov momentum (see the module docstring for the update).

    >>> optim.NAdam([nn.Parameter(minitorch.ones(1))]).defaults["momentum_decay"]
    0.004
    """

    _capturable_what = "params, mu_products and state_steps"
    _foreach_capturable = ("params, mu_products, and state_steps", CAPTURABLE_NO_XLA)

    _settings = ("betas", "lr", "weight_decay", "momentum_decay", "eps", "maximize",
                 "decoupled_weight_decay", "foreach", "capturable", "differentiable")
    _state = ("exp_avg", "exp_avg_sq", "mu_product", "step")
    _loaded_defaults = {"maximize": False, "foreach": None, "capturable": False,  # torch's
                        "differentiable": False, "decoupled_weight_decay": False}  # order
    _loaded_scalars = ("step", "mu_product")

    def __init__(self, params: Iterable[Any], lr: float = 2e-3,
                 betas: tuple[float, float] = (0.9, 0.999), eps: float = 1e-8,
                 weight_decay: float = 0, momentum_decay: float = 4e-3,
                 decoupled_weight_decay: bool = False, *, foreach: Any = None,
                 maximize: bool = False, capturable: bool = False,
                 differentiable: bool = False) -> None:
        check_settings(betas=betas, same_kind_betas=False, lr=lr, eps=eps,
                       weight_decay=weight_decay, momentum_decay=momentum_decay)
        defaults = {"lr": lr, "betas": betas, "eps": eps, "weight_decay": weight_decay,
                    "momentum_decay": momentum_decay,
                    "decoupled_weight_decay": decoupled_weight_decay, "maximize": maximize,
                    "foreach": foreach, "capturable": capturable,
                    "differentiable": differentiable}
        super().__init__(params, defaults)

    def _update(self, p: Tensor, grad: Any, state: dict, group: dict) -> None:
        xp = p._xp
        if "mu_product" not in state:  # torch keeps it a float32 0-d tensor, as the step
            state["mu_product"] = state_tensor(xp.ones((), dtype=xp.float32))
        step = self._count_step(p, state)
        lr, (beta1, beta2), decay = group["lr"], group["betas"], group["momentum_decay"]
        correction2 = 1 - beta2 ** step  # torch's first use of beta2 here
        grad = self._decayed_grad(p, grad, group)
        mu = beta1 * (1.0 - 0.5 * (0.96 ** (step * decay)))
        mu_next = beta1 * (1.0 - 0.5 * (0.96 ** ((step + 1) * decay)))
        product = state["mu_product"]
        setting(group, "momentum_decay", "mul_", "other", 1, into=product)
        product._data = product._data * mu  # mu_product *= mu, in float32
        mu_product = float(product._data)
        m, v = self._moments(p, grad, state, group, "exp_avg_sq")
        self._second_moment(v, grad, beta2)
        denom = (cpu_math(xp.sqrt, v._data / correction2)
                 + setting(group, "eps", "add_", "other", 1, into=v))
        p._data[...] = addcdiv(xp, p._data, grad, denom, -lr * (1.0 - mu) / (1.0 - mu_product))
        p._data[...] = addcdiv(xp, p._data, m._data, denom,
                               (-lr * mu_next) / (1.0 - mu_product * mu_next))


class RAdam(_AdamFamily):
    """Adam with a rectified variance (see the module docstring).

    >>> optim.RAdam([nn.Parameter(minitorch.ones(1))]).defaults["betas"]
    (0.9, 0.999)
    """

    _settings = ("betas", "lr", "weight_decay", "eps", "maximize", "foreach", "capturable",
                 "differentiable", "decoupled_weight_decay")
    _state = ("exp_avg", "exp_avg_sq", "step")
    _loaded_defaults = {**ElementwiseOptimizer._loaded_defaults,  # torch's order
                        "decoupled_weight_decay": False, "capturable": False}

    def __init__(self, params: Iterable[Any], lr: float = 1e-3,
                 betas: tuple[float, float] = (0.9, 0.999), eps: float = 1e-8,
                 weight_decay: float = 0, decoupled_weight_decay: bool = False, *,
                 foreach: Any = None, maximize: bool = False, capturable: bool = False,
                 differentiable: bool = False) -> None:
        check_settings(betas=betas, same_kind_betas=False, lr=lr, eps=eps,
                       weight_decay=weight_decay)
        defaults = {"lr": lr, "betas": betas, "eps": eps, "weight_decay": weight_decay,
                    "maximize": maximize, "foreach": foreach, "capturable": capturable,
                    "decoupled_weight_decay": decoupled_weight_decay,
                    "differentiable": differentiable}
        super().__init__(params, defaults)

    def _update(self, p: Tensor, grad: Any, state: dict, group: dict) -> None:
        xp = p._xp
        step = self._count_step(p, state)
        lr, (beta1, beta2) = group["lr"], group["betas"]
        grad = self._decayed_grad(p, grad, group)
        m, v = self._moments(p, grad, state, group, "exp_avg_sq")
        self._second_moment(v, grad, beta2)
        correction1, correction2 = 1 - beta1 ** step, 1 - beta2 ** step
        scaled = m._data / correction1
        if not isinstance(lr, (int, float, Tensor)):  # torch's tensor product refuses it
            state_tensor(scaled) * lr
        scaled = scaled * lr
        rho_inf = 2 / (1 - beta2) - 1
        rho_t = rho_inf - 2 * step * (beta2 ** step) / correction2
        if rho_t > 5.0:
            # a number over a tensor is torch's __rtruediv__: reciprocal, then a product
            eps = setting(group, "eps", "add_", "other", 1, into=v)
            adaptive = 1 / (cpu_math(xp.sqrt, v._data) + eps) * correction2 ** 0.5
            rect = ((rho_t - 4) * (rho_t - 2) * rho_inf
                    / ((rho_inf - 4) * (rho_inf - 2) * rho_t)) ** 0.5
            scaled = scaled * adaptive * rect
        p._data[...] = add_scaled(xp, p._data, scaled, -1.0)
