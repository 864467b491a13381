"""Fuzz D (seeds 3301/3302) DIFFERENT and REFUSED causes found on s14's tree, against live
torch: calls that both libraries run but answer differently (value, dtype, exception type),
or that torch runs and minitorch refused."""

from __future__ import annotations

import warnings
from typing import Any

import numpy as np
import pytest
import torch

import minitorch as mt
from tests.oracle import assert_same_error, raised_by


def _scaled(L: Any, extra: float, times: float = 2.0) -> Any:
    """``x * 2`` whose backward returns ``g * times + extra``."""
    class Fn(L.autograd.Function):
        @staticmethod
        def forward(ctx: Any, x: Any) -> Any:
            return x * 2

        @staticmethod
        def backward(ctx: Any, g: Any) -> Any:
            return g * times + extra

    return Fn.apply


def _x(L: Any, requires_grad: bool = True) -> Any:
    return L.tensor([1.0, -2.0, 3.0], dtype=L.float64, requires_grad=requires_grad)


MASKED_CALLS = {
    "right backward": lambda L, m: L.autograd.gradcheck(_scaled(L, 0.0), (_x(L),), masked=m),
    "offset below allclose's atol": lambda L, m: L.autograd.gradcheck(
        _scaled(L, 1e-9), (_x(L),), masked=m),
    "offset above allclose's atol": lambda L, m: L.autograd.gradcheck(
        _scaled(L, 1e-7), (_x(L),), masked=m),
    "wrong backward": lambda L, m: L.autograd.gradcheck(_scaled(L, 0.0, 3.0), (_x(L),), masked=m),
    "fast mode": lambda L, m: L.autograd.gradcheck(
        _scaled(L, 0.0, 3.0), (_x(L),), masked=m, fast_mode=True),
    "no input requires grad": lambda L, m: L.autograd.gradcheck(
        _scaled(L, 0.0), (_x(L, False),), masked=m),
    "gradgradcheck": lambda L, m: L.autograd.gradgradcheck(
        lambda t: t.exp() * t, (_x(L),), masked=m),
    "gradgradcheck, offset": lambda L, m: L.autograd.gradgradcheck(
        lambda t: _scaled(L, 1e-9)(t) * t, (_x(L),), (L.ones(3, dtype=L.float64),), masked=m),
    "gradgradcheck, no input requires grad": lambda L, m: L.autograd.gradgradcheck(
        _scaled(L, 0.0), (_x(L, False),), masked=m),
}


@pytest.mark.parametrize("masked", [True, False, None])
@pytest.mark.parametrize("call", MASKED_CALLS.values(), ids=MASKED_CALLS.keys())
def test_gradcheck_masked_on_dense_inputs_is_torchs(call: Any, masked: Any) -> None:
    """On dense (strided) inputs torch's ``masked`` changes one thing: the zero-grad_output
    check becomes ``allclose`` to zero instead of exact equality. minitorch's tensors are all
    dense, so it is accepted, not refused."""
    def run(L: Any) -> Any:
        L.manual_seed(0)
        return call(L, masked)

    want = raised_by(run, torch)
    if want is not None:
        assert_same_error(raised_by(run, mt), want)
    else:
        assert run(mt) is run(torch)


@pytest.mark.parametrize("input_shape", [(1, 3), (3,), (2, 1, 3)], ids=str)
@pytest.mark.parametrize("devices", [("cpu", "cpu", "meta"), ("cpu", "meta", "meta"),
                                     ("meta", "cpu", "cpu"), ("meta", "meta", "cpu")], ids=str)
def test_linear_bias_on_another_device_is_torchs_error(input_shape: tuple, devices: tuple) -> None:
    """torch's linear checks the bias against the input's device before anything else: a
    Linear moved to 'meta' called on a CPU batch (or the reverse) says which tensor is not
    on the expected device."""
    def run(L: Any) -> Any:
        x, w, b = (L.ones(*s, device=d) for s, d in zip((input_shape, (2, 3), (2,)), devices))
        return L.nn.functional.linear(x, w, b)

    assert_same_error(raised_by(run, mt), raised_by(run, torch))


def test_module_moved_to_meta_refuses_a_cpu_batch_as_torch() -> None:
    def run(L: Any) -> Any:
        m = L.nn.Sequential(L.nn.Linear(3, 2), L.nn.Tanh())
        m.to("meta")
        return m(L.ones(1, 3))

    assert_same_error(raised_by(run, mt), raised_by(run, torch))


SHARE_CALLS = {
    "the tensor": lambda L, x: (x.share_memory_() is x, x.is_shared()),
    "a view of it": lambda L, x: (x.share_memory_(), x[1:].is_shared(), x.view(3).is_shared()),
    "through a view": lambda L, x: (x[1:].share_memory_(), x.is_shared()),
    "through detach": lambda L, x: (x.detach().share_memory_(), x.is_shared()),
    "a copy is not": lambda L, x: (x.share_memory_(), x.clone().is_shared(), (x * 2).is_shared()),
    "never shared": lambda L, x: x.is_shared(),
    "the storage": lambda L, x: (x.untyped_storage().is_shared(),
                                 x.untyped_storage().share_memory_() is not None, x.is_shared()),
    "a module": lambda L, x: (
        (m := L.nn.Sequential(L.nn.Linear(3, 2), L.nn.Tanh())).share_memory() is m,
        all(p.is_shared() for p in m.parameters())),
    "a meta tensor": lambda L, x: L.ones(2, device="meta").share_memory_(),
    "a meta tensor's flag": lambda L, x: L.ones(2, device="meta").is_shared(),
}


@pytest.mark.parametrize("call", SHARE_CALLS.values(), ids=SHARE_CALLS.keys())
def test_share_memory_marks_the_storage_as_torch(call: Any) -> None:
    """``is_shared`` is a property of the storage: after ``share_memory_`` (of the tensor, a
    view of it or its module) every tensor over that memory reports it, a copy does not."""
    def run(L: Any) -> Any:
        result = call(L, L.tensor([1.0, 2.0, 3.0]))
        return tuple(r for r in result if not isinstance(r, L.Tensor)) \
            if isinstance(result, tuple) else result

    want = raised_by(run, torch)
    if want is not None:
        assert_same_error(raised_by(run, mt), want)
    else:
        assert run(mt) == run(torch)


HALF_DRAWS = {
    "rand": lambda L, n: L.rand(n, dtype=L.float16),
    "rand requires_grad": lambda L, n: L.rand(n, dtype=L.float16, requires_grad=True),
    "randn": lambda L, n: L.randn(n, dtype=L.float16),
    "uniform_": lambda L, n: L.empty(n, dtype=L.float16).uniform_(-2.0, 3.0),
    "uniform_ narrow": lambda L, n: L.empty(n, dtype=L.float16).uniform_(0.1, 0.2),
    "normal_": lambda L, n: L.empty(n, dtype=L.float16).normal_(0.1, 0.3),
    "normal_ strided": lambda L, n: L.empty(3, n, dtype=L.float16)[:, 0].normal_(2.0, 3.0),
    "normal of a tensor": lambda L, n: L.normal(L.zeros(n, dtype=L.float16), 2.0),
}


@pytest.mark.parametrize("n", [1, 2, 15, 16, 17, 20, 32, 33, 5000])
@pytest.mark.parametrize("draw", HALF_DRAWS.values(), ids=HALF_DRAWS.keys())
def test_float16_samples_are_torchs(draw: Any, n: int) -> None:
    """torch draws float16 samples as its float32 ones rounded (a uniform one that rounds up
    to ``high`` gives ``low``; its half normal kernel draws the overlapping last 16 after the
    whole blocks): the dtype stays float16 and the numbers are torch's for the same seed."""
    def run(L: Any) -> Any:
        L.manual_seed(0)
        return draw(L, n)

    got, want = run(mt), run(torch)
    assert str(got.dtype) == str(want.dtype) and got.requires_grad == want.requires_grad
    np.testing.assert_array_equal(got.detach().numpy(), want.detach().numpy())


TYPED_ITEMS = {
    "float64 arrays": lambda L: [np.ones(2), np.zeros(2)],
    "a tensor's array and an array": lambda L: [L.ones(2).numpy(), np.zeros(2)],
    "numpy float64 scalar": lambda L: [np.float64(1.5)],
    "numpy float32 scalar and a float": lambda L: [np.float32(1.0), 2.0],
    "numpy float16 scalars": lambda L: [np.float16(1.0), np.float16(2.0)],
    "numpy int32 scalars": lambda L: [np.int32(1), np.int32(-2)],
    "numpy int32 and an int": lambda L: [np.int32(1), 2],
    "int16 and int32 arrays": lambda L: [np.ones(2, np.int16), np.ones(2, np.int32)],
    "float32 array and floats": lambda L: [np.ones(2, np.float32), [1.0, 2.0]],
    "int32 array and floats": lambda L: [np.ones(2, np.int32), [1.5, 2.0]],
    "uint8 and int8 scalars": lambda L: [np.uint8(1), np.int8(-2)],
    "numpy float64 and a float32 tensor": lambda L: [np.float64(1.0), L.tensor(2.0)],
    "a float64 tensor": lambda L: [L.tensor(2.0, dtype=L.float64)],
    "an int32 tensor and an int": lambda L: [L.tensor(2, dtype=L.int32), 3],
    "numpy bool and a float": lambda L: [np.bool_(True), 2.5],
    "numpy bools": lambda L: [[np.bool_(True)], [np.bool_(False)]],
    "an empty list beside an int32 array": lambda L: [[np.ones(0, np.int32)], [[]]],
    "plain floats": lambda L: [[1.0, 2.0], [3.0, 4.0]],
    "plain ints": lambda L: [1, 2],
}


@pytest.mark.parametrize("default", ["float32", "float64"])
@pytest.mark.parametrize("make", ["tensor", "as_tensor"])
@pytest.mark.parametrize("items", TYPED_ITEMS.values(), ids=TYPED_ITEMS.keys())
def test_sequence_of_typed_items_gets_torchs_dtype(items: Any, make: str, default: str) -> None:
    """torch infers a sequence's dtype by promoting its items' own dtypes (numpy arrays,
    numpy scalars, tensors) with those of the Python numbers beside them; minitorch read the
    numpy values as Python numbers and gave the default dtype."""
    def run(L: Any) -> Any:
        before = L.get_default_dtype()
        L.set_default_dtype(getattr(L, default))
        try:
            with warnings.catch_warnings():  # torch: "a list of numpy.ndarrays is slow"
                warnings.simplefilter("ignore")
                return getattr(L, make)(items(L))
        finally:
            L.set_default_dtype(before)

    got, want = run(mt), run(torch)
    assert str(got.dtype) == str(want.dtype)
    np.testing.assert_array_equal(got.numpy(), want.numpy())


NESTED_PROFILES = {
    "op in the inner only": lambda L, P: (P.profile(), [lambda: L.ones(2) * 2], []),
    "ops before, in and after": lambda L, P: (
        P.profile(), [lambda: L.ones(2) * 2], [lambda: L.zeros(2) + 1]),
    "record_function inside": lambda L, P: (
        P.profile(), [lambda: P.record_function("block").__enter__()], []),
}


@pytest.mark.parametrize("case", NESTED_PROFILES.values(), ids=NESTED_PROFILES.keys())
def test_nested_profile_takes_over_as_torch(case: Any) -> None:
    """torch lets a profile start inside another: the session moves to the inner one, whose
    end ends profiling, and the outer one ends with no events."""
    def names(events: Any) -> list:
        return sorted({e.name for e in events} & {"aten::mul", "aten::add", "block"})

    def run(L: Any) -> tuple:
        P = L.autograd.profiler
        inner, inside, around = case(L, P)
        with P.profile() as outer:
            for f in around:
                f()
            with inner:
                for f in inside:
                    f()
            for f in around:
                f()
        return names(outer.function_events), names(inner.function_events)

    assert run(mt) == run(torch)


@pytest.mark.parametrize("reduction", ["mean", "sum", "none"])
@pytest.mark.parametrize("loss", ["nll_loss", "cross_entropy"])
@pytest.mark.parametrize("shapes", [
    ((1, 3, 1), (1, 1), 4), ((1, 3, 1), (1, 1), 1), ((2, 3), (2,), 1),
    ((1, 3, 2, 2), (1, 2, 2), 1), ((1, 3, 2, 2), (1, 2, 2), 9), ((1, 3, 2, 2), (1, 2, 3), 0),
    ((1, 3, 2), (1, 3), 0), ((0, 3, 2, 2), (0, 2, 2), 0), ((0, 3, 2), (0, 2), 0),
    ((3,), (), 1)], ids=str)
def test_byte_targets_of_k_dim_losses_are_refused_as_torch(shapes: tuple, loss: str,
                                                         reduction: str) -> None:
    """torch's nll_loss takes uint8 class indices for 1-D and 2-D inputs only: its K-dim
    kernel wants int64 and says so after the shape checks, before reading a target (so also
    before an out-of-range one is reported)."""
    input_shape, target_shape, fill = shapes

    def run(L: Any) -> Any:
        x = L.ones(*input_shape)
        target = L.full(target_shape, fill, dtype=L.uint8)
        return getattr(L.nn.functional, loss)(x, target, reduction=reduction)

    want = raised_by(run, torch)
    if want is not None:
        assert_same_error(raised_by(run, mt), want)
    else:
        np.testing.assert_array_equal(run(mt).numpy(), run(torch).numpy())


def _vjp_only(L: Any, both: bool = False) -> Any:
    class Fn(L.autograd.Function):
        @staticmethod
        def forward(ctx: Any, a: Any, k: Any) -> Any:
            ctx.k = k
            return a * k

        @staticmethod
        def vjp(ctx: Any, g: Any) -> tuple:
            return g * ctx.k, None

    if both:
        Fn.backward = staticmethod(lambda ctx, g: (g, None))
    return Fn


VJP_CALLS = {
    "backward": lambda L, Fn, a: (Fn.apply(a, 3.0).sum().backward(), a.grad)[1],
    "a tensor k": lambda L, Fn, a: (Fn.apply(a, L.tensor(2.0)).sum().backward(), a.grad)[1],
    "autograd.grad": lambda L, Fn, a: L.autograd.grad(Fn.apply(a, 2.0).sum(), a)[0],
    "gradcheck": lambda L, Fn, a: L.autograd.gradcheck(
        lambda t: Fn.apply(t, 2.0), (a.detach().double().requires_grad_(),)),
    "grad_fn name": lambda L, Fn, a: Fn.apply(a, 2.0).grad_fn.name(),
}


@pytest.mark.parametrize("both", [False, True])
@pytest.mark.parametrize("call", VJP_CALLS.values(), ids=VJP_CALLS.keys())
def test_function_with_only_vjp_differentiates_as_torch(call: Any, both: bool) -> None:
    """``vjp`` is torch's other name for a Function's backward: defining only it is enough;
    defining both is refused when the backward runs."""
    def run(L: Any) -> Any:
        result = call(L, _vjp_only(L, both), L.tensor([1.0, 2.0, 3.0], requires_grad=True))
        return result.tolist() if isinstance(result, L.Tensor) else result

    want = raised_by(run, torch)
    if want is not None:
        assert_same_error(raised_by(run, mt), want)
    else:
        assert run(mt) == run(torch)


INFERENCE_ALIASES = {
    "data": lambda t: t.data,
    "detach": lambda t: t.detach(),
    "data.data": lambda t: t.data.data,
    "data.detach": lambda t: t.data.detach(),
    "data.view": lambda t: t.data.view(3),
    "detach.view": lambda t: t.detach().view(3),
    "data[1:]": lambda t: t.data[1:],
    "itself": lambda t: t,
    "a view": lambda t: t.view(3),
    "a view's data": lambda t: t.view(3).data,
}


@pytest.mark.parametrize("source", ["made inside", "view made inside", "requires grad"])
@pytest.mark.parametrize("alias", INFERENCE_ALIASES.values(), ids=INFERENCE_ALIASES.keys())
def test_data_and_detach_of_an_inference_tensor_take_inplace_writes(alias: Any,
                                                                   source: str) -> None:
    """Outside inference mode torch refuses in-place writes to an inference tensor, except
    through ``.data`` or ``.detach()``, which get a version counter of their own (their
    views do not)."""
    def run(L: Any) -> Any:
        with L.inference_mode():
            base = L.ones(3, requires_grad=source == "requires grad") * 2 \
                if source != "requires grad" else L.ones(3, requires_grad=True)
            t = base.view(3) if source == "view made inside" else base
        a = alias(t)
        flags = (a.is_inference(), raised_by(lambda _: a._version, L) is None)
        a.add_(1)
        return flags, base.tolist(), a._version

    want = raised_by(run, torch)
    if want is not None:
        assert_same_error(raised_by(run, mt), want)
    else:
        assert run(mt) == run(torch)


OPTIMIZERS = ["SGD", "Adam", "AdamW", "Adagrad", "RMSprop", "NAdam", "Adadelta", "Adamax"]


@pytest.mark.parametrize(("name", "loaded"), [
    *((name, None) for name in OPTIMIZERS), *((name, name) for name in OPTIMIZERS),
    ("SGD", "Adagrad"), ("Adam", "RMSprop"), ("Adam", "NAdam")])
def test_optimizer_group_keys_are_in_torchs_order(name: str, loaded: Any) -> None:
    """torch's param_groups keep the given group's keys (params first) and add the defaults
    after them; its state_dict packs each group's settings, then ``params``; a loaded state
    dict's groups keep that order."""
    def run(L: Any) -> Any:
        w, v = (L.tensor([1.0, -2.0], requires_grad=True) for _ in range(2))
        opt = getattr(L.optim, name)([{"params": [w], "lr": 0.1}, {"params": v}], lr=0.5)
        order = [list(g) for g in opt.param_groups], [list(g) for g in
                                                       opt.state_dict()["param_groups"]]
        if loaded is not None:
            other = getattr(L.optim, loaded)([w, v], lr=0.2)
            ((w * w).sum() + v.exp().sum()).backward()
            other.step()
            opt2 = getattr(L.optim, name)([{"params": [w]}, {"params": [v]}], lr=0.5)
            saved = other.state_dict()
            saved["param_groups"] = [dict(saved["param_groups"][0], params=[0]),
                                     dict(saved["param_groups"][0], params=[1])]
            opt2.load_state_dict(saved)
            order += [list(g) for g in opt2.param_groups], \
                [list(g) for g in opt2.state_dict()["param_groups"]]
        return order

    assert run(mt) == run(torch)


@pytest.mark.parametrize("name", [*OPTIMIZERS, "RAdam"])
def test_settings_a_loaded_group_lacks_come_in_torchs_order(name: str) -> None:
    """torch's ``__setstate__`` adds the flags a loaded group lacks in its own order per
    optimizer."""
    def run(L: Any) -> list:
        opt = getattr(L.optim, name)([L.ones(2, requires_grad=True)], lr=0.1)
        saved = opt.state_dict()
        saved["param_groups"] = [{"lr": 0.1, "params": [0]}]
        opt.load_state_dict(saved)
        return list(opt.param_groups[0])

    assert run(mt) == run(torch)


@pytest.mark.parametrize("name", [*OPTIMIZERS, "RAdam", "LBFGS"])
def test_step_pre_hook_that_drops_the_arguments_fails_as_torch(name: str) -> None:
    """A step pre-hook returning ``((), {})`` replaces the step's arguments, self included:
    torch's grad-mode wrapper then reads ``args[0]`` (an IndexError)."""
    def run(L: Any) -> Any:
        w = L.tensor([1.0, -2.0, 3.0], requires_grad=True)
        opt = getattr(L.optim, name)([w], lr=0.1)
        (w * w).sum().backward()
        opt.register_step_pre_hook(lambda o, args, kwargs: ((), {}))
        return opt.step(lambda: (w * w).sum())

    got, want = raised_by(run, mt), raised_by(run, torch)
    assert type(got).__name__ == type(want).__name__
    if name != "LBFGS":  # the missing-arguments TypeError names the function
        assert_same_error(got, want)


NAMED_GROUPS = {
    "all named": lambda L, w, b: [("w", w), ("b", b)],
    "one unnamed": lambda L, w, b: [("w", w), b],
    "groups of both kinds": lambda L, w, b: [{"params": [("w", w)]}, {"params": [b]}],
    "named groups": lambda L, w, b: [{"params": [("w", w)], "lr": 0.5}, {"params": [("b", b)]}],
    "named_parameters": lambda L, w, b: list(L.nn.Linear(2, 1).named_parameters()),
}


@pytest.mark.parametrize("name", ["SGD", "Adagrad", "Adam", "LBFGS"])
@pytest.mark.parametrize("params", NAMED_GROUPS.values(), ids=NAMED_GROUPS.keys())
def test_named_parameters_fill_param_names_as_torch(params: Any, name: str) -> None:
    """torch's optimizers take ``(name, tensor)`` pairs: the group keeps the tensors in
    ``params`` and the names in ``param_names``, kept through state_dict and a load."""
    def run(L: Any) -> Any:
        w = L.tensor([1.0, -2.0, 3.0], requires_grad=True)
        b = L.tensor([0.5, -0.5], requires_grad=True)
        opt = getattr(L.optim, name)(params(L, w, b), lr=0.1)
        groups = [{k: (len(v) if k == "params" else v) for k, v in g.items()}
                  for g in opt.param_groups]
        saved = opt.state_dict()
        opt.load_state_dict(saved)
        return groups, saved["param_groups"], [list(g) for g in opt.param_groups]

    want = raised_by(run, torch)
    if want is not None:
        assert_same_error(raised_by(run, mt), want)
    else:
        assert run(mt) == run(torch)


MODES = {
    "enable_grad": lambda L: L.enable_grad(),
    "no_grad": lambda L: L.no_grad(),
    "set_grad_enabled(True)": lambda L: L.set_grad_enabled(True),
    "set_grad_enabled(False)": lambda L: L.set_grad_enabled(False),
    "inference_mode()": lambda L: L.inference_mode(),
    "inference_mode(False)": lambda L: L.inference_mode(False),
}


@pytest.mark.parametrize("inner", MODES.values(), ids=MODES.keys())
@pytest.mark.parametrize("middle", MODES.values(), ids=MODES.keys())
@pytest.mark.parametrize("outer", ["inference_mode()", "no_grad", "enable_grad"])
def test_grad_mode_inside_inference_mode_records_nothing(outer: str, middle: Any,
                                                          inner: Any) -> None:
    """Inside inference mode torch records nothing even where grad mode is back on
    (``enable_grad``): ``is_grad_enabled()`` says True, results do not require grad; each
    manager restores what it found."""
    def run(L: Any) -> list:
        w = L.ones(2, requires_grad=True)
        seen = []

        def look() -> None:
            y = w * 2
            seen.append((L.is_grad_enabled(), L.is_inference_mode_enabled(),
                         y.requires_grad, y.is_inference()))

        with MODES[outer](L):
            look()
            with middle(L):
                look()
                with inner(L):
                    look()
                look()
            look()
        look()
        return seen

    assert run(mt) == run(torch)


PRIMALS = {
    "the dual itself": lambda L, d: d,
    "a product": lambda L, d: d * 2,
    "sort's values": lambda L, d: d.sort()[0],
    "a view": lambda L, d: d.view(3),
    "a sum": lambda L, d: d.sum(),
}


@pytest.mark.parametrize("result", PRIMALS.values(), ids=PRIMALS.keys())
def test_unpack_dual_primal_node_is_torchs_identity(result: Any) -> None:
    """torch's primal of a dual tensor that requires grad hangs off a C++ ``Identity`` node
    (class ``CppFunction``, printed ``grad_fn=<Identity>``) that passes the gradient on."""
    def run(L: Any) -> tuple:
        fwAD = L.autograd.forward_ad
        p = L.tensor([1.0, 2.0, 3.0], requires_grad=True)
        with fwAD.dual_level():
            primal = fwAD.unpack_dual(result(L, fwAD.make_dual(p, L.ones(3)))).primal
            node = primal.grad_fn
            text = repr(primal)
        primal.sum().backward()
        return type(node).__name__, node.name(), text, p.grad.tolist()

    assert run(mt) == run(torch)


INITS = ["kaiming_uniform_", "kaiming_normal_", "xavier_uniform_", "xavier_normal_"]


@pytest.mark.parametrize("generator", ["own", "int", "none"])
@pytest.mark.parametrize("target", ["plain", "expanded", "list"])
@pytest.mark.parametrize("init", INITS)
def test_kaiming_and_xavier_take_a_generator(init: str, target: str, generator: str) -> None:
    """torch's kaiming_*/xavier_* take ``generator=`` and draw from it (the global one
    untouched); a bad one or tensor is refused where torch's sampler refuses it."""
    def run(L: Any) -> Any:
        L.manual_seed(0)
        x = {"plain": lambda: L.empty(3, 4), "expanded": lambda: L.empty(3, 4).expand(2, 3, 4),
             "list": lambda: [[1.0, 2.0]]}[target]()
        gen = {"own": lambda: L.Generator().manual_seed(1), "int": lambda: 3,
               "none": lambda: None}[generator]()
        out = getattr(L.nn.init, init)(x, generator=gen)
        return out.tolist(), L.rand(2).tolist()

    want = raised_by(run, torch)
    if want is not None:
        got = raised_by(run, mt)
        assert type(got).__name__ == type(want).__name__
    else:
        np.testing.assert_allclose(run(mt)[0], run(torch)[0], rtol=1e-6)
        assert run(mt)[1] == run(torch)[1]


@pytest.mark.parametrize("dtype", ["float32", "int64"])
@pytest.mark.parametrize("bad", [3, "x", 1.5])
@pytest.mark.parametrize("sampler", ["uniform_", "normal_", "exponential_"])
def test_in_place_samplers_refuse_a_bad_generator_first(sampler: str, bad: Any,
                                                        dtype: str) -> None:
    """torch's parser refuses a ``generator=`` that is no Generator before any other check."""
    def run(L: Any) -> Any:
        return getattr(L.ones(2, dtype=getattr(L, dtype)), sampler)(generator=bad)

    assert_same_error(raised_by(run, mt), raised_by(run, torch))


def _setup_context_fn(L: Any) -> Any:
    class Fn(L.autograd.Function):
        @staticmethod
        def forward(a: Any, k: float = 3.0) -> Any:
            return a * k

        @staticmethod
        def setup_context(ctx: Any, inputs: tuple, output: Any) -> None:
            ctx.n, ctx.k = len(inputs), inputs[1]

        @staticmethod
        def backward(ctx: Any, g: Any) -> tuple:
            return g * ctx.k, None

    return Fn


SETUP_CONTEXT_CALLS = {
    "keyword": lambda L, Fn, a: Fn.apply(a, k=2.0),
    "positional": lambda L, Fn, a: Fn.apply(a, 2.0),
    "default": lambda L, Fn, a: Fn.apply(a),
    "tensor by keyword": lambda L, Fn, a: Fn.apply(a=a),
    "unknown keyword": lambda L, Fn, a: Fn.apply(a, z=1),
    "missing argument": lambda L, Fn, a: Fn.apply(),
    "under vmap": lambda L, Fn, a: L.vmap(lambda t: Fn.apply(t, 2.0))(L.ones(2, 3)),
}


@pytest.mark.parametrize("call", SETUP_CONTEXT_CALLS.values(), ids=SETUP_CONTEXT_CALLS.keys())
def test_setup_context_sees_the_call_bound_to_forward(call: Any) -> None:
    """torch binds a setup_context-style Function's call to ``forward``'s signature (its
    errors are the binding's) and passes it on all positional, defaults filled in: that is
    ``inputs``."""
    def run(L: Any) -> Any:
        a = L.tensor([1.0, 2.0, 3.0], requires_grad=True)
        y = call(L, _setup_context_fn(L), a)
        y.sum().backward()
        return y.tolist(), a.grad.tolist(), y.grad_fn.n

    want = raised_by(run, torch)
    if want is not None:
        assert_same_error(raised_by(run, mt), want)
    else:
        assert run(mt) == run(torch)
