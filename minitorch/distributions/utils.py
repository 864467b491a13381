"""Helpers shared by the distributions: broadcasting parameters, probabilities and logits,
and a cached property for a parameterisation computed from the other.

>>> import minitorch
>>> logits_to_probs(minitorch.zeros(2))
tensor([0.5000, 0.5000])
"""

from __future__ import annotations

import types
from typing import Any

import minitorch

from .._tensor import Tensor

euler_constant = 0.57721566490153286060  # Euler-Mascheroni constant
# What torch's distributions take for a number (its ``_Number``; a bool is an int): not
# ``numbers.Number``, which a complex, a Fraction or a numpy integer also is.
NUMBER = (int, float)


def broadcast_all(*values: Any) -> tuple[Tensor, ...]:
    """The values as tensors of one shape; numbers take the first tensor's dtype."""
    if not all(isinstance(v, (Tensor, NUMBER)) for v in values):
        raise ValueError("Input arguments must all be instances of Number, torch.Tensor or "
                         "objects implementing __torch_function__.")
    dtype = next((v.dtype for v in values if isinstance(v, Tensor)),
                 minitorch.get_default_dtype())
    tensors = [v if isinstance(v, Tensor) else minitorch.tensor(v, dtype=dtype) for v in values]
    return minitorch.broadcast_tensors(*tensors)


def clamp_probs(probs: Tensor) -> Tensor:
    eps = minitorch.finfo(probs.dtype).eps
    return probs.clamp(min=eps, max=1 - eps)


def probs_to_logits(probs: Tensor, is_binary: bool = False) -> Tensor:
    clamped = clamp_probs(probs)
    return clamped.log() - (-clamped).log1p() if is_binary else clamped.log()


def logits_to_probs(logits: Tensor, is_binary: bool = False) -> Tensor:
    return logits.sigmoid() if is_binary else minitorch.softmax(logits, dim=-1)


def _standard_normal(shape: Any, dtype: Any, device: Any) -> Tensor:
    """Draws as torch's ``empty(shape).normal_()``: the same numbers for the same seed."""
    return minitorch.empty(shape, dtype=dtype, device=device).normal_()


class lazy_property:
    """Computed on first read, then stored in the instance (so ``name in obj.__dict__``
    says whether it was given or derived)."""

    def __init__(self, fn: Any) -> None:
        self.fn = fn
        self.__doc__ = fn.__doc__

    def __get__(self, instance: Any, owner: Any = None) -> Any:
        if instance is None:
            return self
        with minitorch.enable_grad():
            value = self.fn(instance)
        instance.__dict__[self.fn.__name__] = value
        return value


class BinaryParameters:
    """``probs`` and ``logits`` of yes-or-no trials, each derived from the other where only
    one was given (a class holding ``_param``, the given one: Bernoulli, Binomial, Geometric,
    ...)."""

    _param: Tensor

    @lazy_property
    def logits(self) -> Tensor:
        return probs_to_logits(self.probs, is_binary=True)

    @lazy_property
    def probs(self) -> Tensor:
        return logits_to_probs(self.logits, is_binary=True)


def _count_and_binary_param(dist: Any, total_count: Any, probs: Any, logits: Any) -> None:
    """``dist.total_count`` and the one of ``probs``/``logits`` given, broadcast, the count
    of the parameter's dtype, the parameter also as ``dist._param`` (Binomial,
    NegativeBinomial); torch's error where neither or both are given."""
    if (probs is None) == (logits is None):
        raise ValueError("Either `probs` or `logits` must be specified, but not both.")
    if probs is not None:
        dist.total_count, dist.probs = broadcast_all(total_count, probs)
        dist._param = dist.probs
    else:
        dist.total_count, dist.logits = broadcast_all(total_count, logits)
        dist._param = dist.logits
    dist.total_count = dist.total_count.type_as(dist._param)


def _sum_rightmost(value: Tensor, dim: int) -> Tensor:
    """``value`` summed over its last ``dim`` dims."""
    if dim == 0:
        return value
    return value.reshape(*value.shape[:-dim], -1).sum(-1)  # (torch's reading of a negative
    # ``dim``, or one past the value's dims, too)


def _tril_mask(n: int, diag: int, device: Any) -> Tensor:
    """True on and below the ``diag``-th diagonal of an ``n x n`` matrix."""
    arange = minitorch.arange(n, device=device)
    return arange < arange.view(-1, 1) + (diag + 1)


def tril_matrix_to_vec(mat: Tensor, diag: int = 0) -> Tensor:
    """The entries on and below the ``diag``-th diagonal of (a batch of) square matrices, in
    row order.

    >>> tril_matrix_to_vec(minitorch.tensor([[1., 2.], [3., 4.]]))
    tensor([1., 3., 4.])
    """
    n = mat.shape[-1]
    if diag < -n or diag >= n:
        raise ValueError(f"diag ({diag}) provided is outside [{-n}, {n - 1}].")
    return mat[..., _tril_mask(n, diag, mat.device)]


def vec_to_tril_matrix(vec: Tensor, diag: int = 0) -> Tensor:
    """(A batch of) square matrices whose entries on and below the ``diag``-th diagonal are
    ``vec``'s, in row order, and zero elsewhere.

    >>> vec_to_tril_matrix(minitorch.tensor([1., 3., 4.]))
    tensor([[1., 0.],
            [3., 4.]])
    """
    size = vec.shape[-1]
    b = 1 + 2 * diag
    n = (-b + (b ** 2 + 8 * size + 4 * abs(diag) * (diag + 1)) ** 0.5) / 2
    if round(n) - n > minitorch.finfo(vec.dtype).eps:
        raise ValueError(f"The size of last dimension is {size} which cannot be expressed as "
                         "the lower triangular part of a square D x D matrix.")
    n = round(n)
    mat = vec.new_zeros((*vec.shape[:-1], n, n))
    mat[..., _tril_mask(n, diag, vec.device)] = vec
    return mat


def own_init(cls: type) -> type:
    """Class decorator: ``cls`` with the ``__init__`` it inherits under its own name. torch
    defines one in each distribution, and Python names that function when it refuses a
    call's arguments (``Normal.__init__() got an unexpected keyword argument 'foo'``).

    >>> class Base:
    ...     def __init__(self, x): self.x = x
    >>> @own_init
    ... class Child(Base): pass
    >>> Child.__init__.__qualname__
    'Child.__init__'
    """
    init = cls.__init__
    name = f"{cls.__qualname__}.__init__"
    code = init.__code__  # (Python 3.11 names the code's qualname; 3.10 the function's)
    code = code.replace(co_qualname=name) if hasattr(code, "co_qualname") else code
    named = types.FunctionType(code, init.__globals__, init.__name__, init.__defaults__,
                               init.__closure__)
    named.__kwdefaults__ = init.__kwdefaults__
    named.__annotations__ = init.__annotations__
    named.__doc__, named.__qualname__, named.__module__ = init.__doc__, name, cls.__module__
    cls.__init__ = named
    return cls
