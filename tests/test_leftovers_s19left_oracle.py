"""Leftovers of the parity work, against torch: ``__torch_function__`` beyond top-level
functions (Tensor subclasses' methods, operators and properties, results converted by
``Tensor.__torch_function__``; tensor-like objects passed to a plain tensor's methods and
operators and to ``nn.functional``), nodes' sequence numbers, and scaled_dot_product_attention
bit for bit as torch's CPU flash kernel."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest
import torch

import minitorch as mt
from minitorch import _mkl
from minitorch.ops._softmax_order import lanes
from tests.oracle import assert_same_error, numpy_of, raised_by


def _logging(L: Any) -> tuple[type, list]:
    """The docs' logging subclass: records each func's name, then runs it as Tensor does."""
    log: list = []

    class LoggingTensor(L.Tensor):
        @classmethod
        def __torch_function__(cls, func, types, args=(), kwargs=None):
            log.append(func.__name__)
            return super().__torch_function__(func, types, args, kwargs or {})

    return LoggingTensor, log


CALLS = {
    "x * p": lambda L, x, p: x * p,
    "p * x": lambda L, x, p: p * x,
    "p - x": lambda L, x, p: p - x,
    "2 - x": lambda L, x, p: 2 - x,
    "x / 2": lambda L, x, p: x / 2,
    "-x": lambda L, x, p: -x,
    "x.add(1)": lambda L, x, p: x.add(1),
    "p.add(x)": lambda L, x, p: p.add(x),
    "L.add(p, x)": lambda L, x, p: L.add(p, x),
    "L.cat": lambda L, x, p: L.cat([p, x]),
    "x.sum()": lambda L, x, p: x.sum(),
    "x.exp_()": lambda L, x, p: x.exp_(),
    "x += 1": lambda L, x, p: x.__iadd__(1),
    "x.shape": lambda L, x, p: x.shape,
    "x.dtype": lambda L, x, p: x.dtype,
    "x.requires_grad": lambda L, x, p: x.requires_grad,
    "x.split": lambda L, x, p: x.split(1),
    "x.max(0)": lambda L, x, p: x.max(0),
    "x.detach()": lambda L, x, p: x.detach(),
    "F.relu": lambda L, x, p: L.nn.functional.relu(x),
    "F.linear": lambda L, x, p: L.nn.functional.linear(x, L.ones(3, 2)),
    "F.layer_norm": lambda L, x, p: L.nn.functional.layer_norm(x, (2,)),
    "F.softmax": lambda L, x, p: L.nn.functional.softmax(x, 0),
}


def _kinds(result: Any) -> Any:
    if isinstance(result, (tuple, list)):
        return type(result).__name__, [_kinds(r) for r in result]
    return type(result).__name__


@pytest.mark.parametrize("call", sorted(CALLS))
def test_a_logging_subclass_sees_each_call_and_gets_its_type_back(call: str) -> None:
    seen = {}
    for L in (torch, mt):
        kind, log = _logging(L)
        x, p = L.ones(2).as_subclass(kind), L.ones(2)
        result = CALLS[call](L, x, p)
        seen[L] = (log, _kinds(result))
    assert seen[mt] == seen[torch]


def test_a_subclass_without_handler_converts_results_and_keeps_the_graph() -> None:
    for L in (torch, mt):
        class Mine(L.Tensor):
            pass

        leaf = L.tensor([1.0, 2.0], requires_grad=True)
        x = leaf.as_subclass(Mine)
        y = (x * x).sum()
        assert type(y) is Mine and type(x.max(0).values) is Mine
        assert type(x.grad_fn).__name__ == "AliasBackward0"
        y.backward()
        assert numpy_of(leaf.grad).tolist() == [2.0, 4.0]
        assert x.grad is None and type(leaf.grad) is L.Tensor


def test_the_default_nowrap_functions_return_unconverted() -> None:
    for L in (torch, mt):
        class Mine(L.Tensor):
            pass

        leaf = L.ones(2).as_subclass(Mine).requires_grad_()
        leaf.sum().backward()
        assert type(leaf.grad) is L.Tensor  # grad's getter: not wrapped
        assert L.Tensor.grad.__get__ in L.overrides.get_default_nowrap_functions()


def test_parameter_turns_dispatch_off() -> None:
    for L in (torch, mt):
        w = L.nn.Parameter(L.ones(2))
        assert type(w * 2) is L.Tensor and type(w.sum()) is L.Tensor


def _duck(L: Any, answer: Any = "duck") -> tuple[Any, list]:
    log: list = []

    class Duck:
        @classmethod
        def __torch_function__(cls, func, types, args=(), kwargs=None):
            log.append(func.__name__)
            return answer

    return Duck(), log


DUCK_CALLS = {
    "p * d": lambda L, p, d: p * d, "d * p": lambda L, p, d: d * p,
    "p - d": lambda L, p, d: p - d, "p == d": lambda L, p, d: p == d,
    "p < d": lambda L, p, d: p < d, "p @ d": lambda L, p, d: p @ d,
    "p ** d": lambda L, p, d: p ** d, "p.add(d)": lambda L, p, d: p.add(d),
    "p.mul_(d)": lambda L, p, d: p.mul_(d), "F.relu": lambda L, p, d: L.nn.functional.relu(d),
    "F.gelu": lambda L, p, d: L.nn.functional.gelu(d),
    "F.log_softmax": lambda L, p, d: L.nn.functional.log_softmax(d, 0),
    "L.cat": lambda L, p, d: L.cat([p, d]),
}


@pytest.mark.parametrize("call", sorted(DUCK_CALLS))
def test_a_tensor_like_argument_answers_for_methods_operators_and_functional(call: str) -> None:
    seen = {}
    for L in (torch, mt):
        d, log = _duck(L)
        seen[L] = (DUCK_CALLS[call](L, L.ones(2), d), log)
    assert seen[mt] == seen[torch]


@pytest.mark.parametrize("call", ["L.mean(d)", "p.add(d)", "F.relu(d)"])
def test_every_handler_declining_is_refused_as_torch(call: str) -> None:
    calls = {"L.mean(d)": lambda L, d: L.mean(d), "p.add(d)": lambda L, d: L.ones(1).add(d),
             "F.relu(d)": lambda L, d: L.nn.functional.relu(d)}

    def run(L: Any) -> Any:
        return calls[call](L, _duck(L, NotImplemented)[0])

    assert_same_error(raised_by(run, mt), raised_by(run, torch))


def test_as_subclass_refuses_a_class_that_is_no_tensor() -> None:
    assert_same_error(raised_by(lambda L: L.ones(1).as_subclass(int), mt),
                      raised_by(lambda L: L.ones(1).as_subclass(int), torch))


def test_has_torch_function_helpers() -> None:
    for L in (torch, mt):
        class Mine(L.Tensor):
            pass

        d, _ = _duck(L)
        x = L.ones(1).as_subclass(Mine)
        o = L.overrides
        assert (o.has_torch_function_unary(x), o.has_torch_function_unary(L.ones(1)),
                o.has_torch_function_variadic(1, d), o.is_tensor_like(d),
                o.is_tensor_like(L.ones(1)), o.is_tensor_like(2.0)) == \
            (True, False, True, True, True, False)


def test_sequence_numbers_count_nodes_as_torch() -> None:
    seen = {}
    for L in (torch, mt):
        a = L.ones(2, requires_grad=True)
        b = a * 2
        c = (b + 1).exp()
        d = c.sum()
        start = b.grad_fn._sequence_nr()
        seen[L] = ([n.grad_fn._sequence_nr() - start for n in (c, d)],
                   b.grad_fn.next_functions[0][0]._sequence_nr())
    assert seen[mt] == seen[torch]


# ---------------------------------------------------------------------------- flash attention


needs_mkl_avx512 = pytest.mark.skipif(
    _mkl.library() is None or lanes() != 16,
    reason="torch's flash kernel's products are MKL's, its exp_u20 the AVX-512 one")


def _attention_inputs(seed: int, shape: tuple, mask: str) -> tuple:
    batch, heads, queries, keys, dim = shape
    rng = np.random.default_rng(seed)
    q, k, v = (rng.standard_normal((batch, heads, n, dim)).astype(np.float32)
               for n in (queries, keys, keys))
    masks = {"none": None, "float": rng.standard_normal((queries, keys)).astype(np.float32),
             "bool": rng.random((queries, keys)) > 0.3,
             "log_tril": np.where(np.tril(np.ones((queries, keys))) > 0, 0,
                                  -np.inf).astype(np.float32)}
    return q, k, v, masks.get(mask)


@needs_mkl_avx512
@pytest.mark.parametrize("shape", [(2, 2, 5, 5, 8), (2, 1, 17, 33, 16), (1, 1, 40, 40, 4),
                                   (1, 1, 200, 70, 8)])
@pytest.mark.parametrize("mask", ["none", "float", "bool", "log_tril", "causal"])
def test_sdpa_without_grad_is_torchs_flash_kernel_bit_for_bit(shape: tuple, mask: str) -> None:
    """4-D float32 inputs without dropout take torch's CPU flash kernel (its block order, its
    exp_u20, its fused scale and mask): the math path differs in the last bits."""
    q, k, v, m = _attention_inputs(5, shape, mask)
    got = {}
    for L in (torch, mt):
        with L.no_grad():
            got[L] = L.nn.functional.scaled_dot_product_attention(
                L.tensor(q), L.tensor(k), L.tensor(v),
                attn_mask=None if m is None else L.tensor(m), is_causal=mask == "causal")
    assert np.array_equal(numpy_of(got[mt]), numpy_of(got[torch]))


@needs_mkl_avx512
def test_multihead_attention_in_eval_is_torchs_bit_for_bit() -> None:
    """examples/word_language_model's validation: nn.MultiheadAttention under no_grad."""
    rng = np.random.default_rng(0)
    x = rng.standard_normal((5, 2, 16)).astype(np.float32)
    mask = np.where(np.tril(np.ones((5, 5))) > 0, 0, -np.inf).astype(np.float32)
    torch.manual_seed(0)
    theirs = torch.nn.MultiheadAttention(16, 2).eval()
    ours = mt.nn.MultiheadAttention(16, 2).eval()
    ours.load_state_dict({k: mt.tensor(numpy_of(v)) for k, v in theirs.state_dict().items()})
    out = {}
    for L, module in ((torch, theirs), (mt, ours)):
        with L.no_grad():
            t = L.tensor(x)
            out[L] = module(t, t, t, attn_mask=L.tensor(mask), need_weights=False)[0]
    assert np.array_equal(numpy_of(out[mt]), numpy_of(out[torch]))


# ---------------------------------------------------------------------------- group norm backward


@pytest.mark.skipif(lanes() != 16, reason="the kernels' lane counts are measured on AVX-512")
@pytest.mark.parametrize("shape, groups", [((2, 4, 3, 3), 2), ((3, 6, 5), 3), ((2, 32, 4, 4), 4),
                                           ((4, 20, 7, 3), 5), ((1, 8, 17), 1), ((3, 10), 5),
                                           ((2, 64, 9), 8), ((1, 1, 37), 1)])
@pytest.mark.parametrize("affine", [True, False])
def test_group_norm_gradients_are_torchs_bit_for_bit(shape: tuple, groups: int,
                                                     affine: bool) -> None:
    """float32 on torch's two threads (one thread runs another compiled copy: not yet)."""
    rng = np.random.default_rng(1)
    x, g = (rng.standard_normal(shape).astype(np.float32) for _ in range(2))
    w, b = (rng.standard_normal(shape[1]).astype(np.float32) for _ in range(2))
    before = torch.get_num_threads(), mt.get_num_threads()
    grads = {}
    try:
        for L in (torch, mt):
            L.set_num_threads(2)
            leaves = [L.tensor(a, requires_grad=True) for a in ((x, w, b) if affine else (x,))]
            L.nn.functional.group_norm(leaves[0], groups, *leaves[1:]).backward(L.tensor(g))
            grads[L] = [numpy_of(t.grad) for t in leaves]
    finally:
        torch.set_num_threads(before[0])
        mt.set_num_threads(before[1])
    for ours, theirs in zip(grads[mt], grads[torch]):
        assert np.array_equal(ours, theirs)


# ---------------------------------------------------------------------------- set_ and unpack hooks


def _set_story(L: Any) -> list:
    """set_ on a recorded tensor, on plain ones, with and without a source, and its refusals."""
    out = []
    a = L.ones(2, requires_grad=True)
    b, s = a * 1, L.zeros(3)
    b.set_(s)
    out.append((b.tolist(), b._version, s._version, b.grad_fn.name(), b.requires_grad))
    out.append(raised_by(lambda L: b.sum().backward(), L))
    for bad in (lambda L: L.ones(2).set_(L.zeros(3, dtype=L.float64)),
                lambda L: L.ones(2, requires_grad=True).set_(L.zeros(3)),
                lambda L: L.ones(2).set_(5)):
        out.append(raised_by(bad, L))
    t, s = L.ones(2), L.arange(4.0)
    t.set_(s)
    t[0] = 9
    out.append((s.tolist(), t._version, s._version))
    t.set_()
    out.append((t.tolist(), tuple(t.shape), t._version))
    with L.no_grad():
        leaf = L.ones(2, requires_grad=True)
        leaf.set_(L.zeros(3))
    out.append((leaf.tolist(), leaf.requires_grad))
    t = L.ones(2)
    out.append((t.set_(L.zeros(3, requires_grad=True)) is t, t.requires_grad, t.grad_fn.name()))
    return out


def test_set_as_torch() -> None:
    for ours, theirs in zip(_set_story(mt), _set_story(torch)):
        if isinstance(theirs, BaseException):
            assert_same_error(ours, theirs)
        else:
            assert ours == theirs


UNPACKED = {"an int tensor": lambda L, t: t.long(), "a double": lambda L, t: t.double(),
            "a number": lambda L, t: 3, "None": lambda L, t: None,
            "another shape": lambda L, t: t.reshape(-1)[:1]}


@pytest.mark.parametrize("saved", ["leaf", "non-leaf", "no grad"])
@pytest.mark.parametrize("unpacked", sorted(UNPACKED))
def test_an_unpack_hook_giving_another_tensor_as_torch(saved: str, unpacked: str) -> None:
    """torch makes the unpacked value a variable again (one requiring grad where a leaf that
    requires grad was saved: refused for an integer tensor) and checks it is a Tensor."""
    def run(L: Any) -> Any:
        a = L.ones(2, 3, requires_grad=True)
        with L.autograd.graph.saved_tensors_hooks(lambda t: t,
                                                  lambda t: UNPACKED[unpacked](L, t)):
            other = {"leaf": a, "non-leaf": a * 2, "no grad": L.ones(2, 3)}[saved]
            y = (a * other).sum()
        y.backward()
        return a.grad

    theirs = raised_by(run, torch)
    if theirs is not None:
        assert_same_error(raised_by(run, mt), theirs)
    else:
        assert np.array_equal(numpy_of(run(mt)), numpy_of(run(torch)))


# ---------------------------------------------------------------------------- modes

MODE_CALLS = {
    "a * b": lambda L, a, b: a * b, "L.add": lambda L, a, b: L.add(a, b),
    "a.sum()": lambda L, a, b: a.sum(), "a.shape": lambda L, a, b: a.shape,
    "F.relu": lambda L, a, b: L.nn.functional.relu(a), "L.ones": lambda L, a, b: L.ones(3),
    "a + 1": lambda L, a, b: a + 1, "-a": lambda L, a, b: -a, "2 - a": lambda L, a, b: 2 - a,
    "a.exp()": lambda L, a, b: a.exp(), "a.add_(b)": lambda L, a, b: a.add_(b),
}


def _logging_mode(L: Any, log: list, tag: str | None = None) -> Any:
    """A mode that records each func's name (with ``tag``) and runs it."""
    class Logging(L.overrides.TorchFunctionMode):
        def __torch_function__(self, func, types, args=(), kwargs=None):
            log.append(func.__name__ if tag is None else (tag, func.__name__))
            return func(*args, **(kwargs or {}))

    return Logging()


@pytest.mark.parametrize("call", sorted(MODE_CALLS))
def test_a_torch_function_mode_sees_each_call(call: str) -> None:
    seen = {}
    for L in (torch, mt):
        log: list = []
        a, b = L.ones(2), L.ones(2)
        with _logging_mode(L, log):
            result = MODE_CALLS[call](L, a, b)
        after = MODE_CALLS[call](L, L.ones(2), L.ones(2))  # nothing logged once it is over
        seen[L] = (log, type(result).__name__, type(after).__name__)
    assert seen[mt] == seen[torch]


def test_nested_modes_run_innermost_first_each_without_itself() -> None:
    seen = {}
    for L in (torch, mt):
        log: list = []
        with _logging_mode(L, log, "outer"), _logging_mode(L, log, "inner"):
            L.ones(2).sum()
        seen[L] = log
    assert seen[mt] == seen[torch]


@pytest.mark.parametrize("make", ["L.arange(30.).reshape(3, 10)", "L.ones(2, requires_grad=True)",
                                  "L.tensor([1, 2])", "L.zeros(0, 3)", "L.arange(2000.)"])
def test_a_subclass_prints_under_its_name(make: str) -> None:
    printed = {}
    for L in (torch, mt):
        class Mine(L.Tensor):
            pass

        printed[L] = repr(eval(make, {"L": L}).as_subclass(Mine))
    assert printed[mt] == printed[torch]
