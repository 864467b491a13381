"""Bad input that issue #21's fourth fuzz (seeds 3301, 3302) found minitorch running on, or
failing inside numpy or Python, where torch refuses it; each case runs on torch and on
minitorch (``L``) and must end the same (``R``'s value, or the exception's type and message).
"""

from __future__ import annotations

import pickle

import pytest
import torch
from hypothesis import given, settings
from hypothesis import strategies as st
from oracle import SETTINGS
from test_bad_input_fuzz21b_oracle import assert_as_torch

import minitorch as mt

# Objects whose pickles name no global (protocol 2's set and bytes name builtins that
# minitorch's weights-only allowlist spells differently: not this file's case).
_PICKLED = [None, 3, 1.5, "x", [1, 2.5], (1, "a"), {"a": 1}, 2**70, 0x1950A86A20F9469CFC6C]


@settings(SETTINGS, max_examples=60)
@given(st.sampled_from(_PICKLED), st.integers(0, pickle.HIGHEST_PROTOCOL),
       st.sampled_from(["", ", weights_only=False", ", weights_only=True"]))
def test_load_of_a_plain_pickle_is_refused_as_torch(obj: object, protocol: int,
                                                    weights_only: str) -> None:
    """A pickle that is no checkpoint (no magic number first) is refused: 'Invalid magic
    number', or the weights-only unpickler's refusal of an opcode it does not read."""
    assert_as_torch(f"import pickle\nb = io.BytesIO()\n"
                    f"pickle.dump({obj!r}, b, protocol={protocol})\n"
                    f"b.seek(0)\nR = L.load(b{weights_only})")


@pytest.mark.parametrize("data", [b"garbage", b"(N.", b"\x80\x02N.", b"\x80\x04\x95"])
def test_load_of_bytes_that_are_no_checkpoint_as_torch(data: bytes) -> None:
    assert_as_torch(f"R = L.load(io.BytesIO({data!r}))")


_CHECKPOINTED = ["t * 2", "t.detach() * 2", "(t * 2, t.sum())", "(t.detach(), t * 3)",
                 "(t.detach(), 1)"]
_BACKWARDS = ["R = L.autograd.grad(o.sum(), x)", "o.sum().backward(inputs=[x])\nR = x.grad",
              "o.sum().backward()\nR = x.grad"]


@settings(SETTINGS, max_examples=30)
@given(st.sampled_from(_CHECKPOINTED), st.sampled_from(_BACKWARDS))
def test_reentrant_checkpoint_refuses_as_torch(body: str, backward: str) -> None:
    """The reentrant checkpoint reruns its function inside the backward: refused under
    ``grad`` or ``backward(inputs=)``, and when no output of the rerun requires grad."""
    assert_as_torch("x = L.ones(3, requires_grad=True)\n"
                    f"out = L.utils.checkpoint.checkpoint(lambda t: {body}, x, "
                    "use_reentrant=True)\n"
                    "o = out[0] if isinstance(out, tuple) else out\n" + backward)


_SHAPES = ["()", "(1,)", "(3,)", "(2, 1)", "(1, 3)", "(2, 3)", "(3, 2)"]


@settings(SETTINGS, max_examples=60)
@given(st.sampled_from(["add", "mul"]), st.sampled_from(_SHAPES), st.sampled_from(_SHAPES),
       st.booleans())
def test_elementwise_out_that_is_an_operand_is_not_resized(op: str, a: str, b: str,
                                                           first: bool) -> None:
    """``out`` given as one of the operands is written in place: a broadcast shape larger
    than it is refused, not resized (another tensor given as ``out`` is resized)."""
    out = "a" if first else "b"
    assert_as_torch(f"a = L.full({a}, 1.5)\nb = L.full({b}, 2.0)\n"
                    f"L.{op}(a, b, out={out})\nR = {out}")


@settings(SETTINGS, max_examples=40)
@given(st.sampled_from(_SHAPES), st.sampled_from(_SHAPES),
       st.sampled_from(["none", "mean", "sum"]))
def test_soft_margin_loss_target_may_not_widen_the_input(a: str, b: str, reduction: str) -> None:
    """torch's soft_margin_loss writes into a tensor of the input's shape."""
    assert_as_torch(f"R = L.nn.functional.soft_margin_loss(L.full({a}, 0.5), "
                    f"L.full({b}, -1.0), reduction={reduction!r})")


@settings(SETTINGS, max_examples=60)
@given(st.sampled_from(["float", "double", "half", "int", "long", "short", "char", "byte",
                        "bool"]),
       st.sampled_from(["1", "None", "L.preserve_format", "1, 2", "memory_format=1",
                        "memory_format=None", "memory_format=L.contiguous_format", "foo=1"]))
def test_dtype_conversion_methods_take_only_memory_format(method: str, call: str) -> None:
    """``x.float()`` and its kin take no positional argument, only ``memory_format=``."""
    assert_as_torch(f"R = L.tensor([[1.5, -2.0]]).{method}({call})")


_INDEX_DTYPES = ["L.int64", "L.int32", "L.int16", "L.uint8", "L.bool", "L.float32",
                 "L.float64"]


@settings(SETTINGS, max_examples=60)
@given(st.sampled_from(_INDEX_DTYPES), st.sampled_from(_INDEX_DTYPES),
       st.sampled_from(["[0, 2]", "[1, 2]", "[0, 5]"]), st.sampled_from(["sum", "mean", "max"]))
def test_embedding_bag_promotes_indices_with_offsets_as_torch(indices: str, offsets: str,
                                                             starts: str, mode: str) -> None:
    """Indices and offsets are promoted to one dtype before the integer check (float offsets
    make the indices float, refused as 'indices'), as torch's promoteIndicesAndOffsets."""
    assert_as_torch(f"m = L.nn.EmbeddingBag(4, 3, mode={mode!r})\n"
                    "with L.no_grad():\n    m.weight.copy_(L.arange(12.).view(4, 3))\n"
                    f"R = m(L.tensor([0, 1, 2, 3], dtype={indices}), "
                    f"L.tensor({starts}, dtype={offsets}))")


@settings(SETTINGS, max_examples=30)
@given(st.sampled_from(["a.mul_(2)", "a[:2].add_(1)", "a.detach().zero_()", "b.add_(1)"]),
       st.sampled_from(["a.gather(0, L.tensor([0, 0]))",
                        "L.take_along_dim(a, L.tensor([2, 0]))"]))
def test_gather_saves_its_input_for_the_version_check(write: str, read: str) -> None:
    """gather saves ``self`` (torch's GatherBackward0 does): writing to it in place before
    backward is refused by the version counter."""
    assert_as_torch("base = L.tensor([1., 2., 3.], requires_grad=True)\n"
                    "a = base * 1\nb = base * 2\n"
                    f"z = {read}\n{write}\nz.sum().backward()\nR = base.grad")


@settings(SETTINGS, max_examples=40)
@given(st.sampled_from(["uniform_()", "normal_()", "normal_(0, -1)", "exponential_()",
                        "random_()", "random_(5)", "random_(1, 5)", "bernoulli_()",
                        "bernoulli_(0.5)", "bernoulli_(L.ones(3))"]),
       st.sampled_from(["3", "'cpu'", "L.ones(1)"]))
def test_random_fills_check_their_generator_as_torch(call: str, generator: str) -> None:
    """A ``generator=`` that is no Generator is refused by the parser, before the values
    (``nn.init``'s functions pass theirs on to these)."""
    keyword = f"generator={generator})"
    call = call[:-1] + (", " if call[-2] != "(" else "") + keyword
    assert_as_torch(f"R = L.empty(3).{call}")


@pytest.mark.parametrize("init", ["sparse_(t, 0.3", "trunc_normal_(t", "uniform_(t",
                                  "normal_(t", "orthogonal_(t"])
def test_init_functions_pass_a_bad_generator_to_torchs_refusal(init: str) -> None:
    assert_as_torch(f"t = L.empty(3, 3)\nR = L.nn.init.{init}, generator=3)")


@settings(SETTINGS, max_examples=40)
@given(st.sampled_from(["stride", "padding", "dilation"]),
       st.sampled_from(["True", "2.5", "'a'", "None", "(1,)", "1"]))
def test_max_pool1d_checks_its_window_types_as_max_pool2d(name: str, value: str) -> None:
    """max_pool1d's window arguments get torch's parser checks (a bool or a float was
    iterated: a raw TypeError)."""
    assert_as_torch(f"R = L.nn.functional.max_pool1d(L.arange(8.).view(2, 4), 3, "
                    f"**{{'{name}': {value}}})")


@settings(SETTINGS, max_examples=40)
@given(st.sampled_from(["x.mode(1, {})", "x.median(1, {})", "x.nanmedian(1, {})",
                        "x.kthvalue(1, 1, {})", "L.mode(x, 1, {})", "L.kthvalue(x, 9, 1, {})",
                        "x.mode(1, keepdim={})", "L.median(x, 5, keepdim={})",
                        "x.mode(dim=[1], keepdim={})", "x.kthvalue(1, (1,), keepdim={})",
                        "x.median(1.5, {})"]),
       st.sampled_from(["None", "1", "0", "'a'", "True", "1.0"]))
def test_selections_along_a_dim_check_keepdim_as_torch(call: str, keepdim: str) -> None:
    """mode, median, nanmedian and kthvalue take a bool keepdim, its type checked after the
    dim's type (as the parser reads them) and before the dim's range."""
    assert_as_torch(f"x = L.arange(24.).view(2, 3, 4)\nR = {call.format(keepdim)}")


@settings(SETTINGS, max_examples=30)
@given(st.sampled_from(["[1.5, -0.5]", "[-0.5, 1.5]", "[0.5, 0.5]", "[0.0, 1.0]", "[1.0]",
                        "[0.2, 0.3, 0.5]", "[2, 3]", "[0.9, 0.2]"]))
def test_random_split_checks_each_fraction_as_torch(lengths: str) -> None:
    """Fractions that sum to 1 must each lie in [0, 1] (torch's ValueError names the first
    that does not)."""
    assert_as_torch("L.manual_seed(0)\n"
                    f"R = [list(s) for s in L.utils.data.random_split(range(5), {lengths})]")


def test_random_split_warns_of_an_empty_split_as_torch() -> None:
    for library in (torch, mt):
        with pytest.warns(UserWarning, match="Length of split at index 0 is 0. This might "
                                             "result in an empty dataset."):
            library.utils.data.random_split(range(5), [0.0, 1.0])


_PRELU_DTYPES = ["L.bool", "L.int64", "L.int32", "L.float16", "L.float32", "L.float64"]


@settings(SETTINGS, max_examples=50)
@given(st.sampled_from(_PRELU_DTYPES), st.sampled_from(_PRELU_DTYPES),
       st.sampled_from(["(1,)", "(4,)", "(3,)", "(2, 2)"]))
def test_prelu_promotes_no_dtype_as_torch(input_dtype: str, weight_dtype: str,
                                          weight_shape: str) -> None:
    """prelu's input and weight must share a floating dtype, checked before the weight's
    shape; torch's kernel promotes neither."""
    assert_as_torch(f"x = L.tensor([[1, 0, 1, 0]]).to({input_dtype})\n"
                    f"w = L.full({weight_shape}, 0.25).to({weight_dtype})\n"
                    "R = L.nn.functional.prelu(x, w)")


@settings(SETTINGS, max_examples=30)
@given(st.sampled_from(["index_add", "index_add_"]),
       st.sampled_from(["L.tensor(2.)", "L.tensor(3)", "L.tensor(True)", "L.tensor([2.])",
                        "L.tensor(2.5)", "2", "1"]),
       st.sampled_from(["L.float32", "L.int64"]))
def test_index_add_reads_a_tensor_alpha_as_a_number(method: str, alpha: str,
                                                    dtype: str) -> None:
    """A 0-d tensor alpha is a Scalar to torch's parser: its value scales the source."""
    assert_as_torch(f"x = L.arange(6).view(2, 3).to({dtype})\n"
                    f"R = x.{method}(0, L.tensor([0, 1]), L.ones(2, 3, dtype={dtype}), "
                    f"alpha={alpha})")


@settings(SETTINGS, max_examples=50)
@given(st.sampled_from(["cross_entropy", "nll_loss"]),
       st.sampled_from([("(2, 3)", "(2,)"), ("(3,)", "()"), ("(1, 3, 1)", "(1, 1)"),
                        ("(1, 3, 2, 2)", "(1, 2, 2)"), ("(1, 3, 2, 2)", "(1, 2, 3)"),
                        ("(1, 3, 2)", "(1, 3)")]),
       st.sampled_from(["L.uint8", "L.int32", "L.int64"]), st.sampled_from(["0", "7"]))
def test_spatial_losses_take_long_targets_only(fn: str, shapes: tuple, dtype: str,
                                               value: str) -> None:
    """Bytes are class indices for a 1-D or 2-D input only; torch's spatial kernel reads
    Long targets (after its size checks, before the targets' range)."""
    input_shape, target_shape = shapes
    assert_as_torch(f"R = L.nn.functional.{fn}(L.zeros{input_shape}, "
                    f"L.full({target_shape}, {value}).to({dtype}))")


@settings(SETTINGS, max_examples=20)
@given(st.sampled_from(["X[:1]", "X.t()[:, :1]", "X", "X.double()"]),
       st.sampled_from(["X * 2", "X.sum(0, keepdim=True)", "X.float()"]))
def test_registering_a_parametrization_checks_against_the_shape_before_right_inverse(
        inverse: str, forward: str) -> None:
    """The registered tensor's own shape and dtype, read before right_inverse replaced it,
    are what forward(right_inverse(original)) must give back."""
    assert_as_torch("m = L.nn.Linear(2, 2)\n"
                    "class P(L.nn.Module):\n"
                    f"    def forward(self, X):\n        return {forward}\n"
                    f"    def right_inverse(self, X):\n        return {inverse}\n"
                    "L.nn.utils.parametrize.register_parametrization(m, 'weight', P())\n"
                    "R = tuple(m.parametrizations.weight.original.shape)")
