"""Corpus 18a (PyTorch's own tutorials, docs and examples) against live torch: what its
programs needed.

``utils.swap_tensors`` and ``__future__``'s conversion switches (the swap_tensors recipe):
two tensors exchange contents and keep identities; ``Module.double()`` and friends set
``.data``, assign new Parameters, or swap, as the switches say.

The meta device in module construction (the ensembling and swap_tensors recipes):
``with device("meta")`` as a factory default, in-place initialization of meta tensors
(writing nothing and drawing no random numbers, so the seed's stream is torch's), and
``nn.utils.skip_init``.

``autograd.profiler.profile(use_cuda=...)``, torch's deprecated keyword (the autograd
tutorial of the "Introduction to PyTorch" series).
"""

from __future__ import annotations

import warnings
from typing import Any

import numpy as np
import pytest
import torch
from hypothesis import given
from hypothesis import strategies as st
from oracle import SETTINGS, assert_same, assert_same_error, numpy_of, raised_by

import minitorch as mt

LIBS = pytest.mark.parametrize("L", [mt, torch], ids=["minitorch", "torch"])


# ---- swap_tensors ----------------------------------------------------------------------
@given(n1=st.integers(0, 4), n2=st.integers(0, 4), grad=st.booleans())
@SETTINGS
def test_swap_tensors_exchanges_values_and_autograd_state(n1: int, n2: int, grad: bool) -> None:
    def run(L: Any) -> tuple:
        a = L.arange(float(n1)).requires_grad_(grad)
        b = L.arange(float(n2)) * 2
        ida, idb = id(a), id(b)
        L.utils.swap_tensors(a, b)
        return (id(a) == ida, id(b) == idb, a, b, a.requires_grad, b.requires_grad,
                a.is_leaf, b.is_leaf)

    got, want = run(mt), run(torch)
    assert got[:2] == want[:2] and got[4:] == want[4:]
    assert_same(got[2], want[2])
    assert_same(got[3], want[3])


def test_swap_tensors_swaps_python_attributes_and_refuses_weakrefs() -> None:
    import weakref

    def run(L: Any) -> Any:
        a, b = L.ones(1), L.zeros(2)
        a.tag = "a"
        L.utils.swap_tensors(a, b)
        return b.tag, hasattr(a, "tag")

    assert run(mt) == run(torch)

    def refused(L: Any) -> None:
        a, b = L.ones(1), L.zeros(1)
        keep = weakref.ref(b)  # noqa: F841  (the weak reference must be alive)
        L.utils.swap_tensors(a, b)

    assert_same_error(raised_by(refused, mt), raised_by(refused, torch))


@pytest.mark.parametrize("switch", ["none", "overwrite", "swap"])
def test_module_conversion_follows_the_future_switches(switch: str) -> None:
    def run(L: Any) -> tuple:
        L.manual_seed(0)
        m = L.nn.Linear(2, 3)
        m(L.ones(1, 2)).sum().backward()
        w, opt = m.weight, L.optim.SGD(m.parameters(), lr=0.1)
        L.__future__.set_overwrite_module_params_on_conversion(switch == "overwrite")
        L.__future__.set_swap_module_params_on_conversion(switch == "swap")
        try:
            m.double()
        finally:
            L.__future__.set_overwrite_module_params_on_conversion(False)
            L.__future__.set_swap_module_params_on_conversion(False)
        held = opt.param_groups[0]["params"][0]
        return (m.weight is w, held is m.weight, str(held.dtype), str(m.weight.dtype),
                str(m.weight.grad.dtype), type(m.weight).__name__, m.weight.requires_grad,
                numpy_of(m.weight))

    got, want = run(mt), run(torch)
    assert got[:-1] == want[:-1]
    np.testing.assert_array_equal(got[-1], want[-1])


def test_future_switches_default_off() -> None:
    for name in ("get_overwrite_module_params_on_conversion",
                 "get_swap_module_params_on_conversion"):
        assert getattr(mt.__future__, name)() is getattr(torch.__future__, name)() is False


# ---- the meta device while modules are built --------------------------------------------
def test_device_context_places_factories_and_restores() -> None:
    def run(L: Any) -> tuple:
        with L.device("meta") as d:
            inside = L.ones(2).device
            lin = L.nn.Linear(3, 4)
        return str(d), str(inside), str(lin.weight.device), str(L.ones(1).device), \
            tuple(lin.weight.shape)

    assert run(mt) == run(torch)


@pytest.mark.parametrize("init", ["uniform_", "normal_", "kaiming_uniform_", "xavier_normal_"])
def test_initializing_a_meta_tensor_draws_no_random_numbers(init: str) -> None:
    def run(L: Any) -> Any:
        L.manual_seed(3)
        w = L.empty(4, 5, device="meta")
        out = getattr(L.nn.init, init)(w)
        return out is w, str(out.device), numpy_of(L.rand(3))

    got, want = run(mt), run(torch)
    assert got[:2] == want[:2]
    np.testing.assert_array_equal(got[2], want[2])


def test_module_on_meta_then_seeded_stream_matches() -> None:
    def run(L: Any) -> Any:
        L.manual_seed(0)
        L.nn.Linear(3, 5, device="meta")
        return numpy_of(L.rand(4))

    np.testing.assert_array_equal(run(mt), run(torch))


@given(i=st.integers(1, 4), o=st.integers(1, 4))
@SETTINGS
def test_skip_init_builds_the_module_without_initializing(i: int, o: int) -> None:
    def run(L: Any) -> tuple:
        L.manual_seed(1)
        m = L.nn.utils.skip_init(L.nn.Linear, i, out_features=o)
        after = numpy_of(L.rand(2))  # no parameter initialization drew from the stream
        return (tuple(m.weight.shape), str(m.weight.device), m.weight.requires_grad,
                type(m.weight).__name__, after)

    got, want = run(mt), run(torch)
    assert got[:-1] == want[:-1]
    np.testing.assert_array_equal(got[-1], want[-1])


@pytest.mark.parametrize("bad", ["not a module", "no device"])
def test_skip_init_errors(bad: str) -> None:
    def call(L: Any) -> Any:
        if bad == "not a module":
            return L.nn.utils.skip_init(int)
        return L.nn.utils.skip_init(L.nn.ReLU)

    assert_same_error(raised_by(call, mt), raised_by(call, torch))


# ---- autograd.profiler.profile(use_cuda=) -----------------------------------------------
@pytest.mark.parametrize("use_cuda", [False, True])
def test_profile_use_cuda_keyword(use_cuda: bool) -> None:
    def run(L: Any) -> tuple:
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            with L.autograd.profiler.profile(use_cuda=use_cuda) as prof:
                L.ones(2).sum()
        return prof.use_device, [(w.category.__name__, str(w.message)) for w in caught]

    assert run(mt) == run(torch)


# ---- profiler.schedule, ProfilerAction, on_trace_ready, step() ----------------------------
@given(wait=st.integers(0, 3), warmup=st.integers(1, 2), active=st.integers(1, 3),
       repeat=st.integers(0, 2), skip_first=st.integers(0, 3), skip_first_wait=st.integers(0, 1))
@SETTINGS
def test_schedule_actions(wait: int, warmup: int, active: int, repeat: int, skip_first: int,
                          skip_first_wait: int) -> None:
    def run(L: Any) -> list:
        s = L.profiler.schedule(wait=wait, warmup=warmup, active=active, repeat=repeat,
                                skip_first=skip_first, skip_first_wait=skip_first_wait)
        return [repr(s(i)) for i in range(20)]

    assert run(mt) == run(torch)


@pytest.mark.parametrize("args", [dict(wait=-1, warmup=1, active=1),
                                  dict(wait=0, warmup=1, active=0),
                                  dict(wait=0, warmup=1, active=1, repeat=-1),
                                  dict(wait=0, warmup=1, active=1, skip_first=-2)])
def test_schedule_errors(args: dict) -> None:
    assert_same_error(raised_by(lambda L: L.profiler.schedule(**args), mt),
                      raised_by(lambda L: L.profiler.schedule(**args), torch))


def test_schedule_without_warmup_warns_and_negative_step_fails() -> None:
    def run(L: Any) -> tuple:
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            s = L.profiler.schedule(wait=1, warmup=0, active=1)
        return [str(w.message) for w in caught], str(raised_by(lambda _: s(-1), L))

    assert run(mt) == run(torch)


def _steps_seen(L: Any, steps: int, **schedule_args: int) -> tuple:
    seen = []

    def ready(p: Any) -> None:
        keys = sorted({e.key for e in p.key_averages()} & {"ProfilerStep*", "aten::mul",
                                                            "aten::add", "my block"})
        seen.append((p.step_num, keys, [e.name for e in p.events() if e.name == "ProfilerStep*"]))

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        sched = L.profiler.schedule(**schedule_args) if schedule_args else None
        with L.profiler.profile(schedule=sched, on_trace_ready=ready) as p:
            for i in range(steps):
                with L.profiler.record_function("my block"):
                    L.ones(2) * i if i % 2 else L.ones(2) + i
                p.step()
    return seen, p.step_num, sorted({e.key for e in p.key_averages()} & {"ProfilerStep*",
                                                                         "my block"})


@given(steps=st.integers(0, 9), wait=st.integers(0, 2), warmup=st.integers(1, 2),
       active=st.integers(1, 3), repeat=st.integers(0, 2))
@SETTINGS
def test_scheduled_profile_records_the_active_steps(steps: int, wait: int, warmup: int,
                                                    active: int, repeat: int) -> None:
    args = dict(wait=wait, warmup=warmup, active=active, repeat=repeat)
    assert _steps_seen(mt, steps, **args) == _steps_seen(torch, steps, **args)


@pytest.mark.parametrize("steps", [0, 3])
def test_profile_without_schedule_calls_on_trace_ready_once(steps: int) -> None:
    assert _steps_seen(mt, steps) == _steps_seen(torch, steps)


def test_profiler_action_members() -> None:
    assert [repr(a) for a in mt.profiler.ProfilerAction] == \
        [repr(a) for a in torch.profiler.ProfilerAction]


# ---- tensor-like types: __torch_function__ (torch's notes, "Extending torch") --------------
class _Diag:
    """The notes' ScalarTensor: a handler table keyed by the public functions."""

    handled: dict = {}
    calls: list = []

    def __init__(self, n: int, value: float) -> None:
        self.n, self.value = n, value

    @classmethod
    def __torch_function__(cls, func: Any, types: tuple, args: tuple = (), kwargs: Any = None):
        cls.calls.append((func.__name__, [t.__name__ for t in types], len(args), kwargs))
        if func not in cls.handled:
            return NotImplemented
        return cls.handled[func](*args, **(kwargs or {}))


class _SubDiag(_Diag):
    pass


def _dispatch_run(L: Any, call: Any) -> tuple:
    _Diag.handled = {L.mean: lambda d: float(d.value) / d.n,
                     L.add: lambda a, b, alpha=1: ("add", alpha),
                     L.linalg.norm: lambda d: "norm"}
    _Diag.calls = []
    try:
        result: Any = call(L)
    except TypeError as error:
        result = ("TypeError", str(error))
    return result, _Diag.calls


@pytest.mark.parametrize("call", [
    lambda L: L.mean(_Diag(5, 2)),
    lambda L: L.add(_Diag(1, 1), _Diag(2, 2), alpha=3),
    lambda L: L.add(L.ones(1), _SubDiag(2, 2)),
    lambda L: L.add(_Diag(1, 1), _SubDiag(2, 2)),
    lambda L: L.sum(_Diag(1, 1)),
    lambda L: L.sum(_Diag(1, 1), dim=0),
    lambda L: L.cat([_Diag(1, 1), _SubDiag(1, 1)]),
    lambda L: L.linalg.norm(_Diag(1, 1)),
    lambda L: L.linalg.det(_Diag(1, 1)),
], ids=["mean handled", "add handled, kwargs", "tensor and subclass", "subclass asked first",
        "sum not handled", "sum with kwargs", "cat of a list", "linalg handled",
        "linalg not handled"])
def test_tensor_like_arguments_dispatch_to_their_torch_function(call: Any) -> None:
    assert _dispatch_run(mt, call) == _dispatch_run(torch, call)


def test_has_and_handle_torch_function() -> None:
    for L in (mt, torch):
        assert L.overrides.has_torch_function((L.ones(1), 2, _Diag(1, 1)))
        assert not L.overrides.has_torch_function((L.ones(1), 2))

    def scale(x: Any, by: int = 2) -> None:
        pass

    def run(L: Any) -> Any:
        _Diag.handled = {scale: lambda x, by=2: by}
        return L.overrides.handle_torch_function(scale, (_Diag(1, 1),), _Diag(1, 1), by=7)

    assert run(mt) == run(torch)


class _Plain:
    pass


@pytest.mark.parametrize("value", [_Plain(), __import__("fractions").Fraction(1, 2),
                                   __import__("decimal").Decimal(1), np.float64(1.0)],
                         ids=["class of this file", "Fraction", "Decimal", "numpy float"])
def test_refused_argument_names_its_type_as_torch(value: Any) -> None:
    assert_same_error(raised_by(lambda L: L.mean(value), mt),
                      raised_by(lambda L: L.mean(value), torch))
    if not isinstance(value, np.floating):  # a numpy float is a number to add
        assert_same_error(raised_by(lambda L: L.ones(2).add(value), mt),
                          raised_by(lambda L: L.ones(2).add(value), torch))


# ---- the device/layout flags torch reads (DCGAN's ``input.is_xpu``) ------------------------
@pytest.mark.parametrize("flag", ["is_ipu", "is_maia", "is_mkldnn", "is_mps", "is_mtia",
                                  "is_nested", "is_quantized", "is_sparse_csr", "is_vulkan",
                                  "is_xla", "is_xpu", "is_cpu", "is_cuda", "is_meta"])
@pytest.mark.parametrize("make", [lambda L: L.ones(2, 3), lambda L: L.nn.Parameter(L.zeros(1)),
                                  lambda L: L.ones(2, requires_grad=True) * 2,
                                  lambda L: L.empty(2, device="meta")],
                         ids=["tensor", "parameter", "non-leaf", "meta"])
def test_device_and_layout_flags(flag: str, make: Any) -> None:
    assert getattr(make(mt), flag) is getattr(make(torch), flag)


# ---- vmap over autograd.grad's grad_outputs; vmap's random draws (torch.vmap's docstring) ---
@given(n=st.integers(1, 5), create_graph=st.booleans(), two_outputs=st.booleans())
@SETTINGS
def test_vmap_of_autograd_grad_is_one_batched_backward(n: int, create_graph: bool,
                                                       two_outputs: bool) -> None:
    data = np.linspace(-1.0, 1.5, n)

    def run(L: Any) -> tuple:
        x = L.tensor(data, requires_grad=True)
        y = x.sin() * x
        outs = (y, y * 2) if two_outputs else y

        def vjp(v: Any) -> Any:
            return L.autograd.grad(outs, x, (v, v) if two_outputs else v,
                                   create_graph=create_graph)

        jac, = L.vmap(vjp)(L.eye(n, dtype=L.float64))
        again = raised_by(lambda _: L.autograd.grad(y.sum(), x), L)  # the graph was freed once
        return numpy_of(jac), jac.requires_grad, type(again).__name__

    got, want = run(mt), run(torch)
    np.testing.assert_allclose(got[0], want[0], rtol=1e-12)
    assert got[1:] == want[1:]


@pytest.mark.parametrize("randomness", ["same", "different", "error"])
def test_vmap_falling_back_to_examples_draws_as_torch(randomness: str) -> None:
    def run(L: Any) -> tuple:
        L.manual_seed(0)
        mapped: Any
        try:
            mapped = numpy_of(L.vmap(lambda t: L.rand(2) + t, randomness=randomness)(
                L.zeros(3)))
        except RuntimeError as error:
            mapped = str(error)
        return mapped, numpy_of(L.rand(3))

    got, want = run(mt), run(torch)
    if isinstance(want[0], str):
        assert got[0] == want[0]
    else:
        np.testing.assert_array_equal(got[0], want[0])
    np.testing.assert_array_equal(got[1], want[1])


# ---- ctc_loss / nn.CTCLoss (the CTCLoss docstring) ----------------------------------------
@st.composite
def _ctc_case(draw: Any) -> dict:
    n, c = draw(st.integers(1, 3)), draw(st.integers(2, 5))
    frames = draw(st.integers(1, 7))
    blank = draw(st.integers(0, c - 1))
    labels = [k for k in range(c) if k != blank]
    lengths = [draw(st.integers(0, 4)) for _ in range(n)]
    targets = [[draw(st.sampled_from(labels)) for _ in range(m)] for m in lengths]
    inputs = [draw(st.integers(1, frames)) for _ in range(n)]
    seed = draw(st.integers(0, 2 ** 16))
    return dict(n=n, c=c, frames=frames, blank=blank, lengths=lengths, targets=targets,
                inputs=inputs, seed=seed, padded=draw(st.booleans()),
                as_tensors=draw(st.booleans()),
                reduction=draw(st.sampled_from(["mean", "sum", "none"])),
                zero_infinity=draw(st.booleans()),
                dtype=draw(st.sampled_from(["float32", "float64"])))


def _ctc_run(L: Any, case: dict) -> tuple:
    rng = np.random.default_rng(case["seed"])
    raw = rng.normal(size=(case["frames"], case["n"], case["c"])).astype(case["dtype"])
    log_probs = L.tensor(raw).log_softmax(2).detach().requires_grad_()
    width = max(max(case["lengths"]), 1)
    if case["padded"]:
        targets = L.tensor([t + [case["blank"] if case["blank"] else 1] * (width - len(t))
                            for t in case["targets"]], dtype=L.int64)
    else:
        targets = L.tensor([k for t in case["targets"] for k in t], dtype=L.int64)
    lengths = (L.tensor(case["inputs"]), L.tensor(case["lengths"])) if case["as_tensors"] \
        else (case["inputs"], case["lengths"])
    loss = L.nn.CTCLoss(blank=case["blank"], reduction=case["reduction"],
                        zero_infinity=case["zero_infinity"])(log_probs, targets, *lengths)
    weights = L.arange(1.0, loss.numel() + 1, dtype=loss.dtype).reshape(loss.shape)
    (loss * weights).sum().backward()
    return numpy_of(loss), numpy_of(log_probs.grad), type(loss.grad_fn).__name__


@given(case=_ctc_case())
@SETTINGS
def test_ctc_loss_values_gradients_and_nodes(case: dict) -> None:
    got, want = _ctc_run(mt, case), _ctc_run(torch, case)
    tol = dict(rtol=1e-5, atol=1e-5) if case["dtype"] == "float32" else dict(rtol=1e-10,
                                                                             atol=1e-12)
    np.testing.assert_allclose(got[0], want[0], **tol)
    np.testing.assert_allclose(got[1], want[1], **tol)
    assert got[2] == want[2]


def test_ctc_loss_unbatched_nodes_and_no_double_backward() -> None:
    data = np.random.default_rng(1).normal(size=(5, 4))

    def run(L: Any) -> tuple:
        lp = L.tensor(data).log_softmax(1).detach().requires_grad_()
        each = L.nn.functional.ctc_loss(lp, L.tensor([1, 2, 2]), [5], [3], reduction="none")
        g, = L.autograd.grad(each, lp, create_graph=True)
        second = raised_by(lambda _: L.autograd.grad(g.sum(), lp), L)
        return (numpy_of(each), tuple(each.shape), each.grad_fn.name(), g.grad_fn.name(),
                str(second), repr(L.nn.CTCLoss(blank=1, zero_infinity=True)))

    got, want = run(mt), run(torch)
    np.testing.assert_allclose(got[0], want[0], rtol=1e-12)
    assert got[1:] == want[1:]
