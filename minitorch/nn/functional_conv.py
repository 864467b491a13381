"""The functional forms of the 2-D (and 3-D) convolution and max pooling: ``conv2d``,
``conv3d`` and ``max_pool2d``. ``minitorch.nn.functional`` re-exports them.

>>> import minitorch
>>> from minitorch.nn import functional as F
>>> F.conv2d(minitorch.ones(1, 1, 3, 3), minitorch.ones(1, 1, 2, 2))
tensor([[[[4., 4.],
          [4., 4.]]]])
"""

from __future__ import annotations

import math
import warnings
from typing import Any

from .. import _args, _call_form, _creation
from .._batched import BatchedTensor, Refused
from .._dtype import result_type
from .._tensor import Tensor
from ..ops import pad as _pad
from ..ops._cascade_sum import get_num_threads
from ..ops.conv import (
    Convolution,
    Convolution1d,
    ConvolutionTranspose,
    MaxPool3DReturningIndices,
    MaxPool3DWithIndices,
    MaxPoolReturningIndices,
    MaxPoolWithIndices,
)
from ..ops.shape import cat

__all__ = ["conv2d", "conv3d", "conv_transpose", "conv_transpose1d", "conv_transpose2d",
           "conv_transpose3d", "convolution", "max_pool", "max_pool2d", "max_pool3d", "pair",
           "pool_out_size", "single", "sizes"]


def sizes(value: Any, n: int, name: str = "padding") -> tuple[int, ...]:
    """``value`` as ``n`` sizes, one per spatial dim: an int (a numpy one too), or a list of
    one, is used for all; other lengths get torch's error, which names the argument.

    >>> sizes(3, 3), sizes((1, 2, 3), 3), sizes([4], 2)
    ((3, 3, 3), (1, 2, 3), (4, 4))
    """
    k = _args.as_int(value)
    if k is not None:
        return (k,) * n
    values = [int(v) for v in value]
    if len(values) not in (1, n):
        raise RuntimeError(f"expected {name} to be a single integer value or a list of {n} "
                           "values to match the convolution dimensions, but got "
                           f"{name}={values}")
    return tuple(values) if len(values) == n else (values[0],) * n


def pair(value: Any, name: str = "padding") -> tuple[int, int]:
    """``value`` as (height, width): ``sizes(value, 2)``.

    >>> pair(3), pair((1, 2)), pair([4])
    ((3, 3), (1, 2), (4, 4))
    """
    return sizes(value, 2, name)  # type: ignore[return-value]


def single(value: Any, name: str = "padding") -> tuple[int]:
    """``value`` as a 1-tuple: an int or a sequence of one.

    >>> single(3), single([2])
    ((3,), (2,))
    """
    return sizes(value, 1, name)  # type: ignore[return-value]


# torch's overloads of conv1d, conv2d and conv3d
CONV_SIGNATURES = tuple("Tensor input, Tensor weight, Tensor bias = None, tuple of ints stride = "
                        f"1, {padding}, tuple of ints dilation = 1, int groups = 1"
                        for padding in ("tuple of ints padding = 0", 'str padding = "valid"'))


def _conv_arg_types(fn: str, stride: Any, padding: Any, dilation: Any, groups: Any) -> None:
    """torch's parser on a convolution's geometry: ints or tuples of ints (``padding`` also
    'same'/'valid'), each int within int64, before any shape is looked at."""
    given = {"dilation": dilation, "groups": groups, "padding": padding, "stride": stride}
    lists = {name: value for name, value in given.items()
             if name != "groups" and not (name == "padding" and isinstance(value, str))}
    # the parser's match reads an int list's first item alone: no overload's (the call's
    # are listed at the entry)
    if _args.as_int(groups) is None or any(
            _args.as_int(v) is None and (not isinstance(v, (tuple, list)) or (
                len(v) and _args.as_int(v[0]) is None)) for v in lists.values()):
        raise _args.invalid_combination(fn, (), *CONV_SIGNATURES)
    _args.integer(fn, groups, "groups", 0)  # an int past int64: torch's overflow
    for name, value in lists.items():  # the other items, read as the lists are unpacked
        if _args.as_int(value) is None:
            _args.int_tuple(fn, value, name, 0)
        else:
            _args.integer(fn, value, name, 0)


def _same_padding(input: Tensor, kernel: tuple, dilation: tuple) -> tuple:
    """torch's ``padding='same'``: ``dilation * (kernel - 1)`` per dim, half on each side;
    where that is odd, torch first pads the input by one more after (with a warning).
    The input and the symmetric padding."""
    total = [max(d * (k - 1), 0) for k, d in zip(kernel, dilation)]
    if any(t % 2 for t in total):
        warnings.warn("Using padding='same' with even kernel lengths and odd dilation may "
                      "require a zero-padded copy of the input be created", UserWarning,
                      stacklevel=3)
        input = _pad.pad(input, tuple(n for t in reversed(total) for n in (0, t % 2)))
    return input, tuple(t // 2 for t in total)


def _spread(value: Any, n: int) -> tuple:
    """An int (as torch's parser reads it for an ``int[n]``) as ``n`` of it, a sequence as
    its ints."""
    k = _args.as_int(value)
    return (k,) * n if k is not None else tuple(int(v) for v in value)


def _check_lengths(weight: Tensor, geometry: tuple) -> None:
    """torch's check that the stride, padding and dilation (and a transposed one's output
    padding) each have one value or one per dim of the weight's window (a weight of another
    rank than the input's meets it first)."""
    n = weight.dim() - 2
    for name, value in zip(("stride", "padding", "dilation", "output_padding"), geometry):
        if weight.dim() >= 3 and not isinstance(value, str) and len(value) not in (1, n):
            raise RuntimeError(f"expected {name} to be a single integer value or a list of {n} "
                               "values to match the convolution dimensions, but got "
                               f"{name}={list(value)}")


def _check_same(input: Tensor, weight: Tensor, stride: tuple, dilation: tuple) -> None:
    """torch's checks of ``padding='same'``: the weight's rank against the input's, the
    dilation's and the stride's lengths, then the stride."""
    if weight.dim() != input.dim():
        raise RuntimeError(f"Expected {weight.dim()}-dimensional input for {weight.dim()}-"
                           f"dimensional weight{list(weight.shape)}, but got {input.dim()}-"
                           f"dimensional input of size {list(input.shape)} instead")
    n = weight.dim() - 2
    for name, value in (("dilation", dilation), ("stride", stride)):
        if len(value) not in (1, n):
            raise RuntimeError(f"{name} cannot broadcast to {n} dimensions")
    if any(s != 1 for s in stride):
        raise RuntimeError("padding='same' is not supported for strided convolutions")
    spread = dilation * n if len(dilation) == 1 else dilation
    if any(int(d * (k - 1) / 2) < 0 for d, k in zip(spread, weight.shape[2:])):
        # torch pads by half of dilation * (kernel - 1) (C++'s division, toward zero) on
        # each side, and checks that padding first
        raise RuntimeError("negative padding is not supported")


def _check_conv(input: Tensor, weight: Tensor, bias: Tensor | None, groups: int,
                geometry: tuple, output_padding: tuple | None = None) -> None:
    """torch's checks of a convolution, in its order: the padding's string, the weight's
    rank, groups, the geometry (``(stride, padding, dilation)``: one value or one per dim of
    the weight's window, or the padding's string), the weight, the bias. A
    transposed one (given its ``output_padding``) reads its input channels from the
    weight's dim 0, its output channels from dim 1."""
    transposed = output_padding is not None
    stride, padding, dilation = geometry
    if isinstance(padding, str) and padding not in ("same", "valid"):
        raise RuntimeError(f"Invalid padding string: '{padding}'")
    if not transposed and not isinstance(padding, str):  # torch's first check there
        _check_bias_type(input, bias)
    if weight.dim() < 3:
        raise RuntimeError("weight should have at least three dimensions")
    if groups <= 0:
        raise RuntimeError("non-positive groups is not supported")
    shown = list(input.shape)  # the input torch's later checks see
    if padding == "same":
        _check_same(input, weight, stride, dilation)
        spread = dilation * (weight.dim() - 2) if len(dilation) == 1 else dilation
        shown[2:] = [n + d * (k - 1) % 2 for n, d, k in zip(shown[2:], spread, weight.shape[2:])]
    _check_lengths(weight, geometry if output_padding is None else (*geometry, output_padding))
    if not isinstance(padding, str) and min(padding) < 0:
        raise RuntimeError("negative padding is not supported")
    if transposed and min(output_padding) < 0:
        raise RuntimeError("negative output_padding is not supported")
    if min(stride) <= 0:
        raise RuntimeError("non-positive stride is not supported")
    if min(dilation) < 0:  # a zero is checked later (_check_window)
        raise RuntimeError("dilation should be greater than zero")
    if weight.dim() != input.dim():
        raise RuntimeError(f"Expected {weight.dim()}-dimensional input for {weight.dim()}-"
                           f"dimensional weight {list(weight.shape)}, but got {input.dim()}-"
                           f"dimensional input of size {list(input.shape)} instead")
    if weight.shape[0] < groups:
        raise RuntimeError(
            f"Given groups={groups}, expected weight to be at least {groups} at dimension 0, "
            f"but got weight of size {list(weight.shape)} instead")
    if weight.shape[0] % groups:
        raise RuntimeError(
            f"Given groups={groups}, expected weight to be divisible by {groups} at dimension "
            f"0, but got weight of size [{list(weight.shape)}] instead")
    given = "transposed=1" if transposed else f"groups={groups}"
    channels, out = ((weight.shape[0], weight.shape[1] * groups) if transposed
                     else (weight.shape[1] * groups, weight.shape[0]))
    if input.shape[1] != channels:
        raise RuntimeError(
            f"Given {given}, weight of size {list(weight.shape)}, expected input"
            f"{shown} to have {channels} channels, but got "
            f"{input.shape[1]} channels instead")
    if bias is not None and tuple(bias.shape) != (out,):
        raise RuntimeError(f"Given {'transposed=1, ' if transposed else ''}weight of size "
                           f"{list(weight.shape)}, expected bias to be 1-dimensional with "
                           f"{out} elements, but got bias of size {list(bias.shape)} instead")
    if transposed:  # (a convolution checks the window first: _check_kernel_dtypes)
        _check_onednn_dtypes(input, weight, bias, stride, dilation, groups, output_padding)


def _check_onednn_dtypes(input: Tensor, weight: Tensor, bias: Tensor | None, stride: Any,
                         dilation: Any, groups: int, output_padding: tuple = ()) -> None:
    """Where torch picks oneDNN, its check that the weight and bias have the input's dtype."""
    if _uses_onednn(input, weight, stride, dilation, groups, output_padding):
        for what, t in (("weight", weight), ("bias", bias)):
            if t is not None and t.dtype is not input.dtype:
                raise RuntimeError(
                    f"Input type ({_args.type_string(input.dtype)}) and {what} type "
                    f"({_args.type_string(t.dtype)}) should be the same or input should be a "
                    f"MKLDNN tensor and {what} is a dense tensor")


def _uses_onednn(input: Tensor, weight: Tensor, stride: Any, dilation: Any,
                 groups: int, output_padding: tuple = ()) -> bool:
    """Whether torch's CPU convolution picks oneDNN (whose dtype check words differ from its
    own kernels'): a float32 input, unless a single small image meets a small kernel, or a
    1x1 kernel runs unstrided on one thread, or a transposed one's ``output_padding`` is
    not below its stride. A 1-d convolution is seen as 2-d of height 1."""
    if input.dtype.name != "float32":
        return False
    if any(p >= s for p, s in zip(output_padding, _spread(stride, len(output_padding)))):
        return False
    strided = any(s != 1 for s in _spread(stride, 1))
    dilated = any(d != 1 for d in _spread(dilation, 1))
    image = (*input.shape, 1)[:4] if input.dim() > 3 else (*input.shape[:2], 1, input.shape[2])
    kernel = weight.shape[-2:] if weight.dim() > 3 else (1, weight.shape[-1])
    worth_it = (strided or dilated or input.shape[0] >= 16 or tuple(kernel) != (1, 1)
                or get_num_threads() > 1)
    return worth_it and (groups > 1 or min(kernel) > 3 or input.shape[0] > 1
                         or math.prod(image) > 20480)


def _empty_path(input: Tensor, weight: Tensor, bias: Tensor | None) -> tuple:
    """An empty input's operands in the dtype of torch's empty path, which multiplies the
    input by one element of the weight (so a float16 input stays float16 with a float32
    weight; an int64 one takes it); the gradients come back in each one's own dtype."""
    if input.numel() or weight.dtype is input.dtype:
        return input, weight, bias
    dt = result_type(input, weight.new_zeros(()))
    return input.to(dt), weight.to(dt), None if bias is None else bias.to(dt)


def _kernel_bias(input: Tensor, bias: Tensor | None) -> Tensor | None:
    """The bias as torch's own kernels add it: one of another dtype (let through where no
    check read it) cast to the input's."""
    if bias is None or bias.dtype is input.dtype:
        return bias
    return bias.to(input.dtype)


def _check_bias_type(input: Tensor, bias: Tensor | None) -> None:
    """torch's refusal of a bias of another dtype than the input."""
    if bias is not None and bias.dtype is not input.dtype:
        raise RuntimeError(f"Input type ({_args.c_name(input.dtype)}) and bias type "
                           f"({_args.c_name(bias.dtype)}) should be the same")


@_call_form.overloads(*CONV_SIGNATURES)
@_args.tensors("conv2d", input="input", weight="weight", bias="bias")
def conv2d(input: Tensor, weight: Tensor, bias: Tensor | None = None, stride: Any = 1,
           padding: Any = 0, dilation: Any = 1, groups: int = 1) -> Tensor:
    """Cross-correlate ``input`` (N, C, H, W) or (C, H, W) with ``weight`` (O, C/groups, kh,
    kw): with ``groups`` G, each of G channel groups has its own O/G filters.

    >>> F.conv2d(minitorch.ones(1, 2, 4, 4), minitorch.ones(3, 2, 3, 3), padding=1).shape
    torch.Size([1, 3, 4, 4])
    """
    return convolution(2, input, weight, bias, (stride, padding, dilation), groups)


def _check_folded(dims: int, input: BatchedTensor, weight: Tensor, bias: Tensor | None,
                  geometry: tuple, groups: int) -> None:
    """vmap's refusal of a convolution of a batched example by an unbatched weight, in
    torch's words: its batch rule folds the batch into the batch dim (an unbatched example's
    batch is the batch dim) and checks that input against the weight."""
    if input.dim() not in (dims + 1, dims + 2) or isinstance(bias, BatchedTensor):
        return
    folded = input.value if input.dim() == dims + 1 else input.value.flatten(0, 1)
    stride, padding, dilation = geometry
    try:
        if not isinstance(padding, str):
            _check_bias_type(folded, bias)
        _check_conv(folded, weight, bias, groups,
                    (_spread(stride, dims), padding if isinstance(padding, str) else
                     _spread(padding, dims), _spread(dilation, dims)))
    except RuntimeError as error:  # (vmap passes a Refused on; anything else it retries
        raise Refused(str(error)) from None  # per example, whose message is the example's)


def convolution(dims: int, input: Tensor, weight: Tensor, bias: Tensor | None,
                geometry: tuple, groups: int) -> Tensor:
    """``conv1d``, ``conv2d`` or ``conv3d`` (``dims`` 1, 2, 3) after torch's checks;
    ``geometry`` is the user's ``(stride, padding, dilation)``. An unbatched input gets a
    batch of one."""
    name = f"conv{dims}d"
    stride, padding, dilation = geometry
    _conv_arg_types(name, stride, padding, dilation, groups)
    if isinstance(input, BatchedTensor) and isinstance(weight, Tensor):
        _check_folded(dims, input, weight, bias, geometry, groups)
    if not isinstance(padding, str):  # torch's conv<n>d checks the bias's dtype first of all
        _check_bias_type(input, bias)
    if input.dim() == dims + 1:
        return convolution(dims, input.unsqueeze(0), weight, bias, geometry, groups).squeeze(0)
    if input.dim() != dims + 2:
        raise RuntimeError(f"Expected {dims + 1}D (unbatched) or {dims + 2}D (batched) input "
                           f"to {name}, but got input of size: {list(input.shape)}")
    # torch's parser spreads an int over the function's dims; the kernel checks the lengths
    # against the weight's, then spreads a single value
    stride, dilation = _spread(stride, dims), _spread(dilation, dims)
    _check_conv(input, weight, bias, groups,
                (stride, padding if isinstance(padding, str) else _spread(padding, dims),
                 dilation))
    stride, dilation = sizes(stride, dims, "stride"), sizes(dilation, dims, "dilation")
    if padding == "valid":
        padding = 0
    elif padding == "same":
        input, padding = _same_padding(input, tuple(weight.shape[2:]), dilation)
    geometry = (stride, sizes(padding, dims), dilation)
    _check_window(input, weight, geometry, groups)
    _check_onednn_dtypes(input, weight, bias, stride, dilation, groups)
    _check_kernel_dtype(input, dims, dilation, transposed=False, pointwise=max(
        *weight.shape[2:], *geometry[0], *geometry[1], 1) == 1 and min(geometry[1]) == 0)
    if input.numel():  # torch's kernel reads both as the input's (an empty input: no kernel)
        _args.scalar_type(input.dtype, weight.dtype)
    input, weight, bias = _empty_path(input, weight, _kernel_bias(input, bias))
    if dims == 1:  # torch's route: the 2-d convolution of height one
        geometry = tuple((low, *g) for low, g in zip((1, 0, 1), geometry))
        return Convolution1d.apply(input, weight, bias, geometry=geometry, groups=groups)
    return Convolution.apply(input, weight, bias, geometry=geometry, groups=groups)


@_call_form.overloads(*CONV_SIGNATURES)
@_args.tensors("conv3d", input="input", weight="weight", bias="bias")
def conv3d(input: Tensor, weight: Tensor, bias: Tensor | None = None, stride: Any = 1,
           padding: Any = 0, dilation: Any = 1, groups: int = 1) -> Tensor:
    """Cross-correlate ``input`` (N, C, D, H, W) or (C, D, H, W) with ``weight``
    (O, C/groups, kd, kh, kw).

    >>> F.conv3d(minitorch.ones(1, 2, 4, 4, 4), minitorch.ones(3, 2, 3, 3, 3), padding=1).shape
    torch.Size([1, 3, 4, 4, 4])
    """
    return convolution(3, input, weight, bias, (stride, padding, dilation), groups)


def _transposed_form(dims: int, doc: str) -> Any:
    """torch's ``conv_transpose{dims}d(input, weight, bias, stride, padding, output_padding,
    groups, dilation)``, with ``doc``: :func:`conv_transpose` of ``dims`` spatial dims."""
    def form(input: Tensor, weight: Tensor, bias: Tensor | None = None, stride: Any = 1,
             padding: Any = 0, output_padding: Any = 0, groups: int = 1,
             dilation: Any = 1) -> Tensor:
        return conv_transpose(dims, input, weight, bias, (stride, padding, dilation),
                              output_padding, groups)
    form.__name__ = form.__qualname__ = f"conv_transpose{dims}d"
    form.__doc__ = doc
    return _args.tensors(form.__name__, input="input", weight="weight", bias="bias")(form)


conv_transpose1d = _transposed_form(1, """The transposed convolution (conv1d's input gradient)
    of ``input`` (N, C_in, L) or (C_in, L) by ``weight`` (C_in, C_out/groups, k).

    >>> F.conv_transpose1d(minitorch.ones(1, 1, 3), minitorch.ones(1, 1, 2))
    tensor([[[1., 2., 2., 1.]]])
    """)
conv_transpose2d = _transposed_form(2, """The transposed convolution (conv2d's input gradient)
    of ``input`` (N, C_in, H, W) or (C_in, H, W) by ``weight`` (C_in, C_out/groups, kh, kw):
    each output side is ``(H - 1) * stride - 2 * padding + dilation * (k - 1) +
    output_padding + 1``.

    >>> F.conv_transpose2d(minitorch.ones(1, 2, 3, 3), minitorch.ones(2, 4, 3, 3),
    ...                    stride=2, output_padding=1).shape
    torch.Size([1, 4, 8, 8])
    """)
conv_transpose3d = _transposed_form(3, """The transposed convolution (conv3d's input gradient)
    of ``input`` (N, C_in, D, H, W) or (C_in, D, H, W) by ``weight`` (C_in, C_out/groups,
    kd, kh, kw).

    >>> F.conv_transpose3d(minitorch.ones(1, 2, 2, 3, 3), minitorch.ones(2, 4, 2, 2, 2),
    ...                    stride=2).shape
    torch.Size([1, 4, 4, 6, 6])
    """)


def conv_transpose(dims: int, input: Tensor, weight: Tensor, bias: Tensor | None,
                   geometry: tuple, output_padding: Any, groups: int) -> Tensor:
    """``conv_transpose1d``, ``2d`` or ``3d`` (``dims`` 1, 2, 3) after torch's checks;
    ``geometry`` is the user's ``(stride, padding, dilation)``. An unbatched input gets a
    batch of one, squeezed after, as torch's."""
    name = f"conv_transpose{dims}d"
    stride, padding, dilation = geometry
    # torch's parser, in its words for arguments by position (the public form rewords them
    # for keywords): every type first, a list's first item alone, then the lists unpacked
    _args.parsed(name, ("ints", stride, "stride", 4), ("ints", padding, "padding", 5),
                 ("ints", output_padding, "output_padding", 6), ("int", groups, "groups", 7),
                 ("ints", dilation, "dilation", 8))
    if input.dim() == dims + 1:
        return conv_transpose(dims, input.unsqueeze(0), weight, bias, geometry,
                              output_padding, groups).squeeze(0)
    if input.dim() != dims + 2:
        raise RuntimeError(f"Expected {dims + 1}D (unbatched) or {dims + 2}D (batched) input "
                           f"to {name}, but got input of size: {list(input.shape)}")
    # as convolution's: the lengths checked against the weight's dims, then spread
    _check_conv(input, weight, bias, groups, tuple(_spread(g, dims) for g in geometry),
                _spread(output_padding, dims))
    geometry = (sizes(stride, dims, "stride"), sizes(padding, dims),
                sizes(dilation, dims, "dilation"))
    output_padding = sizes(output_padding, dims, "output_padding")
    # torch runs a 1-d one as the 2-d one of height 1: its later checks speak of that one
    lift = (lambda t: t.unsqueeze(2)) if dims == 1 else (lambda t: t)
    seen = tuple((low, *g) for low, g in zip((1, 0, 1), geometry)) if dims == 1 else geometry
    seen_padding = (0, *output_padding) if dims == 1 else output_padding
    onednn = _uses_onednn(input, weight, geometry[0], geometry[2], groups, output_padding)
    _check_transposed(lift(input), lift(weight), seen, seen_padding, groups, onednn)
    out = _transposed_size(tuple(lift(input).shape[2:]), tuple(lift(weight).shape[2:]), seen,
                           seen_padding, onednn, not input.numel())[-dims:]
    _check_kernel_dtype(input, dims, geometry[2], transposed=True)
    if input.numel():  # read by the kernel, after the sizes (an empty input: no kernel)
        _args.scalar_type(input.dtype, weight.dtype)
    if dims == 3 and bias is not None and input.numel():  # torch's 3-d kernel reads the bias
        _args.scalar_type(input.dtype, bias.dtype)  # as the input's
    input, weight, bias = _empty_path(input, weight, _kernel_bias(input, bias))
    return ConvolutionTranspose.apply(input, weight, bias, geometry=geometry, out=out,
                                      groups=groups)


def _check_kernel_dtype(input: Tensor, dims: int, dilation: tuple, transposed: bool,
                        pointwise: bool = False) -> None:
    """torch's refusal of a dtype its CPU kernel has no loop for: a dilated or transposed
    convolution runs floating types and int64 only, the others all but bool (a 1-d one is
    the 2-d kernel's; the 3-d one gathers no columns for a ``pointwise`` 1x1x1 unstrided,
    unpadded window). An empty input never reaches a kernel."""
    if not input.numel():
        return
    dt = input.dtype
    if transposed or max(dilation) > 1:
        kernel = (f"slow_conv_transpose{max(dims, 2)}d_out_cpu" if transposed
                  else "slow_conv_dilated<>")
        supported = dt.is_floating_point or dt.name == "int64"
    else:
        kernel = "slow_conv2d_cpu" if dims < 3 else \
            "slow_conv3d_cpu" if pointwise else "compute_columns3d"
        supported = dt.name != "bool"
    if not supported:
        raise _args.not_implemented(kernel, dt)


def _spatial_names(prefix: str, values: tuple) -> list[str]:
    """torch's labels of per-dim values: ``prefix_depth``, ``prefix_height``, ``prefix_width``
    (the last ``len(values)``) with each value.

    >>> _spatial_names("stride", (2, 1))
    ['stride_height: 2', 'stride_width: 1']
    """
    names = ("depth", "height", "width")[-len(values):]
    return [f"{prefix}_{n}: {v}" for n, v in zip(names, values)]


def _check_transposed(input: Tensor, weight: Tensor, geometry: tuple, output_padding: tuple,
                      groups: int, onednn: bool = False) -> None:
    """torch's checks of a transposed convolution after the shared ones: an empty input only
    by its batch or channels (then torch's empty path, which checks no more), a kernel of at
    least one element, no zero dilation, an output padding below the stride or the dilation,
    a weight not empty (each group's, as torch's kernel runs one group at a time; oneDNN,
    ``onednn``, has its own refusals)."""
    dilation = geometry[2]
    _check_empty(input)
    if onednn and input.numel():
        _check_onednn_transposed(weight, dilation)
        return
    zero_dilation = RuntimeError("dilation should be greater than zero, but got "
                                 + ", ".join(_spatial_names("dilation", dilation)))
    if len(dilation) == 2:
        _check_kernel(input, weight)
    if not input.numel():  # torch's empty path reads the weight's first element only
        if not weight.numel():
            raise IndexError("select(): index 0 out of range for tensor of size [0] at "
                             "dimension 0")
        return
    if min(dilation) == 0:
        raise zero_dilation
    _check_output_padding(geometry, output_padding)
    if not weight.numel():
        expected = ("2D or 4D weight tensor expected" if len(dilation) == 2 else
                    "5D (n_output_plane x n_input_plane x kernel_depth x kernel_height x "
                    "kernel_width) tensor expected for weight")
        shape = [weight.shape[0] // groups, *weight.shape[1:]]
        raise RuntimeError(f"non-empty {expected}, but got: {shape}")


def _check_onednn_transposed(weight: Tensor, dilation: tuple) -> None:
    """oneDNN's refusals of a transposed convolution, which skips torch's own kernel checks:
    a 3-d one with a zero dilation, an empty weight, or a zero dilation of a wider kernel
    (its dilation ``d - 1`` is then negative; a kernel of one reads none)."""
    if len(dilation) == 3 and min(dilation) == 0:
        raise RuntimeError("dimensions are invalid")
    if not weight.numel() or any(d == 0 and k > 1 for d, k in zip(dilation, weight.shape[2:])):
        raise _onednn_refusal("deconvolution")


def _onednn_refusal(primitive: str) -> RuntimeError:
    """oneDNN's refusal of a ``primitive`` ("convolution", "deconvolution") it cannot set up."""
    return RuntimeError(f"could not create a primitive descriptor for the {primitive} forward "
                        "propagation primitive. Run workload with environment variable "
                        "ONEDNN_VERBOSE=all to get additional diagnostic information.")


def _check_output_padding(geometry: tuple, output_padding: tuple) -> None:
    """torch's refusal of an output padding not below the stride nor the dilation."""
    stride, _, dilation = geometry
    if any(p >= s and p >= d for p, s, d in zip(output_padding, stride, dilation)):
        given = [*_spatial_names("output_padding", output_padding),
                 *_spatial_names("stride", stride), *_spatial_names("dilation", dilation)]
        raise RuntimeError("output padding must be smaller than either stride or dilation, but "
                           f"got {' '.join(given)}")


def _transposed_size(size: tuple, kernel: tuple, geometry: tuple,
                     output_padding: tuple, onednn: bool = False, empty: bool = False) -> tuple:
    """A transposed convolution's output spatial size, after torch's checks: an output
    padding smaller than the stride or the dilation, an output of at least one element
    (oneDNN, ``onednn``, takes an empty one and words a negative one its way; torch's path
    for an ``empty`` input checks neither).

    >>> _transposed_size((3, 3), (3, 3), ((2, 2), (1, 1), (1, 1)), (1, 1))
    (6, 6)
    """
    stride, padding, dilation = geometry
    if not empty:
        _check_output_padding(geometry, output_padding)
    out = tuple((n - 1) * s - 2 * p + d * (k - 1) + q + 1 for n, k, s, p, d, q
                in zip(size, kernel, stride, padding, dilation, output_padding))
    if empty or (onednn and min(out) >= 0):
        return out
    if onednn:
        raise RuntimeError("could not construct a memory descriptor using a format tag")
    if min(out) < 1:
        raise RuntimeError(f"Given input size per channel: ({' x '.join(map(str, size))}). "
                           f"Calculated output size per channel: "
                           f"({' x '.join(map(str, out))}). Output size is too small")
    return out


def _check_window(input: Tensor, weight: Tensor, geometry: tuple, groups: int) -> None:
    """torch's checks of a convolution's window against its input, after the arguments':
    the dilated kernel within the padded input, no zero dilation (worded as oneDNN's where
    torch picks it), an empty input only by its batch or its channels, a kernel of at least
    one element (torch's empty path reads its first)."""
    stride, padding, dilation = geometry
    padded = [n + 2 * p for n, p in zip(input.shape[2:], padding)]
    kernel = [(k - 1) * d + 1 for k, d in zip(weight.shape[2:], dilation)]
    if any(p < k for p, k in zip(padded, kernel)):
        raise RuntimeError(
            f"Calculated padded input size per channel: ({' x '.join(map(str, padded))}). "
            f"Kernel size: ({' x '.join(map(str, kernel))}). Kernel size can't be greater "
            "than actual input size")
    if min(dilation) == 0 and input.numel():  # an empty input passes; a 1-d one is told as
        # the 2-d convolution of height one torch runs
        if _uses_onednn(input, weight, stride, dilation, groups):
            raise RuntimeError("non-positive dilation is not supported")
        shown = [1, *dilation] if len(dilation) == 1 else list(dilation)
        raise RuntimeError(f"dilation should be greater than zero, but got {shown}")
    _check_empty(input)
    _check_kernel(input, weight, _uses_onednn(input, weight, stride, dilation, groups))


def _check_empty(input: Tensor) -> None:
    """torch's choice of its empty path for an input of no elements: only where its batch or
    its channels are empty."""
    if not input.numel() and input.shape[0] and input.shape[1]:
        raise RuntimeError("Only zero batch or zero channel inputs are supported, but got "
                           f"input shape: {list(input.shape)}")


def _check_kernel(input: Tensor, weight: Tensor, onednn: bool = False) -> None:
    """torch's refusal of a kernel with an empty side (a 1-d one is its 2-d kernel of height
    1, a 3-d one is told T x H x W; oneDNN's where ``onednn`` runs it); with an empty input,
    the IndexError of torch's empty path, which reads the kernel's first element."""
    kernel = tuple(weight.shape[2:])
    if 0 not in kernel:
        return
    if not input.numel():
        raise IndexError("select(): index 0 out of range for tensor of size [0] at dimension 0")
    if onednn:
        raise _onednn_refusal("convolution")
    if len(kernel) == 3:
        raise RuntimeError("kernel size should be greater than zero, but got: "
                           f"{' x '.join(map(str, kernel))} (TxHxW)")
    height, width = (1, *kernel)[-2:]
    raise RuntimeError("kernel size should be greater than zero, but got kernel_height: "
                       f"{height} kernel_width: {width}")


@_call_form.boolean_dispatch("max_pool2d", 6)
@_args.tensors("max_pool2d", python=True, input="input")
def max_pool2d(input: Tensor, kernel_size: Any, stride: Any = None, padding: Any = 0,
               dilation: Any = 1, ceil_mode: bool = False,
               return_indices: bool = False) -> Tensor:
    """The maximum of each ``kernel_size`` window, moved by ``stride`` (default: the kernel).

    >>> F.max_pool2d(minitorch.arange(16.).reshape(1, 1, 4, 4), 2)
    tensor([[[[ 5.,  7.],
              [13., 15.]]]])
    """
    return max_pool(2, input, (kernel_size, stride, padding, dilation), ceil_mode,
                    return_indices)


@_call_form.boolean_dispatch("max_pool3d", 6)
@_args.tensors("max_pool3d", python=True, input="input")
def max_pool3d(input: Tensor, kernel_size: Any, stride: Any = None, padding: Any = 0,
               dilation: Any = 1, ceil_mode: bool = False,
               return_indices: bool = False) -> Tensor:
    """The maximum of each ``kernel_size`` window over the last three dims of a 4-D or 5-D
    input, moved by ``stride`` (default: the kernel).

    >>> F.max_pool3d(minitorch.arange(8.).reshape(1, 1, 2, 2, 2), 2)
    tensor([[[[[7.]]]]])
    """
    return max_pool(3, input, (kernel_size, stride, padding, dilation), ceil_mode,
                    return_indices)


def max_pool(dims: int, input: Tensor, window: tuple, ceil_mode: Any,
             return_indices: bool) -> Any:
    """``max_pool2d`` or ``max_pool3d`` (``dims`` 2, 3) after torch's checks; ``window`` is
    the user's ``(kernel_size, stride, padding, dilation)``."""
    name = f"max_pool{dims}d"
    kernel_size, stride, padding, dilation = window
    unset = stride is None or (isinstance(stride, (list, tuple)) and not stride)
    windows = ((kernel_size, "kernel_size", 2), (_args.OMITTED if unset else stride, "stride", 3),
               (padding, "padding", 4))
    parser = f"{name}_with_indices" if return_indices else name  # the op torch's wrapper calls
    _args.window_types(parser, *windows, (dilation, "dilation", 5))
    ceil_mode = _args.flag(parser, ceil_mode, "ceil_mode", 6)  # before the values
    kernel, stride, pad, dilation = _args.windows(parser, *windows, (dilation, "dilation", 5),
                                                  n=dims, kernel=name)
    stride = stride or kernel
    if input.dim() not in (dims + 1, dims + 2):
        raise RuntimeError(f"non-empty {dims + 1}D or {dims + 2}D (batch mode) tensor expected "
                           "for input")
    check_pool_geometry(tuple(input.shape), (kernel, stride, pad, dilation), ceil_mode)
    if input.dtype.name == "bool":
        raise NotImplementedError(f"\"{name}\" not implemented for 'Bool'")
    plane = tuple(input.shape[-dims:])
    kernel = _reaching(plane, kernel, pad, dilation)
    if ceil_mode:
        input = _grown(input, [_ceil_rows(n, *w) for n, *w in
                               zip(plane, kernel, stride, pad, dilation)])
    op = ((MaxPoolWithIndices, MaxPoolReturningIndices), (MaxPool3DWithIndices,
          MaxPool3DReturningIndices))[dims - 2][bool(return_indices)]
    return op.apply(input, kernel=kernel, geometry=(stride, pad, dilation), plane=plane)


def pool_out_size(size: int, kernel: int, stride: int, pad: int, dilation: int,
                  ceil_mode: bool) -> int:
    """torch's pooling output size along one dim: in ceil mode the last window may start
    past the end, but not past the leading padding.

    >>> pool_out_size(4, 3, 2, 1, 1, True), pool_out_size(4, 3, 2, 1, 1, False)
    (3, 2)
    """
    span = size + 2 * pad - dilation * (kernel - 1) - 1 + (stride - 1 if ceil_mode else 0)
    out = span // stride + 1
    if ceil_mode and (out - 1) * stride >= size + pad:
        out -= 1
    return out


def check_pool_geometry(shape: tuple, window: tuple, ceil_mode: bool,
                        name: str = "max_pool") -> None:
    """torch's checks of a pooling window ``(kernel, stride, pad, dilation)`` over an input
    of ``shape``, in its order: the output size's (per dim: no zero stride, a padding within
    half the effective kernel), then the shape check's (the window, an input empty only by
    its batch, a 3-d average's input at least the kernel, the padding, an output of at least
    one element)."""
    kernel, stride, pad, dilation = window
    n = len(kernel)
    for k, s, p, d in zip(kernel, stride, pad, dilation):
        if s == 0:
            raise RuntimeError("stride should not be zero")
        if p < 0:
            raise RuntimeError(f"pad must be non-negative, but got pad: {p}")
        if p > math.trunc(((k - 1) * d + 1) / 2):  # C++'s division, toward zero
            raise RuntimeError("pad should be at most half of effective kernel size, but got "
                               f"pad={p}, kernel_size={k} and dilation={d}")
    _args.window_steps(kernel, stride)
    if min(dilation) <= 0:
        raise RuntimeError("dilation should be greater than zero, but got "
                           + _args.per_dim("dilation", dilation))
    _check_pool_input(shape, n, name)
    if name == "avg_pool3d" and any(size < k for size, k in zip(shape[-3:], kernel)):
        raise RuntimeError(f"input image ({_args.per_dim('', shape[-3:])}) smaller than kernel "
                           f"size ({_args.per_dim('k', kernel)})")
    if any(p > k // 2 for p, k in zip(pad, kernel)):
        raise RuntimeError("pad should be smaller than or equal to half of kernel size, but "
                           + (f"got padW = {pad[1]}, padH = {pad[0]}, kW = {kernel[1]}, "
                              f"kH = {kernel[0]}" if n == 2 else
                              f"got kT: {kernel[0]} kW: {kernel[2]} kH: {kernel[1]} padT: "
                              f"{pad[0]} padW: {pad[2]} padH: {pad[1]}"))
    out = [pool_out_size(*args, ceil_mode)
           for args in zip(shape[-n:], kernel, stride, pad, dilation)]
    if min(out) < 1:
        raise RuntimeError(f"Given input size: ({'x'.join(map(str, shape[-n - 1:]))}). "
                           f"Calculated output size: "
                           f"({'x'.join(map(str, (shape[-n - 1], *out)))}). Output "
                           "size is too small")


def _check_pool_input(shape: tuple, n: int, name: str) -> None:
    """torch's refusal of an input of ``n`` spatial dims (a channel dim before them, a batch
    dim optional) with an empty dim other than the batch's (``name``: the 3-d pooling)."""
    if n == 2 and (len(shape) not in (3, 4) or 0 in shape[-3 if len(shape) == 3 else 1:]):
        raise RuntimeError("Expected 3D or 4D (batch mode) tensor with optional 0 dim batch "
                           f"size for input, but got:{list(shape)}")
    if n == 3 and 0 in shape[len(shape) - 4:]:  # torch names dimension 0, whichever it is
        kernel = (name if name == "avg_pool3d" else
                  "max_pool3d_with_indices_out_cpu_template")
        raise RuntimeError(f"{kernel}(): Expected input's non-batch dimensions to have positive "
                           f"length, but input has a shape of {list(shape)} and non-batch "
                           "dimension 0 has length zero!")


def _reaching(plane: tuple, kernel: tuple, pad: tuple, dilation: tuple) -> tuple:
    """The kernel of a max pool cut to the padded input it can reach: an undilated window
    wider than that sees no more values (a ceil-mode window of 100 over 2 elements would
    read 98 of -inf padding, 100**3 of them in 3-d).

    >>> _reaching((2, 5), (100, 3), (0, 1), (1, 1))
    (2, 3)
    """
    return tuple(min(k, n + 2 * p) if d == 1 else k
                 for n, k, p, d in zip(plane, kernel, pad, dilation))


def _ceil_rows(size: int, kernel: int, stride: int, padding: int, dilation: int) -> int:
    """How many rows (or columns) ``ceil_mode`` adds after the padded input: enough for
    torch's ceil-mode output size, whose last window must start inside the input or its
    leading padding.

    >>> _ceil_rows(7, 2, 2, 0, 1), _ceil_rows(6, 2, 2, 0, 1), _ceil_rows(7, 3, 2, 1, 1)
    (1, 0, 0)
    """
    out = pool_out_size(size, kernel, stride, padding, dilation, True)
    return max(0, (out - 1) * stride + dilation * (kernel - 1) + 1 - (size + 2 * padding))


def _grown(x: Tensor, extras: list[int]) -> Tensor:
    """``x`` with ``extras`` (one per spatial dim) rows (columns, planes) of -inf after its
    last: windows that reach there take their maximum from the real values only."""
    for dim, extra in zip(range(-len(extras), 0), extras):
        if extra:
            shape = list(x.shape)
            shape[dim] = extra
            x = cat([x, _creation.full(shape, -float("inf"), dtype=x.dtype, device=x.device)],
                    x.dim() + dim)
    return x
