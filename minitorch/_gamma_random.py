"""Gamma and Dirichlet draws with reparameterised gradients: ``_standard_gamma`` (its node
``StandardGammaBackward0`` multiplies by ``_standard_gamma_grad``, d sample / d alpha),
``_sample_dirichlet`` and ``_dirichlet_grad``, the pieces ``distributions``' ``Gamma``,
``Chi2``, ``StudentT``, ``Beta`` and ``Dirichlet`` sample through. The draws are torch's for
the same seed (``_sampling.standard_gamma``), the gradients torch's (``_gamma_grad``).

>>> import minitorch
>>> g = minitorch.manual_seed(0)
>>> minitorch._standard_gamma(minitorch.tensor([2.0]))
tensor([4.5526])
"""

from __future__ import annotations

from typing import Any

from . import _args, _gamma_grad, _sampling, backend
from ._generator import Generator
from ._tensor import Tensor, broadcast_shapes
from .autograd.grad_mode import no_grad
from .ops._base import Op, wrap
from .ops.pointwise import _NoDerivative

__all__ = ["_dirichlet_grad", "_sample_dirichlet", "_standard_gamma", "_standard_gamma_grad"]


def _check_generator(fn: str, generator: Any) -> None:
    if generator is not None and not isinstance(generator, Generator):
        raise TypeError(f"{fn}(): argument 'generator' (position 2) must be torch.Generator, "
                        f"not {_args.type_name(generator)}")


def _check_kernel_dtype(kernel: str, *tensors: Tensor) -> None:
    """torch's kernels here loop over float32 and float64 only, every operand of the first
    one's dtype."""
    first = tensors[0].dtype
    if first.name not in ("float32", "float64"):
        raise _args.not_implemented(kernel, first)
    for other in tensors[1:]:
        if other.dtype != first:
            raise RuntimeError(f"Found dtype {_args.legacy(other.dtype)} but expected "
                               f"{_args.legacy(first)}")


def _on_numpy(fn: Any, *tensors: Tensor) -> Any:
    """``fn`` of the tensors' arrays broadcast together, as numpy arrays, on their module."""
    shape = broadcast_shapes(*(tuple(t.shape) for t in tensors))
    xp = tensors[0]._xp
    arrays = [backend.to_numpy(xp.broadcast_to(t._data, shape)) for t in tensors]
    return xp.asarray(fn(*arrays))


class StandardGamma(Op):
    """A Gamma(alpha, 1) draw per alpha; its gradient is ``_standard_gamma_grad``'s."""

    node_name = "StandardGammaBackward0"
    saved_names = ("self", "result")
    _profile_name = "aten::_standard_gamma"

    @staticmethod
    def forward(ctx: Any, alpha: Tensor, *, generator: Any) -> Tensor:
        out = wrap(_sampling.draw(alpha._xp, "standard_gamma", tuple(alpha.shape),
                                  alpha.dtype.name, generator, alphas=alpha._data))
        ctx.save_for_backward(alpha, out)
        return out

    @staticmethod
    def backward(ctx: Any, g: Tensor) -> tuple:
        alpha, out = ctx.saved_tensors
        return (g * _standard_gamma_grad(alpha, out),)


class StandardGammaGrad(Op):
    """``_standard_gamma_grad``: torch has no derivative of it, and says so on backward."""

    node_name = "StandardGammaGradBackward0"
    _profile_name = "aten::_standard_gamma_grad"

    @staticmethod
    def forward(ctx: Any, alpha: Tensor, x: Tensor) -> Tensor:
        return wrap(_on_numpy(_gamma_grad.standard_gamma_grad, alpha, x))

    @staticmethod
    def backward(ctx: Any, g: Tensor) -> tuple:
        raise NotImplementedError("the derivative for '_standard_gamma_grad' is not "
                                  "implemented.")


class SampleDirichlet(_NoDerivative):
    """``_sample_dirichlet``: gamma draws in float64 normalised along the last dimension."""

    node_name = "NotImplemented"
    _profile_name = "aten::_sample_dirichlet"

    @staticmethod
    def compute(alpha: Tensor, generator: Any = None) -> Any:
        xp = alpha._xp
        wide, narrow = backend.array_dtype(xp, "float64"), backend.array_dtype(xp, alpha.dtype.name)
        gammas = wrap(_sampling.draw(xp, "standard_gamma", tuple(alpha.shape), "float64",
                                     generator, alphas=xp.astype(alpha._data, wide)))
        with no_grad():  # torch's own sum of the float64 draws
            total = gammas.sum(-1, keepdim=True)._data
        ratio = xp.astype(gammas._data / total, narrow)
        tiny = xp.asarray(xp.finfo(narrow).smallest_normal, dtype=narrow)
        below_one = xp.nextafter(xp.asarray(1, dtype=narrow), xp.asarray(0, dtype=narrow))
        ratio = xp.where(tiny < ratio, ratio, tiny)  # C++'s std::max: NaN becomes tiny
        return xp.where(ratio < below_one, ratio, below_one)


class DirichletGrad(_NoDerivative):
    """``_dirichlet_grad``: d x / d alpha of Beta(alpha, total - alpha) draws, over 1 - x."""

    node_name = "NotImplemented"
    _profile_name = "aten::_dirichlet_grad"

    @staticmethod
    def compute(x: Tensor, alpha: Tensor, total: Tensor) -> Any:
        return _on_numpy(_gamma_grad.dirichlet_grad, x, alpha, total)


@_args.tensors("_standard_gamma", alpha="input")
def _standard_gamma(alpha: Tensor, generator: Any = None) -> Tensor:
    """One Gamma(alpha, 1) draw per element of ``alpha`` (float32 or float64): torch's numbers
    for the same seed, differentiable in ``alpha`` (the reparameterised gradient).

    >>> g = minitorch.manual_seed(0)
    >>> minitorch._standard_gamma(minitorch.tensor([0.5, 4.0]))
    tensor([7.8936e-04, 1.9752e+00])
    """
    _check_generator("_standard_gamma", generator)
    _check_kernel_dtype("gamma_cpu", alpha)
    return StandardGamma.apply(alpha, generator=generator)


@_args.tensors("_standard_gamma_grad", alpha="self", x="output")
def _standard_gamma_grad(alpha: Tensor, x: Tensor) -> Tensor:
    """d x / d alpha of Gamma(alpha, 1) draws ``x``: torch's approximations.

    >>> minitorch._standard_gamma_grad(minitorch.tensor([0.5]), minitorch.tensor([0.3]))
    tensor([1.0098])
    """
    _check_kernel_dtype("_standard_gamma_grad_cpu", alpha, x)
    return StandardGammaGrad.apply(alpha, x)


@_args.tensors("_sample_dirichlet", alpha="input")
def _sample_dirichlet(alpha: Tensor, generator: Any = None) -> Tensor:
    """A Dirichlet draw per row (last dimension) of concentrations ``alpha``: torch's numbers
    for the same seed. Not differentiable (``distributions.Dirichlet.rsample`` is).

    >>> g = minitorch.manual_seed(0)
    >>> minitorch._sample_dirichlet(minitorch.tensor([1.0, 1.0]))
    tensor([0.8638, 0.1362])
    """
    _check_generator("_sample_dirichlet", generator)
    _check_kernel_dtype("dirichlet", alpha)
    return SampleDirichlet.on(alpha, generator=generator)


@_args.tensors("_dirichlet_grad", x="x", alpha="alpha", total="total")
def _dirichlet_grad(x: Tensor, alpha: Tensor, total: Tensor) -> Tensor:
    """d x / d alpha of Beta(alpha, total - alpha) draws ``x``, divided by ``1 - x``: the
    Dirichlet's reparameterised gradient, with torch's approximations.

    >>> minitorch._dirichlet_grad(minitorch.tensor([0.3]), minitorch.tensor([0.5]),
    ...                           minitorch.tensor([1.0]))
    tensor([1.3220])
    """
    _check_kernel_dtype("_dirichlet_grad_cpu", x, alpha, total)
    return DirichletGrad.on(x, alpha, total)
