"""Statistics of samples, each torch's composition of existing ops (so its graph and its
gradient are torch's): ``cov`` (weighted by ``fweights``/``aweights``), ``corrcoef``, and
``quantile``/``nanquantile`` (a sort, then the two neighbouring order statistics gathered and
``lerp``-ed by one of torch's interpolation modes).

>>> import minitorch
>>> x = minitorch.tensor([[1., 2., 4.], [2., 1., 0.]], requires_grad=True)
>>> minitorch.cov(x)
tensor([[ 2.3333, -1.5000],
        [-1.5000,  1.0000]], grad_fn=<SqueezeBackward0>)
>>> minitorch.quantile(x, 0.5, dim=1)
tensor([2., 1.], grad_fn=<SqueezeBackward4>)
"""

from __future__ import annotations

import warnings
from typing import Any

from .. import _args, _call_form
from .._cpp_print import cpp_float
from .._tensor import Tensor
from .linalg import mm
from .masked import masked_fill
from .pointwise import MulScalar, clamp
from .sorting import sort

__all__ = ["corrcoef", "cov", "nanquantile", "quantile"]


def _check_weights(name: str, w: Tensor, observations: int, integral: bool) -> None:
    kind = "integral" if integral else "floating point"
    if w.dim() > 1:
        raise RuntimeError(f"cov(): expected {name} to have one or fewer dimensions but got "
                           f"{name} with {w.dim()} dimensions")
    if integral == w.dtype.is_floating_point or (w.dtype.name == "bool" and not integral):
        raise RuntimeError(f"cov(): expected {name} to have {kind} dtype but got {name} with "
                           f"{_args.legacy(w.dtype)} dtype")
    if w.numel() != observations:
        raise RuntimeError(f"cov(): expected {name} to have the same numel as there are "
                           f"observations in the input but got {w.numel()} != {observations}")
    if observations and bool((w.min() < 0).item()):
        raise RuntimeError(f"cov(): {name} cannot be negative")


def cov(input: Tensor, *, correction: int = 1, fweights: Tensor | None = None,
        aweights: Tensor | None = None) -> Tensor:
    """The covariance matrix of the variables in ``input``'s rows (each column one
    observation), with ``correction`` (1: Bessel's) and integer frequency ``fweights`` or
    float importance ``aweights`` per observation.

    >>> minitorch.cov(minitorch.tensor([1., 2., 6.]))
    tensor(7.)
    """
    _args.tensor_args("cov", (input, "input", 1))
    (correction,) = _args.parsed("cov", ("int", correction, "correction", None))
    _args.tensor_args("cov", *((w, name, None) for w, name in (
        (fweights, "fweights"), (aweights, "aweights")) if w is not None))
    if input.dim() > 2:
        raise RuntimeError("cov(): expected input to have two or fewer dimensions but got an "
                           f"input with {input.dim()} dimensions")
    if input.dtype.name == "bool":
        raise RuntimeError("cov(): bool dtype is not supported for input")
    rows = input.view(1, -1) if input.dim() < 2 else input
    observations = rows.shape[1]
    w = None
    if fweights is not None:
        _check_weights("fweights", fweights, observations, integral=True)
        w = fweights
    if aweights is not None:
        _check_weights("aweights", aweights, observations, integral=False)
        w = aweights if w is None else w * aweights
    if w is None:
        from .._creation import tensor

        total = tensor(observations)
    else:
        total = w.sum()
        if not bool((total != 0).item()):
            raise RuntimeError("cov(): weights sum to zero, can't be normalized")
    mean = (rows if w is None else rows * w).sum(1) / total
    if w is not None and aweights is not None and correction:
        norm = total - correction * (w * aweights).sum() / total
    else:
        norm = total - correction
    if bool((norm <= 0).item()):
        warnings.warn("cov(): degrees of freedom is <= 0. Correction should be strictly less "
                      "than the number of observations.", UserWarning, stacklevel=3)
        norm = norm * 0
    centred = rows - mean.unsqueeze(1)
    return (mm(centred, (centred if w is None else centred * w).t()) / norm).squeeze()


def corrcoef(input: Tensor) -> Tensor:
    """The correlation coefficients of the variables in ``input``'s rows (``cov`` scaled by
    the standard deviations, clipped to [-1, 1]).

    >>> minitorch.corrcoef(minitorch.tensor([[1., 2., 3.], [3., 2., 0.]]))
    tensor([[ 1.0000, -0.9820],
            [-0.9820,  1.0000]])
    """
    _args.tensor_args("corrcoef", (input, "input", 1))
    if input.dim() > 2:
        raise RuntimeError("corrcoef(): expected input to have two or fewer dimensions but got "
                           f"an input with {input.dim()} dimensions")
    c = cov(input)
    if c.dim() == 0:  # one variable: 1, or nan where its variance is 0, inf or nan
        return c / c
    deviation = c.diagonal().sqrt()
    c = c / deviation.view(-1, 1)
    c = c / deviation.view(1, -1)
    return clamp(c, -1, 1)


_MODES = ("linear", "lower", "higher", "midpoint", "nearest")
_SIGNATURES = ('Tensor input, Tensor q, int dim = None, bool keepdim = False, *, '
               'str interpolation = "linear", Tensor out = None',
               'Tensor input, float q, int dim = None, bool keepdim = False, *, '
               'str interpolation = "linear", Tensor out = None')


def _quantile(fn: str, input: Any, q: Any, dim: Any, keepdim: Any, interpolation: Any,
              ignore_nan: bool) -> Tensor:
    """torch's ``quantile_compute``, step for step."""
    if not _args.is_tensor(input) or not (_args.is_tensor(q) or _args.reads_as_double(q)) or \
            not (dim is None or _args.as_int(dim) is not None) or \
            not isinstance(interpolation, str):
        raise _args.invalid_combination(fn, (input, q), *_SIGNATURES)
    keepdim = _args.flag(fn, keepdim, "keepdim", 4)
    if dim is not None:  # the parser unpacks it (past int64: its ValueError) before any check
        dim = _args.integer(fn, dim, "dim", 2)
    if not isinstance(q, Tensor):
        q = float(q)  # the parser's double (a numpy complex: its real part)
        if not 0 <= q <= 1:
            raise RuntimeError(f"quantile() q must be in the range [0, 1] but got "
                               f"{cpp_float(float(q))}")
        from .._creation import tensor

        q = tensor(float(q), dtype=input.dtype)
    if interpolation not in _MODES:  # before the tensors
        raise RuntimeError("quantile() interpolation must be one of linear, lower, higher, "
                           f"midpoint or nearest, but got {interpolation}")
    _check_quantile(input, q)
    wrapped = _args.wrap_dim(0 if dim is None else dim, input.dim())
    if not bool(((q >= 0) & (q <= 1)).all().item()):
        raise RuntimeError("quantile() q values must be in the range [0, 1]")
    shape = _output_shape(input, q, dim, keepdim, wrapped)
    if dim is None:
        ordered = sort(input.flatten())[0]
    elif wrapped == input.dim() - 1:
        ordered = sort(input)[0]
    else:
        ordered = sort(input.unsqueeze(-1).transpose(wrapped, -1))[0]
    if q.dim() == 0:
        shape.insert(0, q.numel())
    ordered = ordered.view(*shape[1:], ordered.shape[-1])
    ranks = _ranks(ordered, q, ignore_nan)
    if interpolation in ("lower", "higher", "nearest"):
        getattr(ranks, {"lower": "floor_", "higher": "ceil_", "nearest": "round_"}[
            interpolation])()
    below = ranks.long()
    values = ordered.gather(-1, below)
    if interpolation in ("linear", "midpoint"):
        weights = ranks.new_full(ranks.shape, 0.5) if interpolation == "midpoint" else \
            ranks - below
        values.lerp_(ordered.gather(-1, ranks.ceil_().long()), weights)
    if q.dim() == 0:
        return values.squeeze_(-1)
    return values.unsqueeze_(0).transpose_(0, -1).squeeze_(-1)


def _check_quantile(input: Tensor, q: Tensor) -> None:
    if not input.numel():
        raise RuntimeError("quantile() input tensor must be non-empty")
    if q.dim() > 1:
        raise RuntimeError("quantile() q must be a scalar or 1D tensor")
    if input.dtype.name not in ("float32", "float64"):
        raise RuntimeError("quantile() input tensor must be either float or double dtype")
    if q.dtype is not input.dtype:
        raise RuntimeError("quantile() q tensor must be same dtype as the input tensor")


def _output_shape(input: Tensor, q: Tensor, dim: Any, keepdim: bool, wrapped: int) -> list:
    """torch's ``quantile_output_shape``: the quantiles first, then the reduced shape."""
    shape: list = []
    if dim is not None and input.dim():
        shape = list(input.shape)
        if keepdim:
            shape[wrapped] = 1
        else:
            del shape[wrapped]
    elif keepdim:
        shape = [1] * input.dim()
    if q.dim():
        shape.insert(0, q.numel())
    return shape


def _ranks(ordered: Tensor, q: Tensor, ignore_nan: bool) -> Tensor:
    """The (fractional) ranks of the quantiles ``q``: among the values that are not nan
    (``ignore_nan``, none: 0), or among all (any nan: the last, so the quantile is nan)."""
    if ignore_nan:
        ranks = q * (ordered.isnan().logical_not().sum(-1, keepdim=True) - 1)
        return masked_fill(ranks, ranks < 0, 0)
    last = ordered.shape[-1] - 1
    from .broadcast import broadcast_tensors

    scaled, any_nan = broadcast_tensors(MulScalar.apply(q, last),
                                        ordered.isnan().any(-1, keepdim=True))
    return masked_fill(scaled, any_nan, last)


@_call_form.overloads(*_SIGNATURES)
def quantile(input: Tensor, q: Any, dim: int | None = None, keepdim: bool = False, *,
             interpolation: str = "linear") -> Tensor:
    """The ``q``-th quantiles of ``input`` (all of it, or along ``dim``): ``q`` a number or
    a 1-d tensor in [0, 1], between order statistics by ``interpolation`` (``"linear"``,
    ``"lower"``, ``"higher"``, ``"midpoint"``, ``"nearest"``); a nan gives nan.

    >>> minitorch.quantile(minitorch.tensor([1., 2., 3., 4.]), minitorch.tensor([0.25, 0.5]))
    tensor([1.7500, 2.5000])
    """
    return _quantile("quantile", input, q, dim, keepdim, interpolation, ignore_nan=False)


@_call_form.overloads(*_SIGNATURES)
def nanquantile(input: Tensor, q: Any, dim: int | None = None, keepdim: bool = False, *,
                interpolation: str = "linear") -> Tensor:
    """``quantile`` of the values that are not nan (nan where all are).

    >>> minitorch.nanquantile(minitorch.tensor([1., float("nan"), 3.]), 0.5)
    tensor(2.)
    """
    return _quantile("nanquantile", input, q, dim, keepdim, interpolation, ignore_nan=True)
