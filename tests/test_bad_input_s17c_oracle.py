"""Fuzz 21, session 17 (C): leftovers of the earlier fuzzing, each closed as a class against
live torch (pad's sizes per mode and rank, ...). Each program runs under torch and minitorch
(``L``): the same result, or the same exception type and message."""

from typing import Any

import pytest
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
    if (name not in ("Adam", "AdamW") and "betas" in betas) or \
            (name in ("SGD", "Adagrad") and capturable):
        return
    if late and "[" in lr:  # (each update's own refusal of a tensor of several: not here)
        lr = "L.tensor(0.1)"
    extra = f", capturable={capturable}" if capturable else ""
    built = f"lr=0.1, foreach={foreach}{extra}" if late else \
        f"lr={lr}{betas}, foreach={foreach}{extra}"
    assert_as_torch(f"p = L.nn.Parameter(L.ones(2))\no = L.optim.{name}([p], {built})\n"
                    + (f"o.param_groups[0]['lr'] = {lr}\n" if late else "")
                    + "p.grad = L.ones(2)\no.step()\nR = p")


@settings(max_examples=80, deadline=None)
@given(st.lists(st.integers(0, 3), max_size=6), st.lists(st.integers(0, 6), max_size=4),
       st.sampled_from(["sum", "mean", "max"]), st.sampled_from([None, 0, 2]),
       st.sampled_from(["float32", "float64"]), st.booleans())
def test_embedding_bag_offsets_as_torch(indices: list, offsets: list, mode: str,
                                        padding_idx: int | None, dtype: str,
                                        last: bool) -> None:
    """Any bags (empty ones, none, a last offset short of the indices' end) in each mode,
    with include_last_offset or not and a padding row or not: torch's bags, their gradient,
    or torch's refusal. (torch's float32 sum without padding_idx takes the gradient of
    indices past the last offset from memory it never wrote: only its result is compared.)"""
    offsets = sorted(min(o, len(indices)) for o in offsets)
    offsets = [0, *offsets[1:]] if offsets else []
    assume(not indices or len(offsets) > last)  # (indices but no bag: torch's kernels crash)
    garbage = last and mode == "sum" and padding_idx is None and dtype == "float32"
    assert_as_torch(
        f"w = L.arange(8., dtype=L.{dtype}).reshape(4, 2).exp().requires_grad_()\n"
        f"r = L.nn.functional.embedding_bag(L.tensor({indices}, dtype=L.int64), w, "
        f"L.tensor({offsets}, dtype=L.int64), mode='{mode}', include_last_offset={last}, "
        f"padding_idx={padding_idx})\n"
        + ("R = r" if garbage else "r.sum().backward()\nR = (r, w.grad)"))


@settings(max_examples=40, deadline=None)
@given(st.sampled_from(["L.norm(x{}, dim=-2{})", "x.norm(2, 0{})", "L.norm(x, p='fro'{}{})",
                        "L.norm(x, p='nuc'{}{})", "L.linalg.vector_norm(x{}{})",
                        "L.linalg.matrix_norm(x{}{})", "L.linalg.norm(x{}{})",
                        "L.norm(x, p=1{}{})"]),
       st.sampled_from(["", ", dtype=L.float64"]),
       st.sampled_from(["1", "0", "None", "1.0", "True", "L.tensor(True)"]))
def test_norms_keepdim_is_a_bool_as_torch(call: str, dtype: str, keepdim: str) -> None:
    """keepdim that is no bool: the vector norm's parser refusal, or the matrix norms'
    (no overload), worded for the call as torch words it."""
    assert_as_torch(f"x = L.ones(2, 2)\nR = {call.format(dtype, f', keepdim={keepdim}')}"
                    if call.count("{}") == 2 else
                    f"x = L.ones(2, 2)\nR = {call.format(f', keepdim={keepdim}')}")


@settings(max_examples=60, deadline=None)
@given(st.lists(st.sampled_from([0.0, 0.3, 1.0, -0.5, 1.5, float("nan")]), min_size=1,
                max_size=4).flatmap(lambda x: st.tuples(st.just(x), st.lists(
                    st.sampled_from([0.0, 0.3, 1.0, -0.5, 1.5, float("nan")]),
                    min_size=len(x), max_size=len(x)))),
       st.booleans())
def test_binary_cross_entropy_checks_each_element_as_torch(pair: tuple, weighted: bool) -> None:
    """Each element's input then target must lie in [0, 1] (NaN does not), the first bad
    element naming which: torch's kernel's order."""
    x, y = pair
    weight = f", weight=L.ones({len(x)})" if weighted else ""
    assert_as_torch(f"R = L.nn.functional.binary_cross_entropy(L.tensor({x}), "
                    f"L.tensor({y}){weight})".replace("nan", "float('nan')"))


@settings(max_examples=60, deadline=None)
@given(st.sampled_from(["()", "(1,)", "(2,)", "(2, 1)"]),
       st.sampled_from(["None", "L.zeros(2)", "L.zeros(3)", "L.zeros(3, 1)", "L.zeros(1)"]),
       st.sampled_from(["None", "L.ones(2)", "L.ones(3)", "L.ones(4, 1, 1)"]),
       st.sampled_from(["", ", dtype=L.int64"]), st.booleans())
def test_clamp_tensor_bounds_broadcast_together_as_torch(shape: str, low: str, high: str,
                                                         dtype: str, inplace: bool) -> None:
    """Tensor bounds broadcast with the input and with each other, or torch's error."""
    call = "x.clamp_" if inplace else "L.clamp"
    first = "" if inplace else "x, "
    assert_as_torch(f"x = L.ones({shape}{dtype})\nR = {call}({first}{low}, {high})")


_LINEAR = ["d.sum()", "d.reshape(3, 1)", "d[0]", "L.stack([d, d])", "d.mean()"]
_FORMULAS = ["d.sin()", "d.exp()", "d * 2", "d * d", "d.tanh()", "d / 7", "d.relu()",
             "d.softmax(0)", "d.to(L.float16)", "d.double()"]


@settings(max_examples=60, deadline=None)
@given(st.sampled_from(["float32", "float64"]), st.sampled_from(["float16", "float32", "float64"]),
       st.sampled_from(_LINEAR + _FORMULAS))
def test_forward_ad_tangent_dtypes_as_torch(primal: str, tangent: str, op: str) -> None:
    """A tangent takes the dtype torch's formula gives it: the input tangent's promoted with
    the primals' (a float64 tangent of a float32 primal stays float64), converted by a
    dtype conversion. (A linear formula keeps a narrower tangent's own dtype in torch:
    left out.)"""
    assume(op not in _LINEAR or tangent >= primal)  # (float16 < float32 < float64)
    assert_as_torch("fw = L.autograd.forward_ad\nwith fw.dual_level():\n"
                    f"    d = fw.make_dual(L.ones(3, dtype=L.{primal}), "
                    f"L.ones(3, dtype=L.{tangent}) / 3)\n"
                    f"    R = fw.unpack_dual({op}).tangent")


@pytest.mark.parametrize("program", [
    "R = L.func.jvp(lambda x: (x.sin().sum(), x), (L.ones(3),), (L.ones(3).double(),))",
    "R = L.autograd.functional.jvp(lambda x: x.exp(), L.ones(2), L.ones(2).double())"])
def test_function_transforms_keep_tangent_dtypes_as_torch(program: str) -> None:
    assert_as_torch(program)


@settings(max_examples=40, deadline=None)
@given(st.permutations(["x", "x * 2", "y", "y.sum()", "(y * x).sum()"]).map(lambda p: p[:3]),
       st.sampled_from(["()", "(2,)"]), st.booleans())
def test_gradients_of_outputs_that_lead_to_each_other_as_torch(outputs: list, shape: str,
                                                                 functional: bool) -> None:
    """Outputs where one is on another's path (the input itself, an intermediate and what
    follows it), in any order: every path is summed, as torch's (an output that leads to
    an earlier one was left out of the walk)."""
    if functional:
        body = ", ".join(o.replace("y", "(x * 3)") for o in outputs)
        assert_as_torch(f"R = L.autograd.functional.jvp(lambda x: ({body},), L.ones({shape}), "
                        f"L.ones({shape}))")
        return
    outs = ", ".join(outputs)
    assert_as_torch(f"x = L.ones({shape}, requires_grad=True)\ny = x * 3\nouts = [{outs}]\n"
                    "R = L.autograd.grad(outs, [x], [L.ones_like(o) for o in outs])")


@settings(max_examples=80, deadline=None)
@given(st.lists(st.sampled_from(["bool", "int64", "float32", "float64"]), min_size=3,
                max_size=3),
       st.sampled_from(["L.baddbmm(a, b, c)", "a.baddbmm_(b, c)", "L.addbmm(a[0], b, c)",
                        "a[0].addbmm_(b, c)", "L.bmm(b, c)", "L.matmul(b, c)"]))
def test_batched_products_dtypes_as_torch(dtypes: list, call: str) -> None:
    """bmm, baddbmm and addbmm (and their in-place forms) over mixed and bool dtypes: torch's
    checks in torch's order (a bool product no kernel has was computed)."""
    a, b, c = dtypes
    assert_as_torch(f"a = L.ones(2, 2, 2, dtype=L.{a})\nb = L.ones(2, 2, 3, dtype=L.{b})\n"
                    f"c = L.ones(2, 3, 2, dtype=L.{c})\nR = {call}")


@settings(max_examples=60, deadline=None)
@given(st.sampled_from(["bool", "int64", "float32"]),
       st.sampled_from([("(2, 3)", "(2,)"), ("(3,)", "()"), ("(2, 3, 4)", "(2, 4)"),
                        ("(2, 3, 4, 5)", "(2, 4, 5)"), ("(0, 3)", "(0,)"),
                        ("(2, 3, 4)", "(2, 5)")]),
       st.sampled_from(["int64", "uint8"]),
       st.sampled_from(["", ", weight=L.ones(3)", ", weight=L.ones(3, dtype=L.int64)",
                        ", weight=L.ones(4)"]))
def test_nll_loss_input_dtypes_as_torch(dtype: str, shapes: tuple, target: str,
                                        weight: str) -> None:
    """An input that is not floating: torch's kernels have none (an integer loss was
    computed), refused after the shape and weight-size checks, before the weight's dtype."""
    x, t = shapes
    assert_as_torch(f"R = L.nn.functional.nll_loss(L.ones({x}, dtype=L.{dtype}), "
                    f"L.zeros({t}, dtype=L.{target}){weight})")


@pytest.mark.parametrize("program", [
    "R = L.vmap(lambda x: L.dot(x, x))(L.ones(0, 2))",
    "R = L.vmap(lambda x: L.dot(x, x), out_dims=2)(L.ones(0, 2))",
    "R = L.vmap(lambda x: (L.dot(x, x), x), out_dims=(0, 1))(L.ones(0, 2))",
    "R = L.vmap(lambda x, y: L.dot(x, y), in_dims=(0, None))(L.ones(0, 2), L.ones(2))"])
def test_vmap_over_no_examples_of_an_op_without_a_rule_as_torch(program: str) -> None:
    """A batch of none through an op minitorch has no batching rule for: the stand-in
    example tells the shapes, as for any other batch (its refusal of a BatchedTensor
    argument escaped)."""
    assert_as_torch(program)


@settings(max_examples=80, deadline=None)
@given(st.lists(st.sampled_from(["True", "False", "None", "[0, 1]", "L.tensor(1)", "0",
                                 "1:", "[[0], [2]]"]), min_size=1, max_size=3),
       st.sampled_from(["2.", "L.ones(2)", "L.ones(2, 1)", "L.ones(1, 4)", "L.ones(2, 3, 4)",
                        "L.ones(0)"]),
       st.booleans())
def test_python_bools_in_keys_index_with_the_other_tensors_as_torch(key: list, value: str,
                                                                     write: bool) -> None:
    """A Python bool in a key is torch's 0-d mask: a new dim indexed together with the
    other index tensors, so False among them does not broadcast (the write took it for a
    new dim of none)."""
    index = ", ".join(key)
    assert_as_torch(f"x = L.ones(3, 4)\nx[{index}] = {value}\nR = x" if write else
                    f"x = L.ones(3, 4)\nR = x[{index}]")


@pytest.mark.parametrize("program", [
    "R = L.load(io.BytesIO(b'garbage'), mmap=True)",
    "R = L.load(io.BytesIO(b''), mmap=True)",
    "b = io.BytesIO()\nL.save(L.ones(2), b)\nb.seek(0)\nR = L.load(b, mmap=True)"])
def test_load_with_mmap_of_what_is_no_checkpoint_as_torch(program: str) -> None:
    """mmap=True of a stream that is no checkpoint: torch's refusal of a file it cannot map,
    before its refusal of a file object."""
    assert_as_torch(program)


def test_load_with_mmap_of_a_garbage_file_as_torch(tmp_path: Any) -> None:
    path = tmp_path / "garbage.pt"
    path.write_bytes(b"garbage")
    assert_as_torch(f"R = L.load({str(path)!r}, mmap=True)")


@settings(max_examples=40, deadline=None)
@given(st.sampled_from(["L.linspace(0, 300, {n}, dtype=L.{d})",
                        "L.logspace(0, 1, {n}, dtype=L.{d})", "L.rand(({n},), dtype=L.{d})",
                        "L.randn(({n},), dtype=L.{d})",
                        "L.rand(({n}, {n}), dtype=L.{d})"]),
       st.sampled_from(["0", "5", "2**38", "2**40", "2**62"]),
       st.sampled_from(["bool", "int8", "int64", "float32"]))
def test_factories_allocate_before_their_kernels_dtype_checks_as_torch(call: str, n: str,
                                                                     dtype: str) -> None:
    """A size past what can be held is refused before a dtype the kernel lacks, as torch
    makes its output before the kernel runs."""
    assert_as_torch("L.manual_seed(0)\nR = " + call.format(n=n, d=dtype))


_GROUPS = {"[p, p]": lambda p, q: [p, p], "[p, q, p]": lambda p, q: [p, q, p],
           "one group twice": lambda p, q: [{"params": [p, p]}], "[p, q]": lambda p, q: [p, q],
           "second group": lambda p, q: [{"params": [p]}, {"params": [q, q]}]}


@pytest.mark.parametrize("groups", list(_GROUPS))
@pytest.mark.parametrize("name", ["SGD", "Adam", "RMSprop"])
def test_optimizer_warns_of_duplicate_parameters_as_torch(groups: str, name: str) -> None:
    """A group that lists a parameter twice: torch's warning (and the group as given)."""
    import warnings

    import torch

    import minitorch

    caught = []
    for lib in (torch, minitorch):
        params = _GROUPS[groups](lib.nn.Parameter(lib.ones(2)), lib.nn.Parameter(lib.ones(3)))
        with warnings.catch_warnings(record=True) as seen:
            warnings.simplefilter("always")
            optimizer = getattr(lib.optim, name)(params, lr=0.1)
        caught.append(([(w.category, str(w.message)) for w in seen],
                       [len(g["params"]) for g in optimizer.param_groups]))
    assert caught[0] == caught[1]
