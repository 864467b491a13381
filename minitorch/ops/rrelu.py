"""``rrelu``: the randomized leaky ReLU. In training each value ``x <= 0`` is scaled by its
own slope drawn uniformly from ``[lower, upper]`` (torch's draws for a seed: one 64-bit
word per such value, in memory order); outside training by ``(lower + upper) / 2``. Node
``RreluWithNoiseBackward0`` (``...Backward1`` in place); the gradient is the slopes times the
incoming gradient, and differentiates again (``RreluWithNoiseBackwardBackward0``).

>>> import minitorch
>>> import minitorch.nn.functional as F
>>> F.rrelu(minitorch.tensor([-2., 3.]), 0.25, 0.75)
tensor([-1.,  3.])
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np

from .. import _args, backend
from .._tensor import Tensor
from ._base import Op, wrap
from .activation import _check_kernel_dtype, _PiecewiseLinearBackward

__all__ = ["RreluWithNoise", "RreluWithNoiseBackward", "RreluWithNoiseInplace", "rrelu"]

_DOUBLE_MAX = float(np.finfo(np.float64).max)


class RreluWithNoiseBackward(_PiecewiseLinearBackward):
    node_name = "RreluWithNoiseBackwardBackward0"
    _profile_name = "aten::rrelu_with_noise_backward"

    @staticmethod
    def kernel(xp: Any, g: Any, x: Any, slopes: Any) -> Any:
        return g * slopes


class RreluWithNoise(Op):
    """``x * noise``, ``noise`` 1 where ``x > 0`` and the slope elsewhere (drawn in training,
    the mean slope outside it); the backward multiplies by the same noise."""

    node_name = "RreluWithNoiseBackward0"
    _profile_name = "aten::rrelu_with_noise"

    @staticmethod
    def forward(ctx: Any, a: Tensor, *, noise: Any) -> Tensor:
        ctx.save_for_backward(a)
        ctx.slopes = noise
        return wrap(a._data * noise)

    @staticmethod
    def backward(ctx: Any, g: Tensor) -> tuple:
        (a,) = ctx.saved_tensors
        return (RreluWithNoiseBackward.apply(g, a, slopes=ctx.slopes),)


class RreluWithNoiseInplace(RreluWithNoise):
    node_name = "RreluWithNoiseBackward1"


def _drawn_slopes(x: Any, lower: float, upper: float, generator: Any) -> Any:
    """torch's ``_rrelu_with_noise_train``: for each ``x <= 0`` in memory order one 64-bit
    word, read as a double uniform in [lower, upper) and then in the input's dtype; 1
    elsewhere."""
    from .._generator import default_generator

    host = backend.to_numpy(x)
    drawn = host <= 0
    words = (generator or default_generator).words64(int(drawn.sum()))
    unit = (words & np.uint64(2 ** 53 - 1)).astype(np.float64) * 2.0 ** -53
    # the kernel reads the bounds in its compute type (float32 for float32 and float16)
    opmath = np.float64 if host.dtype == np.float64 else np.float32
    low, high = float(opmath(lower)), float(opmath(upper))
    slopes = np.ones(host.shape, dtype=host.dtype)
    slopes[drawn] = (unit * (high - low) + low).astype(opmath).astype(host.dtype)
    return backend.from_numpy(slopes, backend.device_of(x))


def rrelu(input: Tensor, lower: float = 1.0 / 8, upper: float = 1.0 / 3,
          training: bool = False, inplace: bool = False) -> Tensor:
    """``x`` where positive, else ``x`` times a slope: drawn from ``U(lower, upper)`` per
    value in training, ``(lower + upper) / 2`` outside it.

    >>> F.rrelu(minitorch.tensor([-1., 1.]), training=False)
    tensor([-0.2292,  1.0000])
    """
    name = "rrelu_" if inplace else "rrelu"
    _args.tensor_args(name, (input, "input", 1))
    lower, upper = map(_args.double_of, _args.numbers(name, (lower, "lower", 2),
                                                       (upper, "upper", 3)))
    training = _args.flag(name, training, "training", 4)
    # torch's in-place kernel takes infinite bounds (the functional one checks them first)
    for bound, value in () if inplace else (("lower", lower), ("upper", upper)):
        if not math.isfinite(value):
            raise RuntimeError(f"rrelu: {bound} bound must be finite, got {value}")
    if not lower <= upper:  # (a nan bound too)
        raise RuntimeError("Lower bound should be less than or equal to the upper bound")
    if training:
        if not input.dtype.is_floating_point or input.dtype.name == "float16":  # no half kernel
            raise _args.not_implemented("rrelu_with_noise_out_cpu", input.dtype)
        for bound in (lower, upper):  # read in the kernel's compute type
            _args.kernel_scalar(bound, input.dtype, opmath=True)
        if not upper - lower <= _DOUBLE_MAX:  # its uniform draw's range
            raise RuntimeError(_args.check_failed("to - from <= std::numeric_limits<T>::max()"))
    else:
        _check_kernel_dtype("leaky_relu", input)
        _args.kernel_scalar((lower + upper) / 2, input.dtype, opmath=True)  # leaky_relu's slope
    xp, x = input._xp, input._data
    mean = xp.where(x > 0, xp.ones((), dtype=x.dtype), xp.asarray((lower + upper) / 2,
                                                                   dtype=x.dtype))
    # torch 2.13's gradient is the drawn noise however narrow the range (the mean-slope branch
    # of its backward kernel for a range under 1e-6 is not the one autograd calls)
    noise = _drawn_slopes(x, lower, upper, None) if training else mean
    if inplace:
        return input._inplace(lambda a: RreluWithNoiseInplace.apply(a, noise=noise))
    return RreluWithNoise.apply(input, noise=noise)

