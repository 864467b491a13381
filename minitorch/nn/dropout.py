"""Dropout modules: ``Dropout`` zeroes elements, ``Dropout1d/2d/3d`` whole channels, and
``AlphaDropout``/``FeatureAlphaDropout`` keep a SELU network's mean and variance.

>>> import minitorch
>>> from minitorch import nn
>>> drop = nn.Dropout(p=0.5).eval()
>>> drop(minitorch.ones(3))
tensor([1., 1., 1.])
"""

from __future__ import annotations

from .. import _args
from .._tensor import Tensor
from . import functional as F
from .module import Module

__all__ = ["AlphaDropout", "Dropout", "Dropout1d", "Dropout2d", "Dropout3d",
           "FeatureAlphaDropout"]


class _DropoutNd(Module):
    """What every dropout module holds: ``p`` (checked as torch checks it) and ``inplace``."""

    def __init__(self, p: float = 0.5, inplace: bool = False) -> None:
        super().__init__()
        # torch's comparisons: a non-number fails as in torch, nan passes
        if _args.python_op(p, "<", 0) or _args.python_op(p, ">", 1):
            raise ValueError(f"dropout probability has to be between 0 and 1, but got {p}")
        self.p = p
        self.inplace = inplace

    def extra_repr(self) -> str:
        return f"p={self.p}, inplace={self.inplace}"


class Dropout(_DropoutNd):
    """In training, zero each element with probability ``p`` and scale the others by
    ``1/(1-p)`` so the expected value is unchanged; in evaluation, return the input.

    >>> nn.Dropout(0.2)
    Dropout(p=0.2, inplace=False)
    """

    def forward(self, input: Tensor) -> Tensor:
        return F.dropout(input, self.p, self.training, self.inplace)


class Dropout1d(_DropoutNd):
    """``F.dropout1d``: zero whole channels of ``(N, C, L)`` or ``(C, L)`` input.

    >>> nn.Dropout1d(0.3)
    Dropout1d(p=0.3, inplace=False)
    """

    def forward(self, input: Tensor) -> Tensor:
        return F.dropout1d(input, self.p, self.training, self.inplace)


class Dropout2d(_DropoutNd):
    """``F.dropout2d``: zero whole channels of ``(N, C, H, W)`` input.

    >>> nn.Dropout2d()
    Dropout2d(p=0.5, inplace=False)
    """

    def forward(self, input: Tensor) -> Tensor:
        return F.dropout2d(input, self.p, self.training, self.inplace)


class Dropout3d(_DropoutNd):
    """``F.dropout3d``: zero whole channels of ``(N, C, D, H, W)`` or ``(C, D, H, W)`` input.

    >>> nn.Dropout3d(0.1, inplace=True)
    Dropout3d(p=0.1, inplace=True)
    """

    def forward(self, input: Tensor) -> Tensor:
        return F.dropout3d(input, self.p, self.training, self.inplace)


class AlphaDropout(_DropoutNd):
    """``F.alpha_dropout`` while training (``inplace`` is kept but, as in torch, unused).

    >>> nn.AlphaDropout(0.2).eval()(minitorch.ones(2))
    tensor([1., 1.])
    """

    def forward(self, input: Tensor) -> Tensor:
        return F.alpha_dropout(input, self.p, self.training)


class FeatureAlphaDropout(_DropoutNd):
    """``F.feature_alpha_dropout`` while training: alpha dropout of whole channels.

    >>> nn.FeatureAlphaDropout(0.2)
    FeatureAlphaDropout(p=0.2, inplace=False)
    """

    def forward(self, input: Tensor) -> Tensor:
        return F.feature_alpha_dropout(input, self.p, self.training)
