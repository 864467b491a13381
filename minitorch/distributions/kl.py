"""``kl_divergence(p, q)``: KL(p || q) by a formula registered for the pair of types.

>>> from minitorch.distributions import Normal
>>> kl_divergence(Normal(0., 1.), Normal(1., 1.))
tensor(0.5000)
"""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import Any

import minitorch
from minitorch.nn.functional import softplus

from .._tensor import Tensor, broadcast_shapes
from .bernoulli import Bernoulli
from .beta import Beta
from .binomial import Binomial
from .categorical import Categorical
from .cauchy import Cauchy
from .continuous_bernoulli import ContinuousBernoulli
from .dirichlet import Dirichlet
from .distribution import Distribution
from .exp_family import ExponentialFamily
from .exponential import Exponential
from .gamma import Gamma
from .geometric import Geometric
from .gumbel import Gumbel
from .half_normal import HalfNormal
from .independent import Independent
from .laplace import Laplace
from .lowrank_multivariate_normal import (
    LowRankMultivariateNormal,
    _lowrank_logdet,
    _lowrank_mahalanobis,
)
from .multivariate_normal import MultivariateNormal, _batch_mahalanobis
from .normal import Normal
from .one_hot_categorical import OneHotCategorical
from .pareto import Pareto
from .poisson import Poisson
from .transformed_distribution import TransformedDistribution
from .uniform import Uniform
from .utils import _sum_rightmost

_KL: dict[tuple[type, type], Callable] = {}


def register_kl(type_p: type, type_q: type) -> Callable:
    """Decorator: the function computes KL between ``type_p`` and ``type_q``."""
    def register(fn: Callable) -> Callable:
        _KL[type_p, type_q] = fn
        return fn
    return register


def kl_divergence(p: Distribution, q: Distribution) -> Tensor:
    """KL(p || q), batched over the distributions' batch shape (the registered pair nearest
    the types in their method resolution orders)."""
    for type_p in type(p).__mro__:
        for type_q in type(q).__mro__:
            if (type_p, type_q) in _KL:
                return _KL[type_p, type_q](p, q)
    raise NotImplementedError(f"No KL(p || q) is implemented for p type "
                              f"{type(p).__name__} and q type {type(q).__name__}")



@register_kl(Categorical, Categorical)
def _kl_categorical(p: Any, q: Any) -> Tensor:
    t = p.probs * (p.logits - q.logits)
    t[(q.probs == 0).expand_as(t)] = math.inf
    t[(p.probs == 0).expand_as(t)] = 0
    return t.sum(-1)


@register_kl(OneHotCategorical, OneHotCategorical)
def _kl_one_hot_categorical(p: Any, q: Any) -> Tensor:
    return _kl_categorical(p._categorical, q._categorical)


@register_kl(Binomial, Binomial)
def _kl_binomial_binomial(p: Any, q: Any) -> Tensor:
    if (p.total_count < q.total_count).any():
        raise NotImplementedError("KL between Binomials where q.total_count > p.total_count is "
                                  "not implemented")
    kl = p.total_count * (p.probs * (p.logits - q.logits) + (-p.probs).log1p()
                          - (-q.probs).log1p())
    more = p.total_count > q.total_count
    kl[more] = _infinite_like(kl[more])
    return kl


@register_kl(Beta, Beta)
def _kl_beta_beta(p: Any, q: Any) -> Tensor:
    sum_p = p.concentration1 + p.concentration0
    sum_q = q.concentration1 + q.concentration0
    t1 = q.concentration1.lgamma() + q.concentration0.lgamma() + sum_p.lgamma()
    t2 = p.concentration1.lgamma() + p.concentration0.lgamma() + sum_q.lgamma()
    t3 = (p.concentration1 - q.concentration1) * minitorch.digamma(p.concentration1)
    t4 = (p.concentration0 - q.concentration0) * minitorch.digamma(p.concentration0)
    t5 = (sum_q - sum_p) * minitorch.digamma(sum_p)
    return t1 - t2 + t3 + t4 + t5


@register_kl(Dirichlet, Dirichlet)
def _kl_dirichlet_dirichlet(p: Any, q: Any) -> Tensor:
    sum_p = p.concentration.sum(-1)
    sum_q = q.concentration.sum(-1)
    t1 = sum_p.lgamma() - sum_q.lgamma()
    t2 = (p.concentration.lgamma() - q.concentration.lgamma()).sum(-1)
    t3 = p.concentration - q.concentration
    t4 = p.concentration.digamma() - sum_p.digamma().unsqueeze(-1)
    return t1 - t2 + (t3 * t4).sum(-1)


@register_kl(Beta, Exponential)
def _kl_beta_exponential(p: Any, q: Any) -> Tensor:
    return (-p.entropy() - q.rate.log()
            + q.rate * (p.concentration1 / (p.concentration1 + p.concentration0)))


@register_kl(Beta, Gamma)
def _kl_beta_gamma(p: Any, q: Any) -> Tensor:
    t1 = -p.entropy()
    t2 = q.concentration.lgamma() - q.concentration * q.rate.log()
    t3 = (q.concentration - 1) * (p.concentration1.digamma()
                                  - (p.concentration1 + p.concentration0).digamma())
    t4 = q.rate * p.concentration1 / (p.concentration1 + p.concentration0)
    return t1 + t2 - t3 + t4


@register_kl(Beta, Normal)
def _kl_beta_normal(p: Any, q: Any) -> Tensor:
    e_beta = p.concentration1 / (p.concentration1 + p.concentration0)
    var_normal = q.scale.pow(2)
    t1 = -p.entropy()
    t2 = 0.5 * (var_normal * 2 * math.pi).log()
    t3 = (e_beta * (1 - e_beta) / (p.concentration1 + p.concentration0 + 1)
          + e_beta.pow(2)) * 0.5
    t4 = q.loc * e_beta
    t5 = q.loc.pow(2) * 0.5
    return t1 + t2 + (t3 - t4 + t5) / var_normal


@register_kl(Beta, Uniform)
def _kl_beta_uniform(p: Any, q: Any) -> Tensor:
    result = -p.entropy() + (q.high - q.low).log()
    result[(q.low > p.support.lower_bound) | (q.high < p.support.upper_bound)] = math.inf
    return result


@register_kl(Uniform, Beta)
def _kl_uniform_beta(p: Any, q: Any) -> Tensor:
    width = p.high - p.low
    t1 = minitorch.log(width)
    t2 = (q.concentration1 - 1) * (_x_log_x(p.high) - _x_log_x(p.low) - width) / width
    t3 = ((q.concentration0 - 1) * (_x_log_x(1 - p.high) - _x_log_x(1 - p.low) + width)
          / width)
    t4 = (q.concentration1.lgamma() + q.concentration0.lgamma()
          - (q.concentration1 + q.concentration0).lgamma())
    result = t3 + t4 - t1 - t2
    result[(p.high > q.support.upper_bound) | (p.low < q.support.lower_bound)] = math.inf
    return result


def _x_log_x(tensor: Tensor) -> Tensor:
    return minitorch.xlogy(tensor, tensor)  # 0 at 0


@register_kl(Normal, Normal)
def _kl_normal(p: Any, q: Any) -> Tensor:
    var_ratio = (p.scale / q.scale).pow(2)
    t1 = ((p.loc - q.loc) / q.scale).pow(2)
    return 0.5 * (var_ratio + t1 - 1 - var_ratio.log())


@register_kl(Bernoulli, Bernoulli)
def _kl_bernoulli(p: Any, q: Any) -> Tensor:
    t1 = p.probs * (softplus(-q.logits) - softplus(-p.logits))
    t1[q.probs == 0] = math.inf
    t1[p.probs == 0] = 0
    t2 = (1 - p.probs) * (softplus(q.logits) - softplus(p.logits))
    t2[q.probs == 1] = math.inf
    t2[p.probs == 1] = 0
    return t1 + t2


@register_kl(Uniform, Uniform)
def _kl_uniform(p: Any, q: Any) -> Tensor:
    result = ((q.high - q.low) / (p.high - p.low)).log()
    result[(q.low > p.low) | (q.high < p.high)] = math.inf
    return result


@register_kl(Uniform, Normal)
def _kl_uniform_normal(p: Any, q: Any) -> Tensor:
    width = p.high - p.low
    t1 = (math.sqrt(math.pi * 2) * q.scale / width).log()
    t3 = ((p.high + p.low - 2 * q.loc) / 2).pow(2)
    return t1 + 0.5 * (width.pow(2) / 12 + t3) / q.scale.pow(2)


@register_kl(MultivariateNormal, MultivariateNormal)
def _kl_multivariate_normal(p: Any, q: Any) -> Tensor:
    """Through the factors: their log-diagonals, ``|Lq⁻¹ Lp|²`` and the Mahalanobis distance
    of the means."""
    if p.event_shape != q.event_shape:  # torch's message, with its source's indent
        raise ValueError("KL-divergence between two Multivariate Normals with" + " " * 26
                         + "different event shapes cannot be computed")
    p_tril, q_tril = p._unbroadcasted_scale_tril, q._unbroadcasted_scale_tril
    half_term1 = (q_tril.diagonal(dim1=-2, dim2=-1).log().sum(-1)
                  - p_tril.diagonal(dim1=-2, dim2=-1).log().sum(-1))
    n = p.event_shape[0]
    batch = broadcast_shapes(tuple(q_tril.shape[:-2]), tuple(p_tril.shape[:-2]))
    ratio = minitorch.linalg.solve_triangular(q_tril.expand((*batch, n, n)),
                                              p_tril.expand((*batch, n, n)), upper=False)
    term2 = ratio.reshape(-1, n * n).pow(2).sum(-1).reshape(ratio.shape[:-2])
    term3 = _batch_mahalanobis(q_tril, q.loc - p.loc)
    return half_term1 + 0.5 * (term2 + term3 - n)


def _infinite_like(tensor: Tensor) -> Tensor:
    return minitorch.full_like(tensor, math.inf)


@register_kl(Exponential, Exponential)
def _kl_exponential_exponential(p: Any, q: Any) -> Tensor:
    rate_ratio = q.rate / p.rate
    return -rate_ratio.log() + rate_ratio - 1


@register_kl(Laplace, Laplace)
def _kl_laplace_laplace(p: Any, q: Any) -> Tensor:
    scale_ratio = p.scale / q.scale
    loc_abs_diff = (p.loc - q.loc).abs()
    t1 = -scale_ratio.log()
    t2 = loc_abs_diff / q.scale
    t3 = scale_ratio * minitorch.exp(-loc_abs_diff / p.scale)
    return t1 + t2 + t3 - 1


@register_kl(Poisson, Poisson)
def _kl_poisson_poisson(p: Any, q: Any) -> Tensor:
    return p.rate * (p.rate.log() - q.rate.log()) - (p.rate - q.rate)


@register_kl(Poisson, Bernoulli)
@register_kl(Poisson, Binomial)
def _kl_poisson_infinity(p: Any, q: Any) -> Tensor:
    return _infinite_like(p.rate)


@register_kl(Exponential, Uniform)
@register_kl(Exponential, Beta)
def _kl_exponential_infinity(p: Any, q: Any) -> Tensor:
    return _infinite_like(p.rate)


@register_kl(Exponential, Normal)
def _kl_exponential_normal(p: Any, q: Any) -> Tensor:
    var_normal = q.scale.pow(2)
    rate_sqr = p.rate.pow(2)
    t1 = 0.5 * minitorch.log(rate_sqr * var_normal * 2 * math.pi)
    t2 = rate_sqr.reciprocal()
    t3 = q.loc / p.rate
    t4 = q.loc.pow(2) * 0.5
    return t1 - 1 + (t2 - t3 + t4) / var_normal


@register_kl(Gamma, Gamma)
def _kl_gamma_gamma(p: Any, q: Any) -> Tensor:
    t1 = q.concentration * (p.rate / q.rate).log()
    t2 = minitorch.lgamma(q.concentration) - minitorch.lgamma(p.concentration)
    t3 = (p.concentration - q.concentration) * minitorch.digamma(p.concentration)
    t4 = (q.rate - p.rate) * (p.concentration / p.rate)
    return t1 + t2 + t3 + t4


_EULER_GAMMA = 0.57721566490153286060


@register_kl(Exponential, Gamma)
def _kl_exponential_gamma(p: Any, q: Any) -> Tensor:
    ratio = q.rate / p.rate
    t1 = -q.concentration * minitorch.log(ratio)
    return (t1 + ratio + q.concentration.lgamma() + q.concentration * _EULER_GAMMA
            - (1 + _EULER_GAMMA))


@register_kl(Gamma, Exponential)
def _kl_gamma_exponential(p: Any, q: Any) -> Tensor:
    return -p.entropy() - q.rate.log() + q.rate * p.concentration / p.rate


@register_kl(Gamma, Uniform)
@register_kl(Gamma, Beta)
def _kl_gamma_infinity(p: Any, q: Any) -> Tensor:
    return _infinite_like(p.concentration)


@register_kl(Laplace, Gamma)
@register_kl(Laplace, Beta)
@register_kl(Normal, Beta)
@register_kl(Normal, Gamma)
@register_kl(Laplace, Exponential)
@register_kl(Laplace, Uniform)
@register_kl(Normal, Exponential)
@register_kl(Normal, Uniform)
def _kl_loc_infinity(p: Any, q: Any) -> Tensor:
    return _infinite_like(p.loc)


@register_kl(Laplace, Normal)
def _kl_laplace_normal(p: Any, q: Any) -> Tensor:
    var_normal = q.scale.pow(2)
    scale_sqr_var_ratio = p.scale.pow(2) / var_normal
    t1 = 0.5 * minitorch.log(2 * scale_sqr_var_ratio / math.pi)
    t2 = 0.5 * p.loc.pow(2)
    t3 = p.loc * q.loc
    t4 = 0.5 * q.loc.pow(2)
    return -t1 + scale_sqr_var_ratio + (t2 - t3 + t4) / var_normal - 1


@register_kl(Normal, Laplace)
def _kl_normal_laplace(p: Any, q: Any) -> Tensor:
    loc_diff = p.loc - q.loc
    scale_ratio = p.scale / q.scale
    loc_diff_scale_ratio = loc_diff / p.scale
    t1 = minitorch.log(scale_ratio)
    t2 = (math.sqrt(2 / math.pi) * p.scale
          * minitorch.exp(-0.5 * loc_diff_scale_ratio.pow(2)))
    t3 = loc_diff * minitorch.erf(math.sqrt(0.5) * loc_diff_scale_ratio)
    return -t1 + (t2 + t3) / q.scale - (0.5 * (1 + math.log(0.5 * math.pi)))


@register_kl(Uniform, Exponential)
def _kl_uniform_exponential(p: Any, q: Any) -> Tensor:
    result = q.rate * (p.high + p.low) / 2 - ((p.high - p.low) * q.rate).log()
    result[p.low < q.support.lower_bound] = math.inf
    return result


@register_kl(Gumbel, Gumbel)
def _kl_gumbel_gumbel(p: Any, q: Any) -> Tensor:
    ratio, q_loc, p_loc = p.scale / q.scale, q.loc / q.scale, p.loc / q.scale
    return (-ratio.log() - q_loc + p_loc + ratio * _EULER_GAMMA
            + minitorch.exp(q_loc + (1 + ratio).lgamma() - p_loc) - (1 + _EULER_GAMMA))


@register_kl(Gumbel, Normal)
def _kl_gumbel_normal(p: Any, q: Any) -> Tensor:
    ratio = p.scale / q.scale
    t1 = (ratio / math.sqrt(2 * math.pi)).log()
    t2 = (math.pi * ratio * 0.5).pow(2) / 3
    t3 = ((p.loc + p.scale * _EULER_GAMMA - q.loc) / q.scale).pow(2) * 0.5
    return -t1 + t2 + t3 - (_EULER_GAMMA + 1)


@register_kl(Normal, Gumbel)
def _kl_normal_gumbel(p: Any, q: Any) -> Tensor:
    mean_ratio, var_ratio = p.loc / q.scale, (p.scale / q.scale).pow(2)
    loc_ratio = q.loc / q.scale
    t3 = minitorch.exp(-mean_ratio + 0.5 * var_ratio + loc_ratio)
    return (-var_ratio.log() * 0.5 + (mean_ratio - loc_ratio) + t3
            - (0.5 * (1 + math.log(2 * math.pi))))


@register_kl(Exponential, Gumbel)
def _kl_exponential_gumbel(p: Any, q: Any) -> Tensor:
    prod, loc_ratio = p.rate * q.scale, q.loc / q.scale
    return (prod.log() - 1 - loc_ratio + minitorch.exp(loc_ratio) * prod / (prod + 1)
            + prod.reciprocal())


@register_kl(Uniform, Gumbel)
def _kl_uniform_gumbel(p: Any, q: Any) -> Tensor:
    common = q.scale / (p.high - p.low)
    high, low = (p.high - q.loc) / q.scale, (p.low - q.loc) / q.scale
    return (common.log() + 0.5 * (high + low)
            - common * (minitorch.exp(-high) - minitorch.exp(-low)))


for _q in (Exponential, Gamma, Uniform):  # a Gumbel reaches below 0 or outside an interval
    register_kl(Gumbel, _q)(_kl_loc_infinity)


@register_kl(TransformedDistribution, TransformedDistribution)
def _kl_transformed_transformed(p: Any, q: Any) -> Tensor:
    """The base distributions' KL, when both go through the same transforms."""
    if p.transforms != q.transforms or p.event_shape != q.event_shape:
        raise NotImplementedError
    return kl_divergence(p.base_dist, q.base_dist)


@register_kl(HalfNormal, HalfNormal)
def _kl_half_normal(p: Any, q: Any) -> Tensor:
    return _kl_normal(p.base_dist, q.base_dist)


@register_kl(Cauchy, Cauchy)
def _kl_cauchy_cauchy(p: Any, q: Any) -> Tensor:
    """Chyzak and Nielsen (2019), arXiv:1905.10965."""
    spread = ((p.scale + q.scale).pow(2) + (p.loc - q.loc).pow(2)).log()
    return spread - (4 * p.scale * q.scale).log()


@register_kl(Geometric, Geometric)
def _kl_geometric_geometric(p: Any, q: Any) -> Tensor:
    return -p.entropy() - minitorch.log1p(-q.probs) / p.probs - q.logits


def _trace_xxt(bmat: Tensor) -> Tensor:
    """``trace(X Xᵀ)`` for a batch of matrices ``X``: the sum of their squared entries."""
    n, m = bmat.size(-1), bmat.size(-2)
    return bmat.reshape(-1, m * n).pow(2).sum(-1).reshape(bmat.shape[:-2])


def _check_events(p: Any, q: Any, which: str) -> None:
    if p.event_shape != q.event_shape:  # torch's message, with its source's indent
        raise ValueError(f"KL-divergence between two {which} Normals with" + " " * 26
                         + "different event shapes cannot be computed")


def _lowrank_terms(q: Any) -> tuple[Tensor, Tensor]:
    """``q``'s log-determinant and ``A = C⁻¹ Wᵀ D⁻¹``, with which ``Σq⁻¹ = D⁻¹ - Aᵀ A``."""
    w, d = q._unbroadcasted_cov_factor, q._unbroadcasted_cov_diag
    a = minitorch.linalg.solve_triangular(q._capacitance_tril, w.mT / d.unsqueeze(-2),
                                          upper=False)
    return _lowrank_logdet(w, d, q._capacitance_tril), a


def _lowrank_distance(p: Any, q: Any) -> Tensor:
    return _lowrank_mahalanobis(q._unbroadcasted_cov_factor, q._unbroadcasted_cov_diag,
                                q.loc - p.loc, q._capacitance_tril)


@register_kl(LowRankMultivariateNormal, LowRankMultivariateNormal)
def _kl_lowrank_lowrank(p: Any, q: Any) -> Tensor:
    _check_events(p, q, "Low Rank Multivariate")
    q_logdet, a = _lowrank_terms(q)
    p_w, p_d, q_d = (p._unbroadcasted_cov_factor, p._unbroadcasted_cov_diag,
                     q._unbroadcasted_cov_diag)
    term1 = q_logdet - _lowrank_logdet(p_w, p_d, p._capacitance_tril)
    term2 = ((p_d / q_d).sum(-1) + _trace_xxt(p_w * q_d.rsqrt().unsqueeze(-1))
             - _trace_xxt(a * p_d.sqrt().unsqueeze(-2)) - _trace_xxt(a.matmul(p_w)))
    return 0.5 * (term1 + term2 + _lowrank_distance(p, q) - p.event_shape[0])


@register_kl(MultivariateNormal, LowRankMultivariateNormal)
def _kl_normal_lowrank(p: Any, q: Any) -> Tensor:
    _check_events(p, q, "(Low Rank) Multivariate")
    q_logdet, a = _lowrank_terms(q)
    p_tril = p._unbroadcasted_scale_tril
    term1 = q_logdet - 2 * p_tril.diagonal(dim1=-2, dim2=-1).log().sum(-1)
    term2 = (_trace_xxt(p_tril * q._unbroadcasted_cov_diag.rsqrt().unsqueeze(-1))
             - _trace_xxt(a.matmul(p_tril)))
    return 0.5 * (term1 + term2 + _lowrank_distance(p, q) - p.event_shape[0])


@register_kl(LowRankMultivariateNormal, MultivariateNormal)
def _kl_lowrank_normal(p: Any, q: Any) -> Tensor:
    _check_events(p, q, "(Low Rank) Multivariate")
    q_tril, p_w = q._unbroadcasted_scale_tril, p._unbroadcasted_cov_factor
    term1 = (2 * q_tril.diagonal(dim1=-2, dim2=-1).log().sum(-1)
             - _lowrank_logdet(p_w, p._unbroadcasted_cov_diag, p._capacitance_tril))
    term3 = _batch_mahalanobis(q_tril, q.loc - p.loc)
    batch = broadcast_shapes(tuple(q_tril.shape[:-2]), tuple(p_w.shape[:-2]))
    n = p.event_shape[0]
    q_tril = q_tril.expand((*batch, n, n))
    p_w = p_w.expand((*batch, n, p.cov_factor.size(-1)))
    p_d = minitorch.diag_embed(p._unbroadcasted_cov_diag.sqrt()).expand((*batch, n, n))
    term2 = (_trace_xxt(minitorch.linalg.solve_triangular(q_tril, p_w, upper=False))
             + _trace_xxt(minitorch.linalg.solve_triangular(q_tril, p_d, upper=False)))
    return 0.5 * (term1 + term2 + term3 - p.event_shape[0])


def _infinite_where(result: Tensor, mask: Tensor) -> Tensor:
    return minitorch.where(mask, math.inf, result)


@register_kl(Pareto, Pareto)
def _kl_pareto_pareto(p: Any, q: Any) -> Tensor:
    """Infinite where ``p`` reaches below ``q``'s scale."""
    scale_ratio, alpha_ratio = p.scale / q.scale, q.alpha / p.alpha
    result = q.alpha * scale_ratio.log() - alpha_ratio.log() + alpha_ratio - 1
    return _infinite_where(result, p.support.lower_bound < q.support.lower_bound)


@register_kl(Pareto, Exponential)
def _kl_pareto_exponential(p: Any, q: Any) -> Tensor:
    prod = p.scale * q.rate
    result = ((p.alpha / prod).log() - p.alpha.reciprocal() + p.alpha * prod / (p.alpha - 1)
              - 1)
    return _infinite_where(result, p.alpha <= 1)


@register_kl(Pareto, Gamma)
def _kl_pareto_gamma(p: Any, q: Any) -> Tensor:
    common = p.scale.log() + p.alpha.reciprocal()
    result = (p.alpha.log() - common + q.concentration.lgamma()
              - q.concentration * q.rate.log() + (1 - q.concentration) * common
              + q.rate * p.alpha * p.scale / (p.alpha - 1) - 1)
    return _infinite_where(result, p.alpha <= 1)


@register_kl(Pareto, Normal)
def _kl_pareto_normal(p: Any, q: Any) -> Tensor:
    var_normal = 2 * q.scale.pow(2)
    common = p.scale / (p.alpha - 1)
    t1 = (math.sqrt(2 * math.pi) * q.scale * p.alpha / p.scale).log()
    t3 = p.alpha * common.pow(2) / (p.alpha - 2)
    t4 = (p.alpha * common - q.loc).pow(2)
    result = t1 - p.alpha.reciprocal() + (t3 + t4) / var_normal - 1
    return _infinite_where(result, p.alpha <= 2)


@register_kl(Pareto, Uniform)
def _kl_pareto_infinity(p: Any, q: Any) -> Tensor:
    return _infinite_like(p.scale)


register_kl(Exponential, Pareto)(_kl_exponential_infinity)
register_kl(Gamma, Pareto)(_kl_gamma_infinity)
for _p in (Gumbel, Laplace, Normal):  # a law over all the reals against one above a scale
    register_kl(_p, Pareto)(_kl_loc_infinity)


@register_kl(ExponentialFamily, ExponentialFamily)
def _kl_expfamily_expfamily(p: Any, q: Any) -> Tensor:
    """Two members of one family: the Bregman divergence of its log-normalizer ``F``,
    ``F(θq) - F(θp) - <θq - θp, ∇F(θp)>`` (``∇F`` by autograd)."""
    if type(p) is not type(q):
        raise NotImplementedError("The cross KL-divergence between different exponential "
                                  "families cannot" + " " * 29  # (torch's, with its source's
                                  + "be computed using Bregman divergences")  # indent)
    p_params, log_normalizer, grads = p._normalizer_slope()
    q_params = q._natural_params
    result = q._log_normalizer(*q_params) - log_normalizer
    for p_param, q_param, grad in zip(p_params, q_params, grads):
        result = result - _sum_rightmost((q_param - p_param) * grad, len(q.event_shape))
    return result


@register_kl(Independent, Independent)
def _kl_independent_independent(p: Any, q: Any) -> Tensor:
    if p.reinterpreted_batch_ndims != q.reinterpreted_batch_ndims:
        raise NotImplementedError
    return _sum_rightmost(kl_divergence(p.base_dist, q.base_dist), p.reinterpreted_batch_ndims)


@register_kl(Bernoulli, Poisson)
def _kl_bernoulli_poisson(p: Any, q: Any) -> Tensor:
    return -p.entropy() - (p.probs * q.rate.log() - q.rate)


def _cross_entropy_with_continuous_bernoulli(p: Any, q: Any) -> Tensor:
    """``-E_p[log q(x)]`` for ``q`` a continuous Bernoulli: its log-density is linear in x."""
    return -p.mean * q.logits - minitorch.log1p(-q.probs) - q._cont_bern_log_norm()


@register_kl(ContinuousBernoulli, ContinuousBernoulli)
def _kl_continuous_bernoulli_continuous_bernoulli(p: Any, q: Any) -> Tensor:
    return (p.mean * (p.logits - q.logits) + p._cont_bern_log_norm()
            + minitorch.log1p(-p.probs) - q._cont_bern_log_norm() - minitorch.log1p(-q.probs))


@register_kl(Beta, ContinuousBernoulli)
def _kl_beta_continuous_bernoulli(p: Any, q: Any) -> Tensor:
    return -p.entropy() + _cross_entropy_with_continuous_bernoulli(p, q)


def _where_outside(outside: Tensor, result: Tensor) -> Tensor:
    """``result``, infinite where ``p``'s support reaches outside ``q``'s."""
    return minitorch.where(outside, minitorch.ones_like(result) * math.inf, result)


@register_kl(Uniform, ContinuousBernoulli)
def _kl_uniform_continuous_bernoulli(p: Any, q: Any) -> Tensor:
    result = -p.entropy() + _cross_entropy_with_continuous_bernoulli(p, q)
    return _where_outside(minitorch.max(minitorch.ge(p.high, q.support.upper_bound),
                                        minitorch.le(p.low, q.support.lower_bound)), result)


@register_kl(ContinuousBernoulli, Exponential)
def _kl_continuous_bernoulli_exponential(p: Any, q: Any) -> Tensor:
    return -p.entropy() - minitorch.log(q.rate) + q.rate * p.mean


@register_kl(ContinuousBernoulli, Normal)
def _kl_continuous_bernoulli_normal(p: Any, q: Any) -> Tensor:
    t2 = 0.5 * (math.log(2.0 * math.pi) + minitorch.square(q.loc / q.scale)) \
        + minitorch.log(q.scale)
    t3 = (p.variance + minitorch.square(p.mean) - 2.0 * q.loc * p.mean) \
        / (2.0 * minitorch.square(q.scale))
    return -p.entropy() + t2 + t3


@register_kl(ContinuousBernoulli, Uniform)
def _kl_continuous_bernoulli_uniform(p: Any, q: Any) -> Tensor:
    result = -p.entropy() + (q.high - q.low).log()
    return _where_outside(minitorch.max(minitorch.ge(q.low, p.support.lower_bound),
                                        minitorch.le(q.high, p.support.upper_bound)), result)


@register_kl(Gamma, Gumbel)
def _kl_gamma_gumbel(p: Any, q: Any) -> Tensor:
    prod, loc_ratio = p.rate * q.scale, q.loc / q.scale
    t1 = ((p.concentration - 1) * p.concentration.digamma() - p.concentration.lgamma()
          - p.concentration)
    t2 = prod.log() + p.concentration / prod
    t3 = minitorch.exp(loc_ratio) * (1 + prod.reciprocal()).pow(-p.concentration) - loc_ratio
    return t1 + t2 + t3


@register_kl(Gamma, Normal)
def _kl_gamma_normal(p: Any, q: Any) -> Tensor:
    var_normal, rate_sq = q.scale.pow(2), p.rate.pow(2)
    t1 = (0.5 * minitorch.log(rate_sq * var_normal * 2 * math.pi) - p.concentration
          - p.concentration.lgamma())
    t2 = 0.5 * (p.concentration.pow(2) + p.concentration) / rate_sq
    t3 = q.loc * p.concentration / p.rate
    t4 = 0.5 * q.loc.pow(2)
    return t1 + (p.concentration - 1) * p.concentration.digamma() + (t2 - t3 + t4) / var_normal


@register_kl(Uniform, Gamma)
def _kl_uniform_gamma(p: Any, q: Any) -> Tensor:
    width = p.high - p.low
    t2 = q.concentration.lgamma() - q.concentration * q.rate.log()
    t3 = (1 - q.concentration) * (_x_log_x(p.high) - _x_log_x(p.low) - width) / width
    result = -width.log() + t2 + t3 + q.rate * (p.high + p.low) / 2
    result[p.low < q.support.lower_bound] = math.inf
    return result


@register_kl(Uniform, Pareto)
def _kl_uniform_pareto(p: Any, q: Any) -> Tensor:
    width = p.high - p.low
    t1 = (q.alpha * q.scale.pow(q.alpha) * width).log()
    t2 = (_x_log_x(p.high) - _x_log_x(p.low) - width) / width
    result = t2 * (q.alpha + 1) - t1
    result[p.low < q.support.lower_bound] = math.inf
    return result


# a support that reaches where q has none: infinite, as torch registers them
@register_kl(Beta, Pareto)
def _kl_beta_infinity(p: Any, q: Any) -> Tensor:
    return _infinite_like(p.concentration1)


@register_kl(ContinuousBernoulli, Pareto)
def _kl_continuous_bernoulli_infinity(p: Any, q: Any) -> Tensor:
    return _infinite_like(p.probs)


register_kl(Exponential, ContinuousBernoulli)(_kl_exponential_infinity)
register_kl(Gamma, ContinuousBernoulli)(_kl_gamma_infinity)
register_kl(Pareto, Beta)(_kl_pareto_infinity)
register_kl(Pareto, ContinuousBernoulli)(_kl_pareto_infinity)
for _p, _q in ((Gumbel, Beta), (Gumbel, ContinuousBernoulli), (Laplace, ContinuousBernoulli),
               (Normal, ContinuousBernoulli)):
    register_kl(_p, _q)(_kl_loc_infinity)
