"""Pooling over the last one, two or three dimensions: ``AvgPool2d`` and ``MaxPool2d`` (the
mean or the largest of each window, and their 1-d and 3-d kin), ``AdaptiveAvgPool2d`` and
``AdaptiveMaxPool2d`` (the mean or the largest of each of a given number of windows, idem).

>>> import minitorch
>>> from minitorch import nn
>>> nn.AvgPool2d(kernel_size=2)(minitorch.ones(1, 1, 4, 4)).shape
torch.Size([1, 1, 2, 2])
"""

from __future__ import annotations

from typing import Any

from .. import _args
from .._tensor import Tensor
from . import functional as F
from .functional_conv import max_pool2d, max_pool3d
from .functional_conv1d import max_pool1d, max_unpool2d, max_unpool3d
from .functional_interpolate import interpolate
from .module import Module

__all__ = ["AdaptiveAvgPool1d", "AdaptiveAvgPool2d", "AdaptiveAvgPool3d", "AdaptiveMaxPool1d",
           "AdaptiveMaxPool2d", "AdaptiveMaxPool3d", "AvgPool1d", "AvgPool2d", "AvgPool3d",
           "LPPool1d", "LPPool2d", "LPPool3d", "MaxPool1d", "MaxPool2d", "MaxPool3d",
           "MaxUnpool1d", "MaxUnpool2d", "MaxUnpool3d", "Upsample", "UpsamplingBilinear2d",
           "UpsamplingNearest2d"]


def _single(value: Any) -> tuple:
    """torch's ``_single``: a sequence as a tuple, anything else as a 1-tuple."""
    return tuple(value) if isinstance(value, (tuple, list)) else (value,)


class AvgPool1d(Module):
    """Average pooling of the last dim with a ``kernel_size`` window moved by ``stride``.

    >>> nn.AvgPool1d(3, 2)
    AvgPool1d(kernel_size=(3,), stride=(2,), padding=(0,))
    """

    def __init__(self, kernel_size: Any, stride: Any = None, padding: Any = 0,
                 ceil_mode: bool = False, count_include_pad: bool = True) -> None:
        super().__init__()
        self.kernel_size = _single(kernel_size)
        self.stride = _single(stride if stride is not None else kernel_size)
        self.padding = _single(padding)
        self.ceil_mode, self.count_include_pad = ceil_mode, count_include_pad

    def forward(self, input: Tensor) -> Tensor:
        return F.avg_pool1d(input, self.kernel_size, self.stride, self.padding, self.ceil_mode,
                            self.count_include_pad)

    def extra_repr(self) -> str:
        return f"kernel_size={self.kernel_size}, stride={self.stride}, padding={self.padding}"


class _AvgPoolNd(Module):
    """What AvgPool2d and AvgPool3d share: the window, its stride (default: the kernel) and
    padding, ``ceil_mode``, ``count_include_pad`` and ``divisor_override``."""

    def __init__(self, kernel_size: Any, stride: Any = None, padding: Any = 0,
                 ceil_mode: bool = False, count_include_pad: bool = True,
                 divisor_override: Any = None) -> None:
        super().__init__()
        self.kernel_size = kernel_size
        self.stride = stride if stride is not None else kernel_size
        self.padding = padding
        self.ceil_mode = ceil_mode
        self.count_include_pad, self.divisor_override = count_include_pad, divisor_override

    def forward(self, input: Tensor) -> Tensor:
        return self._pool(input, self.kernel_size, self.stride, self.padding, self.ceil_mode,
                          self.count_include_pad, self.divisor_override)

    def extra_repr(self) -> str:
        return f"kernel_size={self.kernel_size}, stride={self.stride}, padding={self.padding}"


class AvgPool2d(_AvgPoolNd):
    """Average pooling with a ``kernel_size`` window moved by ``stride`` (default: kernel).

    >>> nn.AvgPool2d(3, stride=1)
    AvgPool2d(kernel_size=3, stride=1, padding=0)
    """

    _pool = staticmethod(F.avg_pool2d)


class AvgPool3d(_AvgPoolNd):
    """Average pooling over the last three dims of (N, C, D, H, W) or (C, D, H, W).

    >>> nn.AvgPool3d((1, 2, 2))(minitorch.ones(1, 1, 2, 4, 4)).shape
    torch.Size([1, 1, 2, 2, 2])
    """

    _pool = staticmethod(F.avg_pool3d)


class _MaxPoolNd(Module):
    """What the max pools of every rank share: the window, its stride, padding and
    dilation, ``return_indices`` and ``ceil_mode``."""

    def __init__(self, kernel_size: Any, stride: Any = None, padding: Any = 0,
                 dilation: Any = 1, return_indices: bool = False,
                 ceil_mode: bool = False) -> None:
        super().__init__()
        self.kernel_size = kernel_size
        self.stride = stride if stride is not None else kernel_size
        self.padding, self.dilation = padding, dilation
        self.return_indices, self.ceil_mode = return_indices, ceil_mode

    def forward(self, input: Tensor) -> Tensor:
        return self._pool(input, self.kernel_size, self.stride, self.padding, self.dilation,
                          self.ceil_mode, self.return_indices)

    def extra_repr(self) -> str:
        return (f"kernel_size={self.kernel_size}, stride={self.stride}, padding={self.padding}, "
                f"dilation={self.dilation}, ceil_mode={self.ceil_mode}")


class MaxPool2d(_MaxPoolNd):
    """Max pooling with a ``kernel_size`` window moved by ``stride`` (default: kernel).

    >>> nn.MaxPool2d(3, 2, 1)
    MaxPool2d(kernel_size=3, stride=2, padding=1, dilation=1, ceil_mode=False)
    """

    _pool = staticmethod(max_pool2d)


class MaxPool1d(_MaxPoolNd):
    """Max pooling over the last dim of (N, C, L) or (C, L).

    >>> nn.MaxPool1d(3)
    MaxPool1d(kernel_size=3, stride=3, padding=0, dilation=1, ceil_mode=False)
    """

    _pool = staticmethod(max_pool1d)


class MaxPool3d(_MaxPoolNd):
    """Max pooling over the last three dims of (N, C, D, H, W) or (C, D, H, W).

    >>> nn.MaxPool3d((2, 3, 1), stride=1)
    MaxPool3d(kernel_size=(2, 3, 1), stride=1, padding=0, dilation=1, ceil_mode=False)
    """

    _pool = staticmethod(max_pool3d)


class _MaxUnpoolNd(Module):
    """What the max unpoolings share: the pooling's window, stride (default: the kernel)
    and padding, each read as torch's ``_pair``/``_triple`` reads it (the values are read,
    and refused, where the functional uses them)."""

    def __init__(self, kernel_size: Any, stride: Any = None, padding: Any = 0) -> None:
        super().__init__()
        self.kernel_size = _args.python_ntuple(kernel_size, self._dims)
        self.stride = _args.python_ntuple(kernel_size if stride is None else stride,
                                          self._dims)
        self.padding = _args.python_ntuple(padding, self._dims)

    def forward(self, input: Tensor, indices: Tensor, output_size: Any = None) -> Tensor:
        return self._unpool(input, indices, self.kernel_size, self.stride, self.padding,
                            output_size)

    def extra_repr(self) -> str:
        return f"kernel_size={self.kernel_size}, stride={self.stride}, padding={self.padding}"


class MaxUnpool2d(_MaxUnpoolNd):
    """``max_unpool2d``: undo a ``MaxPool2d(return_indices=True)``.

    >>> nn.MaxUnpool2d(2)
    MaxUnpool2d(kernel_size=(2, 2), stride=(2, 2), padding=(0, 0))
    """

    _dims, _unpool = 2, staticmethod(max_unpool2d)


class MaxUnpool3d(_MaxUnpoolNd):
    """``max_unpool3d``: undo a ``MaxPool3d(return_indices=True)``.

    >>> nn.MaxUnpool3d((1, 2, 2))
    MaxUnpool3d(kernel_size=(1, 2, 2), stride=(1, 2, 2), padding=(0, 0, 0))
    """

    _dims, _unpool = 3, staticmethod(max_unpool3d)


class MaxUnpool1d(_MaxUnpoolNd):
    """``max_unpool1d``: undo a ``MaxPool1d(return_indices=True)``.

    >>> nn.MaxUnpool1d(2, stride=1)
    MaxUnpool1d(kernel_size=(2,), stride=(1,), padding=(0,))
    """

    _unpool = staticmethod(F.max_unpool1d)

    def __init__(self, kernel_size: Any, stride: Any = None, padding: Any = 0) -> None:
        Module.__init__(self)
        self.kernel_size = _single(kernel_size)
        self.stride = _single(stride if stride is not None else kernel_size)
        self.padding = _single(padding)


class _LPPoolNd(Module):
    """What LPPool1d and LPPool2d share: the norm, the window, its stride, ``ceil_mode``."""

    def __init__(self, norm_type: float, kernel_size: Any, stride: Any = None,
                 ceil_mode: bool = False) -> None:
        super().__init__()
        self.norm_type, self.kernel_size = norm_type, kernel_size
        self.stride, self.ceil_mode = stride, ceil_mode

    def forward(self, input: Tensor) -> Tensor:
        return type(self).function(input, _args.python_float(self.norm_type), self.kernel_size,
                                   self.stride, self.ceil_mode)

    def extra_repr(self) -> str:
        return (f"norm_type={self.norm_type}, kernel_size={self.kernel_size}, "
                f"stride={self.stride}, ceil_mode={self.ceil_mode}")


class LPPool1d(_LPPoolNd):
    """The ``norm_type``-norm of each window of the last dim (``F.lp_pool1d``).

    >>> nn.LPPool1d(2, 3, stride=2)
    LPPool1d(norm_type=2, kernel_size=3, stride=2, ceil_mode=False)
    """

    function = staticmethod(F.lp_pool1d)


class LPPool3d(_LPPoolNd):
    """The ``norm_type``-norm of each window of the last three dims (``F.lp_pool3d``).

    >>> nn.LPPool3d(2, (1, 2, 2))(minitorch.tensor([[[[3., 4.], [0., 0.]]]]))
    tensor([[[[5.]]]])
    """

    function = staticmethod(F.lp_pool3d)


class LPPool2d(_LPPoolNd):
    """The ``norm_type``-norm of each window of the last two dims (``F.lp_pool2d``).

    >>> nn.LPPool2d(2, 2)(minitorch.tensor([[[3., 4.], [0., 0.]]]))
    tensor([[[5.]]])
    """

    function = staticmethod(F.lp_pool2d)


class _AdaptiveAvgPoolNd(Module):
    """What the adaptive poolings share: a fixed ``output_size``, whatever the input's."""

    def __init__(self, output_size: Any) -> None:
        super().__init__()
        self.output_size = output_size

    def extra_repr(self) -> str:
        return f"output_size={self.output_size}"


class AdaptiveAvgPool2d(_AdaptiveAvgPoolNd):
    """Average pooling to a fixed ``output_size`` (an int, or a pair whose None keeps the
    input's size), whatever the input's size.

    >>> nn.AdaptiveAvgPool2d((2, None))(minitorch.ones(1, 4, 5)).shape
    torch.Size([1, 2, 5])
    """

    def forward(self, input: Tensor) -> Tensor:
        return F.adaptive_avg_pool2d(input, self.output_size)


class AdaptiveAvgPool3d(_AdaptiveAvgPoolNd):
    """Average pooling of the last three dims to a fixed ``output_size`` (an int, or a
    triple whose None keeps the input's size).

    >>> nn.AdaptiveAvgPool3d((1, None, 2))(minitorch.ones(1, 2, 3, 4)).shape
    torch.Size([1, 1, 3, 2])
    """

    def forward(self, input: Tensor) -> Tensor:
        return F.adaptive_avg_pool3d(input, self.output_size)


class AdaptiveAvgPool1d(_AdaptiveAvgPoolNd):
    """Average pooling of the last dim to a fixed ``output_size``.

    >>> nn.AdaptiveAvgPool1d(2)(minitorch.ones(1, 3, 5)).shape
    torch.Size([1, 3, 2])
    """

    def forward(self, input: Tensor) -> Tensor:
        return F.adaptive_avg_pool1d(input, self.output_size)


class _AdaptiveMaxPoolNd(_AdaptiveAvgPoolNd):
    """What the adaptive max poolings add: ``return_indices``."""

    def __init__(self, output_size: Any, return_indices: bool = False) -> None:
        super().__init__(output_size)
        self.return_indices = return_indices


class AdaptiveMaxPool2d(_AdaptiveMaxPoolNd):
    """Max pooling to a fixed ``output_size`` (an int, or a pair whose None keeps the input's
    size); with ``return_indices`` also each maximum's flat index in its plane.

    >>> nn.AdaptiveMaxPool2d(1)(minitorch.arange(4.).reshape(1, 2, 2))
    tensor([[[3.]]])
    """

    def forward(self, input: Tensor) -> Any:
        return F.adaptive_max_pool2d(input, self.output_size, self.return_indices)


class AdaptiveMaxPool3d(_AdaptiveMaxPoolNd):
    """Max pooling of the last three dims to a fixed ``output_size``; with
    ``return_indices`` also each maximum's flat index in its volume.

    >>> nn.AdaptiveMaxPool3d(1)(minitorch.arange(8.).reshape(1, 2, 2, 2))
    tensor([[[[7.]]]])
    """

    def forward(self, input: Tensor) -> Any:
        return F.adaptive_max_pool3d(input, self.output_size, self.return_indices)


class AdaptiveMaxPool1d(_AdaptiveMaxPoolNd):
    """Max pooling of the last dim to a fixed ``output_size``; with ``return_indices`` also
    where each maximum is.

    >>> nn.AdaptiveMaxPool1d(2)(minitorch.tensor([[1., 3., 2., 0.]]))
    tensor([[3., 2.]])
    """

    def forward(self, input: Tensor) -> Any:
        return F.adaptive_max_pool1d(input, self.output_size, self.return_indices)


class Upsample(Module):
    """Resize the spatial dims by ``size`` or ``scale_factor`` (``F.interpolate``).

    >>> nn.Upsample(scale_factor=2, mode="bilinear")
    Upsample(scale_factor=2.0, mode='bilinear')
    """

    def __init__(self, size: Any = None, scale_factor: Any = None, mode: str = "nearest",
                 align_corners: bool | None = None,
                 recompute_scale_factor: bool | None = None) -> None:
        super().__init__()
        self.name, self.size, self.mode = type(self).__name__, size, mode
        if isinstance(scale_factor, tuple):
            self.scale_factor: Any = tuple(float(factor) for factor in scale_factor)
        else:
            self.scale_factor = float(scale_factor) if scale_factor else None
        self.align_corners, self.recompute_scale_factor = align_corners, recompute_scale_factor

    def forward(self, input: Tensor) -> Tensor:
        return interpolate(input, self.size, self.scale_factor, self.mode, self.align_corners,
                           recompute_scale_factor=self.recompute_scale_factor)

    def extra_repr(self) -> str:
        if self.scale_factor is not None:
            return f"scale_factor={self.scale_factor!r}, mode={self.mode!r}"
        return f"size={self.size!r}, mode={self.mode!r}"


class UpsamplingNearest2d(Upsample):
    """``Upsample(size, scale_factor, mode="nearest")`` under torch's older name.

    >>> nn.UpsamplingNearest2d(scale_factor=2)
    UpsamplingNearest2d(scale_factor=2.0, mode='nearest')
    """

    def __init__(self, size: Any = None, scale_factor: Any = None) -> None:
        super().__init__(size, scale_factor, mode="nearest")


class UpsamplingBilinear2d(Upsample):
    """``Upsample(size, scale_factor, mode="bilinear", align_corners=True)``.

    >>> nn.UpsamplingBilinear2d(size=(2, 3))(minitorch.ones(1, 1, 1, 1)).shape
    torch.Size([1, 1, 2, 3])
    """

    def __init__(self, size: Any = None, scale_factor: Any = None) -> None:
        super().__init__(size, scale_factor, mode="bilinear", align_corners=True)
