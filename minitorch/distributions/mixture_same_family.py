"""``MixtureSameFamily``: a ``Categorical`` picks one of ``K`` components of one family (the
last batch dim of ``component_distribution``), which gives the value.

>>> import minitorch
>>> from minitorch.distributions import Categorical, Normal
>>> mix = Categorical(minitorch.ones(2))
>>> m = MixtureSameFamily(mix, Normal(minitorch.tensor([-1., 1.]), 1.))
>>> m.mean
tensor(0.)
"""

from __future__ import annotations

from typing import Any

import minitorch

from .._tensor import Size, Tensor
from . import constraints
from .categorical import Categorical
from .distribution import Distribution


class MixtureSameFamily(Distribution):
    """``sample`` draws the classes first and then every component, as torch does, and
    gathers the picked ones: torch's numbers for a seed."""

    arg_constraints: dict = {}
    has_rsample = False

    def __init__(self, mixture_distribution: Categorical,
                 component_distribution: Distribution,
                 validate_args: bool | None = None) -> None:
        self._mixture_distribution = mixture_distribution
        self._component_distribution = component_distribution
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
        self._num_component = km
        event_shape = component_distribution.event_shape
        self._event_ndims = len(event_shape)
        super().__init__(cdbs, event_shape, validate_args=validate_args)

    def expand(self, batch_shape: Any, _instance: Any = None) -> MixtureSameFamily:
        """The same mixture over a larger ``batch_shape`` (its parts expanded).

        >>> from minitorch.distributions import Categorical, Normal
        >>> m = MixtureSameFamily(Categorical(minitorch.ones(2)), Normal(minitorch.zeros(2), 1.))
        >>> m.expand([3]).batch_shape
        torch.Size([3])
        """
        batch_shape = Size(batch_shape)
        new = self._get_checked_instance(MixtureSameFamily, _instance)
        new._component_distribution = self._component_distribution.expand(
            (*batch_shape, self._num_component))
        new._mixture_distribution = self._mixture_distribution.expand(batch_shape)
        new._num_component, new._event_ndims = self._num_component, self._event_ndims
        Distribution.__init__(new, batch_shape, new._component_distribution.event_shape,
                              validate_args=False)
        new._validate_args = self._validate_args
        return new

    @constraints.dependent_property
    def support(self) -> constraints.Constraint:  # type: ignore[override]
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
        """The mean of the components' variances plus the variance of their means."""
        probs = self._pad_mixture_dimensions(self.mixture_distribution.probs)
        components = self.component_distribution
        mean_cond_var = minitorch.sum(probs * components.variance, dim=-1 - self._event_ndims)
        var_cond_mean = minitorch.sum(probs * (components.mean - self._pad(self.mean)).pow(2.0),
                                      dim=-1 - self._event_ndims)
        return mean_cond_var + var_cond_mean

    def cdf(self, x: Tensor) -> Tensor:
        """P(X <= x): the components' cdfs weighted by the mixture.

        >>> from minitorch.distributions import Categorical, Normal
        >>> m = MixtureSameFamily(Categorical(minitorch.ones(2)), Normal(minitorch.zeros(2), 1.))
        >>> m.cdf(minitorch.tensor(0.))
        tensor(0.5000)
        """
        cdf_x = self.component_distribution.cdf(self._pad(x))
        return minitorch.sum(cdf_x * self.mixture_distribution.probs, dim=-1)

    def log_prob(self, x: Tensor) -> Tensor:
        if self._validate_args:
            self._validate_sample(x)
        log_prob_x = self.component_distribution.log_prob(self._pad(x))
        log_mix_prob = minitorch.log_softmax(self.mixture_distribution.logits, dim=-1)
        return minitorch.logsumexp(log_prob_x + log_mix_prob, dim=-1)

    def sample(self, sample_shape: Any = ()) -> Tensor:
        with minitorch.no_grad():
            gather_dim = len(sample_shape) + len(self.batch_shape)
            es = self.event_shape
            mix_sample = self.mixture_distribution.sample(sample_shape)
            comp_samples = self.component_distribution.sample(sample_shape)
            picks = mix_sample.reshape(mix_sample.shape + Size([1] * (len(es) + 1)))
            picks = picks.repeat(Size([1] * len(mix_sample.shape)) + Size([1]) + es)
            return minitorch.gather(comp_samples, gather_dim, picks).squeeze(gather_dim)

    def _pad(self, x: Tensor) -> Tensor:
        return x.unsqueeze(-1 - self._event_ndims)

    def _pad_mixture_dimensions(self, x: Tensor) -> Tensor:
        """The mixture's probabilities shaped to broadcast against the components'."""
        cat_batch_ndims = len(self.mixture_distribution.batch_shape)
        pad_ndims = 0 if cat_batch_ndims == 1 else len(self.batch_shape) - cat_batch_ndims
        xs = x.shape
        return x.reshape(xs[:-1] + Size(pad_ndims * [1]) + xs[-1:]
                         + Size(self._event_ndims * [1]))

    def __repr__(self) -> str:
        return (f"MixtureSameFamily(\n  {self.mixture_distribution},\n  "
                f"{self.component_distribution})")
