"""Clipping gradients before an optimizer step: ``clip_grad_norm_``, ``clip_grad_value_``.

>>> import minitorch
>>> from minitorch import nn
>>> p = nn.Parameter(minitorch.tensor([3., 4.])); p.grad = minitorch.tensor([3., 4.])
>>> nn.utils.clip_grad_norm_([p], 1.0), p.grad
(tensor(5.), tensor([0.6000, 0.8000]))
"""

from __future__ import annotations

import math
import types
import warnings
from collections.abc import Iterable
from typing import Any

from ... import _args
from ..._tensor import Tensor
from ...autograd import grad_mode
from ...ops.norm import norm
from ..init import _make_deprecate

__all__ = ["clip_grad_norm", "clip_grad_norm_", "clip_grad_value_", "clip_grads_with_norm_",
           "get_total_norm"]


def _grads(parameters: Any) -> list[Tensor]:
    if isinstance(parameters, Tensor):
        parameters = [parameters]
    return [p.grad for p in parameters if p.grad is not None]


_NO_GRADS = _args.check_failed("!nested_tensorlist[0].empty()")
"""torch's error from clip_grad_value_ when no parameter has a gradient (its foreach
grouping of an empty list)."""


_FOREACH_INF_EMPTY = ("_foreach_norm cannot compute the infinity norm on an empty tensor "
                      "because the operation does not have an identity")
"""torch's refusal where its CPU default (``foreach=None``) takes the foreach norm."""


def clip_grad_norm_(parameters: Iterable[Tensor] | Tensor, max_norm: float,
                    norm_type: float = 2.0, error_if_nonfinite: bool = False,
                    foreach: Any = None) -> Tensor:
    """Scale the gradients together so that their joint ``norm_type``-norm is at most
    ``max_norm``; returns the norm they had."""
    if isinstance(parameters, Tensor):
        parameters = [parameters]
    elif isinstance(parameters, types.GeneratorType) and not (parameters := list(parameters)):
        warnings.warn("`parameters` is an empty generator, no gradient clipping will occur.",
                      stacklevel=2)
    parameters = list(parameters)  # (each one's grad read before the norm's type; max_norm
    total = get_total_norm(_grads(parameters), norm_type, error_if_nonfinite, foreach)  # after
    clip_grads_with_norm_(parameters, max_norm, total, foreach)
    return total


def get_total_norm(tensors: Iterable[Tensor] | Tensor, norm_type: float = 2.0,
                   error_if_nonfinite: bool = False, foreach: Any = None) -> Tensor:
    """The ``norm_type``-norm of the tensors seen as one vector (the norm of their norms).

    >>> nn.utils.get_total_norm([minitorch.tensor([3.]), minitorch.tensor([4.])])
    tensor(5.)
    """
    from ... import stack, tensor

    tensors = [tensors] if isinstance(tensors, Tensor) else list(tensors)
    norm_type = _args.python_float(norm_type)
    if not tensors:
        return tensor(0.0)
    groups: dict[Any, list[Tensor]] = {}
    for g in tensors:
        groups.setdefault((g.device, g.dtype), []).append(g)  # (torch's grouping, in order)
    norms = []
    with grad_mode._recording(False):
        for group in reversed(groups.values()):  # torch's C++ grouping hands them last first
            if foreach is not False and norm_type == math.inf and any(g.numel() == 0
                                                                      for g in group):
                raise RuntimeError(_FOREACH_INF_EMPTY)
            norms += [norm(g, norm_type) for g in group]
        total = norm(stack(norms), norm_type)
    if error_if_nonfinite and not math.isfinite(float(total)):
        raise RuntimeError(f"The total norm of order {norm_type} for gradients from "
                           "`parameters` is non-finite, so it cannot be clipped. To disable "
                           "this error and scale the gradients by the non-finite norm "
                           "anyway, set `error_if_nonfinite=False`")
    return total


def clip_grads_with_norm_(parameters: Iterable[Tensor] | Tensor, max_norm: float,
                          total_norm: Tensor, foreach: Any = None) -> None:
    """Scale the gradients by ``max_norm / (total_norm + 1e-6)`` when that is below 1.

    >>> p = nn.Parameter(minitorch.tensor([3., 4.])); p.grad = minitorch.tensor([3., 4.])
    >>> nn.utils.clip_grads_with_norm_([p], 1.0, minitorch.tensor(5.)); p.grad
    tensor([0.6000, 0.8000])
    """
    grads = _grads(parameters)
    max_norm = _args.python_float(max_norm)
    if not grads:
        return
    with grad_mode._recording(False):
        # torch's order: a tensor reciprocal times max_norm, clamped, in the norm's dtype
        coef = ((total_norm + 1e-6).reciprocal() * max_norm).clamp(max=1.0)
        for g in grads:
            g.mul_(coef)


def clip_grad_value_(parameters: Iterable[Tensor] | Tensor, clip_value: float,
                     foreach: Any = None) -> None:
    """Clamp every gradient element into ``[-clip_value, clip_value]``, in place.

    >>> p = nn.Parameter(minitorch.tensor([3., -4.])); p.grad = minitorch.tensor([3., -4.])
    >>> nn.utils.clip_grad_value_([p], 1.0); p.grad
    tensor([ 1., -1.])
    """
    if isinstance(parameters, Tensor):
        parameters = [parameters]
    clip_value = _args.python_float(clip_value)  # as torch's, before anything
    grads = _grads(parameters)
    if not grads:
        raise RuntimeError(_NO_GRADS)
    with grad_mode._recording(False):
        for g in grads:
            g.clamp_(-clip_value, clip_value)


def _clip_grad_norm(parameters: Any, max_norm: float, norm_type: float = 2.0,
                    error_if_nonfinite: bool = False, foreach: bool | None = None) -> Tensor:
    return clip_grad_norm_(parameters, max_norm, norm_type, error_if_nonfinite, foreach)


_clip_grad_norm.__name__ = _clip_grad_norm.__qualname__ = "clip_grad_norm"  # (Python's
# refusal of a call names it)
clip_grad_norm = _make_deprecate(clip_grad_norm_, "torch.nn.utils", calls=_clip_grad_norm)
