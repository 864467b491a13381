"""``MixtureSameFamily``: a mixture of ``k`` components of one family (a Gaussian mixture
model, a mixture density network's head), the weights a ``Categorical`` over the
components' rightmost batch dim. Its ``log_prob`` is a ``logsumexp`` over the components, so
it is differentiable in every parameter.

>>> import minitorch
>>> from minitorch.distributions import Categorical, MixtureSameFamily, Normal
>>> gmm = MixtureSameFamily(Categorical(minitorch.tensor([0.3, 0.7])),
...                         Normal(minitorch.tensor([-1., 1.]), minitorch.tensor([0.5, 0.5])))
>>> gmm.log_prob(minitorch.tensor([0., 1.]))
tensor([-2.2258, -0.5823])
"""

from __future__ import annotations

from typing import Any

import minitorch

from .._tensor import Size, Tensor
from . import constraints
from .categorical import Categorical
from .distribution import Distribution

__all__ = ["MixtureSameFamily"]


class MixtureSameFamily(Distribution):
    """A (batch of) mixture(s): ``mixture_distribution`` picks one of the ``k`` components
    that the rightmost batch dim of ``component_distribution`` indexes."""

    arg_constraints: dict[str, constraints.Constraint] = {}
    has_rsample = False

    def __init__(self, mixture_distribution: Categorical, component_distribution: Distribution,
                 validate_args: bool | None = None) -> None:
        if not isinstance(mixture_distribution, Categorical):
            raise ValueError(" The Mixture distribution needs to be an  instance of "
                             "torch.distributions.Categorical")
        if not isinstance(component_distribution, Distribution):
            raise ValueError("The Component distribution needs to be an instance of "
                             "torch.distributions.Distribution")
        mdbs = mixture_distribution.batch_shape
        cdbs = component_distribution.batch_shape[:-1]
        for size1, size2 in zip(reversed(mdbs), reversed(cdbs)):
            if size1 != 1 and size2 != 1 and size1 != size2:
                raise ValueError(f"`mixture_distribution.batch_shape` ({mdbs}) is not "
                                 f"compatible with `component_distribution.batch_shape`({cdbs})")
        km = mixture_distribution.logits.shape[-1]
        kc = component_distribution.batch_shape[-1]
        if km != kc:
            raise ValueError(f"`mixture_distribution component` ({km}) does not equal "
                             f"`component_distribution.batch_shape[-1]` ({kc})")
        self._mixture_distribution = mixture_distribution
        self._component_distribution = component_distribution
        self._num_component = km
        self._event_ndims = len(component_distribution.event_shape)
        super().__init__(cdbs, component_distribution.event_shape, validate_args=validate_args)

    def expand(self, batch_shape: Any, _instance: Any = None) -> MixtureSameFamily:
        """Both the weights and the components expanded to ``batch_shape``.

        >>> from minitorch.distributions import Normal
        >>> MixtureSameFamily(Categorical(minitorch.ones(2)),
        ...                   Normal(minitorch.zeros(2), 1.)).expand([3]).batch_shape
        torch.Size([3])
        """
        batch_shape = Size(batch_shape)
        components = self._component_distribution.expand((*batch_shape, self._num_component))
        return self._expanded(MixtureSameFamily, batch_shape, _instance, {},
                              _component_distribution=components,
                              _mixture_distribution=self._mixture_distribution.expand(batch_shape),
                              _num_component=self._num_component,
                              _event_ndims=self._event_ndims)

    @constraints.dependent_property
    def support(self) -> constraints.Constraint:
        return constraints.MixtureSameFamilyConstraint(self._component_distribution.support)

    @property
    def mixture_distribution(self) -> Categorical:
        return self._mixture_distribution

    @property
    def component_distribution(self) -> Distribution:
        return self._component_distribution

    @property
    def mean(self) -> Tensor:
        probs = self._pad_mixture_dimensions(self.mixture_distribution.probs)
        return minitorch.sum(probs * self.component_distribution.mean,
                             dim=-1 - self._event_ndims)

    @property
    def variance(self) -> Tensor:
        """The law of total variance: the mean of the components' variances plus the
        variance of their means."""
        probs = self._pad_mixture_dimensions(self.mixture_distribution.probs)
        dim = -1 - self._event_ndims
        mean_cond_var = minitorch.sum(probs * self.component_distribution.variance, dim=dim)
        spread = (self.component_distribution.mean - self._pad(self.mean)).pow(2.0)
        return mean_cond_var + minitorch.sum(probs * spread, dim=dim)

    def cdf(self, x: Tensor) -> Tensor:
        cdf_x = self.component_distribution.cdf(self._pad(x))
        return minitorch.sum(cdf_x * self.mixture_distribution.probs, dim=-1)

    def log_prob(self, x: Tensor) -> Tensor:
        if self._validate_args:
            self._validate_sample(x)
        log_prob_x = self.component_distribution.log_prob(self._pad(x))
        log_mix_prob = minitorch.log_softmax(self.mixture_distribution.logits, dim=-1)
        return minitorch.logsumexp(log_prob_x + log_mix_prob, dim=-1)

    def sample(self, sample_shape: Any = ()) -> Tensor:
        """torch's draws: the component indices first, then every component's sample, the
        chosen one gathered."""
        with minitorch.no_grad():
            gather_dim = len(sample_shape) + len(self.batch_shape)
            es = tuple(self.event_shape)
            mix_sample = self.mixture_distribution.sample(sample_shape)
            comp_samples = self.component_distribution.sample(sample_shape)
            index = mix_sample.reshape(*mix_sample.shape, *([1] * (len(es) + 1)))
            index = index.repeat(*([1] * mix_sample.dim()), 1, *es)
            return minitorch.gather(comp_samples, gather_dim, index).squeeze(gather_dim)

    def _pad(self, x: Tensor) -> Tensor:
        return x.unsqueeze(-1 - self._event_ndims)

    def _pad_mixture_dimensions(self, x: Tensor) -> Tensor:
        """The weights with size-1 dims for the batch dims they lack and for the event."""
        cat_batch_ndims = len(self.mixture_distribution.batch_shape)
        pad_ndims = 0 if cat_batch_ndims == 1 else len(self.batch_shape) - cat_batch_ndims
        xs = tuple(x.shape)
        return x.reshape(*xs[:-1], *([1] * pad_ndims), *xs[-1:], *([1] * self._event_ndims))

    def __repr__(self) -> str:
        return (f"MixtureSameFamily(\n  {self.mixture_distribution},\n"
                f"  {self.component_distribution})")
