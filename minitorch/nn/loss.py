"""Loss functions as modules: ``MSELoss``, ``NLLLoss``, ``CrossEntropyLoss``.

>>> import minitorch
>>> from minitorch import nn
>>> loss = nn.CrossEntropyLoss()(minitorch.zeros(2, 3, requires_grad=True),
...                              minitorch.tensor([0, 2]))
>>> loss
tensor(1.0986, grad_fn=<NllLossBackward0>)
"""

from __future__ import annotations

from typing import Any

from .._tensor import Tensor
from . import functional as F
from .module import Module

__all__ = ["BCELoss", "BCEWithLogitsLoss", "CrossEntropyLoss", "HuberLoss", "L1Loss", "MSELoss",
           "NLLLoss", "SmoothL1Loss"]


class _Loss(Module):
    """A loss with a ``reduction``: 'mean' (default), 'sum' or 'none' (one per element); the
    deprecated ``size_average`` and ``reduce``, when given, decide it instead."""

    def __init__(self, size_average: Any = None, reduce: Any = None,
                 reduction: str = "mean") -> None:
        super().__init__()
        self.reduction = reduction if size_average is None and reduce is None else \
            F._check_reduction(reduction, size_average, reduce)


class _WeightedLoss(_Loss):
    """A loss with a ``weight`` (a buffer: checked when used, and in the state_dict)."""

    def __init__(self, weight: Tensor | None = None, size_average: Any = None,
                 reduce: Any = None, reduction: str = "mean") -> None:
        super().__init__(size_average, reduce, reduction)
        self.register_buffer("weight", weight)


class MSELoss(_Loss):
    """Mean squared error between input and target.

    >>> nn.MSELoss(reduction="sum")(minitorch.tensor([1., 2.]), minitorch.zeros(2))
    tensor(5.)
    """

    def forward(self, input: Tensor, target: Tensor) -> Tensor:
        return F.mse_loss(input, target, reduction=self.reduction)


class NLLLoss(_WeightedLoss):
    """Negative log-likelihood of class indices, given log-probabilities (batch, classes).

    >>> nn.NLLLoss()(minitorch.tensor([[-0.5, -1.0]]), minitorch.tensor([1]))
    tensor(1.)
    """

    def __init__(self, weight: Tensor | None = None, size_average: Any = None,
                 ignore_index: int = -100, reduce: Any = None, reduction: str = "mean") -> None:
        super().__init__(weight, size_average, reduce, reduction)
        self.ignore_index = ignore_index

    def forward(self, input: Tensor, target: Tensor) -> Tensor:
        return F.nll_loss(input, target, weight=self.weight, ignore_index=self.ignore_index,
                          reduction=self.reduction)


class CrossEntropyLoss(_WeightedLoss):
    """Cross entropy of logits (batch, classes) against class indices: log_softmax + NLL.

    >>> nn.CrossEntropyLoss(label_smoothing=0.1)
    CrossEntropyLoss()
    """

    def __init__(self, weight: Tensor | None = None, size_average: Any = None,
                 ignore_index: int = -100, reduce: Any = None, reduction: str = "mean",
                 label_smoothing: float = 0.0) -> None:
        super().__init__(weight, size_average, reduce, reduction)
        self.ignore_index, self.label_smoothing = ignore_index, label_smoothing

    def forward(self, input: Tensor, target: Tensor) -> Tensor:
        return F.cross_entropy(input, target, weight=self.weight, ignore_index=self.ignore_index,
                               reduction=self.reduction, label_smoothing=self.label_smoothing)


class BCELoss(_WeightedLoss):
    """Binary cross entropy of probabilities against targets in [0, 1].

    >>> nn.BCELoss()(minitorch.tensor([0.5]), minitorch.tensor([1.]))
    tensor(0.6931)
    """


    def forward(self, input: Tensor, target: Tensor) -> Tensor:
        return F.binary_cross_entropy(input, target, self.weight, reduction=self.reduction)


class BCEWithLogitsLoss(_WeightedLoss):
    """Binary cross entropy of logits (a sigmoid built in, computed stably).

    >>> nn.BCEWithLogitsLoss()(minitorch.tensor([0.]), minitorch.tensor([1.]))
    tensor(0.6931)
    """

    def __init__(self, weight: Tensor | None = None, size_average: Any = None,
                 reduce: Any = None, reduction: str = "mean",
                 pos_weight: Tensor | None = None) -> None:
        super().__init__(weight, size_average, reduce, reduction)
        self.register_buffer("pos_weight", pos_weight)

    def forward(self, input: Tensor, target: Tensor) -> Tensor:
        return F.binary_cross_entropy_with_logits(input, target, self.weight,
                                                  reduction=self.reduction,
                                                  pos_weight=self.pos_weight)


class L1Loss(_Loss):
    """Mean absolute error.

    >>> nn.L1Loss()(minitorch.tensor([1., -3.]), minitorch.zeros(2))
    tensor(2.)
    """

    def forward(self, input: Tensor, target: Tensor) -> Tensor:
        return F.l1_loss(input, target, reduction=self.reduction)


class SmoothL1Loss(_Loss):
    """Squared error below ``beta``, absolute error above.

    >>> nn.SmoothL1Loss()(minitorch.tensor([0.5]), minitorch.zeros(1))
    tensor(0.1250)
    """

    def __init__(self, size_average: Any = None, reduce: Any = None, reduction: str = "mean",
                 beta: float = 1.0) -> None:
        super().__init__(size_average, reduce, reduction)
        self.beta = beta

    def forward(self, input: Tensor, target: Tensor) -> Tensor:
        return F.smooth_l1_loss(input, target, reduction=self.reduction, beta=self.beta)


class HuberLoss(_Loss):
    """Squared error up to ``delta``, then linear.

    >>> nn.HuberLoss(delta=0.5)(minitorch.tensor([2.]), minitorch.zeros(1))
    tensor(0.8750)
    """

    def __init__(self, reduction: str = "mean", delta: float = 1.0) -> None:
        super().__init__(reduction=reduction)
        if not isinstance(delta, (float, int)):
            raise TypeError(f"delta must be a float or int, got: {type(delta)}")
        self.delta = delta

    def forward(self, input: Tensor, target: Tensor) -> Tensor:
        return F.huber_loss(input, target, reduction=self.reduction, delta=self.delta)
