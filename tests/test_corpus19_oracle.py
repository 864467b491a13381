"""Oracle tests for what the corpus19 programs (MorvanZhou, patrickloeber, yunjey, rasbt, dlwpt,
d2l-zh, PyTorch tutorials) needed.

``torch.autograd.Variable`` keeps its pre-0.4 signature ``Variable(data=None, requires_grad=False,
volatile=False, _grad_fn=None, name=None)``: old programs still pass ``volatile=True`` for test
batches (torch warns that it has no effect) and ``name=``; torch checks the data and the
argument count with its own messages.
"""

from __future__ import annotations

import warnings
from pathlib import Path

import numpy as np
import pytest
import torch
from hypothesis import given
from hypothesis import strategies as st

import minitorch as mt
from tests.oracle import SETTINGS, assert_same, assert_same_error, raised_by
from tests.test_conv_bits_oracle import (
    _check,
    threads,  # noqa: F401  (autouse: torch's thread count)
)
from tests.test_conv_bits_oracle import pytestmark as _bits_marks


def _both(call):
    """``(call(minitorch), call(torch))``, or None once torch's error was checked to be ours."""
    want_error = raised_by(call, torch)
    if want_error is not None:
        assert_same_error(raised_by(call, mt), want_error)
        return None
    return call(mt), call(torch)


def _variable(L, args, kwargs):
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        out = L.autograd.Variable(*args(L), **kwargs)
    return out, [(w.category.__name__, str(w.message)) for w in caught]


@given(requires_grad=st.booleans(), volatile=st.booleans(),
       shape=st.sampled_from([(), (3,), (2, 2)]), keyword=st.booleans())
@SETTINGS
def test_variable_signature_values_and_volatile_warning(requires_grad, volatile, shape, keyword):
    data = np.arange(int(np.prod(shape)), dtype=np.float32).reshape(shape)

    def call(L):
        if keyword:
            return _variable(L, lambda L: (L.tensor(data),),
                             {"requires_grad": requires_grad, "volatile": volatile, "name": "v"})
        return _variable(L, lambda L: (L.tensor(data), requires_grad, volatile), {})

    outcomes = _both(call)
    if outcomes is None:
        return
    (got, got_warn), (want, want_warn) = outcomes
    assert_same(got, want)
    assert got.requires_grad == want.requires_grad
    assert got_warn == want_warn


def test_variable_shares_the_data_but_not_the_graph():
    def program(L):
        x = L.ones(3, requires_grad=True)
        y = x * 2
        v = L.autograd.Variable(y, volatile=False)
        v.add_(1)  # detached alias: writes through to y
        return y.detach(), v.grad_fn, v.requires_grad, v

    got, want = program(mt), program(torch)
    assert_same(got[0], want[0])
    assert got[1] is None and want[1] is None
    assert got[2] == want[2]
    assert repr(got[3]) == repr(want[3])


def test_variable_without_data_is_an_empty_float_tensor():
    got, want = mt.autograd.Variable(), torch.autograd.Variable()
    assert repr(got) == repr(want)
    assert str(got.dtype) == str(want.dtype)


@pytest.mark.parametrize("args, kwargs", [
    (lambda L: ([1.0],), {}),
    (lambda L: (np.ones(2),), {}),
    (lambda L: (L.ones(2), True, False, None, "n", 5), {}),
    (lambda L: (L.ones(2),), {"foo": 1}),
    (lambda L: (L.ones(2), True, True), {}),
    (lambda L: (L.ones(2),), {"requires_grad": True, "volatile": True}),
])
def test_variable_errors(args, kwargs):
    want = raised_by(lambda L: _variable(L, args, kwargs), torch)
    got = raised_by(lambda L: _variable(L, args, kwargs), mt)
    assert_same_error(got, want)


# ---------------------------------------------------------------- 1x1 convolutions' reduce blocks
# d2l's DenseNet transition layers and GoogLeNet's 1x1 branches: oneDNN's 1x1 kernel sums at
# most ``reduce_block_1x1`` channels per chain (80 for images of 11 to 27 rows, 256 or 512
# otherwise, fewer where the block's image rows would alias in L2); one chain over all the
# channels missed torch's last bits from 96 input channels on a 12x12 image.


@pytest.mark.parametrize(("n", "c", "o", "size"), [
    (32, 192, 96, (12, 12)),   # DenseNet's first transition at 48x48 inputs
    (4, 96, 32, (12, 12)), (4, 128, 32, (11, 11)), (4, 128, 32, (10, 10)),
    (4, 512, 32, (7, 7)), (4, 300, 32, (7, 7)), (8, 1024, 64, (4, 4)),
    (2, 256, 64, (56, 56)),    # past the L2 aliasing bound
    (4, 64, 192, (12, 12)),    # many output channels: the input gradient's blocks
])
def test_1x1_convolutions_sum_in_onednns_reduce_blocks(n, c, o, size):
    for mark in _bits_marks:
        if mark.args[0]:
            pytest.skip(mark.kwargs["reason"])
    compared = _check(n, c, o, size, (1, 1), 1, 0, 1, seed=n + c + o)
    assert {"forward", "grad_input"} <= set(compared)


@SETTINGS
@given(n=st.sampled_from([2, 4, 16]), c=st.sampled_from([32, 80, 96, 112, 160, 272]),
       o=st.sampled_from([16, 48, 144, 272]), h=st.integers(8, 30), w=st.integers(1, 16),
       seed=st.integers(0, 2**16))
def test_random_1x1_convolutions_are_torchs_bits(n, c, o, h, w, seed):
    for mark in _bits_marks:
        if mark.args[0]:
            pytest.skip(mark.kwargs["reason"])
    _check(n, c, o, (h, w), (1, 1), 1, 0, 1, seed)


# ----------------------------------------- add/sub with the scale first (deprecated overload)
# The char-RNN tutorial's update ``p.data.add_(-learning_rate, p.grad.data)``: torch still reads
# ``add(Number alpha, Tensor other)`` (and sub's, and the in-place forms), with a warning.

def _scale_first(L, name, alpha, a, b, other_by_name):
    x, y = L.tensor(a), L.tensor(b)
    target = getattr(x.clone(), name) if not name.startswith("torch.") else None
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        if target is None:
            out = getattr(L, name[6:])(x, alpha, y)
        elif other_by_name:
            out = target(alpha, other=y)
        else:
            out = target(alpha, y)
    return out, [str(w.message) for w in caught if "deprecated" in str(w.message)]


@given(name=st.sampled_from(["add", "add_", "sub", "sub_", "torch.add", "torch.sub"]),
       alpha=st.sampled_from([2, -0.005, 0.5, True]), shape=st.sampled_from([(3,), (2, 3)]),
       other_by_name=st.booleans())
@SETTINGS
def test_scale_first_overload_reads_alpha_then_other(name, alpha, shape, other_by_name):
    a = np.linspace(-1, 2, int(np.prod(shape)), dtype=np.float32).reshape(shape)
    b = np.arange(shape[-1], dtype=np.float32)
    outcomes = _both(lambda L: _scale_first(L, name, alpha, a, b, other_by_name))
    if outcomes is None:
        return
    (got, got_warn), (want, want_warn) = outcomes
    assert_same(got, want)
    assert len(got_warn) <= 1 and len(want_warn) <= 1  # once per process, for any overload


def test_scale_first_warning_text_and_once():
    """torch warns once per process, for whichever deprecated signature comes first."""
    import subprocess
    import sys

    code = ("import warnings\nimport {m} as L\nx = L.ones(2)\n"
            "with warnings.catch_warnings(record=True) as seen:\n"
            "    warnings.simplefilter('always')\n"
            "    x.add_(2, x); x.sub(3, x); L.add(x, 1, x); x.sub_(1, other=x)\n"
            "print(repr([str(w.message) for w in seen]))")

    def messages(module):
        done = subprocess.run([sys.executable, "-c", code.format(m=module)], check=True,
                              capture_output=True, text=True, cwd=Path(mt.__file__).parents[1])
        return [m.split(" (Triggered internally")[0] for m in eval(done.stdout)]

    assert messages("minitorch") == messages("torch")


@pytest.mark.parametrize("call", [
    lambda L: L.ones(2).add(L.ones(2), L.ones(2)),
    lambda L: L.ones(2).add_(L.ones(2), 2),
    lambda L: L.add(L.ones(2), L.ones(2), 2),
])
def test_scale_first_needs_a_number_first(call):
    assert_same_error(raised_by(call, mt), raised_by(call, torch))


@pytest.mark.parametrize(("n", "c", "o", "size"), [(4, 192, 96, (24, 24)), (4, 160, 32, (22, 22))])
def test_strided_1x1_convolutions_sum_in_reduce_blocks_of_their_output_rows(n, c, o, size):
    """Strided, the kernel first copies the windows' inputs to a dense image (12 or 11 rows
    here: blocks of 80 channels)."""
    for mark in _bits_marks:
        if mark.args[0]:
            pytest.skip(mark.kwargs["reason"])
    assert "forward" in _check(n, c, o, size, (1, 1), 2, 0, 1, seed=c)
