"""APIs that the corpus20f programs (others' autograd code) use, against live torch: each
case is run as a program sees it, through its printed form, under both libraries."""

from __future__ import annotations

import numpy as np
import pytest
import torch
from hypothesis import given
from hypothesis import strategies as st

import minitorch as mt
from tests.oracle import SETTINGS, shapes


def _raised(calls) -> list:
    """The type and words of what each call raised (None where it did not)."""
    out = []
    for call in calls:
        try:
            call()
            out.append(None)
        except Exception as e:
            out.append((type(e).__name__, str(e)))
    return out


def _printed_broadcast(L, a_shape, b_shape):
    a = L.zeros(a_shape, requires_grad=True)
    b = L.ones(b_shape)
    out = L.broadcast_tensors(a, b)
    return [out[0] is a, out[1] is b] + [repr(t) for t in out]


@SETTINGS
@given(shapes(0, 3), shapes(0, 3))
def test_broadcast_tensors_returns_same_shaped_inputs_themselves(a_shape, b_shape):
    try:
        torch.broadcast_shapes(a_shape, b_shape)
    except RuntimeError:
        return
    assert _printed_broadcast(mt, a_shape, b_shape) == _printed_broadcast(torch, a_shape, b_shape)


def test_distribution_parameters_keep_their_own_grad_fn():
    def run(L):
        mu = L.zeros(1, requires_grad=True)
        log_std = L.zeros(1, requires_grad=True)
        d = L.distributions.Normal(mu, log_std.exp())
        return [repr(d.mean), repr(d.stddev), d.loc is mu]
    assert run(mt) == run(torch)


def _node_apply(L):
    class MultiplyAdd(L.autograd.Function):
        @staticmethod
        def forward(ctx, w, x, b):
            ctx.save_for_backward(w, x)
            return w * x + b

        @staticmethod
        def backward(ctx, grad_output):
            w, x = ctx.saved_tensors
            return grad_output * x, grad_output * w, grad_output

    w = L.tensor([0.25], requires_grad=True)
    b = L.tensor([0.5], requires_grad=True)
    z = MultiplyAdd.apply(w, L.ones(1), b)
    out = [repr(z.grad_fn.apply(L.ones(1))), hasattr(z.exp().grad_fn, "apply")]
    try:
        z.grad_fn.apply(L.ones(1), L.ones(1))
    except TypeError as e:
        out.append(type(e).__name__)
    return out


def test_custom_function_node_apply_runs_its_backward():
    assert _node_apply(mt) == _node_apply(torch)


@SETTINGS
@given(st.integers(1, 6), st.integers(2, 6), st.floats(0.0, 1.0, width=32),
       st.sampled_from(["mean", "sum", "none"]), st.booleans(), st.booleans(),
       st.integers(0, 2**31 - 1))
def test_cross_entropy_label_smoothing_bitwise(n, c, smoothing, reduction, weighted, ignore,
                                               seed):
    rng = np.random.default_rng(seed)
    logits = rng.normal(size=(n, c)).astype(np.float32)
    target = rng.integers(0, c, size=n)
    weight = rng.uniform(0.5, 2.0, size=c).astype(np.float32) if weighted else None

    def run(L):
        x = L.tensor(logits, requires_grad=True)
        w = None if weight is None else L.tensor(weight)
        loss = L.nn.functional.cross_entropy(x, L.tensor(target), weight=w,
                                             ignore_index=int(target[0]) if ignore else -100,
                                             reduction=reduction, label_smoothing=smoothing)
        loss.sum().backward()
        return [repr(loss), repr(x.grad)]
    assert run(mt) == run(torch)


@SETTINGS
@given(st.sampled_from([(6, 5), (2, 5, 3), (2, 5, 3, 1), (3, 4, 2, 2), (4,)]), st.booleans(),
       st.sampled_from(["mean", "sum", "none"]), st.floats(0.125, 3.0, width=32),
       st.integers(0, 2**31 - 1))
def test_nll_loss_backward_of_a_scaled_loss_bitwise(shape, weighted, reduction, factor, seed):
    """torch's kernel divides the incoming gradient by the total weight, then multiplies by
    the class weight: a loss scaled before backward (label smoothing's mix) shows the order."""
    rng = np.random.default_rng(seed)
    logp = rng.normal(size=shape).astype(np.float32)
    classes = shape[1] if len(shape) > 1 else shape[0]
    target = rng.integers(0, classes, size=(shape[0], *shape[2:]) if len(shape) > 1 else ())
    weight = rng.uniform(0.5, 2.0, size=classes).astype(np.float32) if weighted else None

    def run(L):
        x = L.tensor(logp, requires_grad=True)
        w = None if weight is None else L.tensor(weight)
        loss = L.nn.functional.nll_loss(x, L.tensor(target), weight=w, reduction=reduction)
        (loss * factor).sum().backward()
        return [repr(loss), repr(x.grad)]
    assert run(mt) == run(torch)


@SETTINGS
@given(st.integers(1, 4), st.integers(1, 5), st.booleans(),
       st.sampled_from(["mean", "sum", "none"]),
       st.sampled_from(["default", "cosine", "module"]), st.integers(0, 2**31 - 1))
def test_triplet_margin_with_distance_loss(n, d, swap, reduction, distance, seed):
    rng = np.random.default_rng(seed)
    data = [rng.normal(size=(n, d)).astype(np.float32) for _ in range(3)]

    def run(L):
        a, p, q = (L.tensor(x, requires_grad=True) for x in data)
        fn = {"default": None,
              "cosine": lambda x, y: 1.0 - L.nn.functional.cosine_similarity(x, y),
              "module": L.nn.PairwiseDistance(p=1)}[distance]
        module = L.nn.TripletMarginWithDistanceLoss(distance_function=fn, swap=swap,
                                                     reduction=reduction, margin=0.5)
        loss = module(a, p, q)
        loss.sum().backward()
        functional = L.nn.functional.triplet_margin_with_distance_loss(
            a, p, q, distance_function=fn, swap=swap, reduction=reduction, margin=0.5)
        return [repr(module) if distance != "cosine" else "", repr(loss), repr(functional),
                repr(a.grad), repr(q.grad)]
    assert run(mt) == run(torch)


def test_triplet_margin_with_distance_loss_errors():
    def errors(L):
        x = L.zeros(2, 3)
        return _raised((lambda: L.nn.TripletMarginWithDistanceLoss(margin=0),
                        lambda: L.nn.functional.triplet_margin_with_distance_loss(x, x, x,
                                                                                  margin=-1),
                        lambda: L.nn.functional.triplet_margin_with_distance_loss(x, x, x[0]),
                        lambda: L.nn.functional.triplet_margin_with_distance_loss(
                            x, x, x, reduction="avg")))
    assert errors(mt) == errors(torch)


@SETTINGS
@given(shapes(1, 3), st.booleans(), st.sampled_from([1.0, 0.5, 2.0]), st.integers(0, 2**31 - 1))
def test_gumbel_softmax_draws_and_grads(shape, hard, tau, seed):
    logits = np.random.default_rng(seed).normal(size=shape).astype(np.float32)

    def run(L):
        L.manual_seed(seed)
        x = L.tensor(logits, requires_grad=True)
        y = L.nn.functional.gumbel_softmax(x, tau=tau, hard=hard, dim=0)
        (y * L.arange(float(shape[0])).reshape(-1, *[1] * (len(shape) - 1))).sum().backward()
        return [repr(y), repr(x.grad), repr(L.rand(2))]
    assert run(mt) == run(torch)


@SETTINGS
@given(st.lists(shapes(0, 2), min_size=0, max_size=3), st.sampled_from([2.0, 1.0, float("inf"), 3]),
       st.floats(0.125, 4.0, width=32), st.integers(0, 2**31 - 1))
def test_get_total_norm_and_clip_grads_with_norm(shape_list, norm_type, max_norm, seed):
    rng = np.random.default_rng(seed)
    data = [rng.normal(size=s).astype(np.float32) for s in shape_list]

    def run(L):
        params = [L.nn.Parameter(L.zeros(d.shape)) for d in data]
        for p, d in zip(params, data):
            p.grad = L.tensor(d)
        total = L.nn.utils.get_total_norm([p.grad for p in params], norm_type)
        L.nn.utils.clip_grads_with_norm_(params, max_norm, total)
        return [repr(total)] + [repr(p.grad) for p in params]
    assert run(mt) == run(torch)


OPTIMIZER_CASES = [
    ("Rprop", {}), ("Rprop", {"lr": 0.1, "etas": (0.3, 1.5), "step_sizes": (1e-3, 0.2)}),
    ("Rprop", {"maximize": True}),
    ("ASGD", {}), ("ASGD", {"lr": 0.05, "t0": 3, "lambd": 0.01, "weight_decay": 0.1}),
    ("ASGD", {"lr": 0.02, "t0": 0, "alpha": 0.5, "maximize": True}),
]


@SETTINGS
@given(st.sampled_from(OPTIMIZER_CASES), shapes(1, 2), st.sampled_from(["float32", "float64"]),
       st.integers(0, 2**31 - 1))
def test_rprop_and_asgd_follow_torch_bit_for_bit(case, shape, dtype, seed):
    name, options = case
    rng = np.random.default_rng(seed)
    start = rng.normal(size=shape)
    target = rng.normal(size=shape)

    def run(L):
        p = L.nn.Parameter(L.tensor(start, dtype=getattr(L, dtype)))
        opt = getattr(L.optim, name)([p], **options)
        for _ in range(6):
            opt.zero_grad()
            ((p - L.tensor(target, dtype=p.dtype)) ** 2).sum().backward()
            opt.step()
        return [repr(p), repr(opt.state_dict()), repr(opt)]
    assert run(mt) == run(torch)


def test_rprop_and_asgd_errors():
    def errors(L):
        p = [L.nn.Parameter(L.ones(1))]
        return _raised((lambda: L.optim.Rprop(p, lr=-1),
                        lambda: L.optim.Rprop(p, etas=(1.2, 0.5)),
                        lambda: L.optim.ASGD(p, lr=-0.1),
                        lambda: L.optim.ASGD(p, weight_decay=-1)))
    assert errors(mt) == errors(torch)


def _global_hooks(L):
    import importlib
    mm = importlib.import_module(f"{L.__name__}.nn.modules.module")
    seen = []
    lin = L.nn.Linear(2, 2)
    with L.no_grad():
        lin.weight.fill_(0.5)
        lin.bias.fill_(0.25)
    lin.register_forward_hook(lambda m, a, out: seen.append(("own", repr(out))) or out * 2)
    h1 = mm.register_module_forward_pre_hook(lambda m, args: (args[0] + 1,))
    h2 = mm.register_module_forward_hook(
        lambda m, a, kw, out: seen.append(("global", type(m).__name__, kw)) or out - 1,
        with_kwargs=True)
    h3 = mm.register_module_forward_hook(lambda m, a, out: 1 / 0, always_call=True)
    try:
        L.nn.Sequential(lin, L.nn.ReLU())(L.ones(1, 2))
    except ZeroDivisionError:
        seen.append("raised")
    h3.remove()
    seen.append(repr(L.nn.Sequential(lin, L.nn.ReLU())(L.ones(1, 2))))
    h1.remove()
    h2.remove()
    seen.append(repr(lin(L.ones(1, 2))))
    return seen


def test_global_module_forward_hooks_run_before_the_modules_own():
    assert _global_hooks(mt) == _global_hooks(torch)


def _old_state_dict_hook(L):
    lin = L.nn.Linear(1, 1)
    lin._register_state_dict_hook(lambda m, sd, p, meta: {**sd, p + "extra": 1})

    def public(m, sd, p, meta):
        return None
    lin.register_state_dict_post_hook(public)
    out = [list(lin.state_dict())]
    try:
        lin._register_state_dict_hook(public)
    except RuntimeError as e:
        out.append(str(e))
    return out


def test_private_state_dict_hook_may_replace_the_dict():
    assert _old_state_dict_hook(mt) == _old_state_dict_hook(torch)


@SETTINGS
@given(shapes(0, 2), st.integers(0, 2**31 - 1), st.sampled_from(["float32", "float64"]))
def test_normal_cdf_and_icdf(shape, seed, dtype):
    rng = np.random.default_rng(seed)
    loc, scale = rng.normal(size=shape), rng.uniform(0.2, 3.0, size=shape)
    value, prob = rng.normal(size=shape), rng.uniform(0.01, 0.99, size=shape)

    def run(L):
        kind = getattr(L, dtype)
        m = L.tensor(loc, dtype=kind, requires_grad=True)
        s = L.tensor(scale, dtype=kind, requires_grad=True)
        d = L.distributions.Normal(m, s)
        c = d.cdf(L.tensor(value, dtype=kind))
        q = d.icdf(L.tensor(prob, dtype=kind))
        (c.sum() + q.sum()).backward()
        return [repr(c), repr(q), repr(m.grad), repr(s.grad)]
    assert run(mt) == run(torch)


@SETTINGS
@given(st.lists(shapes(0, 2), min_size=1, max_size=3),
       st.sampled_from(["number", "numbers", "tensor", "tensors"]),
       st.sampled_from(["_foreach_mul_", "_foreach_mul", "_foreach_add_", "_foreach_add"]),
       st.integers(0, 2**31 - 1))
def test_foreach_ops(shape_list, kind, name, seed):
    rng = np.random.default_rng(seed)
    data = [rng.normal(size=s).astype(np.float32) for s in shape_list]
    numbers = [float(x) for x in rng.normal(size=len(data))]

    def run(L):
        tensors = [L.tensor(d) for d in data]
        other = {"number": numbers[0], "numbers": numbers,
                 "tensor": L.tensor(numbers[0]),
                 "tensors": [L.tensor(d) * 0.5 for d in data]}[kind]
        out = getattr(L, name)(tensors, other)
        return [type(out).__name__, out is tensors, repr(out), repr(tensors)]
    assert run(mt) == run(torch)


def test_foreach_errors():
    def errors(L):
        a = [L.ones(2), L.ones(3)]
        return _raised((lambda: L._foreach_mul_([], 2.0), lambda: L._foreach_mul_(a, [1.0]),
                        lambda: L._foreach_add_(a, [L.ones(2)])))
    assert errors(mt) == errors(torch)


def _load_pre_hooks(L):
    seen = []
    net = L.nn.Sequential(L.nn.Linear(1, 1), L.nn.Sequential(L.nn.Linear(1, 2)))
    net._register_state_dict_hook(lambda m, sd, p, meta: {**sd, "extra": L.zeros(1)})

    def root_hook(sd, prefix, meta, strict, missing, unexpected, errors):
        seen.append(("root", prefix, sorted(sd), strict, meta))
        sd.pop("extra", None)

    def child_hook(module, sd, prefix, meta, strict, missing, unexpected, errors):
        seen.append(("child", type(module).__name__, prefix, sorted(sd)))
        if prefix + "bias" in sd:
            sd[prefix + "bias"] = sd[prefix + "bias"] + 1

    net._register_load_state_dict_pre_hook(root_hook)
    net[1][0].register_load_state_dict_pre_hook(child_hook)
    saved = net.state_dict()
    seen.append(list(saved))
    seen.append(repr(net.load_state_dict(saved)))
    seen.append(repr(net[1][0].bias - saved["1.0.bias"]))
    seen.append(repr(net.load_state_dict({"0.weight": L.ones(1, 1)}, strict=False)))
    return seen


def test_load_state_dict_pre_hooks_and_own_keys():
    assert _load_pre_hooks(mt) == _load_pre_hooks(torch)


@SETTINGS
@given(shapes(0, 2, max_side=5), st.floats(0.0, 60.0), st.sampled_from(["float32", "float64"]),
       st.integers(0, 2**31 - 1))
def test_poisson_draws_torchs_counts(shape, top, dtype, seed):
    """Both of torch's samplers (rates under 10, and from 10), then the generator's state."""
    rates = np.random.default_rng(seed).uniform(0.0, top, size=shape)

    def run(L):
        L.manual_seed(seed)
        x = L.tensor(rates, dtype=getattr(L, dtype), requires_grad=True)
        counts = L.poisson(x)
        counts.sum().backward()
        return [repr(counts), repr(x.grad), repr(L.rand(2))]
    assert run(mt) == run(torch)


def test_poisson_errors():
    def errors(L):
        return _raised((lambda: L.poisson(L.tensor([-1.0])), lambda: L.poisson(L.tensor([1]))))
    assert errors(mt) == errors(torch)


@SETTINGS
@given(st.sampled_from([(4, 3), (3,), (5, 6), (2, 1), (1, 4)]),
       st.sampled_from(["mean", "sum", "none"]), st.sampled_from(["float32", "float64"]),
       st.integers(0, 2**31 - 1))
def test_multilabel_margin_loss_bitwise(shape, reduction, dtype, seed):
    rng = np.random.default_rng(seed)
    scores = rng.normal(size=shape)
    d = shape[-1]
    rows = [rng.permutation(np.concatenate([rng.integers(0, d, d), [-1]]))[:d]
            for _ in range(shape[0] if len(shape) == 2 else 1)]
    target = np.stack(rows).reshape(shape)

    def run(L):
        x = L.tensor(scores, dtype=getattr(L, dtype), requires_grad=True)
        loss = L.nn.MultiLabelMarginLoss(reduction=reduction)(x, L.tensor(target))
        (loss * 1.5).sum().backward()
        return [repr(loss), repr(x.grad)]
    assert run(mt) == run(torch)


def test_multilabel_margin_loss_errors():
    def errors(L):
        f = L.nn.functional.multilabel_margin_loss
        return _raised((lambda: f(L.zeros(2, 3), L.zeros(2, 2, dtype=L.long)),
                        lambda: f(L.zeros(2, 3), L.full((2, 3), 3)),
                        lambda: f(L.zeros(2, 3), L.full((2, 3), -2)),
                        lambda: f(L.zeros(2, 0), L.zeros(2, 0, dtype=L.long)),
                        lambda: f(L.zeros(3), L.zeros(2, dtype=L.long))))
    assert errors(mt) == errors(torch)


@SETTINGS
@given(shapes(1, 3), st.integers(0, 3), st.integers(0, 2**31 - 1))
def test_independent_normal(shape, ndims, seed):
    ndims = min(ndims, len(shape))
    rng = np.random.default_rng(seed)
    loc, scale, value = rng.normal(size=shape), rng.uniform(0.5, 2, size=shape), \
        rng.normal(size=shape)

    def run(L):
        m = L.tensor(loc, dtype=L.float32, requires_grad=True)
        d = L.distributions.Independent(
            L.distributions.Normal(m, L.tensor(scale, dtype=L.float32)), ndims)
        lp = d.log_prob(L.tensor(value, dtype=L.float32))
        lp.sum().backward()
        L.manual_seed(seed)
        return [repr(d), d.batch_shape, d.event_shape, repr(lp), repr(d.entropy()),
                repr(m.grad), repr(d.rsample((2,))), d.has_rsample, repr(d.support),
                repr(d.mean)]
    assert run(mt) == run(torch)


def test_independent_errors():
    def errors(L):
        base = L.distributions.Normal(L.zeros(2), L.ones(2))
        return _raised((lambda: L.distributions.Independent(base, 2),))
    assert errors(mt) == errors(torch)


@pytest.mark.parametrize("reduction", ["mean", "sum", "none"])
def test_multilabel_margin_loss_has_no_double_backward(reduction):
    """A graph of its gradient is made (through grad_output) and refused when differentiated,
    in torch's words: its backward has no derivative in torch."""
    def run(L):
        x = L.tensor([[0.1, 0.2, 0.4, 0.8], [0.3, -1.0, 2.0, 0.0]], dtype=L.float64,
                     requires_grad=True)
        loss = L.nn.functional.multilabel_margin_loss(x * x, L.tensor([[3, 0, -1, 1],
                                                                       [1, -1, 0, 0]]),
                                                      reduction=reduction)
        g, = L.autograd.grad(loss.sum(), x, create_graph=True)
        with pytest.raises(RuntimeError) as error:
            L.autograd.grad(g.sum(), x)
        return g.detach().tolist(), str(error.value)
    assert run(mt) == run(torch)
