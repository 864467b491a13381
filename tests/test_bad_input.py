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
    messages under the levels measured when this test was written (8 and 40 of 2000): a
    regression gate, printed with ``pytest -s``."""
    calls = 2000
    counts, details = fuzz(seed=21, calls=calls)
    print(dict(counts))
    assert counts["silent"] == 0, details["silent"]
    assert counts["internal"] == 0, details["internal"]
    assert counts["refused"] <= 0.01 * calls, details["refused"]
    assert counts["different"] <= 0.0075 * calls, details["different"]
    assert counts["message"] <= 0.025 * calls, details["message"]


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


def test_messages_compare_after_torch_names_only() -> None:
    assert same_message("expected torch.FloatTensor", "expected minitorch.FloatTensor")
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
