"""``RMSprop``, ``Adagrad`` and ``Adadelta``: steps divided by the root of accumulated squared
gradients.

RMSprop (torch's update)::

    g = g + weight_decay * p
    v = alpha * v + (1 - alpha) * g * g
    avg = sqrt(v - mean_g**2) (centered, mean_g the running mean of g)  or  sqrt(v);  + eps
    buf = momentum * buf + g / avg;  p = p - lr * buf   (momentum)  or  p = p - lr * g / avg

Adagrad::

    s = s + g * g;   p = p - lr / (1 + (t - 1) * lr_decay) * g / (sqrt(s) + eps)

Adadelta (``u`` the running average of squared steps)::

    v = rho * v + (1 - rho) * g * g;  d = sqrt(u + eps) / sqrt(v + eps) * g
    u = rho * u + (1 - rho) * d * d;  p = p - lr * d

>>> import minitorch
>>> from minitorch import nn, optim
>>> p = nn.Parameter(minitorch.tensor([1.0]))
>>> opt = optim.Adagrad([p], lr=0.5)
>>> (p * p).sum().backward(); opt.step(); p
Parameter containing:
tensor([0.5000], requires_grad=True)
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from .. import _args
from .._tensor import Tensor
from ..backend import cpu_math, factory_namespace
from ..ops._fused import add_scaled, addcdiv, addcmul, lerp
from ._elementwise import (
    ElementwiseOptimizer,
    check_settings,
    setting,
    state_tensor,
    weight_decay_of,
)
from .optimizer import CAPTURABLE_NO_XLA

__all__ = ["Adadelta", "Adagrad", "RMSprop"]


class RMSprop(ElementwiseOptimizer):
    """Root-mean-square propagation (see the module docstring for the update).

    >>> optim.RMSprop([nn.Parameter(minitorch.ones(1))]).defaults["alpha"]
    0.99
    """

    _settings = ("lr", "alpha", "eps", "weight_decay", "momentum", "centered", "foreach",
                 "maximize", "differentiable", "capturable")
    _loaded_defaults = {"momentum": 0, "centered": False,  # torch's order
                        **ElementwiseOptimizer._loaded_defaults, "capturable": False}

    def __init__(self, params: Iterable[Any], lr: float = 1e-2, alpha: float = 0.99,
                 eps: float = 1e-8, weight_decay: float = 0, momentum: float = 0,
                 centered: bool = False, capturable: bool = False, foreach: Any = None,
                 maximize: bool = False, differentiable: bool = False) -> None:
        check_settings(lr=lr, eps=eps, momentum=momentum, weight_decay=weight_decay,
                       alpha=alpha)
        defaults = {"lr": lr, "momentum": momentum, "alpha": alpha, "eps": eps,
                    "centered": centered, "weight_decay": weight_decay,
                    "capturable": capturable, "foreach": foreach, "maximize": maximize,
                    "differentiable": differentiable}
        super().__init__(params, defaults)

    def _state_keys(self, group: dict) -> tuple[str, ...]:
        momentum = ("momentum_buffer",) if group["momentum"] > 0 else ()
        return ("square_avg", *momentum, *(("grad_avg",) if group["centered"] else ()), "step")

    def _update(self, p: Tensor, grad: Any, state: dict, group: dict) -> None:
        xp = p._xp
        self._count_step(p, state)
        alpha, wd, momentum = group["alpha"], group["weight_decay"], group["momentum"]
        if wd != 0:
            grad = add_scaled(xp, grad, p._data, weight_decay_of(group))
        (v,) = self._zeros_state(p, state, "square_avg")
        if momentum > 0:
            self._zeros_state(p, state, "momentum_buffer")
        if group["centered"]:
            self._zeros_state(p, state, "grad_avg")
        setting(group, "alpha", "mul_", "other", 1, into=v)
        setting(group, "alpha", "addcmul_", "value")  # torch's value=1 - alpha
        v._data[...] = addcmul(xp, v._data * alpha, grad, grad, 1 - alpha)
        if group["centered"]:
            mean = state["grad_avg"]
            mean._data[...] = lerp(xp, mean._data, grad, 1 - alpha)
            avg = cpu_math(xp.sqrt, addcmul(xp, v._data, mean._data, mean._data, -1))
        else:
            avg = cpu_math(xp.sqrt, v._data)
        avg = avg + setting(group, "eps", "add_", "other", 1, into=v)
        if momentum > 0:  # buf.mul_(momentum).addcdiv_(grad, avg); p.add_(buf, alpha=-lr)
            buf = state["momentum_buffer"]
            setting(group, "momentum", "mul_", "other", 1, into=buf)
            buf._data[...] = addcdiv(xp, buf._data * momentum, grad, avg)
            p._data[...] = add_scaled(xp, p._data, buf._data,
                                      setting(group, "lr", "add_", "alpha", negated=True))
        else:
            p._data[...] = addcdiv(xp, p._data, grad, avg,
                                   setting(group, "lr", "addcdiv_", "value", negated=True))


class Adagrad(ElementwiseOptimizer):
    """Adaptive gradient (see the module docstring for the update).

    >>> optim.Adagrad([nn.Parameter(minitorch.ones(1))]).defaults["eps"]
    1e-10
    """

    _settings = ("lr", "weight_decay", "lr_decay", "eps", "foreach", "maximize",
                 "differentiable", "fused")
    _state = ("sum", "step")
    _loaded_defaults = {**ElementwiseOptimizer._loaded_defaults, "fused": None}

    def __init__(self, params: Iterable[Any], lr: float = 1e-2, lr_decay: float = 0,
                 weight_decay: float = 0, initial_accumulator_value: float = 0,
                 eps: float = 1e-10, foreach: Any = None, *, maximize: bool = False,
                 differentiable: bool = False, fused: Any = None) -> None:
        check_settings(lr=lr, lr_decay=lr_decay, weight_decay=weight_decay,
                       initial_accumulator_value=initial_accumulator_value, eps=eps)
        defaults = {"lr": lr, "lr_decay": lr_decay, "eps": eps, "weight_decay": weight_decay,
                    "initial_accumulator_value": initial_accumulator_value,
                    "foreach": foreach, "maximize": maximize,
                    "differentiable": differentiable, "fused": fused}
        super().__init__(params, defaults)
        for group in self.param_groups:  # torch fills the state here, before any step
            for p in group["params"]:
                self._initial_state(p, self.state[p])

    def _initial_state(self, p: Tensor, state: dict) -> None:
        """A step count of 0 and the sum at the default ``initial_accumulator_value`` (torch
        reads the defaults', not the group's, when a step meets an empty state)."""
        xp = p._xp
        value = self.defaults["initial_accumulator_value"]
        _args.number_types("full_like", (value, "fill_value", 2))
        state["step"] = state_tensor(xp.zeros((), dtype=xp.float32))
        state["sum"] = state_tensor(xp.full(p._data.shape, value, dtype=p._data.dtype))

    def _settle_loaded(self) -> None:
        """torch's __setstate__, which in Adagrad also reads the first state's step, whatever
        parameter (or key) it is for, and makes every step a tensor if that one is not."""
        super()._settle_loaded()
        states = list(self.state.values())
        if states and not isinstance(states[0]["step"], Tensor):
            cpu = factory_namespace(None)  # torch keeps the step count on the CPU
            for state in states:
                state["step"] = state_tensor(cpu.asarray(float(state["step"]),
                                                         dtype=cpu.float32))

    def _update(self, p: Tensor, grad: Any, state: dict, group: dict) -> None:
        xp = p._xp
        if not state:  # a parameter of a group added after the constructor
            self._initial_state(p, state)
        step = self._count_step(p, state)
        if group["weight_decay"] != 0:
            grad = add_scaled(xp, grad, p._data, weight_decay_of(group))
        lr, decay = group.raw("lr"), group.raw("lr_decay")
        lr = lr.squeeze() if isinstance(lr, Tensor) else lr  # torch's _to_scalar
        if any(isinstance(v, Tensor) and v.dim() for v in (lr, decay)) and \
                all(isinstance(v, (Tensor, int, float)) for v in (lr, decay)):
            raise TypeError("addcdiv_(): argument 'value' must be Number, not Tensor")
        clr = group["lr"] / (1 + (step - 1) * group["lr_decay"])
        s = state["sum"]
        s._data[...] = addcmul(xp, s._data, grad, grad)
        std = cpu_math(xp.sqrt, s._data) + setting(group, "eps", "add_", "other", 1, into=s)
        p._data[...] = addcdiv(xp, p._data, grad, std, -clr)


class Adadelta(ElementwiseOptimizer):
    """Adaptive learning rate by running averages of squared gradients and steps (see the
    module docstring for the update).

    >>> optim.Adadelta([nn.Parameter(minitorch.ones(1))]).defaults["rho"]
    0.9
    """

    _capturable_devices = CAPTURABLE_NO_XLA  # torch's list here

    _settings = ("lr", "rho", "eps", "weight_decay", "foreach", "maximize", "differentiable",
                 "capturable")
    _state = ("square_avg", "acc_delta", "step")
    _loaded_defaults = {**ElementwiseOptimizer._loaded_defaults, "capturable": False}

    def __init__(self, params: Iterable[Any], lr: float = 1.0, rho: float = 0.9,
                 eps: float = 1e-6, weight_decay: float = 0, foreach: Any = None, *,
                 capturable: bool = False, maximize: bool = False,
                 differentiable: bool = False) -> None:
        check_settings(lr=lr)
        if not (_args.python_op(0.0, "<=", rho) and _args.python_op(rho, "<=", 1.0)):
            raise ValueError(f"Invalid rho value: {rho}")
        check_settings(eps=eps, weight_decay=weight_decay)
        defaults = {"lr": lr, "rho": rho, "eps": eps, "weight_decay": weight_decay,
                    "maximize": maximize, "capturable": capturable, "foreach": foreach,
                    "differentiable": differentiable}
        super().__init__(params, defaults)

    def _update(self, p: Tensor, grad: Any, state: dict, group: dict) -> None:
        xp = p._xp
        self._count_step(p, state)
        rho, eps = group["rho"], group["eps"]
        if group["weight_decay"] != 0:
            grad = add_scaled(xp, grad, p._data, weight_decay_of(group))
        v, u = self._zeros_state(p, state, "square_avg", "acc_delta")
        setting(group, "rho", "mul_", "other", 1, into=v)
        setting(group, "rho", "addcmul_", "value")  # torch's value=1 - rho
        v._data[...] = addcmul(xp, v._data * rho, grad, grad, 1 - rho)
        # square_avg.add(eps): its shape reaches acc_delta.addcmul_, in place
        setting(group, "eps", "add", "other", 1, into=u)
        delta = cpu_math(xp.sqrt, u._data + eps) / cpu_math(xp.sqrt, v._data + eps) * grad
        u._data[...] = addcmul(xp, u._data * rho, delta, delta, 1 - rho)
        lr = setting(group, "lr", "add_", "alpha", negated=True)
        p._data[...] = add_scaled(xp, p._data, delta, lr)
