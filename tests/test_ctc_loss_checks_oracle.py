"""ctc_loss's argument checks against torch 2.13: the parser's two overloads (int lists or
tensors for the lengths), the reduction read in Python, then the CPU kernel's checks in its
order, and the calls it accepts (uint8 or float targets, 2-d length tensors, a bool after
the first length). A label outside the classes, which torch's kernel reads past its buffer
for, is refused with a message of minitorch's own."""

from __future__ import annotations

import numpy as np
import pytest
import torch

import minitorch as mt
from tests.oracle import assert_same, assert_same_error, raised_by

T, N, C = 5, 2, 4
LOG_PROBS = np.log(np.random.default_rng(0).dirichlet(np.ones(C), size=(T, N))).astype(np.float32)


def call(L, log_probs="lp", targets="[[1, 2, 1], [3, 3, 0]]", lengths="[5, 4], [3, 2]",
         rest="", tensor=True):
    """ctc_loss on the call's pieces, written as source (``targets`` made a tensor unless
    ``tensor`` is false)."""
    lp = L.tensor(LOG_PROBS)
    targets = f"L.tensor({targets})" if tensor else targets
    return eval(f"L.nn.functional.ctc_loss({log_probs}, {targets}, {lengths}{rest})",
                {"L": L, "lp": lp, "np": np})


CASES = {
    "log_probs 2-d, batched targets": dict(log_probs="lp[:, 0]"),
    "log_probs 4-d": dict(log_probs="lp[..., None]"),
    "log_probs int64": dict(log_probs="lp.long()"),
    "log_probs float16": dict(log_probs="lp.half()"),
    "log_probs bool": dict(log_probs="lp.bool()"),
    "log_probs empty": dict(log_probs="lp[:0]"),
    "log_probs empty and int": dict(log_probs="lp[:0].long()"),
    "log_probs a list": dict(log_probs="[[0.]]"),
    "targets 3-d": dict(targets="[[[1, 2, 1], [3, 3, 0]]]"),
    "targets 0-d": dict(log_probs="lp[:, 0]", targets="1", lengths="[5], [1]"),
    "targets a list": dict(targets="[[1, 2]]", tensor=False),
    "blank past the classes": dict(rest=", blank=4"),
    "blank negative": dict(rest=", blank=-1"),
    "blank a float": dict(rest=", blank=0.5"),
    "blank a bool": dict(rest=", blank=True"),
    "blank out and lengths short": dict(lengths="[5], [3, 2]", rest=", blank=9"),
    "input_lengths short": dict(lengths="[5], [3, 2]"),
    "target_lengths short": dict(lengths="[5, 4], [3]"),
    "input_lengths past the frames": dict(lengths="[6, 4], [3, 2]"),
    "input_lengths past, second": dict(lengths="[5, 6], [3, 1]"),
    "input_lengths negative": dict(lengths="[-1, 4], [3, 2]"),
    "input_lengths past before negative": dict(lengths="[7, -1], [3, 2]"),
    "target_lengths negative": dict(lengths="[5, 4], [-1, 2]"),
    "target_lengths negative before the batch": dict(targets="[[1, 2, 1]]",
                                                     lengths="[5, 4], [-1, 2]"),
    "target_lengths past the padded rows": dict(lengths="[5, 4], [4, 5]"),
    "targets' batch short": dict(targets="[[1, 2, 1]]", lengths="[5, 4], [4, 2]"),
    "concatenated targets short": dict(targets="[1, 2, 1, 3]"),
    "concatenated targets long": dict(targets="[1, 2, 1, 3, 3, 0]"),
    "concatenated target_lengths negative": dict(targets="[1, 2, 1, 3, 3]",
                                                 lengths="[5, 4], [-1, 2]"),
    "unbatched, padded targets of another batch": dict(log_probs="lp[:, 0]",
                                                       lengths="[5], [3]"),
    "unbatched, two lengths": dict(log_probs="lp[:, 0]", targets="[1]",
                                   lengths="[5, 4], [1, 1]"),
    "unbatched, int lengths": dict(log_probs="lp[:, 0]", targets="[1, 2]", lengths="5, 2"),
    "lengths an int": dict(lengths="5, [3, 2]"),
    "lengths None": dict(lengths="None, [3, 2]"),
    "lengths a tensor and a list": dict(lengths="L.tensor([5, 4]), [3, 2]"),
    "lengths float tensors": dict(lengths="L.tensor([5., 4.]), L.tensor([3., 2.])"),
    "target_lengths a float tensor": dict(lengths="L.tensor([5, 4]), L.tensor([3., 2.])"),
    "lengths bool tensors": dict(lengths="L.tensor([True, True]), L.tensor([3, 2])"),
    "lengths a numpy array": dict(lengths="np.array([5, 4]), [3, 2]"),
    "lengths with a float": dict(lengths="[5, 4.0], [3, 2]"),
    "lengths starting with a bool": dict(lengths="[True, 4], [3, 2]"),
    "reduction unknown": dict(rest=", reduction='avg'"),
    "reduction unknown, float lengths": dict(lengths="L.tensor([5., 4.]), L.tensor([3., 2.])",
                                             rest=", reduction='q'"),
    "zero_infinity a string": dict(rest=", zero_infinity='x'"),
    "zero_infinity None": dict(rest=", zero_infinity=None"),
    "zero_infinity an int": dict(rest=", zero_infinity=1"),
    "zero_infinity a numpy bool": dict(rest=", zero_infinity=np.bool_(True)"),
}


@pytest.mark.parametrize("case", CASES, ids=list(CASES))
def test_refusals_as_torch(case: str) -> None:
    want = raised_by(lambda L: call(L, **CASES[case]), torch)
    assert want is not None, "torch accepts this call: not a refusal case"
    assert_same_error(raised_by(lambda L: call(L, **CASES[case]), mt), want)


ACCEPTED = {
    "padded": {},
    "float64": dict(log_probs="lp.double()"),
    "tuples and torch.Size": dict(lengths="(5, 4), L.Size([3, 2])"),
    "int32 and uint8 length tensors": dict(
        lengths="L.tensor([5, 4], dtype=L.int32), L.tensor([3, 2], dtype=L.uint8)"),
    "2-d length tensors": dict(lengths="L.tensor([[5, 4]]), L.tensor([[3, 2]])"),
    "a bool after the first length": dict(lengths="[5, True], [1, 1]"),
    "a 0-d tensor in a length list": dict(lengths="[L.tensor(5), 4], [3, 2]"),
    "numpy int blank": dict(rest=", blank=np.int64(1)"),
    "int32 targets": dict(targets="[[1, 2, 1], [3, 3, 0]], dtype=L.int32"),
    "uint8 targets": dict(targets="[[1, 2, 1], [3, 3, 0]], dtype=L.uint8"),
    "float targets": dict(targets="[[1., 2., 1.], [3., 3., 0.]]"),
    "bool targets": dict(targets="[[True, False], [True, True]]", lengths="[5, 4], [2, 2]"),
    "padding past each length out of range": dict(targets="[[1, 2], [3, 9]]",
                                                  lengths="[5, 4], [2, 1]"),
    "concatenated": dict(targets="[1, 2, 1, 3, 3]"),
    "empty targets": dict(targets="[[], []], dtype=L.long", lengths="[5, 4], [0, 0]"),
    "an impossible target": dict(lengths="[2, 4], [3, 2]", rest=", reduction='none'"),
    "unbatched": dict(log_probs="lp[:, 0]", targets="[1, 2]", lengths="[5], [2]"),
    "unbatched, 0-d length tensors": dict(log_probs="lp[:, 0]", targets="[1, 2]",
                                          lengths="L.tensor(5), L.tensor(2)",
                                          rest=", reduction='none'"),
    "sum, blank 3": dict(targets="[[1, 2, 1], [0, 0, 2]]", rest=", blank=3, reduction='sum'"),
}


@pytest.mark.parametrize("case", ACCEPTED, ids=list(ACCEPTED))
def test_accepted_as_torch(case: str) -> None:
    assert_same(call(mt, **ACCEPTED[case]), call(torch, **ACCEPTED[case]))


@pytest.mark.parametrize("targets", ["[[1, 7, 1], [3, 3, 0]]", "[[1, -2, 1], [3, 3, 0]]",
                                     "[1, 2, 4, 3, 3]"])
def test_a_label_outside_the_classes_is_refused(targets: str) -> None:
    """torch's CPU kernel reads past log_probs there (an undefined loss); minitorch says so."""
    with pytest.raises(RuntimeError, match=r"target label -?\d+, outside the 4 classes"):
        call(mt, targets=targets)
