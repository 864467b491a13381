"""Fresh fuzz seeds of session 41 and what they opened: a write into a view of a 0-d tensor
(its saved values and its places), the index tensors torch's nodes save (a write into one
refused at backward, not read as new indices), the operands torch saves only for a gradient
that is wanted (a write into one it does not save is no matter), copy_ of a tensor into
itself, and the nodes of rms_norm, sum/mean over ``dim=None`` and nearest grid_sample. Each
program runs under torch and minitorch (``L``) and must raise torch's exception with its
message, or give torch's result; the sweeps report every mismatch at once."""

from __future__ import annotations

import warnings

import pytest
import torch

import minitorch
from tests.oracle import assert_as_torch, sweep


def test_a_write_into_a_view_of_a_0d_tensor_keeps_its_gradients() -> None:
    """Autograd fuzzer s41 (seeds 4111, 4112): b.view(1).pow_(2) of a 0-d b gave x.grad 2
    for -2 (pow's saved input was a view of the written memory); an expanded view of a 0-d
    base failed in backward, and an empty one inside numpy."""
    head = "x = L.tensor(-1.5, requires_grad=True); w = L.tensor(2.5, requires_grad=True)\n"
    sweep([head + body for body in (
        "b = x * 1; b.view(1).pow_(2); b.backward(); result = x.grad",
        "b = x * 1; b.unsqueeze(0).clamp_(min=0); b.backward(); result = x.grad",
        "b = x.clone(); b.view(1).mul_(w); b.backward(); result = x.grad, w.grad",
        "b = x.clone(); b[None, None].mul_(x); b.backward(); result = x.grad",
        "b = x * 1; v = b.view(1)[1:]; v.mul_(2); b.backward(); result = x.grad, N(b.grad_fn)",
        "b = x.clone(); v = b.expand(2); b.clamp_(0, 1); (v * v).sum().backward()\n"
        "result = x.grad",
        "b = x.clone(); v = b.expand(2, 3); b.mul_(w); (v * v).sum().backward()\n"
        "result = x.grad, w.grad, N(v.grad_fn)",
        "b = x.clone(); v = b.view(1, 1); v[0, 0] = w * 2; b.backward(); result = w.grad",
        "b = x * 1; v = b.view(1); v.exp_(); v.sum().backward(); result = x.grad",
    )])


INDEX_WRITES = [
    "y = x[i]", "y = x[:, i]", "y = x[i, 1:]", "y = x.index_select(0, i)",
    "y = x.take(i)", "y = x.index_add(0, i, x)", "y = x.index_copy(0, i, x * 2)",
    "y = x.index_fill(0, i, 3.0)", "y = x.index_fill(0, i, v.sum())",
    "y = x.index_put((i,), v)", "y = x.index_put((i,), v, accumulate=True)",
    "y = x * 1; y.index_add_(0, i, v)", "y = x * 1; y.index_copy_(0, i, v)",
    "y = x * 1; y.index_fill_(0, i, 3.0)", "y = x * 1; y.index_put_((i,), v)",
    "y = x * 1; y[i] = v", "y = x * 1; y[i, 1:] = v[:, 1:]", "y = x * 1; y[m] = 5.0",
    "y = x[m]", "y = x[m.byte()]", "y = x.gather(0, i.view(2, 1).expand(2, 2))",
]


@pytest.mark.parametrize("dtype", ["long", "int"])
def test_a_write_into_a_saved_index_is_refused_at_backward(dtype: str) -> None:
    """Autograd fuzzer s41: x.index_select(0, i); i.zero_(); backward gave the gradient of
    the new indices (the node read i's memory); torch saves its index tensors, so backward
    refuses the write (for x[i], x[mask], take's input, index_add_ and x[i] = v too)."""
    head = ("x = L.tensor([[1., 2.], [3., 4.]], requires_grad=True)\n"
            "v = L.tensor([[5., 6.], [7., 8.]], requires_grad=True)\n"
            f"i = L.tensor([1, 0]).{dtype}(); m = L.tensor([True, False])\n")
    writes = ("i.zero_()", "m.logical_not_()", "x.grad")  # (the last: no write at all)
    sweep([f"{head}{op}\n{write} if '{write}' != 'x.grad' else None\n"
            "y.sum().backward(); result = x.grad, v.grad"
            for op in INDEX_WRITES for write in writes
            if "i" in op.replace("index", "") or "m" in op or write == "x.grad"])


def test_a_written_uint8_mask_of_a_write_is_refused_too() -> None:
    """The index tensors of x[key] = v are the key's as given: a uint8 mask written into
    after the write is refused at backward, as a bool one (it was converted, then saved)."""
    sweep([f"x = L.zeros(2, 2, requires_grad=True); y = x * 1\nk = {key}\n"
            "y[k] = L.ones(2, requires_grad=True); k.zero_(); y.sum().backward()\n"
            "result = x.grad" for key in ("L.tensor([1, 0], dtype=L.uint8)",
                                          "L.tensor([True, False])")])


def test_take_saves_its_input() -> None:
    """Autograd fuzzer s41: x.take(i); x.add_(1); backward ran; torch's TakeBackward0 saves
    self, so it refuses."""
    sweep(["a = L.tensor([1., 2.], requires_grad=True); x = a * 1\n"
            "y = x.take(L.tensor([1, 0])); x.add_(1); y.sum().backward(); result = a.grad"])


SAVED = {
    "atan2": "L.atan2(a, b)", "hypot": "L.hypot(a, b)", "logaddexp": "L.logaddexp(a, b)",
    "copysign": "L.copysign(a, b)", "ldexp": "L.ldexp(a, b)", "fmax": "L.fmax(a, b)",
    "lerp": "L.lerp(a, b, b)", "addcmul": "L.addcmul(a, b, b)", "addcdiv": "L.addcdiv(a, b, b)",
    "mv": "a.view(2, 3) @ b[:3]", "bmm": "L.bmm(a.view(1, 2, 3), b.view(1, 3, 2))",
    "dot": "L.dot(a, b)", "vdot": "L.vdot(a, b)", "inner": "L.inner(a, b)",
    "cross": "L.linalg.cross(a.view(2, 3), b.view(2, 3))",
    "tensordot": "L.tensordot(a.view(2, 3), b.view(2, 3), 2)",
    "einsum": "L.einsum('ij,ij->i', a.view(2, 3), b.view(2, 3))",
    "cdist": "L.cdist(a.view(2, 3), b.view(2, 3))", "mul": "a * b",
    "mm": "a.view(2, 3) @ b.view(3, 2)",
}


@pytest.mark.parametrize("name", list(SAVED))
def test_a_write_matters_only_into_what_torch_saves(name: str) -> None:
    """Autograd fuzzer s41: atan2(x, t); x.add_(1) refused at backward (minitorch saved the
    result), addcmul(x, t, t) refused a write into t where only x needs grad, and mv,
    bmm, dot, cross did likewise; cdist's result written was not refused. Torch saves each
    operand only for a gradient that reads it; every write, every set of wanted gradients."""
    programs = []
    for grads in ((True, False), (False, True), (True, True)):
        for written in ("a", "b", "y"):
            programs.append(
                "import numpy as np\n"
                "a0 = L.tensor([0.5, -1.2, 2.0, 0.7, -0.3, 1.5], requires_grad="
                f"{grads[0]})\nb0 = L.tensor([1.1, 0.4, -0.8, 2.2, 0.9, -1.7], "
                f"requires_grad={grads[1]})\na, b = a0 * 1, b0 * 1\ny = {SAVED[name]}\n"
                f"with L.no_grad(): {written}.add_(0.25)\n"
                "y.sum().backward(); result = a0.grad, b0.grad")
    sweep(programs)


def test_copy_of_a_tensor_into_itself_writes_nothing() -> None:
    """Math fuzzer s41 (seed 4101): nan_to_num(x, out=x) of an expanded uint8 x was refused
    for its overlap; torch copies an integer input into out (copy_ of the same memory, laid
    alike, writes nothing and checks nothing): so does x.copy_(x) of any expanded x."""
    sweep([
        "b = L.tensor([1], dtype=L.uint8); x = b.expand(3); result = L.nan_to_num(x, out=x)",
        "b = L.tensor([1], dtype=L.uint8); result = L.nan_to_num(b.expand(3), "
        "out=b.expand(3))",
        "b = L.tensor([1]); x = b.expand(3); result = x.nan_to_num_(), b._version",
        "b = L.tensor([True]); x = b.expand(2); result = x.nan_to_num_(1.0, 2.0, -2.0)",
        "b = L.tensor([1]); x = b.expand(3); result = x.nan_to_num_(nan='a')",
        "b = L.tensor([1]); result = b.expand(3).nan_to_num_(zz=1)",
        "b = L.tensor([1.]); x = b.expand(3); result = x.nan_to_num_()",
        "b = L.tensor([1, 2, 3]); result = L.nan_to_num(b[:2], out=b[1:])",
        "b = L.tensor([1.]); x = b.expand(3); result = x.copy_(b.expand(3)), b._version",
        "b = L.tensor([1.]); result = b.expand(3).copy_(b.expand(3).int())",
        "b = L.tensor([1., 2.], requires_grad=True).clone(); x = b.expand(2, 2)\n"
        "x.copy_(b.expand(2, 2)); result = N(b.grad_fn), N(x.grad_fn), b._version",
    ])


def test_rms_norm_of_a_strided_input_ends_in_a_contiguous_clone() -> None:
    """nn fuzzer s41 (seeds 4101, 4102): F.rms_norm of a transposed input gave MulBackward0
    and the input's strides; torch's composite ends in contiguous() (CloneBackward0), and
    warns once that a weight of another dtype keeps it from its fused kernel."""
    sweep([f"x0 = L.tensor([[1., -2., 3.], [0.5, 4., -1.]], requires_grad=True)\n"
           f"y = F.rms_norm(x0{view}{cast}, [{x_len}]{weight}); y.sum().backward()\n"
           "result = y, y.stride(), N(y.grad_fn), N(y.grad_fn.next_functions[0][0]), x0.grad"
           for view, x_len in ((".t()", 2), ("", 3))
           for cast in ("", ".double()", ".half()")
           for weight in ("", f", L.ones({x_len})")])
    for lib in (torch, minitorch):
        lib.set_warn_always(True)
    try:
        sweep([f"import warnings\nwith warnings.catch_warnings(record=True) as seen:\n"
                f"    warnings.simplefilter('always')\n    try:\n"
                f"        F.rms_norm(L.ones(2, {size}{dt}), [3], L.ones(3))\n"
                "    except RuntimeError as e:\n        error = str(e)\n"
                "result = [str(w.message).split(' (Triggered')[0] for w in seen]"
                for size in (3, 4) for dt in ("", ", dtype=L.float64", ", dtype=L.int32",
                                              ", dtype=L.float16")])
    finally:
        for lib in (torch, minitorch):
            lib.set_warn_always(False)


def test_sum_and_mean_over_dim_none_take_the_overload_with_dims() -> None:
    """Math fuzzer s41 (seed 4101): torch.mean(x, dim=None) gave MeanBackward0; a dim given,
    even None, picks torch's overload with dims (MeanBackward1, SumBackward1)."""
    head = "x = L.tensor([[1., 2., 3.], [4., 5., 6.]], requires_grad=True)\n"
    sweep([head + f"y = {call}\nresult = y, N(y.grad_fn), y.grad_fn._saved_self_sym_sizes"
            for call in ("L.mean(x, dim=None)", "x.mean(None)", "L.sum(x, None)",
                         "x.sum(dim=None, dtype=L.float64)", "L.mean(x, None, False)",
                         "x.sum()", "x.mean(dtype=L.float64)", "x[0, 0].sum(None)")]
           + [head + "result = x.sum(None).grad_fn._saved_dim, x.mean(None).grad_fn._saved_dim"])


def test_nearest_grid_sample_of_a_grid_alone_that_requires_grad() -> None:
    """nn fuzzer s41 (seeds 4101, 4102): grid_sample(mode='nearest') where only the grid
    requires grad was refused at backward (the composition had no graph); its gradient is
    zero, as torch's."""
    sweep(["x = L.arange(9.).view(1, 1, 3, 3)\n"
            "g = L.tensor([[[[-0.1, -0.2], [1.0, 0.6]], [[-0.9, -0.7], [0.4, -0.5]]]],"
            " requires_grad=True)\n"
            f"y = F.grid_sample(x, g, mode='nearest', align_corners={corners})\n"
            "y.sum().backward(); result = y, N(y.grad_fn), g.grad"
            for corners in (False, True)])


def test_the_warnings_check_above_leaves_the_once_state_alone() -> None:
    """(rms_norm's warning is given once per process; the test above turns the switch that
    repeats it off again.)"""
    with warnings.catch_warnings():
        assert not minitorch.is_warn_always_enabled() and not torch.is_warn_always_enabled()
    assert_as_torch(lambda L: L.is_warn_always_enabled())


def test_a_function_has_vjp_as_torchs_other_name_for_backward() -> None:
    """Autograd fuzzer s41: Fn.vjp was an AttributeError; torch's Function has it (its
    backward), and a Function may define vjp instead of backward, not both."""
    head = ("Fn = type('Fn', (L.autograd.Function,), {'forward': staticmethod(lambda ctx, x: "
            "x * 2)")
    sweep([f"{head}{extra}}})\nx = L.ones(1, requires_grad=True); Fn.apply(x).backward()\n"
            "result = x.grad, callable(Fn.vjp)"
            for extra in ("", ", 'vjp': staticmethod(lambda ctx, g: g * 3)",
                          ", 'backward': staticmethod(lambda ctx, g: g * 5)",
                          ", 'vjp': staticmethod(lambda ctx, g: g), "
                          "'backward': staticmethod(lambda ctx, g: g)")])
