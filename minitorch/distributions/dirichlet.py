"""``Dirichlet``: distributions over the probability simplex with ``concentration`` (the last
dimension is the event); draws are ``_sample_dirichlet``'s (torch's for the same seed) and
differentiable through ``_dirichlet_grad``, scores and moments as torch computes them.

>>> import minitorch
>>> g = minitorch.manual_seed(0)
>>> Dirichlet(minitorch.tensor([1.0, 1.0])).sample()
tensor([0.8638, 0.1362])
"""

from __future__ import annotations

from typing import Any

import minitorch

from .._tensor import Tensor
from ..autograd.function import Function, once_differentiable
from . import constraints
from .exp_family import ExponentialFamily


def _Dirichlet_backward(x: Tensor, concentration: Tensor, grad_output: Tensor) -> Tensor:
    """The gradient of draws ``x`` in their ``concentration``: each coordinate's Beta
    gradient, kept on the simplex."""
    total = concentration.sum(-1, True).expand_as(concentration)
    grad = minitorch._dirichlet_grad(x, concentration, total)
    return grad * (grad_output - (x * grad_output).sum(-1, True))


class _Dirichlet(Function):
    """A Dirichlet draw with its reparameterised gradient (torch's ``_DirichletBackward``)."""

    @staticmethod
    def forward(ctx: Any, concentration: Tensor) -> Tensor:
        x = minitorch._sample_dirichlet(concentration)
        ctx.save_for_backward(x, concentration)
        return x

    @staticmethod
    @once_differentiable
    def backward(ctx: Any, grad_output: Tensor) -> Tensor:
        x, concentration = ctx.saved_tensors
        return _Dirichlet_backward(x, concentration, grad_output)


class Dirichlet(ExponentialFamily):
    """Dirichlet with ``concentration`` (at least one-dimensional: its last dimension is the
    event)."""

    arg_constraints = {"concentration": constraints.independent(constraints.positive, 1)}
    support = constraints.simplex
    has_rsample = True

    def __init__(self, concentration: Tensor, validate_args: bool | None = None) -> None:
        if concentration.dim() < 1:
            raise ValueError("`concentration` parameter must be at least one-dimensional.")
        self.concentration = concentration
        super().__init__(concentration.shape[:-1], concentration.shape[-1:],
                         validate_args=validate_args)

    def expand(self, batch_shape: Any, _instance: Any = None) -> Dirichlet:
        """The same distributions repeated over a larger ``batch_shape`` (views, no copy).

        >>> Dirichlet(minitorch.ones(2)).expand([3]).concentration.shape
        torch.Size([3, 2])
        """
        event = tuple(self.event_shape)
        return self._expanded(Dirichlet, batch_shape, _instance, {"concentration": event})

    def rsample(self, sample_shape: Any = ()) -> Tensor:
        shape = self._extended_shape(sample_shape)
        return _Dirichlet.apply(self.concentration.expand(shape))

    def log_prob(self, value: Tensor) -> Tensor:
        if self._validate_args:
            self._validate_sample(value)
        return (minitorch.xlogy(self.concentration - 1.0, value).sum(-1)
                + minitorch.lgamma(self.concentration.sum(-1))
                - minitorch.lgamma(self.concentration).sum(-1))

    @property
    def mean(self) -> Tensor:
        return self.concentration / self.concentration.sum(-1, True)

    @property
    def mode(self) -> Tensor:
        concentrationm1 = (self.concentration - 1).clamp(min=0.0)
        mode = concentrationm1 / concentrationm1.sum(-1, True)
        mask = (self.concentration < 1).all(dim=-1)
        mode[mask] = minitorch.nn.functional.one_hot(
            mode[mask].argmax(dim=-1), concentrationm1.shape[-1]).to(mode)
        return mode

    @property
    def variance(self) -> Tensor:
        con0 = self.concentration.sum(-1, True)
        return self.concentration * (con0 - self.concentration) / (con0.pow(2) * (con0 + 1))

    def entropy(self) -> Tensor:
        k = self.concentration.size(-1)
        a0 = self.concentration.sum(-1)
        return (minitorch.lgamma(self.concentration).sum(-1) - minitorch.lgamma(a0)
                - (k - a0) * minitorch.digamma(a0)
                - ((self.concentration - 1.0) * minitorch.digamma(self.concentration)).sum(-1))



