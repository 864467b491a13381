"""Corpus H (session 17) against live torch: what its programs and probes needed.

``distributions.MixtureSameFamily`` (Gaussian mixtures, mixture density networks): log_prob
and its gradients for every parameter, mean, variance, cdf, samples for a seed, expand, the
support's check and repr, and torch's errors, for several component families and batch
layouts (weights shared by every batch, or one set per batch).

``nn.functional.local_response_norm`` and ``nn.LocalResponseNorm`` (AlexNet's normalisation
across channels): values, gradients and the graph's last node for inputs of rank 3 to 5 and
windows wider than the channels, the module's repr, and torch's errors.

``nn.functional.channel_shuffle`` and ``nn.ChannelShuffle`` (ShuffleNet): values, the
gradient and its own double backward through ``ChannelShuffleBackward0``, torch's errors.

``torch.utils.data``'s files (``dataset``, ``dataloader``, ``sampler``) as import paths:
each holds torch's names (the same objects as ``data``'s).
"""

from __future__ import annotations

import importlib
from typing import Any

import numpy as np
import pytest
import torch
from hypothesis import given
from hypothesis import strategies as st
from oracle import SETTINGS, assert_same, assert_same_error, numpy_of, raised_by

import minitorch as mt

RNG = np.random.default_rng(20)
LOGITS = {"shared": RNG.normal(size=(4,)), "per batch": RNG.normal(size=(3, 4))}
LOC = RNG.normal(size=(3, 4, 2))
SCALE = RNG.uniform(0.3, 1.5, size=(3, 4, 2))
PROBS = RNG.uniform(0.1, 0.9, size=(3, 4, 2))

# each: a component distribution of batch (3, 4) (events of 2 where Independent)
COMPONENTS = {
    "normal": lambda L, t: L.distributions.Normal(t["loc"][..., 0], t["scale"][..., 0]),
    "independent normal": lambda L, t: L.distributions.Independent(
        L.distributions.Normal(t["loc"], t["scale"]), 1),
    "laplace": lambda L, t: L.distributions.Laplace(t["loc"][..., 0], t["scale"][..., 0]),
    "independent bernoulli": lambda L, t: L.distributions.Independent(
        L.distributions.Bernoulli(probs=t["probs"]), 1),
}


def _leaves(L: Any, layout: str) -> dict:
    return {"logits": L.tensor(LOGITS[layout], requires_grad=True),
            "loc": L.tensor(LOC, requires_grad=True),
            "scale": L.tensor(SCALE, requires_grad=True),
            "probs": L.tensor(PROBS, requires_grad=True)}


def _mixture(L: Any, layout: str, family: str) -> tuple[Any, dict]:
    t = _leaves(L, layout)
    mix = L.distributions.Categorical(logits=t["logits"])
    return L.distributions.MixtureSameFamily(mix, COMPONENTS[family](L, t)), t


def _value(L: Any, family: str) -> Any:
    x = RNG_VALUES[family]
    return L.tensor(x)


RNG_VALUES = {
    "normal": np.random.default_rng(1).normal(size=(5, 3)),
    "independent normal": np.random.default_rng(2).normal(size=(5, 3, 2)),
    "laplace": np.random.default_rng(3).normal(size=(5, 1)),
    "independent bernoulli": np.random.default_rng(4).integers(0, 2, size=(5, 3, 2)) * 1.0,
}


@pytest.mark.parametrize("layout", list(LOGITS))
@pytest.mark.parametrize("family", list(COMPONENTS))
def test_log_prob_and_its_gradients_as_torch(layout: str, family: str) -> None:
    """log_prob is a logsumexp over the components: torch's values, and torch's gradients
    for the weights' logits and every component parameter."""
    results = []
    for L in (mt, torch):
        d, t = _mixture(L, layout, family)
        lp = d.log_prob(_value(L, family))
        names = [n for n in ("logits", "loc", "scale", "probs")
                 if (n == "probs") == (family == "independent bernoulli")]
        grads = L.autograd.grad(lp.sum(), [t[n] for n in names])
        results.append((lp, grads, d.batch_shape, d.event_shape))
    (lp, grads, bs, es), (want_lp, want_grads, want_bs, want_es) = results
    assert (tuple(bs), tuple(es)) == (tuple(want_bs), tuple(want_es))
    assert_same(lp, want_lp, "log_prob")
    for g, w in zip(grads, want_grads):
        assert_same(g, w, "gradient")


@pytest.mark.parametrize("layout", list(LOGITS))
@pytest.mark.parametrize("family", list(COMPONENTS))
def test_moments_samples_and_support_as_torch(layout: str, family: str) -> None:
    """mean and variance (the law of total variance), the support's check and repr, the
    repr, has_rsample; samples for a seed (the component drawn, then gathered) or torch's
    error where its gather refuses shared weights over batched components."""
    results = []
    for L in (mt, torch):
        d, _ = _mixture(L, layout, family)
        results.append((d.mean, d.variance, d.stddev, d.support.check(_value(L, family)),
                        repr(d.support), repr(d), d.has_rsample))
    got, want = results
    for g, w in zip(got[:4], want[:4]):
        assert_same(g, w)
    assert got[4:] == want[4:]
    samples = []
    for L in (mt, torch):
        L.manual_seed(3)
        d, _ = _mixture(L, layout, family)
        samples.append([_sample(d, shape) for shape in ((), (2, 5))])
    for g, w in zip(*samples):
        if isinstance(w, BaseException):  # torch's gather refuses weights without the batch
            assert_same_error(g, w)
        else:
            assert_same(g, w, "sample")


def _sample(d: Any, shape: tuple) -> Any:
    try:
        return d.sample(shape)
    except Exception as error:  # the error is the observation
        return error


@pytest.mark.parametrize("shape", [[2, 3], [5, 1, 3]])
def test_expand_as_torch(shape: list) -> None:
    """expand: both the weights and the components over the larger batch."""
    results = []
    for L in (mt, torch):
        d, _ = _mixture(L, "per batch", "independent normal")
        e = d.expand(shape)
        L.manual_seed(0)
        results.append((e.batch_shape, e.sample(), e.log_prob(L.zeros(2, dtype=L.float64)),
                        e.mean))
    (bs, *got), (want_bs, *want) = results
    assert tuple(bs) == tuple(want_bs)
    for g, w in zip(got, want):
        assert_same(g, w)


def test_cdf_as_torch() -> None:
    """cdf: the components' cdfs weighted by the mixture's probabilities."""
    results = []
    for L in (mt, torch):
        d, t = _mixture(L, "shared", "normal")
        c = d.cdf(L.tensor([[-0.5], [0.25]], dtype=L.float64))
        results.append((c, L.autograd.grad(c.sum(), t["loc"])[0]))
    for g, w in zip(*results):
        assert_same(g, w)


_BAD = [
    "D.MixtureSameFamily(D.Normal(L.zeros(2), 1.), D.Normal(L.zeros(2), 1.))",
    "D.MixtureSameFamily(D.Categorical(L.ones(2)), 3)",
    "D.MixtureSameFamily(D.Categorical(L.ones(3)), D.Normal(L.zeros(2), 1.))",
    "D.MixtureSameFamily(D.Categorical(L.ones(4, 2)), D.Normal(L.zeros(3, 2), 1.))",
    "D.MixtureSameFamily(D.Categorical(L.ones(2)), D.Exponential(L.ones(2)), "
    "validate_args=True).log_prob(L.tensor(-1.))",
    "D.MixtureSameFamily(D.Categorical(L.ones(2)), D.Normal(L.zeros(3, 2), 1.), "
    "validate_args=True).log_prob(L.zeros(4))",
    "D.constraints.MixtureSameFamilyConstraint(3)",
]


@pytest.mark.parametrize("program", _BAD)
def test_errors_as_torch(program: str) -> None:
    """torch's exception type and message: a weights distribution that is no Categorical, a
    component that is no distribution, mismatched component counts or batches, a value
    outside the support or of a shape that does not broadcast."""
    def run(L: Any) -> Any:
        return eval(program, {"L": L, "D": L.distributions})

    want = raised_by(run, torch)
    assert want is not None
    assert_same_error(raised_by(run, mt), want)


def test_fit_a_gaussian_mixture_as_torch() -> None:
    """A few Adam steps fitting a two-component mixture to data end where torch's do."""
    data = np.random.default_rng(7).normal(size=64)
    ends = []
    for L in (mt, torch):
        params = [L.zeros(2, requires_grad=True), L.tensor([-1.0, 1.0], requires_grad=True),
                  L.zeros(2, requires_grad=True)]
        opt = L.optim.Adam(params, lr=0.1)
        x = L.tensor(data, dtype=L.float32)
        for _ in range(5):
            gmm = L.distributions.MixtureSameFamily(
                L.distributions.Categorical(logits=params[0]),
                L.distributions.Normal(params[1], params[2].exp()))
            loss = -gmm.log_prob(x).mean()
            opt.zero_grad()
            loss.backward()
            opt.step()
        ends.append([numpy_of(p) for p in params] + [numpy_of(loss)])
    for g, w in zip(*ends):
        np.testing.assert_allclose(g, w, rtol=1e-5, atol=1e-6)


@SETTINGS
@given(st.lists(st.integers(1, 4), min_size=3, max_size=5), st.integers(1, 6),
       st.sampled_from([(1e-4, 0.75, 1.0), (0.5, 0.6, 1.5), (2.0, 1.0, 0.5)]),
       st.sampled_from(["float32", "float64"]))
def test_local_response_norm_as_torch(shape: list, size: int, params: tuple, dtype: str
                                      ) -> None:
    """Each value over a power of its neighbouring channels' mean square: torch's values,
    gradient and last node (a division), for any rank from 3 and any window."""
    data = np.random.default_rng(len(shape) * 10 + size).normal(size=shape)
    results = []
    for L in (mt, torch):
        x = L.tensor(data, dtype=getattr(L, dtype), requires_grad=True)
        y = L.nn.functional.local_response_norm(x, size, *params)
        results.append((y, L.autograd.grad(y.pow(2).sum(), x)[0], y.grad_fn.name()))
    (y, g, node), (want_y, want_g, want_node) = results
    assert_same(y, want_y, "output")
    assert_same(g, want_g, "gradient")
    assert node == want_node


def test_local_response_norm_module_as_torch() -> None:
    """The module: torch's repr, constants and output; an empty input comes back as is."""
    data = np.random.default_rng(0).normal(size=(2, 5, 3, 3))
    results = []
    for L in (mt, torch):
        m = L.nn.LocalResponseNorm(3, alpha=1e-3, beta=0.5, k=2.0)
        empty = L.zeros(0, 3, 2)
        results.append((repr(m), m.__constants__, m(L.tensor(data, dtype=L.float32)),
                        L.nn.functional.local_response_norm(empty, 2) is empty))
    (r, c, y, e), (want_r, want_c, want_y, want_e) = results
    assert (r, c, e) == (want_r, want_c, want_e)
    assert_same(y, want_y)


@pytest.mark.parametrize("program", ["F.local_response_norm(L.ones(2, 3), 2)",
                                     "F.local_response_norm(L.ones(3), 2)",
                                     "L.nn.LocalResponseNorm(2)(L.ones(4))"])
def test_local_response_norm_errors_as_torch(program: str) -> None:
    """Fewer than 3 dims: torch's ValueError and its message (spaces and all)."""
    def run(L: Any) -> Any:
        return eval(program, {"L": L, "F": L.nn.functional})

    want = raised_by(run, torch)
    assert want is not None
    assert_same_error(raised_by(run, mt), want)


@pytest.mark.parametrize("file", ["dataset", "dataloader", "sampler"])
def test_data_files_hold_torchs_names(file: str) -> None:
    """``from torch.utils.data.<file> import X`` works where torch's does: each name is in
    torch's file, is ``data.X`` itself, and is reached by import and by attribute; a file
    torch does not have is a ModuleNotFoundError."""
    from minitorch.utils.data_files import FILES

    mine = importlib.import_module(f"minitorch.utils.data.{file}")
    theirs = importlib.import_module(f"torch.utils.data.{file}")
    assert mine is getattr(mt.utils.data, file)
    for name in FILES[file]:
        assert getattr(theirs, name) is getattr(torch.utils.data, name), name
        assert getattr(mine, name) is getattr(mt.utils.data, name), name
    with pytest.raises(ModuleNotFoundError, match=r"'minitorch\.utils\.data\.nope'"):
        importlib.import_module("minitorch.utils.data.nope")


def test_data_files_list_every_name_torch_keeps_there() -> None:
    """Every public name of ``data`` that torch defines in one of these files is listed in
    that file here."""
    from minitorch.utils.data_files import FILES

    for file, names in FILES.items():
        theirs = importlib.import_module(f"torch.utils.data.{file}")
        kept = {n for n in mt.utils.data.__all__ if hasattr(theirs, n)}
        assert kept <= set(names), (file, kept - set(names))


@SETTINGS
@given(st.integers(1, 3), st.sampled_from([(1, 6), (2, 6), (3, 6), (6, 6), (2, 4), (4, 8)]),
       st.lists(st.integers(0, 3), min_size=1, max_size=2))
def test_channel_shuffle_as_torch(batch: int, groups_channels: tuple, rest: list) -> None:
    """The channels interleaved group by group, any batch and trailing dims (empty ones
    too); the gradient and the gradient of the gradient, each through the shuffle back."""
    groups, channels = groups_channels
    data = np.random.default_rng(channels * 7 + groups).normal(size=(batch, channels, *rest))
    results = []
    for L in (mt, torch):
        x = L.tensor(data, requires_grad=True)
        y = L.nn.functional.channel_shuffle(x, groups)
        weight = L.arange(float(y.numel()), dtype=L.float64).reshape(y.shape)
        (g,) = L.autograd.grad((y * y * weight).sum(), x, create_graph=True)
        (gg,) = L.autograd.grad(g.sum(), x, allow_unused=True)
        results.append((y, g, gg, y.grad_fn.name(), g.grad_fn.name(), y.is_contiguous()))
    (y, g, gg, *names), (want_y, want_g, want_gg, *want_names) = results
    assert_same(y, want_y, "output")
    assert_same(g, want_g, "gradient")
    assert_same(gg, want_gg, "second gradient")
    assert names == want_names


@pytest.mark.parametrize("program", [
    "F.channel_shuffle(L.ones(1, 6), 2)", "F.channel_shuffle(L.ones(6), 0)",
    "F.channel_shuffle(L.ones(1, 6, 2), 4)", "F.channel_shuffle(L.ones(1, 6, 2), 0)",
    "F.channel_shuffle(L.ones(1, 6, 2), -3)", "F.channel_shuffle(L.ones(1, 6, 2), True)",
    "F.channel_shuffle(L.ones(1, 6, 2), 2.0)", "F.channel_shuffle([1.0], 2)",
    "F.channel_shuffle(L.ones(1, 6, 2), 12)", "L.nn.ChannelShuffle(4)(L.ones(2, 6, 1))"])
def test_channel_shuffle_errors_as_torch(program: str) -> None:
    """torch's checks in torch's order: the types, at least 3 dims, positive groups, the
    channels divisible by them."""
    def run(L: Any) -> Any:
        return eval(program, {"L": L, "F": L.nn.functional})

    want = raised_by(run, torch)
    assert want is not None
    assert_same_error(raised_by(run, mt), want)


def test_channel_shuffle_module_as_torch() -> None:
    """The module's repr, constants and output (an integer input keeps its dtype)."""
    results = []
    for L in (mt, torch):
        m = L.nn.ChannelShuffle(3)
        results.append((repr(m), m.__constants__, m(L.arange(12).view(2, 6, 1))))
    (r, c, y), (want_r, want_c, want_y) = results
    assert (r, c) == (want_r, want_c)
    assert_same(y, want_y)
