"""``Conv1d``, ``Conv2d``, ``Conv3d`` and ``ConvTranspose1d/2d/3d``: learnable convolution layers; a
``padding_mode`` other than 'zeros' pads with ``F.pad`` first, as torch does.

>>> import minitorch
>>> from minitorch import nn
>>> conv = nn.Conv2d(1, 6, 3)
>>> conv, conv(minitorch.ones(2, 1, 5, 5)).shape
(Conv2d(1, 6, kernel_size=(3, 3), stride=(1, 1)), torch.Size([2, 6, 3, 3]))
"""

from __future__ import annotations

from typing import Any

from .. import _args, _creation
from .._tensor import Tensor
from ..ops.pad import pad
from . import functional, init
from .functional_conv import conv_transpose1d, conv_transpose2d, conv_transpose3d
from .module import Module
from .parameter import Parameter

__all__ = ["Conv1d", "Conv2d", "Conv3d", "ConvTranspose1d", "ConvTranspose2d",
           "ConvTranspose3d"]


def _check_groups(in_channels: int, out_channels: int, groups: int) -> None:
    if _args.python_op(groups, "<=", 0):  # torch's Python: its own TypeErrors for other types
        raise ValueError("groups must be a positive integer")
    if _args.python_op(in_channels, "%", groups):
        raise ValueError("in_channels must be divisible by groups")
    if _args.python_op(out_channels, "%", groups):
        raise ValueError("out_channels must be divisible by groups")


def _ntuple(value: Any, n: int) -> tuple:
    """torch's ``_pair`` (``_single``): an iterable as a tuple, anything else n times; the
    weight's allocation and ``conv2d`` check the values (so ``Conv2d(1, 2, 2.5)`` fails as
    torch's).

    >>> _ntuple(3, 2), _ntuple([1, 2], 2), _ntuple(3, 1)
    ((3, 3), (1, 2), (3,))
    """
    return _args.python_ntuple(value, n)


def _padding_string(padding: str, stride: tuple) -> str:
    """torch's constructor checks of a padding string: 'same' or 'valid', and no 'same'
    with a stride.

    >>> _padding_string("SAME", (1, 1))  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ValueError: Invalid padding string 'SAME', should be one of {...}
    """
    valid = {"same", "valid"}  # torch prints its set: in this process's order of the two
    if padding not in valid:
        raise ValueError(f"Invalid padding string {padding!r}, should be one of {valid}")
    if padding == "same" and any(s != 1 for s in stride):
        raise ValueError("padding='same' is not supported for strided convolutions")
    return padding


def _check_padding_mode(padding_mode: Any) -> None:
    """torch's refusal of an unknown padding mode; minitorch's of the ones it lacks."""
    valid = {"zeros", "reflect", "replicate", "circular"}  # printed in torch's set order
    if padding_mode not in valid:
        raise ValueError(f"padding_mode must be one of {valid}, but got "
                         f"padding_mode='{padding_mode}'")


def _mode_padding(padding: Any, kernel: tuple, dilation: tuple) -> tuple:
    """The ``F.pad`` widths of a padding mode other than 'zeros' (last dim first), as torch's
    ``_reversed_padding_repeated_twice``; 'same' puts the odd one after."""
    if padding == "valid":
        return (0, 0) * len(kernel)
    if padding == "same":  # torch's Python arithmetic (its TypeError for a None in the kernel)
        op = _args.python_op
        totals = [op(d, "*", op(k, "-", 1)) for k, d in zip(kernel, dilation)]
        return tuple(n for t in reversed(totals) for n in (op(t, "//", 2), t - t // 2))
    return tuple(p for p in reversed(padding) for _ in range(2))


class _ConvNd(Module):
    """What the convolution layers share: torch's argument checks, the weight (out,
    in/groups, *kernel; transposed: in, out/groups, *kernel), its init and the padding mode;
    ``_dims`` and the convolution each one's ``forward`` passes to ``_conv_forward`` tell them
    apart."""

    _dims = 2
    output_padding: tuple = ()
    transposed = False

    def __init__(self, in_channels: int, out_channels: int, kernel_size: Any, stride: Any = 1,
                 padding: Any = 0, dilation: Any = 1, groups: int = 1, bias: bool = True,
                 padding_mode: str = "zeros", device: Any = None, dtype: Any = None) -> None:
        super().__init__()
        # torch's order: the pairs, then the groups, the padding string and mode
        n = self._dims
        self.kernel_size, self.stride = _ntuple(kernel_size, n), _ntuple(stride, n)
        padding = padding if isinstance(padding, str) else _ntuple(padding, n)
        self.dilation = _ntuple(dilation, n)
        _check_groups(in_channels, out_channels, groups)
        self.in_channels, self.out_channels = in_channels, out_channels
        self.padding = _padding_string(padding, self.stride) if isinstance(padding, str) \
            else padding
        _check_padding_mode(padding_mode)
        self.groups, self.padding_mode = groups, padding_mode
        if isinstance(self.padding, str):  # torch's constructor works out the widths here
            _mode_padding(self.padding, self.kernel_size, self.dilation)
        self._parameters_of((out_channels, in_channels // groups, *self.kernel_size), bias,
                            device, dtype)

    def _parameters_of(self, shape: tuple, bias: bool, device: Any, dtype: Any) -> None:
        """The weight of ``shape`` and the bias of ``out_channels``, drawn as torch's."""
        self.weight = Parameter(_creation.empty(shape, device=device, dtype=dtype))
        if bias:
            self.bias = Parameter(_creation.empty(self.out_channels, device=device,
                                                  dtype=dtype))
        else:
            self.register_parameter("bias", None)
        self.reset_parameters()

    def reset_parameters(self) -> None:
        """Draw fresh weights: kaiming_uniform_(a=sqrt(5)), bias in ±1/sqrt(fan_in)."""
        init._reset_layer(self.weight, self.bias)

    def _conv_forward(self, input: Tensor, conv: Any) -> Tensor:
        """``conv`` (conv1d, conv2d or conv3d) of ``input`` with this layer's parameters."""
        if self.padding_mode != "zeros":
            widths = _mode_padding(self.padding, self.kernel_size, self.dilation)
            return conv(pad(input, widths, mode=self.padding_mode), self.weight, self.bias,
                        self.stride, (0,) * self._dims, self.dilation, self.groups)
        return conv(input, self.weight, self.bias, self.stride, self.padding, self.dilation,
                    self.groups)

    def extra_repr(self) -> str:
        text = (f"{self.in_channels}, {self.out_channels}, kernel_size={self.kernel_size}, "
                f"stride={self.stride}")
        # torch compares each with a tuple of its own length (an empty one is the default)
        if self.padding != (0,) * len(self.padding):
            text += f", padding={self.padding}"
        if self.dilation != (1,) * len(self.dilation):
            text += f", dilation={self.dilation}"
        if self.output_padding != (0,) * len(self.output_padding):
            text += f", output_padding={self.output_padding}"
        if self.groups != 1:
            text += f", groups={self.groups}"
        if self.bias is None:
            text += ", bias=False"
        if self.padding_mode != "zeros":
            text += f", padding_mode={self.padding_mode}"
        return text


class Conv1d(_ConvNd):
    """``out = conv1d(x, weight, bias)`` with ``weight`` of shape (out, in, k); weight and
    bias start uniform in ±1/sqrt(in * k), as torch's defaults.

    >>> nn.Conv1d(4, 8, 3, padding=1)
    Conv1d(4, 8, kernel_size=(3,), stride=(1,), padding=(1,))
    """

    _dims = 1

    def forward(self, input: Tensor) -> Tensor:
        return self._conv_forward(input, functional.conv1d)  # refusals worded for its call


class Conv2d(_ConvNd):
    """``out = conv2d(x, weight, bias)`` with ``weight`` of shape (out, in, kh, kw); weight
    and bias start uniform in ±1/sqrt(in * kh * kw), as torch's defaults.

    >>> nn.Conv2d(3, 8, (3, 5), stride=2, padding=1, bias=False)
    Conv2d(3, 8, kernel_size=(3, 5), stride=(2, 2), padding=(1, 1), bias=False)
    """

    def forward(self, input: Tensor) -> Tensor:
        return self._conv_forward(input, functional.conv2d)  # refusals worded for its call


class Conv3d(_ConvNd):
    """``out = conv3d(x, weight, bias)`` with ``weight`` of shape (out, in, kd, kh, kw);
    weight and bias start uniform in ±1/sqrt(in * kd * kh * kw), as torch's defaults.

    >>> nn.Conv3d(2, 4, (1, 2, 3), stride=2, padding=1)
    Conv3d(2, 4, kernel_size=(1, 2, 3), stride=(2, 2, 2), padding=(1, 1, 1))
    """

    _dims = 3

    def forward(self, input: Tensor) -> Tensor:
        return self._conv_forward(input, functional.conv3d)  # refusals worded for its call


class _ConvTransposeNd(_ConvNd):
    """What the transposed convolution layers share: the weight (in, out/groups, *kernel),
    started as torch's (fan_in from ``weight.size(1) * prod(kernel)``), and a ``forward``
    that takes an ``output_size`` that picks the output padding."""

    transposed = True

    def __init__(self, in_channels: int, out_channels: int, kernel_size: Any, stride: Any = 1,
                 padding: Any = 0, output_padding: Any = 0, groups: int = 1,
                 bias: bool = True, dilation: Any = 1, padding_mode: str = "zeros",
                 device: Any = None, dtype: Any = None) -> None:
        Module.__init__(self)
        n = self._dims
        if padding_mode != "zeros":
            raise ValueError('Only "zeros" padding mode is supported for '
                             f"{type(self).__name__}")
        self.kernel_size, self.stride = _ntuple(kernel_size, n), _ntuple(stride, n)
        self.padding, self.dilation = _ntuple(padding, n), _ntuple(dilation, n)
        self.output_padding = _ntuple(output_padding, n)
        _check_groups(in_channels, out_channels, groups)
        self.in_channels, self.out_channels = in_channels, out_channels
        self.groups, self.padding_mode = groups, padding_mode
        self._parameters_of((in_channels, out_channels // groups, *self.kernel_size), bias,
                            device, dtype)

    def forward(self, input: Tensor, output_size: Any = None) -> Tensor:
        output_padding = self.output_padding if output_size is None else \
            self._output_padding(input, output_size)
        transposed = (conv_transpose1d, conv_transpose2d, conv_transpose3d)[self._dims - 1]
        return transposed(input, self.weight, self.bias, self.stride, self.padding,
                          output_padding, self.groups, self.dilation)  # (torch's parser too)

    def _output_padding(self, input: Tensor, output_size: Any) -> list[int]:
        """torch's ``_output_padding``: the output padding that gives ``output_size`` (its
        last ``_dims`` entries), which must lie within one stride of the smallest output."""
        n = self._dims
        lead = 2 if input.dim() == n + 2 else 1
        if len(output_size) == lead + n:
            output_size = output_size[lead:]
        if len(output_size) != n:
            raise ValueError(f"ConvTranspose{n}D: for {input.dim()}D input, output_size must "
                             f"have {n} or {lead + n} elements (got {len(output_size)})")
        smallest = [(input.size(lead + d) - 1) * self.stride[d] - 2 * self.padding[d]
                    + self.dilation[d] * (self.kernel_size[d] - 1) + 1 for d in range(n)]
        largest = [k + s - 1 for k, s in zip(smallest, self.stride)]
        if any(not lo <= k <= hi for k, lo, hi in zip(output_size, smallest, largest)):
            raise ValueError(f"requested an output size of {output_size}, but valid sizes "
                             f"range from {smallest} to {largest} (for an input of "
                             f"{input.shape[2:]})")
        return [k - lo for k, lo in zip(output_size, smallest)]


class ConvTranspose1d(_ConvTransposeNd):
    """``out = conv_transpose1d(x, weight, bias)`` with ``weight`` of shape (in,
    out/groups, k).

    >>> nn.ConvTranspose1d(2, 3, 3, stride=2, output_padding=1)
    ConvTranspose1d(2, 3, kernel_size=(3,), stride=(2,), output_padding=(1,))
    """

    _dims = 1


class ConvTranspose2d(_ConvTransposeNd):
    """``out = conv_transpose2d(x, weight, bias)`` with ``weight`` of shape (in, out/groups,
    kh, kw); ``forward`` takes an ``output_size`` that picks the output padding.

    >>> up = nn.ConvTranspose2d(4, 2, 3, stride=2)
    >>> up, up(minitorch.ones(1, 4, 3, 3), output_size=[8, 8]).shape
    (ConvTranspose2d(4, 2, kernel_size=(3, 3), stride=(2, 2)), torch.Size([1, 2, 8, 8]))
    """


class ConvTranspose3d(_ConvTransposeNd):
    """``out = conv_transpose3d(x, weight, bias)`` with ``weight`` of shape (in,
    out/groups, kd, kh, kw).

    >>> nn.ConvTranspose3d(2, 4, (1, 2, 3), padding=1)
    ConvTranspose3d(2, 4, kernel_size=(1, 2, 3), stride=(1, 1, 1), padding=(1, 1, 1))
    """

    _dims = 3


# torch's spectral norms treat these as (in, out) matrices: their dim 1 is the rows
TRANSPOSED_LAYERS = (ConvTranspose1d, ConvTranspose2d, ConvTranspose3d)
