"""``InstanceNorm1d``/``2d``/``3d``: normalise each sample's channels on their own.

Unlike the batch norms they keep no running statistics and no weight unless told
(``track_running_stats=True``, ``affine=True``), and accept an unbatched input.

>>> import minitorch
>>> from minitorch import nn
>>> nn.InstanceNorm1d(1)(minitorch.tensor([[[1., 3.]]]))
tensor([[[-1.0000,  1.0000]]])
"""

from __future__ import annotations

import warnings
from typing import Any

from .._tensor import Tensor
from . import functional as F
from .batchnorm import _BatchNorm

__all__ = ["InstanceNorm1d", "InstanceNorm2d", "InstanceNorm3d"]


class _InstanceNorm(_BatchNorm):
    """What the three share; they differ in the rank of a sample without its batch dim."""

    _sample_dims = 0

    def __init__(self, num_features: int, eps: float = 1e-5, momentum: float | None = 0.1,
                 affine: bool = False, track_running_stats: bool = False, device: Any = None,
                 dtype: Any = None, *, bias: bool = True) -> None:
        super().__init__(num_features, eps, momentum, affine, track_running_stats, device,
                         dtype, bias=bias)

    def _check_input_dim(self, x: Tensor) -> None:
        ranks = (self._sample_dims, self._sample_dims + 1)
        if x.dim() not in ranks:
            raise ValueError(f"expected {ranks[0]}D or {ranks[1]}D input (got {x.dim()}D input)")

    def _apply_instance_norm(self, input: Tensor) -> Tensor:
        return F.instance_norm(input, self.running_mean, self.running_var, self.weight,
                               self.bias, self.training or not self.track_running_stats,
                               self.momentum if self.momentum is not None else 0.0, self.eps)

    def forward(self, input: Tensor) -> Tensor:
        self._check_input_dim(input)
        feature_dim = input.dim() - self._sample_dims
        if input.size(feature_dim) != self.num_features:
            if self.affine:
                raise ValueError(f"expected input's size at dim={feature_dim} to match "
                                 f"num_features ({self.num_features}), but got: "
                                 f"{input.size(feature_dim)}.")
            warnings.warn(f"input's size at dim={feature_dim} does not match num_features. "
                          "You can silence this warning by not passing in num_features, "
                          "which is not used because affine=False", stacklevel=2)
        if input.dim() == self._sample_dims:
            return self._apply_instance_norm(input.unsqueeze(0)).squeeze(0)
        return self._apply_instance_norm(input)


class InstanceNorm1d(_InstanceNorm):
    """Instance norm of (batch, channels, length) or (channels, length) input.

    >>> nn.InstanceNorm1d(3)
    InstanceNorm1d(3, eps=1e-05, momentum=0.1, affine=False, bias=False, track_running_stats=False)
    """

    _sample_dims = 2


class InstanceNorm2d(_InstanceNorm):
    """Instance norm of (batch, channels, height, width) or (channels, height, width) input.

    >>> nn.InstanceNorm2d(3, affine=True)
    InstanceNorm2d(3, eps=1e-05, momentum=0.1, affine=True, bias=True, track_running_stats=False)
    """

    _sample_dims = 3


class InstanceNorm3d(_InstanceNorm):
    """Instance norm of (batch, channels, depth, height, width) input, or one without batch.

    >>> nn.InstanceNorm3d(3)
    InstanceNorm3d(3, eps=1e-05, momentum=0.1, affine=False, bias=False, track_running_stats=False)
    """

    _sample_dims = 4
