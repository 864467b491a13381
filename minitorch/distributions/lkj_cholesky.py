"""``LKJCholesky``: the LKJ distribution over correlation matrices, on their lower Cholesky
factors; ``concentration`` 1 is uniform over correlations, larger favours the identity.

>>> import minitorch
>>> LKJCholesky(2, 1.).log_prob(minitorch.eye(2))
tensor(-0.6931)
"""

from __future__ import annotations

import math
from typing import Any

import minitorch

from .._tensor import Size, Tensor
from . import constraints
from .beta import Beta
from .distribution import Distribution
from .utils import broadcast_all


class LKJCholesky(Distribution):
    """LKJ over ``dim x dim`` correlation Cholesky factors; draws by the onion method (a
    Beta radius per row on a random direction)."""

    arg_constraints = {"concentration": constraints.positive}
    support = constraints.corr_cholesky

    def __init__(self, dim: int, concentration: Tensor | float = 1.0,
                 validate_args: bool | None = None) -> None:
        if dim < 2:
            raise ValueError("Expected dim to be an integer greater than or equal to 2. "
                             f"Found dim={dim}.")
        self.dim = dim
        (self.concentration,) = broadcast_all(concentration)
        batch_shape, event_shape = self.concentration.size(), Size((dim, dim))
        marginal = self.concentration + 0.5 * (self.dim - 2)
        offset = minitorch.arange(self.dim - 1, dtype=self.concentration.dtype,
                                  device=self.concentration.device)
        offset = minitorch.cat([offset.new_zeros((1,)), offset])
        self._beta = Beta(offset + 0.5, marginal.unsqueeze(-1) - 0.5 * offset)
        super().__init__(batch_shape, event_shape, validate_args)

    def expand(self, batch_shape: Any, _instance: Any = None) -> LKJCholesky:
        """The same distributions repeated over a larger ``batch_shape`` (views, no copy).

        >>> LKJCholesky(2, 1.).expand([3]).concentration
        tensor([1., 1., 1.])
        """
        new = self._expanded(LKJCholesky, batch_shape, _instance, {"concentration": ()},
                             dim=self.dim)
        new._beta = self._beta.expand((*new.batch_shape, self.dim))  # (after, as in torch)
        return new

    def sample(self, sample_shape: Any = ()) -> Tensor:
        with minitorch.no_grad():
            y = self._beta.sample(sample_shape).unsqueeze(-1)
            u = minitorch.randn(self._extended_shape(sample_shape), dtype=y.dtype,
                                device=y.device).tril(-1)
            u = u / u.norm(dim=-1, keepdim=True)
            u[..., 0, :].fill_(0.0)
            w = minitorch.sqrt(y) * u
            tiny = minitorch.finfo(w.dtype).tiny
            diag = minitorch.clamp(1 - minitorch.sum(w ** 2, dim=-1), min=tiny).sqrt()
            return w + minitorch.diag_embed(diag)

    def log_prob(self, value: Tensor) -> Tensor:
        if self._validate_args:
            self._validate_sample(value)
        diag = value.diagonal(dim1=-1, dim2=-2)[..., 1:]
        order = minitorch.arange(2, self.dim + 1, device=self.concentration.device)
        order = 2 * (self.concentration - 1).unsqueeze(-1) + self.dim - order
        unnormalized = minitorch.sum(order * diag.log(), dim=-1)
        dm1 = self.dim - 1
        alpha = self.concentration + 0.5 * dm1
        normalizer = (0.5 * dm1 * math.log(math.pi) + minitorch.mvlgamma(alpha - 0.5, dm1)
                      - minitorch.lgamma(alpha) * dm1)
        return unnormalized - normalizer
