"""Bad input gets torch's refusal: the fuzzer of ``badinput.py`` per public call (hypothesis)
and as one seeded run with its numbers, plus the aliasing promise of ``view``.

Outcome classes (see badinput.py): a call must never be ``silent`` (torch refuses, minitorch
returns) nor ``internal`` (an error from inside numpy or from a minitorch line that is not a
``raise``); ``different`` results and refusals of what torch takes stay under the targets.
"""

from __future__ import annotations

import itertools
from typing import Any

import numpy as np
import pytest
import torch
from badinput import CALLS, classify, fuzz, is_deliberate, same_message
from badinput_wide import WIDE_CALLS
from hypothesis import given
from hypothesis import strategies as st
from oracle import SETTINGS

import minitorch as mt


@pytest.mark.parametrize("name", sorted(CALLS))
@SETTINGS
@given(data=st.data())
def test_no_silent_acceptance_nor_internal_error(name: str, data: Any) -> None:
    fn, pools = CALLS[name]
    picks = [data.draw(st.sampled_from(pool)) for pool in pools]
    outcome, said = classify(fn, picks)
    assert outcome not in ("silent", "internal"), f"{name}: {outcome}: {said}"


def test_seeded_fuzz_meets_the_targets() -> None:
    """2000 calls of a fixed seed: no silent acceptance, no internal error; refusals of what
    torch accepts at most 1% of the calls (the issue's target), different outcomes (another
    exception type, mostly torch's order of checks among several bad arguments) and other
    messages under the levels measured last (3 and 12 of 2000, bounds 5 and 20): a
    regression gate, printed with ``pytest -s``."""
    calls = 2000
    counts, details = fuzz(seed=21, calls=calls)
    print(dict(counts))
    assert counts["silent"] == 0, details["silent"]
    assert counts["internal"] == 0, details["internal"]
    assert counts["refused"] <= 0.01 * calls, details["refused"]
    assert counts["different"] <= 5, details["different"]
    assert counts["message"] <= 20, details["message"]


def test_wide_fuzz_does_not_regress() -> None:
    """1500 calls of the wider catalogue (badinput_wide.py): a regression gate at the levels
    measured last (seed 21: silent 1, internal 0, different 6, refused 10, message 122, in
    about 5 s; calls that were internal or different now fail with torch's type and another
    text).
    The targets are 0 silent, internal and different: lower these bounds as the groups the
    fuzzer prints (``python tests/badinput.py --catalogue wide``) get fixed."""
    calls = 1500
    counts, details = fuzz(seed=21, calls=calls, catalogue=WIDE_CALLS)
    print(dict(counts))
    assert counts["silent"] <= 1, details["silent"]
    assert counts["internal"] <= 0, details["internal"]
    assert counts["different"] <= 6, details["different"]
    assert counts["refused"] <= 10, details["refused"]
    assert counts["message"] <= 122, details["message"]


@pytest.mark.parametrize("expression", [
    "t + None", "None - t", "t * None", "t ** 'a'", "'a' ** t", "t & None", "t @ 2",
    "t / None", "t @ np.int64(2)"])
def test_operators_leave_unsupported_operands_to_python(expression: str) -> None:
    """torch's operators return NotImplemented for what they cannot take, so Python raises
    its own "unsupported operand type(s)" TypeError: minitorch's say the same."""
    messages = []
    for L in (torch, mt):
        with pytest.raises(TypeError) as raised:
            eval(expression, {"t": L.ones(2), "np": np})
        messages.append(str(raised.value))
    assert messages[0] == messages[1]


def assert_same_as_torch(expression: str) -> None:
    """``expression`` (over ``t = L.ones(2)``, ``np``, ``L``) has torch's outcome in minitorch."""
    outcome, said = classify(lambda L, e: eval(e, {"t": L.ones(2), "np": np, "L": L}),
                             [lambda L: expression])
    assert outcome == "same", said


@pytest.mark.parametrize("expression", [
    "t + np.float32(2.5)", "np.float64(2) * t", "np.int64(3) - t", "t * np.bool_(True)",
    "L.add(t, np.int64(3))", "L.tensor(np.float32(1.5))", "L.tensor(np.int64(4))",
    "True ** L.tensor([-2, -1, 0, 1, 2])", "2 ** L.tensor([-2, -1, 0, 1, 2])",
    "L.tensor([-2, -1, 0, 1, 2]) ** L.tensor([-1, -2, 3, -1, 0])"])
def test_numpy_scalars_read_as_numbers_and_integer_powers_match(expression: str) -> None:
    assert_same_as_torch(expression)


@pytest.mark.parametrize("expression", [
    "L.tensor(np.uint16(4))", "L.tensor(np.array([1.5], dtype=np.complex64))",
    "L.from_numpy(np.zeros(2, dtype=np.uint32))"])
def test_numpy_dtypes_and_arrays_minitorch_lacks_are_refused(expression: str) -> None:
    """torch keeps uint16, complex64, ... and converts arrays; minitorch says what it supports
    (rather than widening to int64 silently), as its other by-design gaps do."""
    with pytest.raises(NotImplementedError, match=r"minitorch's \w+ supports only"):
        eval(expression, {"np": np, "L": mt})


@pytest.mark.parametrize("expression", [
    "t + np.ones(2)", "t * np.array(2.)", "t == np.array([1., 0.])", "t < np.array([[2.], [0.]])",
    "t % np.array([2., 3.])", "t // 0.5", "7 % L.tensor([2, -3])", "L.tensor([5, -3]) // 0",
    "L.tensor([True]) % True", "t.requires_grad_() + np.ones(2)", "t == 1j", "t != 1j",
    "L.all(L.tensor([[1, 0], [1, 1]]), 1)", "L.any(t, (0, 0))", "t.all(dim=-2)",
    "L.clamp(t, min=L.zeros(2), max=1)", "np.ones(2) @ t"])
def test_numpy_arrays_remainder_floor_divide_all_any_as_torch(expression: str) -> None:
    """torch lets numpy compute ``tensor <op> ndarray`` and wraps the result; ``%``, ``//``,
    ``all(dim)``, ``any(dim)`` exist, with torch's refusals."""
    assert_same_as_torch(expression)


@pytest.mark.parametrize("expression", [
    "t.std(correction=0)", "t.var(correction=1j)", "t.std(correction=2 ** 70)",
    "L.ones(2, 3).var(1, 1)", "L.permute(L.ones(2, 3), 1)", "L.permute(L.ones(2, 3), (1, 0))",
    "L.nn.functional.nll_loss(L.ones(2, 3), L.tensor([1, 2]), ignore_index=2)",
    "L.nn.functional.nll_loss(L.ones(2, 3), L.tensor([1, 2]), ignore_index=1.5)",
    "L.nn.functional.cross_entropy(L.eye(3), L.tensor([0, 2, -100]), label_smoothing=0.2)",
    "L.nn.functional.cross_entropy(L.eye(3), L.tensor([0, 2, 1]), label_smoothing=1.5)",
    "L.softmax(L.ones(2, 3), 1, dtype=L.float64)", "L.softmax(L.ones(2, 3), 1, dtype=int)",
    "L.broadcast_shapes((2, 1), 3)", "L.broadcast_shapes((-1, 3), (3,))",
    "L.broadcast_shapes((2, 3), (4,))", "L.nn.functional.dropout(t, np.int64(2))",
    "L.nn.functional.dropout(t, 0.5, 1)", "t.masked_fill(t > 0, 'a')",
    "t.masked_fill(t > 0, L.ones(2))", "L.where(t > 0, 2 ** 70, 0.)", "L.ones(3).mT",
    "L.result_type(-2 ** 63 - 1, 1.0)", "L.nn.functional.max_pool2d(t, None)",
    "L.nn.functional.conv2d(t, t, stride=2.5)", "L.ones(3).sum_to_size(2.0)",
    "L.clamp(t, min=np.float64(-1.0), max=np.int32(3))"])
def test_argument_checks_match_torch(expression: str) -> None:
    """The checks and features added for the wide catalogue's biggest groups."""
    assert_same_as_torch(expression)


def test_remainder_gradient_matches_torch() -> None:
    grads = []
    for L in (torch, mt):
        x = L.tensor([1., -2., 3.], requires_grad=True)
        y = L.tensor([1., 2., -2.], requires_grad=True)
        r = x % y
        r.sum().backward()
        grads.append((r.tolist(), x.grad.tolist(), y.grad.tolist(), type(r.grad_fn).__name__))
    assert grads[0] == grads[1]


# ---------------------------------------------------------------------------- the classifier
def test_the_classifier_sees_each_outcome() -> None:
    """The fuzzer's classes can fail: each is produced by a call built to produce it."""
    def const(v: Any) -> Any:
        return lambda L: v

    def numpy_error(L: Any, _: Any) -> Any:
        if L is mt:
            return np.reshape(np.zeros(2), (3,))  # a ValueError from inside numpy
        raise ValueError("x")

    cases = {
        "same": (lambda L, v: L.zeros(v), [const(-1)]),
        "silent": (lambda L, v: None if L is mt else L.zeros(v), [const(-1)]),
        "internal": (numpy_error, [const(0)]),
        "different": (lambda L, v: L.zeros(v if L is mt else v + 1), [const(2)]),
        "refused": (lambda L, v: L.zeros(v if L is torch else -1), [const(2)]),
    }
    for want, (fn, slots) in cases.items():
        assert classify(fn, slots)[0] == want


def test_a_raise_statement_is_deliberate_and_a_numpy_error_is_not() -> None:
    with pytest.raises(RuntimeError) as mine:
        mt.zeros(-1)
    with pytest.raises(ValueError) as numpys:
        np.reshape(np.zeros(2), (3,))
    assert is_deliberate(mine.value) and not is_deliberate(numpys.value)


def test_messages_compare_with_torch_names() -> None:
    assert same_message("expected torch.FloatTensor", "expected torch.FloatTensor")
    assert not same_message("expected torch.FloatTensor", "expected minitorch.FloatTensor")
    assert not same_message("dim 0 appears twice", "dim 1 appears twice")


# ---------------------------------------------------------------------------- view never copies
SHAPES = [(2, 3), (4, 1, 3), (2, 3, 4), (1, 6), (3, 1), (0, 3), (2, 2, 2)]


def _prepared(L: Any, shape: tuple, perm: tuple, step: int) -> Any:
    x = L.arange(float(np.prod(shape)) * step).reshape(*shape[:-1], shape[-1] * step)
    return x[..., ::step].permute(*perm)


@SETTINGS
@given(shape=st.sampled_from(SHAPES), data=st.data(), step=st.sampled_from([1, 2]))
def test_view_is_torch_view_or_torch_refusal(shape: tuple, data: Any, step: int) -> None:
    """On permuted and strided tensors, ``view`` succeeds exactly where torch's does, and a
    write through the view reaches the base; otherwise it raises torch's error."""
    perm = data.draw(st.permutations(range(len(shape))))
    n = int(np.prod(shape))
    targets = [(-1,), (n,)] + [(a, -1) for a in (1, 2, 3, 4) if n and n % a == 0]
    target = data.draw(st.sampled_from([*targets, tuple(shape[i] for i in perm)[::-1]]))
    a, b = _prepared(mt, shape, tuple(perm), step), _prepared(torch, shape, tuple(perm), step)
    try:
        want = b.view(target)
    except RuntimeError as error:
        with pytest.raises(RuntimeError) as got:
            a.view(target)
        assert str(got.value) == str(error)
        return
    got = a.view(target)
    assert got.shape == tuple(want.shape)
    got.fill_(-7.0)
    assert (a == -7.0).numpy().all(), "a write through the view did not reach its base"
    assert a.is_contiguous() == b.is_contiguous()


def test_transposed_view_is_refused_and_contiguous_then_views() -> None:
    x = mt.zeros(2, 3)
    with pytest.raises(RuntimeError, match=r"Use \.reshape"):
        x.t().view(-1)
    y = x.t().contiguous()
    assert y.is_contiguous() and y.view(-1).shape == (6,)
    assert y.grad_fn is None and x.t().reshape(-1).shape == (6,)


def test_contiguous_records_a_clone() -> None:
    x = mt.ones(2, 3, requires_grad=True)
    y = x.t().contiguous()
    assert y.grad_fn.name() == torch.ones(2, 3, requires_grad=True).t().contiguous(
    ).grad_fn.name()
    y.view(-1).sum().backward()
    assert x.grad.tolist() == [[1.0] * 3] * 2


@pytest.mark.parametrize("shape", [(-2,), (2, -2), (-1, -1), (0, -1)])
def test_view_and_reshape_refuse_bad_sizes_as_torch(shape: tuple) -> None:
    for method in ("view", "reshape"):
        with pytest.raises(RuntimeError) as want:
            getattr(torch.zeros(0 if 0 in shape else 4), method)(shape)
        with pytest.raises(RuntimeError) as got:
            getattr(mt.zeros(0 if 0 in shape else 4), method)(shape)
        assert str(got.value) == str(want.value)


def test_every_listed_case_of_the_issue() -> None:
    """The groups of issue #21, each with torch's outcome class."""
    cases = [
        lambda L: L.zeros(2.5), lambda L: L.ones(True), lambda L: L.ones(3)[1.5],
        lambda L: L.ones(3)[True].shape, lambda L: L.tensor([1e308], dtype=L.int64),
        lambda L: L.tensor(float("nan"), dtype=L.int64), lambda L: L.tensor("abc", dtype=L.bool),
        lambda L: L.tensor(1j, dtype=L.int64), lambda L: L.arange(1, 0, 0.5),
        lambda L: L.arange(0, 2.5, dtype=L.int64), lambda L: L.ones(2, 3).size((0, 1)),
        lambda L: L.ones(2, 3).min((0, 1), keepdim=True), lambda L: L.ones(2, 3).unbind(1.5),
        lambda L: L.ones(2, 3).flatten(3, 0), lambda L: L.set_grad_enabled("yes"),
        lambda L: (L.ones(1, requires_grad=True) * 2).sum().backward(create_graph="yes"),
        lambda L: L.autograd.grad((L.ones(1, requires_grad=True) * 2).sum(), []),
        lambda L: L.cat([L.tensor(1.0), L.tensor(2.0)]), lambda L: L.bmm(L.ones(2, 2),
                                                                         L.ones(2, 2)),
        lambda L: L.mv(L.ones(2), L.ones(2)), lambda L: L.tensor([[1, 2], [3]]),
        lambda L: L.zeros(0, 3).softmax(0).shape, lambda L: L.zeros(0, 3).argmax(),
        lambda L: L.zeros(-1), lambda L: L.nn.Linear(-1, 3), lambda L: L.eye(None),
        lambda L: L.arange(0, 10, 0), lambda L: L.ones(2).softmax(None),
        lambda L: L.ones(2).sum("a"), lambda L: L.tensor([1]) * 2 ** 63,
    ]
    for i, case in zip(itertools.count(), cases):
        outcome, said = classify(lambda L, c: c(L), [lambda L, c=case: c])
        assert outcome == "same", f"case {i}: {said}"
