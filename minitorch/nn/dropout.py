"""``Dropout``: randomly zero activations while training.

>>> import minitorch
>>> from minitorch import nn
>>> drop = nn.Dropout(p=0.5).eval()
>>> drop(minitorch.ones(3))
tensor([1., 1., 1.])
"""

from __future__ import annotations

from .._tensor import Tensor
from . import functional as F
from .module import Module

__all__ = ["Dropout"]


class Dropout(Module):
    """In training, zero each element with probability ``p`` and scale the others by
    ``1/(1-p)`` so the expected value is unchanged; in evaluation, return the input.

    >>> nn.Dropout(0.2)
    Dropout(p=0.2, inplace=False)
    """

    def __init__(self, p: float = 0.5, inplace: bool = False) -> None:
        super().__init__()
        if p < 0 or p > 1:  # torch's comparisons: a non-number fails as in torch, nan passes
            raise ValueError(f"dropout probability has to be between 0 and 1, but got {p}")
        self.p = p
        self.inplace = inplace

    def forward(self, input: Tensor) -> Tensor:
        return F.dropout(input, self.p, self.training, self.inplace)

    def extra_repr(self) -> str:
        return f"p={self.p}, inplace={self.inplace}"
