"""Bad input found by issue #21's third fuzz (seed 2203, session 13) where minitorch refused,
or answered, differently from torch: function transforms over functions returning
non-tensors, nested vmap over an empty batch, gradcheck's order of checks, multi-head
attention's assertions, interpolate's modes and sizes, ``view(dtype)`` and the strides of
empty tensors. Each case runs on torch and on minitorch (``L``) and must end the same.
"""

from __future__ import annotations

import pytest
import torch
from hypothesis import given, settings
from hypothesis import strategies as st
from oracle import SETTINGS
from test_bad_input_fuzz21b_oracle import assert_as_torch, run

import minitorch as mt

X = "x = L.tensor([1., 2.])\n"


def assert_as_torch_or_refused(program: str) -> None:
    """``program`` ends as in torch, or, where torch computes something minitorch has no
    kernel for (antialias, uint8 bilinear, 5-D area), minitorch refuses it in its own words,
    after every check torch makes."""
    got = run(mt, program)
    if got[0] == "NotImplementedError" and got[1].startswith("minitorch"):
        assert run(torch, program)[0] == "ok", (program, got)
    else:
        assert_as_torch(program)
_NON_TENSORS = ["x.sum().item()", "3", "None", "'a'", "(x.sin(), 1.0)",
                "{'a': x.sin(), 'b': None}", "[x.sin(), 'a']", "()", "[]", "((x,), [x, 2])"]


@pytest.mark.parametrize("value", _NON_TENSORS)
@pytest.mark.parametrize("call", [
    "R = L.func.jacfwd(f)(x)", "R = L.func.jacrev(f)(x)", "R = L.func.grad(f)(x)",
    "R = L.func.hessian(f)(x)", "R = L.func.jvp(f, (x,), (x,))",
    "R = L.func.vjp(f, x)[0]", "R = L.func.grad_and_value(f)(x)",
    "R = L.func.jacfwd(f)(L.ones(0))"])
def test_transforms_of_non_tensor_outputs_as_torch(call: str, value: str) -> None:
    """A transform whose function returns a non-tensor (or nothing) says so in torch's words,
    naming jvp for forward mode and vjp for reverse mode (not an internal unpack error)."""
    assert_as_torch(X + f"f = lambda x: {value}\n" + call)


@pytest.mark.parametrize("aux", [*_NON_TENSORS, "x", "(x, [x], {'a': x})"])
@pytest.mark.parametrize("call", [
    "R = L.func.jacfwd(f, has_aux=True)(x)", "R = L.func.jacrev(f, has_aux=True)(x)",
    "R = L.func.grad(f, has_aux=True)(x)", "R = L.func.grad_and_value(f, has_aux=True)(x)",
    "R = L.func.jvp(f, (x,), (x,), has_aux=True)", "R = L.func.vjp(f, x, has_aux=True)[2]"])
@pytest.mark.parametrize("output", ["x.sin().sum()", "x.sin()", "2.0", "x.long()"])
def test_transforms_check_aux_as_torch(call: str, aux: str, output: str) -> None:
    """has_aux=True: the aux holds only tensors, checked before the output (after it for
    grad), in torch's words."""
    assert_as_torch(X + f"f = lambda x: ({output}, {aux})\n" + call)


@pytest.mark.parametrize("output", ["x.long().sum()", "x.sin()", "(x.sin(),)", "[x, x]",
                                    "(x.sin(), x, x)", "None"])
@pytest.mark.parametrize("call", [
    "R = L.func.jacfwd(f, has_aux=True)(x)", "R = L.func.jacrev(f, has_aux=True)(x)",
    "R = L.func.grad(f, has_aux=True)(x)", "R = L.func.grad_and_value(f, has_aux=True)(x)",
    "R = L.func.jvp(f, (x,), (x,), has_aux=True)", "R = L.func.vjp(f, x, has_aux=True)[2]"])
def test_transforms_want_output_and_aux_as_torch(call: str, output: str) -> None:
    """has_aux=True wants a pair (output, aux), refused in the words of the transform torch
    runs (jacrev's are vjp's, jacfwd's jvp's)."""
    assert_as_torch(X + f"f = lambda x: {output}\n" + call)


@pytest.mark.parametrize("f", ["lambda x: x * 2", "L.sin", "L.func.grad(L.sin)"])
def test_vmap_of_no_inputs_as_torch(f: str) -> None:
    """vmap called with no inputs names the function it maps, as torch."""
    assert_as_torch(f"R = L.vmap({f})()")


@pytest.mark.parametrize("body", [
    "x.sum().item()", "x.item()", "float(x.sum())", "int(x.sum())", "x.tolist()",
    "x.sum().tolist()", "x.numpy()", "(x, x.sum().item())", "x.sum(0).item()",
    "1 if x.sum() > 0 else 0", "3", "None", "[x, [x, None]]", "x.mean()", "x.sum(-1)"])
@pytest.mark.parametrize("x", ["L.tensor([[1., 2.], [3., 4.]])", "L.tensor([1., 2.])"])
def test_vmap_reading_numbers_as_torch(body: str, x: str) -> None:
    """Inside vmap, ``.item()``, ``float()``, ``tolist()`` of a batched value are refused as
    torch refuses them; non-tensor outputs get torch's message."""
    assert_as_torch(f"R = L.vmap(lambda x: {body})({x})")
    assert_as_torch(f"R = L.vmap(lambda x: {body}, out_dims=None)({x})")


_NESTED_BODIES = ["x.exp().softmax(0)", "{'a': x}", "(x.sum(), x.exp())", "[x.exp()]",
                  "x.sum(0)", "x.new_ones(())"]


@pytest.mark.parametrize("body", _NESTED_BODIES)
@pytest.mark.parametrize("shape", ["0, 2", "2, 0", "0, 0", "0, 2, 3", "2, 0, 3", "3, 2"])
@pytest.mark.parametrize("outer, inner", [
    ("", ""), ("in_dims=1", ""), ("out_dims=1", "out_dims=0"), ("in_dims=-1", "in_dims=-1"),
    ("chunk_size=2", "chunk_size=1"), ("", "chunk_size=3"),
    ("randomness='same'", "randomness='different'")])
def test_nested_vmap_over_empty_batches_as_torch(body: str, shape: str, outer: str,
                                                 inner: str) -> None:
    """A vmap inside a vmap (a batch of none at either level) maps as torch's: an empty
    result of the right shape, or torch's refusal (a chunked batch of none)."""
    assert_as_torch(f"x = L.ones({shape})\n"
                    f"R = L.vmap(L.vmap(lambda x: {body}, {inner}), {outer})(x)")


@pytest.mark.parametrize("transform", ["L.func.grad(lambda a: a.sum())",
                                       "L.func.jacrev(lambda a: a.exp())",
                                       "L.func.jacfwd(lambda a: a.exp())",
                                       "lambda a: L.func.jvp(L.exp, (a,), (a,))[1]",
                                       "lambda a: L.func.vjp(L.exp, a)[0]",
                                       "L.vmap(lambda a: a * a)"])
@pytest.mark.parametrize("shape", ["0, 2", "0, 0", "2, 0", "3, 2", "0, 2, 3"])
def test_transforms_inside_vmap_over_empty_batches_as_torch(transform: str, shape: str) -> None:
    """grad, jacrev, jacfwd, jvp, vjp and vmap inside a vmap whose batch is empty (or not)
    answer as torch's."""
    assert_as_torch(f"R = L.vmap({transform})(L.ones({shape}))")


@pytest.mark.parametrize("program", [
    "R = L.vmap(lambda x: x * 2)(L.ones(0))", "R = L.vmap(lambda x: 2 * x)(L.ones(0))",
    "R = L.vmap(lambda x: x - 2.5)(L.ones(0))", "R = L.vmap(lambda x: 2 - x)(L.ones(0))",
    "R = L.vmap(lambda x: 2 / x)(L.ones(0))", "R = L.vmap(lambda x: x + L.ones(()))(L.ones(0))",
    "R = L.vmap(lambda x: x * x)(L.ones(0))", "R = L.vmap(lambda x: x ** 2)(L.ones(0))",
    "R = L.vmap(lambda x: x > 0)(L.ones(0))", "R = L.vmap(lambda x: x.sum() * 2)(L.ones(0, 2))",
    "R = L.vmap(lambda a, b: b * a)(L.ones(0), L.ones(0, 2))",
    "R = L.vmap(lambda a, b: a + b, in_dims=(0, None))(L.ones(0), L.ones(()))",
    "R = L.vmap(lambda x: x * 2)(L.ones(3))", "R = L.vmap(lambda x: x * 2)(L.ones(0, 2))",
    "R = L.vmap(lambda x: x * 2, chunk_size=2)(L.ones(0, 2))",
    "R = L.vmap(lambda x: x * 2, chunk_size=2)(L.ones(3, 2))",
    "R = L.vmap(lambda x: x * 2, chunk_size=0)", "R = L.vmap(lambda x: x * 2, chunk_size=-1)",
    "R = L.func.vmap(lambda x: x * 2, chunk_size=-2)",
    "R = L.vmap(lambda x: x * 2, chunk_size=1.5)(L.ones(3))",
    "R = L.vmap(lambda x: x * 2, chunk_size='a')"])
def test_vmap_scalar_examples_and_chunks_as_torch(program: str) -> None:
    """torch's binary rule reads the first example of a batch of 0-d examples (none in an
    empty batch: its IndexError); chunk_size is checked and an empty chunked batch refused."""
    assert_as_torch(program)


def test_vmap_same_randomness_draws_once_for_all_examples() -> None:
    """randomness='same' where vmap goes example by example: every example sees the same
    draw, as torch's (an in-place op has no batching rule here)."""
    out = mt.vmap(lambda x: x.clone().add_(mt.rand(())), randomness="same")(mt.zeros(3, 2))
    assert (out == out[0]).all()
    out = mt.vmap(mt.vmap(lambda x: x + mt.rand(()), randomness="different"),
                  randomness="same")(mt.zeros(3, 2))
    assert (out == out[0]).all() and len(set(out[0].tolist())) == 2


_GRADCHECK_FUNCS = {"right": "lambda a, *r: a.exp()",
                    "wrong": "lambda a, *r: a * a.detach()",
                    "detached": "lambda a, *r: a.detach() * 2",
                    "constant": "lambda a, *r: a * 0 + 1.0"}
_GRADCHECK_OPTIONS = ["atol=-1", "rtol=-1", "atol=-1, rtol=-1", "eps=0", "eps=-1e-6",
                      "eps=0, atol=-1", "atol=float('nan')", "atol=float('inf')", "atol='a'",
                      "rtol=None", "eps='a'", "eps=None, atol=-1", "atol=-1e-30",
                      "eps=L.tensor(1e-6), atol=-1", "eps=[1e-6]"]


@pytest.mark.parametrize("options", _GRADCHECK_OPTIONS)
@pytest.mark.parametrize("func", _GRADCHECK_FUNCS)
@pytest.mark.parametrize("fast", [False, True])
def test_gradcheck_reads_tolerances_where_torch_does(func: str, options: str,
                                                     fast: bool) -> None:
    """gradcheck reads eps where it first moves an input and atol/rtol where it first
    compares (fast mode: atol scaled by the same random vectors as torch's), so a wrong or
    missing gradient is reported before a bad tolerance, as torch reports it."""
    setup = ("L.manual_seed(0)\nx = L.tensor([1., 2.], dtype=L.float64, requires_grad=True)\n"
             f"f = {_GRADCHECK_FUNCS[func]}\n")
    assert_as_torch(setup + f"R = L.autograd.gradcheck(f, (x, 3), fast_mode={fast}, {options})")
    assert_as_torch(setup + f"R = L.autograd.gradgradcheck(f, (x,), fast_mode={fast}, "
                            f"{options})")


@pytest.mark.parametrize("options", ["atol=-1", "rtol=-1", "eps=0", "eps=None"])
@pytest.mark.parametrize("func", _GRADCHECK_FUNCS)
@pytest.mark.parametrize("mode", ["check_forward_ad=True, check_backward_ad=False",
                                  "check_forward_ad=True", "raise_exception=False",
                                  "check_undefined_grad=False", "check_batched_grad=True"])
@pytest.mark.parametrize("fast", [False, True])
def test_gradcheck_modes_read_tolerances_where_torch_does(func: str, options: str, mode: str,
                                                          fast: bool) -> None:
    """The same order with forward mode (which also wants a zero numerical gradient when no
    output is differentiable), batched gradients and raise_exception=False."""
    assert_as_torch("L.manual_seed(0)\n"
                    "x = L.tensor([1., 2.], dtype=L.float64, requires_grad=True)\n"
                    f"R = L.autograd.gradcheck({_GRADCHECK_FUNCS[func]}, (x, 3), "
                    f"fast_mode={fast}, {mode}, {options})")


_SECOND_ORDER = ["a.exp()", "a.exp() * a", "a ** 3", "(a ** 3).sum()", "(a.exp(), a.sin())",
                 "a * 2", "a.softmax(-1)", "(a * a).relu()", "a.log_softmax(0) * a",
                 "(a @ a.t()).tanh()", "a * a.detach().sum()"]


@pytest.mark.parametrize("body", _SECOND_ORDER)
@pytest.mark.parametrize("shape", ["2", "2, 3"])
def test_gradgradcheck_batched_grad_as_torch(body: str, shape: str) -> None:
    """gradgradcheck(check_batched_grad=True) runs gradcheck's batched-gradient test on the
    first derivatives, as torch does (it was refused): same verdict, same message."""
    setup = f"L.manual_seed(0)\nx = L.rand({shape}, dtype=L.float64).requires_grad_()\n"
    assert_as_torch(setup + f"R = L.autograd.gradgradcheck(lambda a: {body}, (x,), "
                            "check_batched_grad=True)")
    if "detach" not in body:  # fast mode's failure report prints floats to their last digit
        assert_as_torch(setup + f"R = L.autograd.gradgradcheck(lambda a: {body}, (x,), "
                                "check_batched_grad=True, fast_mode=True)")


@pytest.mark.parametrize("options", [
    "(L.ones(2, dtype=L.float64),), check_batched_grad=True",
    "(L.ones(2, dtype=L.float64, requires_grad=True),), check_batched_grad=True",
    "check_batched_grad=True, check_rev_over_rev=False",
    "check_batched_grad=True, gen_non_contig_grad_outputs=True",
    "check_batched_grad=True, raise_exception=False", "check_batched_grad=True, atol=-1",
    "check_batched_grad=True, check_undefined_grad=False"])
def test_gradgradcheck_batched_grad_options_as_torch(options: str) -> None:
    """The batched check with given (or non-contiguous) grad_outputs and other options."""
    assert_as_torch("L.manual_seed(0)\nx = L.rand(2, dtype=L.float64).requires_grad_()\n"
                    f"R = L.autograd.gradgradcheck(lambda a: a ** 3, (x,), {options})")
    assert_as_torch("L.manual_seed(0)\nx = L.rand(2, dtype=L.float64).requires_grad_()\n"
                    f"R = L.autograd.gradgradcheck(lambda a: a * a.detach(), (x,), {options})")


_MHA = {"plain": "4, 2", "kdim3 vdim5": "4, 1, kdim=3, vdim=5", "kdim3": "4, 2, kdim=3",
        "batch_first": "4, 2, batch_first=True", "no bias": "4, 2, bias=False, kdim=3",
        "bias_kv zero_attn": "4, 2, add_bias_kv=True, add_zero_attn=True"}
_MHA_INPUTS = {
    "self 2-D": "q = k = v = L.ones(3, 4)", "self 3-D": "q = k = v = L.ones(3, 2, 4)",
    "kdim3 vdim5": "q, k, v = L.ones(3, 2, 4), L.ones(5, 2, 3), L.ones(5, 2, 5)",
    "kdim3 vdim5 2-D": "q, k, v = L.ones(3, 4), L.ones(5, 3), L.ones(5, 5)",
    "key is value, width 5": "q = L.ones(3, 2, 4); k = v = L.ones(5, 2, 5)",
    "key is value": "q = L.ones(3, 2, 4); k = v = L.ones(5, 2, 4)",
    "key and value lengths": "q, k, v = L.ones(3, 2, 4), L.ones(5, 2, 4), L.ones(6, 2, 4)",
    "key and value batches": "q, k, v = L.ones(3, 2, 4), L.ones(5, 2, 3), L.ones(5, 3, 5)",
    "query width": "q = k = v = L.ones(3, 2, 6)", "1-D": "q = k = v = L.ones(4)",
    "4-D": "q = k = v = L.ones(1, 3, 2, 4)",
    "2-D key": "q, k, v = L.ones(3, 2, 4), L.ones(5, 4), L.ones(5, 4)",
    "value width": "q, k, v = L.ones(3, 2, 4), L.ones(5, 2, 4), L.ones(5, 2, 5)"}
_MHA_MASKS = [
    "", "attn_mask=L.ones(3, 3, dtype=L.bool).triu(1)", "attn_mask=L.ones(3, 5).triu(1)",
    "attn_mask=L.ones(3, 3, dtype=L.int64)", "attn_mask=L.zeros(2, 2)",
    "attn_mask=L.zeros(4, 3, 3)", "attn_mask=L.zeros(2, 3, 5)", "attn_mask=L.zeros(3)",
    "attn_mask=L.zeros(1, 1, 3, 3)", "is_causal=True",
    "attn_mask=L.ones(3, 3, dtype=L.bool).triu(1), is_causal=True",
    "attn_mask=L.ones(3, 5, dtype=L.bool).triu(1), is_causal=True, need_weights=False",
    "key_padding_mask=L.zeros(2, 3, dtype=L.bool)", "key_padding_mask=L.zeros(2, 5)",
    "key_padding_mask=L.zeros(3, dtype=L.bool)", "key_padding_mask=L.zeros(2, 3, dtype=L.int64)",
    "key_padding_mask=L.zeros(4, 5, dtype=L.bool)", "key_padding_mask=L.zeros(2, 6)",
    "key_padding_mask=L.zeros(2, 5), attn_mask=L.zeros(3, 5, dtype=L.bool)",
    "key_padding_mask=L.zeros(2, 3, 1, dtype=L.bool)", "need_weights=False",
    "average_attn_weights=False"]


@settings(SETTINGS, max_examples=200)
@given(st.sampled_from(list(_MHA)), st.sampled_from(list(_MHA_INPUTS)),
       st.sampled_from(_MHA_MASKS))
def test_multihead_attention_checks_as_torch(module: str, inputs: str, masks: str) -> None:
    """MultiheadAttention checks ranks, widths (each projection weight against its input's
    width), mask dtypes and shapes, key padding and the causal hint in torch's order and
    words; add_bias_kv and add_zero_attn add their key as torch does."""
    program = (f"L.manual_seed(0)\nm = L.nn.MultiheadAttention({_MHA[module]})\n"
               f"{_MHA_INPUTS[inputs]}\n")
    if "batch_first" in module:
        program += "q, k, v = (t.transpose(0, 1) if t.dim() == 3 else t for t in (q, k, v))\n"
    assert_as_torch(program + f"R = m(q, k, v, {masks})")


_MODES = ["nearest", "nearest-exact", "linear", "bilinear", "trilinear", "bicubic", "area",
          "lanczos", "bad"]
_RESIZES = ["size=0", "scale_factor=-1", "size=2", "scale_factor=2", "scale_factor=0.5",
            "size=5, align_corners=True", "size=5, align_corners=False",
            "size=4, antialias=True", "scale_factor=1.7, recompute_scale_factor=True",
            "size=(2, 3)", "scale_factor=(2, 3)", "size=-2", "size=(2, 1.5)"]


@settings(SETTINGS, max_examples=250)
@given(st.sampled_from(_MODES), st.sampled_from([2, 3, 4, 5, 6]), st.sampled_from(_RESIZES))
def test_interpolate_checks_in_torchs_order(mode: str, rank: int, resize: str) -> None:
    """interpolate checks align_corners, the size or scale, antialias, then the mode for the
    input's rank (torch's 'Input Error' for a rank it has no kernel for, before minitorch's
    own refusals) and the kernel's sizes, each in torch's words."""
    assert_as_torch_or_refused(
        f"x = L.arange(2 * 3 ** {rank - 1}, dtype=L.float64).view(2, *[3] * {rank - 1})"
        f".requires_grad_()\nR = L.nn.functional.interpolate(x, mode='{mode}', {resize})")


@settings(SETTINGS, max_examples=200)
@given(st.sampled_from([("nearest-exact", 3), ("nearest-exact", 4), ("nearest-exact", 5),
                        ("nearest", 5), ("trilinear", 5), ("bicubic", 4), ("area", 3),
                        ("area", 4), ("area", 5)]),
       st.sampled_from([3, 4, 7]),
       st.sampled_from(["size=5", "size=2", "size=1", "scale_factor=1.7", "scale_factor=0.45",
                        "scale_factor=2", "scale_factor=3.3, recompute_scale_factor=True",
                        "size=5, align_corners=True", "scale_factor=0.3, align_corners=True",
                        "size=(1, 1, 1)"]))
def test_interpolate_modes_as_torch(mode_rank: tuple, side: int, resize: str) -> None:
    """nearest-exact (3-D to 5-D), nearest and trilinear on 5-D inputs, bicubic and area
    resize as torch's kernels do: values, gradients and grad_fn (area 5-D: refused after
    torch's checks)."""
    mode, rank = mode_rank
    shape = ", ".join(["2", "2", *[str(side)] * (rank - 2)])
    assert_as_torch_or_refused(f"L.manual_seed(0)\nx = L.randn({shape}, dtype=L.float64, "
                    f"requires_grad=True)\ny = L.nn.functional.interpolate(x, mode='{mode}', "
                    f"{resize})\ny.backward(L.ones_like(y) * L.arange(y.numel(), "
                    "dtype=L.float64).view(y.shape).cos())\nR = (y, x.grad)")


@pytest.mark.parametrize("dtype", ["uint8", "int64", "bool", "float64"])
@pytest.mark.parametrize("mode_rank", [("nearest", 3), ("nearest", 4), ("nearest", 5),
                                       ("nearest-exact", 3), ("nearest-exact", 4),
                                       ("nearest-exact", 5), ("linear", 3), ("bilinear", 4),
                                       ("trilinear", 5), ("bicubic", 4), ("area", 3),
                                       ("area", 4)])
def test_interpolate_dtypes_as_torch(mode_rank: tuple, dtype: str) -> None:
    """Each kernel's dtype check in torch's words (uint8 copies by nearest and nearest-exact
    as torch's); empty inputs refused as torch's kernels refuse them."""
    mode, rank = mode_rank
    shape = ", ".join(["2"] + ["3"] * (rank - 1))
    assert_as_torch_or_refused(f"x = L.arange(2 * 3 ** {rank - 1}).view({shape}).to(L.{dtype})\n"
                    f"R = L.nn.functional.interpolate(x, size=5, mode='{mode}')")
    assert_as_torch_or_refused(f"x = L.ones(0, 0, *[3] * {rank - 2})\n"
                    f"R = L.nn.functional.interpolate(x, size=2, mode='{mode}')")


_VIEW_SOURCES = ["x", "x.t()", "x[:, 1:]", "x[:, 2:]", "x[1]", "x[:, 1]", "x[0, 0]",
                 "L.zeros(0, 4)", "x[:, :3]", "x[:, ::2]", "L.ones(1, 2).expand(3, 2)",
                 "L.arange(6).view(2, 3)", "L.arange(8, dtype=L.uint8).view(2, 4)",
                 "x.view(-1)[1:9]", "x.view(-1)[2:10].view(2, 4)",
                 "L.tensor([[True, False, True, True]])"]
_VIEW_DTYPES = ["float32", "float64", "int32", "int64", "int16", "uint8", "float16", "int8"]


@pytest.mark.parametrize("dtype", _VIEW_DTYPES)
@pytest.mark.parametrize("source", _VIEW_SOURCES)
def test_view_as_dtype_as_torch(source: str, dtype: str) -> None:
    """view(dtype) reads the same memory as another dtype: the same bits, shape, strides and
    storage offset as torch's (a different element size changes the last dim), or torch's
    refusal (0-d, last stride, size, offset and stride divisibility) in its words."""
    program = (f"x = L.tensor([[1.5, -2.0, 3.0, 0.0], [4.0, 5.0, 6.0, 7.0], [1., 2., 3., 4.]])\n"
               f"y = ({source}).view(L.{dtype})\n")
    assert_as_torch(program + "R = y")
    assert_as_torch(program + "R = (y.stride(), y.storage_offset(), y.requires_grad, "
                              "y.grad_fn, y._base)")


@pytest.mark.parametrize("program", [
    "a = L.tensor([1., 2., 3., 4.])\nb = a.view(L.int32)\nb[0] = 0\nc = a.view(L.float64)\n"
    "c[1] = 1.0\nR = (a, b, c, a._version, b._version, c._version)",
    "a = L.tensor([1., 2.], requires_grad=True).clone()\nb = a.view(L.float32)\nb.mul_(2)\n"
    "R = (a, b, a.grad_fn.name(), b.requires_grad)",
    "a = L.tensor([1., 2.], requires_grad=True).clone()\nb = a.view(L.int32)\nb.add_(1)\nR = a",
    "a = L.tensor([1., 2.], requires_grad=True)\nR = (a.view(L.float32) * 3).sum().backward()",
    "a = L.tensor([1., 2.], requires_grad=True)\nb = a.exp()\na.view(L.int32).add_(1)\n"
    "R = b.backward(L.ones(2))",
    "x = L.tensor([1., 2., 3., 4.], requires_grad=True)\n"
    "R = [x.view(d) for d in (L.float32, L.int32, L.float64, L.float16)]",
    "R = L.zeros(2, 4).view(dtype=L.float64)", "R = L.zeros(2, 4).view(float)",
    "R = L.zeros(2, 4).view(int)", "R = L.zeros(2, 4).view(bool)",
    "R = L.zeros(2, 4).view(size=(8,))"])
def test_view_as_dtype_shares_memory_as_torch(program: str) -> None:
    """A dtype view shares storage and version counter and stays outside the graph, as
    torch's: writes through either are seen in both, a saved tensor notices them."""
    assert_as_torch(program)


@pytest.mark.parametrize("call", [
    "x.view('a')", "x.view(2.0, 3)", "x.view(L.float64, 2)", "x.view(None)",
    "x.view([L.float64])", "x.view(2, 'a')", "x.view((2, 'a'))", "x.view(6.0)",
    "x.view((6.0,))", "x.view()", "x.view(size=6)", "x.view(dtype=2)", "x.view(shape=(6,))",
    "x.view(L.float64, dtype=L.float64)", "x.view(2, 3, dtype=L.float64)", "x.view(True)",
    "x.view(str)", "x.view(L.tensor(6))", "x.view([2, 3])", "x.view(L.Size([6]))"])
def test_view_arguments_as_torch(call: str) -> None:
    """view's argument is a dtype or sizes (torch's two overloads): anything else gets
    torch's invalid-combination message, a bad later size its unpack error."""
    assert_as_torch(f"x = L.zeros(2, 3)\nR = {call}")


_EMPTY_VIEWS = ["x = x.transpose(0, -1)", "x = x.permute(*reversed(range(x.dim())))",
                "x = x.t() if x.dim() <= 2 else x.mT", "x = x.view(*reversed(x.shape))",
                "x = x.view(-1)", "x = x.reshape(*reversed(x.shape))", "x = x.unsqueeze(0)",
                "x = x.unsqueeze(-1)", "x = x.unsqueeze(x.dim() // 2)",
                "x = x.expand(2, *x.shape)", "x = x.contiguous()", "x = x[::2]",
                "x = x[..., 1:]", "x = x[1:]", "x = x[..., ::3]", "x = x.movedim(0, -1)",
                "x = x.squeeze()", "x = x.flatten()", "x = x.expand_as(x)", "x = x.select(0, 0)"]


@settings(SETTINGS, max_examples=300)
@given(st.lists(st.integers(0, 3), min_size=1, max_size=4).filter(lambda s: 0 in s),
       st.lists(st.sampled_from(_EMPTY_VIEWS), min_size=1, max_size=3))
def test_strides_of_empty_tensors_as_torch(shape: list, steps: list) -> None:
    """A tensor with no elements has torch's strides (contiguous ones counting a size-0 dim
    as 1, then whatever its views make of them: t, transpose, permute, view, reshape,
    unsqueeze, expand, slicing, contiguous), not contiguous ones recomputed for each view."""
    program = f"x = L.zeros({tuple(shape)})\n" + "\n".join(steps)
    assert_as_torch(program + "\nR = (x.shape, x.stride(), x.is_contiguous())")


@pytest.mark.parametrize("program", [
    "x = L.zeros(1, 2)\nR = x.expand(1, 2).stride()",
    "x = L.zeros(1, 2)\nR = x.unsqueeze(0).expand(3, 1, 2).stride()",
    "x = L.zeros(1, 2)\nR = x.expand_as(x).stride()",
    "x = L.zeros(3, 1)\nR = x.expand(3, 1).stride()",
    "x = L.zeros(3, 1)\nR = x.expand(2, 3, 4).stride()",
    "x = L.zeros(3, 1)\ny = x.expand(3, 4)\nR = (y.stride(), y.view(1, 3, 4).stride())"])
def test_expand_strides_as_torch(program: str) -> None:
    """expand keeps the stride of a size-1 dim it does not broadcast (numpy zeroes it)."""
    assert_as_torch(program)
