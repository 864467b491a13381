"""``nn.init``: fill a weight tensor in place with the values a layer starts from.

Each function works under ``no_grad`` (so a parameter can be filled) and returns the tensor.
Random values come from minitorch's generator (``minitorch.manual_seed``).

>>> import minitorch
>>> from minitorch import nn
>>> w = nn.Parameter(minitorch.empty(2, 3))
>>> nn.init.ones_(w)
Parameter containing:
tensor([[1., 1., 1.],
        [1., 1., 1.]], requires_grad=True)
"""

from __future__ import annotations

import math
import warnings
from collections.abc import Callable
from typing import Any

from .. import _args, _mkl
from .._creation import empty
from .._factories import empty_like
from .._random import randperm
from .._tensor import Tensor
from ..autograd import grad_mode
from ..ops.pointwise import where

__all__ = ["calculate_gain", "constant", "constant_", "dirac", "dirac_", "eye", "eye_",
           "kaiming_normal", "kaiming_normal_", "kaiming_uniform", "kaiming_uniform_", "normal",
           "normal_", "ones_", "orthogonal", "orthogonal_", "sparse", "sparse_",
           "trunc_normal_", "uniform", "uniform_", "xavier_normal", "xavier_normal_",
           "xavier_uniform", "xavier_uniform_", "zeros_"]


def _fill_(tensor: Tensor, values: Tensor) -> Tensor:
    with grad_mode._recording(False):
        return tensor.copy_(values)


def uniform_(tensor: Tensor, a: float = 0.0, b: float = 1.0, generator: Any = None) -> Tensor:
    """Fill with samples of the uniform distribution on [a, b) (torch's, for the same seed).

    >>> bool(minitorch.all(nn.init.uniform_(minitorch.empty(100), -1, 1).abs() <= 1))
    True
    """
    with grad_mode._recording(False):
        return tensor.uniform_(a, b, generator=generator)


def normal_(tensor: Tensor, mean: float = 0.0, std: float = 1.0,
            generator: Any = None) -> Tensor:
    """Fill with samples of the normal distribution N(mean, std²) (torch's, for the same
    seed).

    >>> nn.init.normal_(minitorch.empty(2, 2), std=0.01).shape
    torch.Size([2, 2])
    """
    with grad_mode._recording(False):
        return tensor.normal_(mean, std, generator=generator)


def trunc_normal_(tensor: Tensor, mean: float = 0.0, std: float = 1.0, a: float = -2.0,
                  b: float = 2.0, generator: Any = None) -> Tensor:
    """Fill with samples of N(mean, std²) truncated to [a, b], drawn by rejection as torch's
    (the same numbers for the same seed): whole normal draws while the interval holds more
    than 30% of the mass, else uniform candidates accepted with the normal density.

    >>> bool(minitorch.all(nn.init.trunc_normal_(minitorch.empty(100), a=-1, b=1).abs() <= 1))
    True
    """
    # torch's Python arithmetic: its TypeError or ZeroDivisionError for other values
    if _args.python_op(mean, "<", _args.python_op(a, "-", _args.python_op(2, "*", std))) or \
            _args.python_op(mean, ">", _args.python_op(b, "+", _args.python_op(2, "*", std))):
        warnings.warn("mean is more than 2 std from [a, b] in nn.init.trunc_normal_. The "
                      "distribution of values may be incorrect.", stacklevel=2)
    mass = _normal_cdf(_args.python_op(_args.python_op(b, "-", mean), "/", std)) - \
        _normal_cdf(_args.python_op(_args.python_op(a, "-", mean), "/", std))
    with grad_mode._recording(False):
        if mass > 0.3:
            return _redraw_outside(tensor, mean, std, a, b, generator)
        return _accept_by_density(tensor, mean, std, a, b, generator)


def _normal_cdf(x: float) -> float:
    return (1.0 + math.erf(x / math.sqrt(2.0))) / 2.0


def _redraw_outside(tensor: Tensor, mean: float, std: float, a: float, b: float,
                    generator: Any) -> Tensor:
    """Normal draws, each element outside [a, b] (the bounds in the tensor's dtype) replaced
    from a fresh full draw until none is left."""
    lo, hi = tensor.new_tensor(a).item(), tensor.new_tensor(b).item()
    result = tensor.normal_(mean, std, generator=generator)
    while True:
        outside = (result < lo) | (result > hi)
        if not outside.any():
            break
        fresh = empty_like(result).normal_(mean, std, generator=generator)
        result = where(outside, fresh, result)
    if tensor is not result:
        tensor.copy_(result)
    return tensor


def _accept_by_density(tensor: Tensor, mean: float, std: float, a: float, b: float,
                       generator: Any) -> Tensor:
    """Uniform candidates in [a, b], each kept when ``log U`` falls below its log density
    (relative to the mode's); the rejected ones are drawn again."""
    mode = max(a, min(mean, b))
    log_peak = -0.5 * ((mode - mean) / std) ** 2
    candidates, accept = empty_like(tensor), empty_like(tensor)

    def pending_after(values: Tensor) -> Tensor:
        values.sub_(mean).div_(std).pow_(2).mul_(-0.5).sub_(log_peak)
        return accept.uniform_(generator=generator).log_().gt(values)

    tensor.uniform_(a, b, generator=generator)
    candidates.copy_(tensor)
    pending = pending_after(candidates)
    result = tensor
    while pending.any():
        candidates.uniform_(a, b, generator=generator)
        result = where(pending, candidates, result)
        pending = where(pending, pending_after(candidates), pending)
    if result is not tensor:
        tensor.copy_(result)
    return tensor


def constant_(tensor: Tensor, val: float) -> Tensor:
    """Fill with ``val``.

    >>> nn.init.constant_(minitorch.empty(2), 0.5)
    tensor([0.5000, 0.5000])
    """
    with grad_mode._recording(False):
        return tensor.fill_(val)


def zeros_(tensor: Tensor) -> Tensor:
    """Fill with zeros.

    >>> nn.init.zeros_(minitorch.ones(2))
    tensor([0., 0.])
    """
    with grad_mode._recording(False):
        return tensor.zero_()  # torch's call: a non-tensor lacks zero_


def ones_(tensor: Tensor) -> Tensor:
    """Fill with ones.

    >>> nn.init.ones_(minitorch.zeros(2))
    tensor([1., 1.])
    """
    return constant_(tensor, 1.0)


def eye_(tensor: Tensor) -> Tensor:
    """Fill a matrix with the identity (ones on the diagonal, zeros elsewhere).

    >>> nn.init.eye_(minitorch.empty(2, 3))
    tensor([[1., 0., 0.],
            [0., 1., 0.]])
    """
    if tensor.ndimension() != 2:
        raise ValueError("Only tensors with 2 dimensions are supported")
    with grad_mode._recording(False):  # torch's eye(out=): zeros, then its diagonal, in place
        tensor.zero_()
        for i in range(min(tensor.shape)):
            tensor[i, i] = 1
    return tensor


def dirac_(tensor: Tensor, groups: int = 1) -> Tensor:
    """Fill a 3-, 4- or 5-d convolution weight with the Dirac delta: each of the first input
    channels (of each of ``groups`` groups) passes through unchanged, at the kernel's centre.

    >>> nn.init.dirac_(minitorch.empty(2, 2, 3))
    tensor([[[0., 1., 0.],
             [0., 0., 0.]],
    <BLANKLINE>
            [[0., 0., 0.],
             [0., 1., 0.]]])
    """
    if tensor.ndimension() not in (3, 4, 5):
        raise ValueError("Only tensors with 3, 4, or 5 dimensions are supported")
    sizes = tensor.shape
    if sizes[0] % groups != 0:
        raise ValueError("dim 0 must be divisible by groups")
    per_group = sizes[0] // groups
    centre = tuple(n // 2 for n in sizes[2:])
    with grad_mode._recording(False):  # torch's writes, in place (through any view)
        tensor.zero_()
        for g in range(groups):
            for d in range(min(per_group, sizes[1])):
                tensor[(g * per_group + d, d, *centre)] = 1
    return tensor


def orthogonal_(tensor: Tensor, gain: float = 1, generator: Any = None) -> Tensor:
    """Fill with a (semi-)orthogonal matrix, the tensor's trailing dimensions flattened, as
    torch makes it: normal samples, their QR factorisation (torch's LAPACK calls when MKL is
    installed, see ``minitorch._mkl.qr_reduced``), Q's columns signed by R's diagonal; then
    scaled by ``gain``.

    >>> w = nn.init.orthogonal_(minitorch.empty(3, 5))
    >>> bool(minitorch.allclose(w @ w.t(), minitorch.eye(3), atol=1e-6))
    True
    """
    if tensor.ndimension() < 2:
        raise ValueError("Only tensors with 2 or more dimensions are supported")
    if tensor.numel() == 0:
        return tensor
    rows = tensor.size(0)
    cols = tensor.numel() // rows
    with grad_mode._recording(False):
        flat = empty(rows, cols, dtype=tensor.dtype).normal_(0, 1, generator=generator)._data
    if tensor.dtype.name == "float16":  # drawn in it, then factored by a kernel without it
        raise _args.not_implemented("geqrf_cpu", tensor.dtype)
    xp = tensor._xp
    wide = rows < cols
    q, r = (Tensor._make(a) for a in _qr(xp, flat.T if wide else flat))
    q = q * r.diagonal().sign()
    with grad_mode._recording(False):  # a view, as torch's: a tensor it cannot flatten fails
        tensor.view(rows, cols).copy_(q.t() if wide else q)
        return tensor.mul_(gain)


def _qr(xp: Any, matrix: Any) -> tuple[Any, Any]:
    """The reduced QR factorisation: torch's bits through MKL, else the array library's."""
    found = _mkl.qr_reduced(matrix)
    return found if found is not None else xp.linalg.qr(matrix)


def sparse_(tensor: Tensor, sparsity: float, std: float = 0.01,
            generator: Any = None) -> Tensor:
    """Fill a matrix with N(0, std²) samples, then zero ``ceil(sparsity * rows)`` random
    entries of each column (chosen, as torch's, by ``randperm`` on the global generator).

    >>> w = nn.init.sparse_(minitorch.empty(4, 3), sparsity=0.5)
    >>> (w == 0).sum(0).tolist()
    [2, 2, 2]
    """
    if tensor.ndimension() != 2:
        raise ValueError("Only tensors with 2 dimensions are supported")
    rows, cols = tensor.shape
    num_zeros = _args.python_ceil(_args.python_op(sparsity, "*", rows))
    with grad_mode._recording(False):
        tensor.normal_(0, std, generator=generator)
        for col in range(cols):
            tensor[randperm(rows)[:num_zeros], col] = 0
    return tensor


def calculate_gain(nonlinearity: str, param: float | None = None) -> float:
    """The factor that keeps activations' variance steady through ``nonlinearity``.

    >>> nn.init.calculate_gain("relu")
    1.4142135623730951
    """
    if nonlinearity in ("linear", "conv1d", "conv2d", "conv3d", "conv_transpose1d",
                        "conv_transpose2d", "conv_transpose3d", "sigmoid"):
        return 1  # an int, as torch's
    if nonlinearity == "tanh":
        return 5.0 / 3
    if nonlinearity == "relu":
        return math.sqrt(2.0)
    if nonlinearity == "leaky_relu":
        if param is None:
            param = 0.01
        elif isinstance(param, bool) or not isinstance(param, (int, float)):
            raise ValueError(f"negative_slope {param} not a valid number")
        return math.sqrt(2.0 / (1 + param**2))
    if nonlinearity == "selu":
        return 3.0 / 4
    raise ValueError(f"Unsupported nonlinearity {nonlinearity}")


def _calculate_fan_in_and_fan_out(tensor: Tensor) -> tuple[int, int]:
    """(fan_in, fan_out): inputs and outputs feeding one weight entry of a layer.

    >>> nn.init._calculate_fan_in_and_fan_out(minitorch.empty(4, 3, 5))
    (15, 20)
    """
    if tensor.dim() < 2:
        raise ValueError("Fan in and fan out can not be computed for tensor with fewer than 2 "
                         "dimensions")
    receptive = math.prod(tensor.shape[2:])
    return tensor.shape[1] * receptive, tensor.shape[0] * receptive


def _calculate_correct_fan(tensor: Tensor, mode: str) -> int:
    """``fan_in`` or ``fan_out`` of ``tensor``, as ``mode`` names.

    >>> nn.init._calculate_correct_fan(minitorch.empty(4, 3), "fan_out")
    4
    """
    if not isinstance(mode, str):  # as torch: a mode that is no string fails here
        _args.python_attribute(mode, "lower")
    mode = mode.lower()
    if mode not in ("fan_in", "fan_out"):
        raise ValueError(f"Mode {mode} not supported, please use one of ['fan_in', 'fan_out']")
    fan_in, fan_out = _calculate_fan_in_and_fan_out(tensor)
    return fan_in if mode == "fan_in" else fan_out


def _kaiming_std(tensor: Tensor, a: float, mode: str, nonlinearity: str) -> float:
    fan = _calculate_correct_fan(tensor, mode)  # torch's order: the mode's errors first
    return calculate_gain(nonlinearity, a) / math.sqrt(fan)


def _empty(tensor: Tensor) -> bool:
    """True (with torch's warning) for a zero-element tensor, which kaiming init leaves as it
    is before it checks its other arguments."""
    _args.python_attribute(tensor, "shape")  # torch reads the shape first
    if tensor.numel():
        return False
    warnings.warn("Initializing zero-element tensors is a no-op", stacklevel=3)
    return True


def kaiming_uniform_(tensor: Tensor, a: float = 0.0, mode: str = "fan_in",
                     nonlinearity: str = "leaky_relu", generator: Any = None) -> Tensor:
    """He initialisation: U(-b, b) with ``b = gain · sqrt(3 / fan)``.

    ``nn.Linear`` uses ``a=sqrt(5)``, which gives ``b = 1 / sqrt(in_features)``.

    >>> w = nn.init.kaiming_uniform_(minitorch.empty(5, 4), a=5 ** 0.5)
    >>> bool(minitorch.all(w.abs() <= 0.5))
    True
    """
    if _empty(tensor):
        return tensor
    bound = math.sqrt(3.0) * _kaiming_std(tensor, a, mode, nonlinearity)
    return uniform_(tensor, -bound, bound, generator)


def kaiming_normal_(tensor: Tensor, a: float = 0.0, mode: str = "fan_in",
                    nonlinearity: str = "leaky_relu", generator: Any = None) -> Tensor:
    """He initialisation: N(0, std²) with ``std = gain / sqrt(fan)``.

    >>> nn.init.kaiming_normal_(minitorch.empty(5, 4)).shape
    torch.Size([5, 4])
    """
    if _empty(tensor):
        return tensor
    return normal_(tensor, 0.0, _kaiming_std(tensor, a, mode, nonlinearity), generator)


def xavier_uniform_(tensor: Tensor, gain: float = 1.0, generator: Any = None) -> Tensor:
    """Glorot initialisation: U(-b, b) with ``b = gain · sqrt(6 / (fan_in + fan_out))``.

    >>> bool(minitorch.all(nn.init.xavier_uniform_(minitorch.empty(3, 3)).abs() <= 1))
    True
    """
    fan_in, fan_out = _calculate_fan_in_and_fan_out(tensor)
    bound = _args.python_op(gain, "*", math.sqrt(_args.python_op(6.0, "/", fan_in + fan_out)))
    return uniform_(tensor, -bound, bound, generator)


def xavier_normal_(tensor: Tensor, gain: float = 1.0, generator: Any = None) -> Tensor:
    """Glorot initialisation: N(0, std²) with ``std = gain · sqrt(2 / (fan_in + fan_out))``.

    >>> nn.init.xavier_normal_(minitorch.empty(3, 3)).shape
    torch.Size([3, 3])
    """
    fan_in, fan_out = _calculate_fan_in_and_fan_out(tensor)
    std = _args.python_op(gain, "*", math.sqrt(_args.python_op(2.0, "/", fan_in + fan_out)))
    return normal_(tensor, 0.0, std, generator)


def _reset_layer(weight: Tensor, bias: Tensor | None) -> None:
    """torch's default start of a Linear or Conv layer: ``kaiming_uniform_(a=sqrt(5))``
    weights and a bias uniform in ±1/sqrt(fan_in).

    >>> w, b = nn.Parameter(minitorch.empty(3, 4)), nn.Parameter(minitorch.empty(3))
    >>> nn.init._reset_layer(w, b)
    >>> bool((b.abs() <= 0.5).all())
    True
    """
    kaiming_uniform_(weight, a=math.sqrt(5))
    if bias is not None:
        fan_in = _calculate_fan_in_and_fan_out(weight)[0]
        bound = 1 / math.sqrt(fan_in) if fan_in > 0 else 0
        uniform_(bias, -bound, bound)


def _make_deprecate(method: Callable[..., Tensor], namespace: str = "nn.init",
                    calls: Callable[..., Tensor] | None = None) -> Callable[..., Tensor]:
    """torch's old name for ``method`` (its name without the trailing ``_``): it warns with
    a ``FutureWarning`` naming both in ``namespace`` and calls ``method`` (or ``calls``, the
    old function where torch keeps one, whose signature refuses a call in its own name).

    >>> import warnings
    >>> with warnings.catch_warnings(record=True) as caught:
    ...     warnings.simplefilter("always")
    ...     w = nn.init.constant(minitorch.empty(2), 3.)
    >>> caught[0].category.__name__, w
    ('FutureWarning', tensor([3., 3.]))
    """
    new_name = method.__name__
    old_name = new_name[:-1]

    def deprecated_init(*args: Any, **kwargs: Any) -> Tensor:
        warnings.warn(f"`{namespace}.{old_name}` is now deprecated in favor of "
                      f"`{namespace}.{new_name}`.", FutureWarning, stacklevel=2)
        return (calls or method)(*args, **kwargs)

    deprecated_init.__doc__ = f"""{old_name}(...): deprecated, see :func:`{new_name}`.

    >>> {namespace.removeprefix("torch.")}.{old_name}.__name__
    '{old_name}'
    """
    deprecated_init.__name__ = deprecated_init.__qualname__ = old_name
    return deprecated_init


uniform = _make_deprecate(uniform_)
normal = _make_deprecate(normal_)
constant = _make_deprecate(constant_)
eye = _make_deprecate(eye_)
dirac = _make_deprecate(dirac_)
xavier_uniform = _make_deprecate(xavier_uniform_)
xavier_normal = _make_deprecate(xavier_normal_)
kaiming_uniform = _make_deprecate(kaiming_uniform_)
kaiming_normal = _make_deprecate(kaiming_normal_)
orthogonal = _make_deprecate(orthogonal_)
sparse = _make_deprecate(sparse_)
