"""``BatchNorm1d`` and ``BatchNorm2d``: normalise each channel over the batch.

In training a layer normalises with the batch's mean and (biased) variance and moves its
running statistics towards them (``running ← (1 - momentum)·running + momentum·batch``, the
variance unbiased); in evaluation it normalises with the running statistics.

>>> import minitorch
>>> from minitorch import nn
>>> bn = nn.BatchNorm1d(2)
>>> bn(minitorch.tensor([[1., 2.], [3., 6.]]))
tensor([[-1.0000, -1.0000],
        [ 1.0000,  1.0000]], grad_fn=<NativeBatchNormBackward0>)
>>> bn.running_mean, bn.num_batches_tracked
(tensor([0.2000, 0.4000]), tensor(1))
"""

from __future__ import annotations

from typing import Any

from .. import _creation
from .._dtype import int64
from .._tensor import Tensor
from ..autograd import grad_mode
from . import functional as F
from . import init
from .module import Module
from .parameter import Parameter

__all__ = ["BatchNorm1d", "BatchNorm2d", "BatchNorm3d"]


class _BatchNorm(Module):
    """What both batch norms share; they differ in the input ranks they accept."""

    _defaulted_buffers = ("num_batches_tracked",)  # a state dict without it keeps the count
    _version = 2  # torch's: the version that added num_batches_tracked

    def __init__(self, num_features: int, eps: float = 1e-5, momentum: float | None = 0.1,
                 affine: bool = True, track_running_stats: bool = True, device: Any = None,
                 dtype: Any = None, *, bias: bool = True) -> None:
        super().__init__()
        self.num_features = num_features
        self.eps = eps
        self.momentum = momentum
        self.affine = affine
        self.track_running_stats = track_running_stats
        factory = {"device": device, "dtype": dtype}
        self.register_parameter(
            "weight", Parameter(_creation.empty(num_features, **factory)) if affine else None)
        with_bias = affine and bias
        self.register_parameter(
            "bias", Parameter(_creation.empty(num_features, **factory)) if with_bias else None)
        if track_running_stats:
            self.register_buffer("running_mean", _creation.zeros(num_features, **factory))
            self.register_buffer("running_var", _creation.ones(num_features, **factory))
            self.register_buffer("num_batches_tracked",
                                 _creation.tensor(0, dtype=int64, device=device))
        else:
            for name in ("running_mean", "running_var", "num_batches_tracked"):
                self.register_buffer(name, None)
        self.reset_parameters()

    def reset_running_stats(self) -> None:
        """Running mean 0, running variance 1, no batches seen."""
        if self.track_running_stats:
            with grad_mode._recording(False):
                self.running_mean.zero_()
                self.running_var.fill_(1)
                self.num_batches_tracked.zero_()

    def reset_parameters(self) -> None:
        """Reset the running statistics, weight to 1 and bias to 0."""
        self.reset_running_stats()
        if self.weight is not None:
            init.ones_(self.weight)
        if self.bias is not None:
            init.zeros_(self.bias)

    def _check_input_dim(self, x: Tensor) -> None:
        raise NotImplementedError

    def forward(self, input: Tensor) -> Tensor:
        self._check_input_dim(input)
        momentum = 0.0 if self.momentum is None else self.momentum
        if self.training and self.track_running_stats and self.num_batches_tracked is not None:
            with grad_mode._recording(False):
                self.num_batches_tracked.add_(1)
            if self.momentum is None:  # a cumulative average over all batches
                momentum = 1.0 / self.num_batches_tracked.item()
        use_batch_stats = self.training or self.running_mean is None
        track = not self.training or self.track_running_stats
        return F.batch_norm(input, self.running_mean if track else None,
                            self.running_var if track else None, self.weight, self.bias,
                            use_batch_stats, momentum, self.eps)

    def extra_repr(self) -> str:
        return (f"{self.num_features}, eps={self.eps}, momentum={self.momentum}, "
                f"affine={self.affine}, bias={self.bias is not None}, "
                f"track_running_stats={self.track_running_stats}")


class BatchNorm1d(_BatchNorm):
    """Batch norm of (batch, channels) or (batch, channels, length) input.

    >>> nn.BatchNorm1d(3)
    BatchNorm1d(3, eps=1e-05, momentum=0.1, affine=True, bias=True, track_running_stats=True)
    """

    def _check_input_dim(self, x: Tensor) -> None:
        if x.dim() not in (2, 3):
            raise ValueError(f"expected 2D or 3D input (got {x.dim()}D input)")


class BatchNorm2d(_BatchNorm):
    """Batch norm of (batch, channels, height, width) input.

    >>> nn.BatchNorm2d(3, affine=False)
    BatchNorm2d(3, eps=1e-05, momentum=0.1, affine=False, bias=False, track_running_stats=True)
    """

    def _check_input_dim(self, x: Tensor) -> None:
        if x.dim() != self._dims:
            raise ValueError(f"expected {self._dims}D input (got {x.dim()}D input)")

    _dims = 4


class BatchNorm3d(BatchNorm2d):
    """Batch norm of (batch, channels, depth, height, width) input.

    >>> nn.BatchNorm3d(2)(minitorch.ones(2, 2, 1, 1, 3)).shape
    torch.Size([2, 2, 1, 1, 3])
    """

    _dims = 5
