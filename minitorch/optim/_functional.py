"""``optim._functional``: the optimizers' functional forms, which update lists of parameters
and state tensors in place from given gradients (torch's ``F.sgd``, ...).

Only ``sgd`` is provided: minitorch's other optimizers update each parameter inside their
``step`` and have no separate functional forms yet (use the optimizer classes).

>>> import minitorch
>>> from minitorch.optim import _functional as F
>>> p, bufs = minitorch.ones(2), [None]
>>> F.sgd([p], [minitorch.ones(2)], bufs, weight_decay=0, momentum=0.9, lr=0.5,
...       dampening=0, nesterov=False, maximize=False)
>>> p, bufs
(tensor([0.5000, 0.5000]), [tensor([1., 1.])])
"""

from __future__ import annotations

from typing import Any

from .._tensor import Tensor
from .optimizer import plain_settings
from .sgd import sgd_update

__all__ = ["sgd"]


def sgd(params: list[Tensor], d_p_list: list[Tensor], momentum_buffer_list: list[Tensor | None],
        has_sparse_grad: bool = False, foreach: bool | None = None, fused: bool | None = None,
        grad_scale: Tensor | None = None, found_inf: Tensor | None = None, *,
        weight_decay: float, momentum: float, lr: float, dampening: float, nesterov: bool,
        maximize: bool) -> None:
    """torch's ``F.sgd``: one SGD step of each of ``params`` from ``d_p_list``; a None in
    ``momentum_buffer_list`` is replaced by the new buffer (with momentum). ``foreach`` and
    ``fused`` pick torch's kernels, whose values these are.

    >>> sgd([minitorch.ones(1)], [minitorch.ones(1)], [None], grad_scale=minitorch.ones(()),
    ...     weight_decay=0, momentum=0, lr=0.1, dampening=0, nesterov=False, maximize=False)
    Traceback (most recent call last):
    AssertionError: Expected grad_scale and found_inf to be None
    """
    if grad_scale is not None or found_inf is not None:
        raise AssertionError("Expected grad_scale and found_inf to be None")
    group: dict[str, Any] = plain_settings({
        "lr": lr, "momentum": momentum, "dampening": dampening, "weight_decay": weight_decay,
        "nesterov": nesterov, "maximize": maximize})
    for i, (p, grad) in enumerate(zip(params, d_p_list)):
        buf = sgd_update(p, grad, momentum_buffer_list[i] if momentum != 0 else None, group)
        if buf is not None:
            momentum_buffer_list[i] = buf
