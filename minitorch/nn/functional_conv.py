"""The functional forms of the 2-D convolution and max pooling: ``conv2d`` and
``max_pool2d``. ``minitorch.nn.functional`` re-exports them.

>>> import minitorch
>>> from minitorch.nn import functional as F
>>> F.conv2d(minitorch.ones(1, 1, 3, 3), minitorch.ones(1, 1, 2, 2))
tensor([[[[4., 4.],
          [4., 4.]]]])
"""

from __future__ import annotations

from typing import Any

from .._tensor import Tensor
from ..ops.conv import Convolution, MaxPool2DWithIndices

__all__ = ["conv2d", "max_pool2d", "pair"]


def pair(value: Any) -> tuple[int, int]:
    """``value`` as (height, width): an int is used for both.

    >>> pair(3), pair((1, 2))
    ((3, 3), (1, 2))
    """
    if isinstance(value, int):
        return (value, value)
    return (int(value[0]), int(value[1]))


def _same_padding(kernel: tuple, dilation: tuple) -> tuple[int, int]:
    total = [d * (k - 1) for k, d in zip(kernel, dilation)]
    if any(t % 2 for t in total):
        raise NotImplementedError("minitorch's conv2d supports padding='same' only where it is "
                                  "symmetric (odd kernels); give the padding as numbers")
    return (total[0] // 2, total[1] // 2)


def _check_conv(input: Tensor, weight: Tensor, groups: int) -> None:
    if groups != 1:
        raise NotImplementedError("minitorch's conv2d supports groups=1 only")
    if weight.dim() != 4:
        raise RuntimeError(f"weight should have at least three dimensions, got "
                           f"{weight.dim()}") if weight.dim() < 3 else RuntimeError(
            f"Expected 4-dimensional weight for 4-dimensional input, but got weight of size "
            f"{list(weight.shape)} instead")
    if input.shape[1] != weight.shape[1]:
        raise RuntimeError(
            f"Given groups=1, weight of size {list(weight.shape)}, expected input"
            f"{list(input.shape)} to have {weight.shape[1]} channels, but got "
            f"{input.shape[1]} channels instead")


def conv2d(input: Tensor, weight: Tensor, bias: Tensor | None = None, stride: Any = 1,
           padding: Any = 0, dilation: Any = 1, groups: int = 1) -> Tensor:
    """Cross-correlate ``input`` (N, C, H, W) or (C, H, W) with ``weight`` (O, C, kh, kw).

    >>> F.conv2d(minitorch.ones(1, 2, 4, 4), minitorch.ones(3, 2, 3, 3), padding=1).shape
    minitorch.Size([1, 3, 4, 4])
    """
    if input.dim() == 3:
        return conv2d(input.unsqueeze(0), weight, bias, stride, padding, dilation,
                      groups).squeeze(0)
    if input.dim() != 4:
        raise RuntimeError(f"Expected 3D (unbatched) or 4D (batched) input to conv2d, but got "
                           f"input of size: {list(input.shape)}")
    _check_conv(input, weight, groups)
    dilation = pair(dilation)
    if padding == "valid":
        padding = 0
    elif padding == "same":
        padding = _same_padding(tuple(weight.shape[2:]), dilation)
    geometry = (pair(stride), pair(padding), dilation)
    return Convolution.apply(input, weight, bias, geometry=geometry)


def max_pool2d(input: Tensor, kernel_size: Any, stride: Any = None, padding: Any = 0,
               dilation: Any = 1, ceil_mode: bool = False,
               return_indices: bool = False) -> Tensor:
    """The maximum of each ``kernel_size`` window, moved by ``stride`` (default: the kernel).

    >>> F.max_pool2d(minitorch.arange(16.).reshape(1, 1, 4, 4), 2)
    tensor([[[[ 5.,  7.],
              [13., 15.]]]])
    """
    if ceil_mode or return_indices:
        raise NotImplementedError("minitorch's max_pool2d supports neither ceil_mode nor "
                                  "return_indices")
    if input.dim() not in (3, 4):
        raise RuntimeError("non-empty 3D or 4D (batch mode) tensor expected for input")
    kernel = pair(kernel_size)
    stride = kernel if stride is None or stride == [] else pair(stride)
    pad = pair(padding)
    if pad[0] > kernel[0] // 2 or pad[1] > kernel[1] // 2:
        raise RuntimeError("pad should be at most half of effective kernel size, but got "
                           f"pad={pad[0]}, kernel_size={kernel[0]} and dilation="
                           f"{pair(dilation)[0]}")
    return MaxPool2DWithIndices.apply(input, kernel=kernel,
                                      geometry=(stride, pad, pair(dilation)))
