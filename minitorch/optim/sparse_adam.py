"""``SparseAdam``: torch's Adam for sparse gradients (embedding tables updated row by row).

minitorch has no sparse tensors, so no gradient it makes can be sparse: the optimizer checks
its settings as torch's does, and its ``step`` refuses a dense gradient with torch's error
(and, as torch's, does nothing for parameters without a gradient).

>>> import minitorch
>>> from minitorch import nn, optim
>>> p = nn.Parameter(minitorch.ones(2))
>>> opt = optim.SparseAdam([p], lr=0.1)
>>> p.grad = minitorch.ones(2)
>>> opt.step()
Traceback (most recent call last):
RuntimeError: SparseAdam does not support dense gradients, please consider Adam instead
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any

from .. import _args
from ._elementwise import check_settings, check_tensor_lr
from .optimizer import Optimizer

__all__ = ["SparseAdam"]


class SparseAdam(Optimizer):
    """Adam for sparse gradients: settings checked, dense gradients refused (see above).

    >>> optim.SparseAdam([nn.Parameter(minitorch.ones(1))]).defaults
    {'lr': 0.001, 'betas': (0.9, 0.999), 'eps': 1e-08, 'maximize': False}
    """

    _step_reads_self = False  # torch's step is a plain no_grad function

    def __init__(self, params: Iterable[Any], lr: float = 1e-3,
                 betas: tuple[float, float] = (0.9, 0.999), eps: float = 1e-8,
                 maximize: bool = False) -> None:
        check_tensor_lr(lr)
        op = _args.python_op  # torch's Python comparisons: its TypeError for a non-number
        if not op(0.0, "<", lr):
            raise ValueError(f"Invalid learning rate: {lr}")
        if not op(0.0, "<", eps):
            raise ValueError(f"Invalid epsilon value: {eps}")
        check_settings(betas=betas, same_kind_betas=False)  # (lr and eps: strictly above)
        defaults = {"lr": lr, "betas": betas, "eps": eps, "maximize": maximize}
        super().__init__(params, defaults)
        complex_params = [[i, j] for i, group in enumerate(self.param_groups)
                          for j, p in enumerate(group["params"]) if p.is_complex()]
        if complex_params:
            raise ValueError(f"Complex params at indices {complex_params}: SparseAdam does "
                             "not support complex parameters")

    def step(self, closure: Callable[[], Any] | None = None) -> Any:
        """torch's refusal of the (always dense) gradients minitorch makes."""
        loss = self._closure_loss(closure)
        for group in self.param_groups:
            _args.python_unpack(group["betas"], 2)
            if any(p._grad is not None for p in group["params"]):
                raise RuntimeError("SparseAdam does not support dense gradients, please "
                                   "consider Adam instead")
        return loss
