"""Loss functions as modules: ``MSELoss``, ``NLLLoss``, ``CrossEntropyLoss``.

>>> import minitorch
>>> from minitorch import nn
>>> loss = nn.CrossEntropyLoss()(minitorch.zeros(2, 3, requires_grad=True),
...                              minitorch.tensor([0, 2]))
>>> loss
tensor(1.0986, grad_fn=<NllLossBackward0>)
"""

from __future__ import annotations

from .._tensor import Tensor
from . import functional as F
from .module import Module

__all__ = ["CrossEntropyLoss", "MSELoss", "NLLLoss"]


class _Loss(Module):
    """A loss with a ``reduction``: 'mean' (default), 'sum' or 'none' (one per element)."""

    def __init__(self, reduction: str = "mean") -> None:
        super().__init__()
        self.reduction = reduction


class MSELoss(_Loss):
    """Mean squared error between input and target.

    >>> nn.MSELoss(reduction="sum")(minitorch.tensor([1., 2.]), minitorch.zeros(2))
    tensor(5.)
    """

    def forward(self, x: Tensor, target: Tensor) -> Tensor:
        return F.mse_loss(x, target, self.reduction)


class NLLLoss(_Loss):
    """Negative log-likelihood of class indices, given log-probabilities (batch, classes).

    >>> nn.NLLLoss()(minitorch.tensor([[-0.5, -1.0]]), minitorch.tensor([1]))
    tensor(1.)
    """

    def forward(self, x: Tensor, target: Tensor) -> Tensor:
        return F.nll_loss(x, target, self.reduction)


class CrossEntropyLoss(_Loss):
    """Cross entropy of logits (batch, classes) against class indices: log_softmax + NLL.

    >>> nn.CrossEntropyLoss()
    CrossEntropyLoss()
    """

    def forward(self, x: Tensor, target: Tensor) -> Tensor:
        return F.cross_entropy(x, target, self.reduction)
