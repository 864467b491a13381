"""``conv1d`` and ``max_pool1d``: the 2-d operations on ``(N, C, 1, L)``, as torch runs them;
and ``max_unpool2d``, ``max_pool2d``'s inverse (``max_unpool1d`` through it).

torch's 1-d convolution is its 2-d kernels on the input with a height of one (one
``ConvolutionBackward0`` node); its ``max_pool1d`` is ``max_pool2d`` of ``input.unsqueeze(-2)``
squeezed back (its node is ``SqueezeBackward1``). minitorch takes the same routes, so values
and gradients are the 2-d ones'.

>>> import minitorch
>>> from minitorch.nn import functional as F
>>> F.conv1d(minitorch.ones(1, 2, 5), minitorch.ones(3, 2, 3)).shape
torch.Size([1, 3, 3])
"""

from __future__ import annotations

import math
from typing import Any

from .. import _args, _call_form
from .._tensor import Tensor
from ..ops.unpool import MaxUnpool2D, MaxUnpool3D
from .functional_conv import CONV_SIGNATURES, convolution, max_pool2d, single

__all__ = ["conv1d", "max_pool1d", "max_unpool1d", "max_unpool2d", "max_unpool3d"]


def _check_unpool(input: Tensor, indices: Tensor, size: Any, stride: tuple | None = None) -> tuple:
    """torch's max_unpool2d checks (or, given the ``stride``, max_unpool3d's), in its
    order, with its messages: its parser's reading of ``size`` (a tuple of ints), returned,
    then its kernel's checks."""
    n = 2 if stride is None else 3
    name = f"max_unpool{n}d"
    sides = ("two elements (height, width)", "three elements (depth, height, width)")[n - 2]
    _args.tensor_args(name, (indices, "indices", 2))
    size = _args.sizes(name, (list(size),), "output_size", check_negative=False, position=3)
    if indices.dtype.name != "int64":
        raise RuntimeError("elements in indices should be type int64" + (
            f" but got: {_args.legacy(indices.dtype)}" if n == 2 else ""))
    for check in ((_check_unpool_size, _check_unpool_rank) if n == 2 else
                  (_check_unpool_rank, _check_unpool_size)):
        check(input, size, n, sides)
    if input.shape != indices.shape:
        raise RuntimeError("Expected shape of indices to be same as that of the input tensor "
                           f"({list(input.shape)}) but got indices tensor with shape: "
                           f"{list(indices.shape)}")
    for d in range(1, input.dim()):
        if not input.shape[d]:
            raise RuntimeError(f"max_unpooling{n}d_forward_out_cpu(): Expected input to have "
                               "non-zero size for non-batch dimensions, but got "
                               f"{list(input.shape)} with dimension {d} being empty.")
    if stride is not None and min(stride) <= 0:
        raise RuntimeError(f"strides should be greater than zero, but got stride: {list(stride)}")
    if not input.dtype.is_floating_point and input.numel() and math.prod(size):
        raise _args.not_implemented(name, input.dtype)  # torch's kernel runs on no empty output
    return size


def _check_unpool_size(input: Tensor, size: tuple, n: int, sides: str) -> None:
    if len(size) != n:
        raise RuntimeError(f"There should be exactly {sides} in output_size, but got "
                           f"{len(size)} elements.")


def _check_unpool_rank(input: Tensor, size: tuple, n: int, sides: str) -> None:
    if input.dim() not in (n + 1, n + 2):
        raise RuntimeError(f"Input to max_unpooling{n}d should be a {n + 1}d or {n + 2}d Tensor, "
                           f"but got a tensor with {input.dim()} dimensions.")


@_call_form.overloads(*CONV_SIGNATURES)
@_args.tensors("conv1d", input="input", weight="weight", bias="bias")
def conv1d(input: Tensor, weight: Tensor, bias: Tensor | None = None, stride: Any = 1,
           padding: Any = 0, dilation: Any = 1, groups: int = 1) -> Tensor:
    """Cross-correlate ``input`` (N, C, L) or (C, L) with ``weight`` (O, C/groups, k).

    >>> F.conv1d(minitorch.ones(1, 1, 4), minitorch.ones(1, 1, 2), padding=1)
    tensor([[[1., 2., 2., 2., 1.]]])
    """
    return convolution(1, input, weight, bias, (stride, padding, dilation), groups)


def _check_pool1d_input(input: Tensor) -> None:
    """torch's max_pool1d input: 2-D or 3-D, only the batch dim may be empty."""
    if input.dim() not in (2, 3) or 0 in input.shape[-2:]:
        raise RuntimeError("max_pool1d: Expected 2D or 3D (batch mode) tensor with optional 0 "
                           f"dim batch size for input, but got:{list(input.shape)}")


# torch's check_max_pool1d: each window argument one int (stride may be empty)
_POOL1D_SIZES = {"kernel_size": "an int, list of ints or tuple of ints",
                 "stride": "None, an int, list of ints, or tuple of ints",
                 "padding": "an int, list of ints, or tuple of ints",
                 "dilation": "an int, list of ints or tuple of ints"}


def _check_pool1d_sizes(indices: bool, *values: Any) -> None:
    """Each window argument one int (``indices``: max_pool1d_with_indices's words)."""
    for (name, kinds), value in zip(_POOL1D_SIZES.items(), values):
        size = len(value) if isinstance(value, (list, tuple)) else 1
        if value is not None and size != 1:
            raise RuntimeError(f"max_pool1d() argument '{name}' should contain one int (got "
                               f"{size})" if indices else
                               f"max_pool1d() {name} must be {kinds} of size 1 but got size "
                               f"{size}")


def _check_pool1d(input: Tensor, window: tuple, ceil_mode: bool) -> None:
    """torch's max_pool1d checks of the window, with its messages."""
    kernel, stride, padding, dilation = window
    for name, value, low in (("kernel_size", kernel, 1), ("stride", stride, 1),
                             ("padding", padding, 0), ("dilation", dilation, 1)):
        if value < low:
            must = "be non-negative" if low == 0 else "be greater than zero"
            raise RuntimeError(f"max_pool1d() {name} must {must}, but got {value}")
    if padding > kernel // 2:
        raise RuntimeError("max_pool1d() padding should be at most half of kernel size, but "
                           f"got padding={padding} and kernel_size={kernel}")
    span = input.shape[-1] + 2 * padding - dilation * (kernel - 1) - 1
    size = (-(-span // stride) if ceil_mode else span // stride) + 1
    if ceil_mode and (size - 1) * stride >= input.shape[-1] + padding:
        size -= 1
    if size < 1:
        raise RuntimeError(f"max_pool1d() Invalid computed output size: {size}")


@_call_form.boolean_dispatch("max_pool1d", 6)
@_args.tensors("max_pool1d", python=True, input="input")
def max_pool1d(input: Tensor, kernel_size: Any, stride: Any = None, padding: Any = 0,
               dilation: Any = 1, ceil_mode: bool = False,
               return_indices: bool = False) -> Tensor:
    """The maximum of each ``kernel_size`` window of the last dim, moved by ``stride``.

    >>> F.max_pool1d(minitorch.tensor([[1., 3., 2., 5., 4.]]), 2)
    tensor([[3., 5.]])
    """
    unset = stride is None or (isinstance(stride, (list, tuple)) and not stride)
    parser = "max_pool1d_with_indices" if return_indices else "max_pool1d"
    specs = ((kernel_size, "kernel_size", 2), (_args.OMITTED if unset else stride, "stride", 3),
             (padding, "padding", 4), (dilation, "dilation", 5))
    _args.window_types(parser, *specs)
    ceil_mode = _args.flag(parser, ceil_mode, "ceil_mode", 6)
    _args.unpack_windows(parser, *specs)
    if return_indices:  # torch's max_pool1d_with_indices: its rank check, then max_pool2d's
        if input.dim() not in (2, 3):
            raise RuntimeError(f"Expected 2 to 3 dimensions, but got {input.dim()}-dimensional "
                               "tensor for argument #1 'self' (while checking arguments for "
                               "max_pool1d)")
    else:
        _check_pool1d_input(input)
    _check_pool1d_sizes(bool(return_indices), kernel_size, None if unset else stride,
                        padding, dilation)
    (kernel,), (padding,), (dilation,) = (single(kernel_size, "kernel_size"),
                                          single(padding), single(dilation, "dilation"))
    (stride,) = (kernel,) if unset else single(stride, "stride")
    if not return_indices:
        _check_pool1d(input, (kernel, stride, padding, dilation), bool(ceil_mode))
    if not return_indices:  # torch's kernel without indices is floating-point only
        _args.floating_kernel("max_pool1d_impl", input.dtype)
    out = max_pool2d(input.unsqueeze(-2), (1, kernel), (1, stride), (0, padding),
                     (1, dilation), ceil_mode, return_indices)
    if return_indices:  # values and indices, each of height one
        return tuple(t.squeeze(-2) for t in out)
    return out.squeeze(-2)


def max_unpool2d(input: Tensor, indices: Tensor, kernel_size: Any, stride: Any = None,
                 padding: Any = 0, output_size: Any = None) -> Tensor:
    """Put each value of ``input`` back where ``max_pool2d(return_indices=True)`` found it,
    zeros elsewhere.

    >>> v, i = F.max_pool2d(minitorch.ones(1, 1, 2, 2), 2, return_indices=True)
    >>> F.max_unpool2d(v, i, 2).shape
    torch.Size([1, 1, 2, 2])
    """
    kernel = _args.python_ntuple(kernel_size, 2)  # torch's _pair: read as Python reads it
    stride = kernel if stride is None else _args.python_ntuple(stride, 2)
    size = _unpool_output_size(input, kernel, stride, _args.python_ntuple(padding, 2),
                               output_size)
    size = _check_unpool(input, indices, size)
    return MaxUnpool2D.apply(input, indices, size=size)


def max_unpool3d(input: Tensor, indices: Tensor, kernel_size: Any, stride: Any = None,
                 padding: Any = 0, output_size: Any = None) -> Tensor:
    """Put each value of ``input`` back where ``max_pool3d(return_indices=True)`` found it,
    zeros elsewhere.

    >>> v, i = F.max_pool3d(minitorch.ones(1, 1, 2, 2, 2), 2, return_indices=True)
    >>> F.max_unpool3d(v, i, 2).shape
    torch.Size([1, 1, 2, 2, 2])
    """
    kernel = _args.python_ntuple(kernel_size, 3)  # torch's _triple: read as Python reads it
    stride = kernel if stride is None else _args.python_ntuple(stride, 3)
    padding = _args.python_ntuple(padding, 3)
    size = _unpool_output_size(input, kernel, stride, padding, output_size)
    # torch's kernel reads the stride and padding too: ints, the stride positive
    stride = _args.sizes("max_unpool3d", (list(stride),), "stride", check_negative=False,
                         position=4)
    _args.sizes("max_unpool3d", (list(padding),), "padding", check_negative=False, position=5)
    size = _check_unpool(input, indices, size, stride)
    return MaxUnpool3D.apply(input, indices, size=size)


def max_unpool1d(input: Tensor, indices: Tensor, kernel_size: Any, stride: Any = None,
                 padding: Any = 0, output_size: Any = None) -> Tensor:
    """``max_pool1d``'s inverse: torch's route, ``max_unpool2d`` of a width-1 input,
    squeezed back (nodes ``SqueezeBackward1`` over ``MaxUnpool2DBackward0``).

    >>> v, i = F.max_pool1d(minitorch.tensor([[[1., 3., 2., 0.]]]), 2, return_indices=True)
    >>> F.max_unpool1d(v, i, 2)
    tensor([[[0., 3., 2., 0.]]])
    """
    kernel = _args.python_ntuple(kernel_size, 1)  # torch's _single
    stride = kernel if stride is None else _args.python_ntuple(stride, 1)
    size = _unpool_output_size(input, kernel, stride, _args.python_ntuple(padding, 1),
                               output_size)
    input, indices = input.unsqueeze(-1), indices.unsqueeze(-1)
    size = _check_unpool(input, indices, (*size, 1))  # torch's kernel: the size as it is
    return MaxUnpool2D.apply(input, indices, size=size).squeeze(-1)


def _unpool_output_size(input: Tensor, kernel: tuple, stride: tuple, padding: tuple,
                        output_size: Any) -> tuple:
    """torch's output size of an unpooling: from the pooling's geometry, or ``output_size``
    (the spatial sizes, or with the batch and channel in front) within a stride of it."""
    dims, op, item = len(kernel), _args.python_op, _args.python_item
    default = [op(op(op(item(tuple(input.size()), d - dims) - 1, "*", item(stride, d)), "+",
                     item(kernel, d)), "-", op(2, "*", item(padding, d))) for d in range(dims)]
    if output_size is not None:
        default = _given_output_size(default, dims, stride, output_size)
    for d, n in enumerate(default):
        if op(n, "<", 0):
            raise ValueError("max_unpooling: output_size must contain non-negative spatial "
                             f"dimensions, but got output_size[{d}]={n}")
    return tuple(default)


def _given_output_size(default: list, dims: int, stride: tuple, output_size: Any) -> Any:
    """A given ``output_size`` (the spatial sizes, or with the batch and channel in front)
    within a stride of ``default``."""
    _args.python_len(output_size)
    if len(output_size) == dims + 2:
        output_size = output_size[2:]
    if len(output_size) != dims:
        raise ValueError(f"output_size should be a sequence containing {dims} or {dims + 2} "
                         f"elements, but it has a length of '{len(output_size)}'")
    for d in range(dims):
        low, high = default[d] - stride[d], default[d] + stride[d]
        if not (_args.python_op(low, "<", output_size[d]) and
                _args.python_op(output_size[d], "<", high)):
            raise ValueError(f'invalid output_size "{output_size}" (dim {d} must be between '
                             f"{low} and {high})")
    return tuple(output_size)
