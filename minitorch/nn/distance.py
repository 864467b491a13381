"""``CosineSimilarity`` and ``PairwiseDistance``: the modules of ``F.cosine_similarity``
and ``F.pairwise_distance``.

>>> import minitorch
>>> from minitorch import nn
>>> nn.CosineSimilarity(dim=0)(minitorch.tensor([1., 0.]), minitorch.tensor([1., 1.]))
tensor(0.7071)
"""

from __future__ import annotations

from .._tensor import Tensor
from . import functional as F
from .module import Module

__all__ = ["CosineSimilarity", "PairwiseDistance"]


class CosineSimilarity(Module):
    """The cosine of the angle between two inputs along ``dim``.

    >>> nn.CosineSimilarity()
    CosineSimilarity()
    """

    def __init__(self, dim: int = 1, eps: float = 1e-8) -> None:
        super().__init__()
        self.dim, self.eps = dim, eps

    def forward(self, x1: Tensor, x2: Tensor) -> Tensor:
        return F.cosine_similarity(x1, x2, self.dim, self.eps)


class PairwiseDistance(Module):
    """The ``p``-norm of ``x1 - x2 + eps`` over the last dimension.

    >>> nn.PairwiseDistance()(minitorch.zeros(1, 2), minitorch.tensor([[3., 4.]]))
    tensor([5.0000])
    """

    def __init__(self, p: float = 2.0, eps: float = 1e-6, keepdim: bool = False) -> None:
        super().__init__()
        self.norm, self.eps, self.keepdim = p, eps, keepdim

    def forward(self, x1: Tensor, x2: Tensor) -> Tensor:
        return F.pairwise_distance(x1, x2, self.norm, self.eps, self.keepdim)
