"""Fuzz 21, session 17 (C): leftovers of the earlier fuzzing, each closed as a class against
live torch (pad's sizes per mode and rank, ...). Each program runs under torch and minitorch
(``L``): the same result, or the same exception type and message."""

from hypothesis import assume, given, settings
from hypothesis import strategies as st
from test_bad_input_fuzz21b_oracle import assert_as_torch


@settings(max_examples=150, deadline=None)
@given(st.lists(st.integers(0, 3), min_size=1, max_size=5),
       st.lists(st.integers(-4, 4), max_size=8),
       st.sampled_from(["constant", "reflect", "replicate", "circular"]),
       st.sampled_from(["", ", dtype=L.int64", ", dtype=L.bool"]))
def test_pad_sizes_as_torch(shape: list, pad: list, mode: str, dtype: str) -> None:
    """Any pad (empty, odd, too long, cropping below nothing) on any shape (empty dims, each
    rank) in each mode: torch's result or its refusal, in torch's order. Circular padding
    that both crops and wraps is left out: torch copies from memory it never wrote."""
    assume(mode != "circular" or min(pad, default=0) >= 0 or max(pad, default=0) <= 0)
    assert_as_torch(f"R = L.nn.functional.pad(L.ones({tuple(shape)}{dtype}), {tuple(pad)}, "
                    f"mode='{mode}')")


@settings(max_examples=40, deadline=None)
@given(st.sampled_from(["Adam", "AdamW", "NAdam", "RAdam", "Adamax", "RMSprop", "Adagrad",
                        "SGD", "Adadelta", "Rprop", "ASGD"]),
       st.sampled_from(["L.tensor(0.1)", "L.tensor([0.1, 0.2])", "0.1"]),
       st.sampled_from(["", ", betas=(L.tensor(0.9), L.tensor(0.99))",
                        ", betas=(L.tensor(0.9), L.tensor([0.9, 0.8]))"]),
       st.sampled_from([True, False, None]), st.booleans(), st.booleans())
def test_optimizers_tensor_settings_as_torch(name: str, lr: str, betas: str, foreach: bool,
                                             capturable: bool, late: bool) -> None:
    """A tensor lr (or Adam's tensor betas) with foreach and without capturable: refused at
    construction, or at the step where the group's lr became a tensor later, as torch."""
    if ("Adam" not in name and "betas" in betas) or (name in ("SGD", "Adagrad") and capturable):
        return
    if late and "[" in lr:  # (each update's own refusal of a tensor of several: not here)
        lr = "L.tensor(0.1)"
    extra = f", capturable={capturable}" if capturable else ""
    built = f"lr=0.1, foreach={foreach}{extra}" if late else \
        f"lr={lr}{betas}, foreach={foreach}{extra}"
    assert_as_torch(f"p = L.nn.Parameter(L.ones(2))\no = L.optim.{name}([p], {built})\n"
                    + (f"o.param_groups[0]['lr'] = {lr}\n" if late else "")
                    + "p.grad = L.ones(2)\no.step()\nR = p")
