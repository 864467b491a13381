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
from .distance import PairwiseDistance
from .module import Module, class_repr

__all__ = [
    "BCELoss",
    "BCEWithLogitsLoss",
    "CTCLoss",
    "CosineEmbeddingLoss",
    "CrossEntropyLoss",
    "GaussianNLLLoss",
    "HingeEmbeddingLoss",
    "HuberLoss",
    "KLDivLoss",
    "L1Loss",
    "MSELoss",
    "MarginRankingLoss",
    "MultiLabelMarginLoss",
    "MultiLabelSoftMarginLoss",
    "MultiMarginLoss",
    "NLLLoss",
    "PoissonNLLLoss",
    "SmoothL1Loss",
    "SoftMarginLoss",
    "TripletMarginLoss",
    "TripletMarginWithDistanceLoss",
]


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
            raise TypeError(f"delta must be a float or int, got: {class_repr(delta)}")
        self.delta = delta

    def forward(self, input: Tensor, target: Tensor) -> Tensor:
        return F.huber_loss(input, target, reduction=self.reduction, delta=self.delta)


class KLDivLoss(_Loss):
    """The Kullback-Leibler divergence of ``target`` from log-probabilities ``input``.

    >>> nn.KLDivLoss(reduction="batchmean")(minitorch.zeros(1, 2), minitorch.full((1, 2), 0.5))
    tensor(-0.6931)
    """

    def __init__(self, size_average: Any = None, reduce: Any = None, reduction: str = "mean",
                 log_target: bool = False) -> None:
        super().__init__(size_average, reduce, reduction)
        self.log_target = log_target

    def forward(self, input: Tensor, target: Tensor) -> Tensor:
        return F.kl_div(input, target, reduction=self.reduction, log_target=self.log_target)


class MarginRankingLoss(_Loss):
    """``max(0, -y * (x1 - x2) + margin)``.

    >>> nn.MarginRankingLoss(margin=0.5)
    MarginRankingLoss()
    """

    def __init__(self, margin: float = 0.0, size_average: Any = None, reduce: Any = None,
                 reduction: str = "mean") -> None:
        super().__init__(size_average, reduce, reduction)
        self.margin = margin

    def forward(self, input1: Tensor, input2: Tensor, target: Tensor) -> Tensor:
        return F.margin_ranking_loss(input1, input2, target, margin=self.margin,
                                     reduction=self.reduction)


class HingeEmbeddingLoss(_Loss):
    """``x`` where ``y`` is 1, ``max(0, margin - x)`` where -1.

    >>> nn.HingeEmbeddingLoss()(minitorch.tensor([2.]), minitorch.tensor([-1.]))
    tensor(0.)
    """

    def __init__(self, margin: float = 1.0, size_average: Any = None, reduce: Any = None,
                 reduction: str = "mean") -> None:
        super().__init__(size_average, reduce, reduction)
        self.margin = margin

    def forward(self, input: Tensor, target: Tensor) -> Tensor:
        return F.hinge_embedding_loss(input, target, margin=self.margin,
                                      reduction=self.reduction)


class CosineEmbeddingLoss(_Loss):
    """``1 - cos(x1, x2)`` where ``y`` is 1, ``max(0, cos(x1, x2) - margin)`` where -1.

    >>> nn.CosineEmbeddingLoss()(minitorch.ones(1, 2), minitorch.ones(1, 2), minitorch.ones(1))
    tensor(0.)
    """

    def __init__(self, margin: float = 0.0, size_average: Any = None, reduce: Any = None,
                 reduction: str = "mean") -> None:
        super().__init__(size_average, reduce, reduction)
        self.margin = margin

    def forward(self, input1: Tensor, input2: Tensor, target: Tensor) -> Tensor:
        return F.cosine_embedding_loss(input1, input2, target, margin=self.margin,
                                       reduction=self.reduction)


class SoftMarginLoss(_Loss):
    """``log(1 + exp(-y * x))``.

    >>> nn.SoftMarginLoss()(minitorch.zeros(1), minitorch.ones(1))
    tensor(0.6931)
    """

    def forward(self, input: Tensor, target: Tensor) -> Tensor:
        return F.soft_margin_loss(input, target, reduction=self.reduction)


class MultiLabelSoftMarginLoss(_WeightedLoss):
    """The logistic loss of each class, averaged over the classes.

    >>> nn.MultiLabelSoftMarginLoss()(minitorch.zeros(1, 2), minitorch.ones(1, 2))
    tensor(0.6931)
    """

    def forward(self, input: Tensor, target: Tensor) -> Tensor:
        return F.multilabel_soft_margin_loss(input, target, weight=self.weight,
                                             reduction=self.reduction)


class TripletMarginLoss(_Loss):
    """``max(0, d(a, p) - d(a, n) + margin)``, d the ``p``-norm pairwise distance.

    >>> nn.TripletMarginLoss()(minitorch.zeros(1, 2), minitorch.zeros(1, 2), minitorch.ones(1, 2))
    tensor(0.)
    """

    def __init__(self, margin: float = 1.0, p: float = 2.0, eps: float = 1e-6,
                 swap: bool = False, size_average: Any = None, reduce: Any = None,
                 reduction: str = "mean") -> None:
        super().__init__(size_average, reduce, reduction)
        if margin <= 0:
            raise ValueError(f"TripletMarginLoss: expected margin to be greater than 0, got "
                             f"{margin} instead")
        self.margin, self.p, self.eps, self.swap = margin, p, eps, swap

    def forward(self, anchor: Tensor, positive: Tensor, negative: Tensor) -> Tensor:
        return F.triplet_margin_loss(anchor, positive, negative, margin=self.margin, p=self.p,
                                     eps=self.eps, swap=self.swap, reduction=self.reduction)


class MultiLabelMarginLoss(_Loss):
    """The multi-label hinge loss (see ``F.multilabel_margin_loss``).

    >>> nn.MultiLabelMarginLoss()(minitorch.tensor([[0.1, 0.2, 0.4, 0.8]]),
    ...                           minitorch.tensor([[3, 0, -1, 1]]))
    tensor(0.8500)
    """

    def forward(self, input: Tensor, target: Tensor) -> Tensor:
        return F.multilabel_margin_loss(input, target, reduction=self.reduction)


class TripletMarginWithDistanceLoss(_Loss):
    """``TripletMarginLoss`` under any ``distance_function`` (a ``PairwiseDistance`` module when
    None, then a child of this one).

    >>> nn.TripletMarginWithDistanceLoss()
    TripletMarginWithDistanceLoss(
      (distance_function): PairwiseDistance()
    )
    """

    def __init__(self, *, distance_function: Any = None, margin: float = 1.0,
                 swap: bool = False, reduction: str = "mean") -> None:
        super().__init__(reduction=reduction)
        if margin <= 0:
            raise ValueError("TripletMarginWithDistanceLoss: expected margin to be greater than "
                             f"0, got {margin} instead")
        self.distance_function = PairwiseDistance() if distance_function is None \
            else distance_function
        self.margin, self.swap = margin, swap

    def forward(self, anchor: Tensor, positive: Tensor, negative: Tensor) -> Tensor:
        return F.triplet_margin_with_distance_loss(
            anchor, positive, negative, distance_function=self.distance_function,
            margin=self.margin, swap=self.swap, reduction=self.reduction)


class PoissonNLLLoss(_Loss):
    """The negative log-likelihood of counts under Poisson rates (log-rates by default).

    >>> nn.PoissonNLLLoss()(minitorch.zeros(1), minitorch.ones(1))
    tensor(1.)
    """

    def __init__(self, log_input: bool = True, full: bool = False, size_average: Any = None,
                 eps: float = 1e-8, reduce: Any = None, reduction: str = "mean") -> None:
        super().__init__(size_average, reduce, reduction)
        self.log_input, self.full, self.eps = log_input, full, eps

    def forward(self, log_input: Tensor, target: Tensor) -> Tensor:
        return F.poisson_nll_loss(log_input, target, log_input=self.log_input, full=self.full,
                                  eps=self.eps, reduction=self.reduction)


class GaussianNLLLoss(_Loss):
    """The negative log-likelihood of targets under normals of given means and variances.

    >>> nn.GaussianNLLLoss()(minitorch.zeros(1), minitorch.zeros(1), minitorch.ones(1))
    tensor(0.)
    """

    def __init__(self, *, full: bool = False, eps: float = 1e-6,
                 reduction: str = "mean") -> None:
        super().__init__(None, None, reduction)
        self.full, self.eps = full, eps

    def forward(self, input: Tensor, target: Tensor, var: Tensor | float) -> Tensor:
        return F.gaussian_nll_loss(input, target, var, full=self.full, eps=self.eps,
                                   reduction=self.reduction)


class MultiMarginLoss(_WeightedLoss):
    """The multi-class hinge loss of scores against class indices.

    >>> nn.MultiMarginLoss()(minitorch.tensor([[0.1, 0.2, 0.4]]), minitorch.tensor([2]))
    tensor(0.5000)
    """

    def __init__(self, p: int = 1, margin: float = 1.0, weight: Tensor | None = None,
                 size_average: Any = None, reduce: Any = None, reduction: str = "mean") -> None:
        super().__init__(weight, size_average, reduce, reduction)
        if p not in (1, 2):
            raise ValueError("only p == 1 and p == 2 supported")
        if weight is not None and weight.dim() != 1:
            raise ValueError(f"MultiMarginLoss: expected weight to be None or 1D tensor, got "
                             f"{weight.dim()}D instead")
        self.p, self.margin = p, margin

    def forward(self, input: Tensor, target: Tensor) -> Tensor:
        return F.multi_margin_loss(input, target, p=self.p, margin=self.margin,
                                   weight=self.weight, reduction=self.reduction)


class CTCLoss(_Loss):
    """The connectionist temporal classification loss (see ``functional.ctc_loss``):
    ``forward(log_probs, targets, input_lengths, target_lengths)``.

    >>> nn.CTCLoss()(minitorch.zeros(2, 1, 2).log_softmax(2), minitorch.tensor([[1]]), [2], [1])
    tensor(0.2877)
    """

    def __init__(self, blank: int = 0, reduction: str = "mean",
                 zero_infinity: bool = False) -> None:
        super().__init__(reduction=reduction)
        self.blank, self.zero_infinity = blank, zero_infinity

    def forward(self, log_probs: Tensor, targets: Tensor, input_lengths: Any,
                target_lengths: Any) -> Tensor:
        return F.ctc_loss(log_probs, targets, input_lengths, target_lengths, self.blank,
                          self.reduction, self.zero_infinity)
