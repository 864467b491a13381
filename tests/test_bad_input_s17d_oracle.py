"""Fuzz 21, session 17 (fuzz D seeds 5503 and 5504): results and refusals unlike torch's.
Each program runs under torch and minitorch (``L``): the same result ``R``, or the same
exception type and message."""

import inspect
import math
import re

import pytest
import torch
from hypothesis import given, settings
from hypothesis import strategies as st
from oracle import SETTINGS
from test_bad_input_fuzz21b_oracle import assert_as_torch, run

import minitorch as mt
from minitorch import _call_form

_ADDRESS = re.compile(r"0x[0-9a-f]+")


@pytest.mark.parametrize("attribute", ["T", "mT", "H", "mH"])
@pytest.mark.parametrize("shape", [(), (3,), (2, 3), (2, 3, 4)])
@pytest.mark.parametrize("requires_grad", [False, True])
def test_transpose_properties_on_every_rank(attribute: str, shape: tuple,
                                            requires_grad: bool) -> None:
    """``x.T`` of a 0-D tensor is a permutation of nothing (torch warns once), ``mT``, ``H``
    and ``mH`` of one the tensor itself; inside vmap a vector's elements are 0-D."""
    assert_as_torch(f"x = L.ones({shape!r}).requires_grad_({requires_grad})\n"
                    f"y = x.{attribute}\nR = (y, y is x)")


def test_transpose_of_vmapped_elements() -> None:
    assert_as_torch("R = L.vmap(lambda x, y: x.T * y, in_dims=(-1, 0))(L.arange(3.), "
                    "L.ones(3))")


@settings(SETTINGS, max_examples=40)
@given(st.lists(st.integers(1, 3), min_size=1, max_size=3), st.data())
def test_in_place_into_one_element_of_an_expansion(shape: list, data: st.DataObject) -> None:
    """A view that picks one element along each expanded dim of an expansion (or of
    overlapping unfold windows) has no two elements in one memory place: written in place as
    torch writes it, through to the expanded tensor; the expansion itself is refused
    (torch's fill_ and zero_ write into it: not drawn here)."""
    dim = data.draw(st.integers(0, len(shape) - 1))
    shape[dim] = 1
    wide = [*shape[:dim], 3, *shape[dim + 1:]]
    index = data.draw(st.integers(-3, 2))
    grad = data.draw(st.booleans())
    op = data.draw(st.sampled_from(["add_(1)", "mul_(2)", "uniform_()", "neg_()",
                                    "copy_(L.ones(()))"]))
    start = (f"L.manual_seed(0)\nb = L.arange(float({math.prod(shape)})).reshape({shape})"
             f".requires_grad_({grad})\nx = b * 1\ny = x.expand({wide})\n")
    assert_as_torch(start + f"z = y.select({dim}, {index})\nz.{op}\nR = (x, y, z)")
    assert_as_torch(start + f"y.{op}\nR = x")


@pytest.mark.parametrize("program", [
    "x = L.tensor(0.19)\nx.expand_as(L.tensor(1.8)).add_(1)\nR = x",
    "x = L.arange(6.)\nw = x.unfold(0, 3, 1)\nw[1].mul_(2)\nR = (x, w)",
    "x = L.arange(6.)\nw = x.unfold(0, 3, 1)\nw[:, 2].add_(1)\nR = x",
    "x = L.ones(3, 1)\nz = x.expand(3, 2).t()[1]\nz.add_(1)\nR = x",
    "b = L.tensor([1., 2., 3.], requires_grad=True)\nx = (b * 1)[None].expand(2, 3)[0]\n"
    "x.uniform_()\nx.sum().backward()\nR = (x.shape, b.grad)"])
def test_in_place_into_views_without_overlap(program: str) -> None:
    assert_as_torch(program)


_BOUND = st.sampled_from([-2.5, -1, -0.5, 0, 0.5, 1, 2.7, 3, 300, True])


@settings(SETTINGS, max_examples=80)
@given(st.sampled_from(["bool", "uint8", "int8", "int32", "int64", "float16", "float32"]),
       _BOUND, _BOUND, st.sampled_from(["F.hardtanh({})", "F.hardtanh_({})",
                                        "F.hardtanh({}, inplace=True)", "F.relu6(x)"]))
def test_hardtanh_bounds_for_every_dtype(dtype: str, low: float, high: float,
                                         form: str) -> None:
    """An integer input's bounds are read as int64 (truncated), none negative for uint8; a
    bool input is refused; F.hardtanh_ (torch's C++ form) takes crossed bounds that
    F.hardtanh refuses."""
    call = form.format(f"x, {low!r}, {high!r}")
    assert_as_torch("F = L.nn.functional\n"
                    f"x = L.tensor([-3, 0, 2, 5, 200]).to(L.{dtype})\nR = ({call}, x)")


def _bare_methods() -> list:
    """The Tensor methods torch parses in C that take nothing but the tensor (in-place twins
    included), as minitorch declares them (the class's own, dim() and item() among them,
    are left unwrapped, as they are on every op's path)."""
    ops = {name: getattr(getattr(mt.Tensor, name), "op", None) for name in dir(mt.Tensor)
           if not name.startswith("_") and hasattr(torch.Tensor, name)}
    return sorted(name for name, op in ops.items() if op is not None and
                  name not in _call_form.PYTHON_METHODS and
                  name != "is_pinned" and  # torch's takes a device
                  len(inspect.signature(op).parameters) == 1)


@pytest.mark.parametrize("name", _bare_methods())
def test_methods_that_take_nothing_refuse_arguments_in_torchs_words(name: str) -> None:
    """torch's C method refuses any keyword ("takes no keyword arguments") and any argument
    (an in-place twin of a one-input op refused it from inside minitorch). Not under
    hypothesis: while a tracer runs, CPython names such a method's class ``Tensor``, not
    ``TensorBase``."""
    for call in ["(bad=1)", "(out=None)", "(1)", "(1, 2)"]:
        assert_as_torch(f"R = L.ones(2, 2).{name}{call}")


@pytest.mark.parametrize("call", ["storage(1)", "is_shared(1)", "share_memory_(1)",
                                  "unflatten(1, (2,), 2)", "dim_order(1, 2)", "norm(*[1] * 7)",
                                  "unique(bad=1)", "register_hook()"])
def test_python_methods_refuse_arguments_in_pythons_words(call: str) -> None:
    """The methods torch writes in Python are refused by Python, under ``Tensor.``."""
    assert_as_torch(f"R = L.ones(2, 2).{call}")


@pytest.mark.parametrize("shape", [(), (1,), (2,), (0,), (2, 3)])
@pytest.mark.parametrize("call", ["x.item()", "float(x)", "int(x)", "bool(x)"])
def test_a_meta_tensors_item_checks_its_element_count_first(shape: tuple, call: str) -> None:
    assert_as_torch(f"x = L.ones({shape!r}, device='meta')\nR = {call}")


@pytest.mark.parametrize("path", ["3", "None", "2.5", "['t.json']"])
def test_a_chrome_trace_path_that_is_no_string(path: str) -> None:
    """torch's binding names the profiler's result object (its address aside)."""
    program = ("with L.autograd.profiler.profile() as p:\n    y = L.ones(2) * 2\n"
               f"p.export_chrome_trace({path})\nR = 1")
    want, got = run(torch, program), run(mt, program)
    assert (got[0], _ADDRESS.sub("0x", got[1])) == (want[0], _ADDRESS.sub("0x", want[1]))


def _layers() -> list:
    return sorted(name for name in dir(mt.nn) if isinstance(getattr(mt.nn, name), type) and
                  issubclass(getattr(mt.nn, name), mt.nn.Module) and hasattr(torch.nn, name) and
                  name not in ("Hardtanh",))  # torch's takes two deprecated bounds more


@pytest.mark.parametrize("name", _layers())
def test_a_layers_constructor_is_refused_under_torchs_class_name(name: str) -> None:
    """Python names the class whose ``__init__`` refused the call: the layer's own where
    torch's defines one (Conv2d, not minitorch's _ConvNd; Sigmoid, whose Module.__init__
    says its name), the base's where torch's shares one (_MaxPoolNd, _Loss)."""
    for call in ["(zz_bad=1)", "()", "(*[1] * 12)"]:
        assert_as_torch(f"R = L.nn.{name}{call}\nR = 0")


@pytest.mark.parametrize("call", ["super().__init__(3)", "super().__init__(bad=1)",
                                  "super().__init__()"])
def test_a_subclass_calling_modules_constructor_with_arguments(call: str) -> None:
    assert_as_torch("class Net(L.nn.Module):\n    def __init__(self):\n"
                    f"        {call}\nR = (Net(), 0)[1]")


@settings(SETTINGS, max_examples=60)
@given(st.integers(1, 3), st.integers(3, 5), st.booleans(), st.booleans(),
       st.sampled_from(["", ", stride=(1, 1)", ", dilation=0", ", dilation=(1, 1)",
                        ", padding=(0, 0, 0)"]))
def test_a_convolutions_weight_of_another_rank(rank: int, weight_dim: int, transposed: bool,
                                               batched: bool, extra: str) -> None:
    """The geometry's lengths are checked against the weight's dims, then the weight's rank
    against the input's, in torch's words (the input told with its batch); a 1-d
    convolution's zero dilation is told as the 2-d one of height one torch runs."""
    fn = f"conv_transpose{rank}d" if transposed else f"conv{rank}d"
    shape = (1, 2, *[4] * rank)[0 if batched else 1:]
    weight = (2, 2, *[3] * (weight_dim - 2))
    assert_as_torch(f"R = L.nn.functional.{fn}(L.ones{shape}, L.ones{weight}{extra})")


@settings(SETTINGS, max_examples=60)
@given(st.sampled_from(["L.zeros(S, dtype=D)", "L.ones(S, dtype=D)", "L.empty(S, dtype=D)",
                        "L.ones(2).new_zeros(S, dtype=D)", "L.ones(2).new_ones(S, dtype=D)",
                        "L.ones(2).new_empty(S, dtype=D)",
                        "L.ones(2).new_full((S,), 3, dtype=D)", "L.full((S,), 3, dtype=D)"]),
       st.integers(1, 3), st.sampled_from(["'float32'", "np.float32", "3", "L.ones(1)"]))
def test_a_keyword_only_dtype_is_refused_without_a_position(form: str, count: int,
                                                            dtype: str) -> None:
    """dtype is keyword-only (after ``*size``): torch names no position, however many sizes
    came before it."""
    assert_as_torch("R = " + form.replace("S", ", ".join(["2"] * count)).replace("D", dtype))


@settings(SETTINGS, max_examples=40)
@given(st.sampled_from(["F.adaptive_max_pool1d(x, S)", "F.adaptive_avg_pool1d(x, S)",
                        "L.adaptive_max_pool1d(x, S)", "L.nn.AdaptiveMaxPool1d(S)(x)",
                        "L.nn.AdaptiveMaxPool1d(S, return_indices=True)(x)"]),
       st.sampled_from([(5,), (1, 5), (2, 1, 5), (1, 1, 1, 5)]),
       st.sampled_from(["None", "2", "2.5", "(None,)", "'a'"]))
def test_an_adaptive_1d_pools_output_size_is_parsed_before_the_input_is_checked(
        form: str, shape: tuple, size: str) -> None:
    assert_as_torch("F = L.nn.functional\n"
                    f"x = L.ones{shape}\nR = " + form.replace("S", size))


@settings(SETTINGS, max_examples=50)
@given(st.sampled_from(["b * 1", "b.exp()", "b.sum(1, keepdim=True)", "b.max(1)[0]",
                        "b.unsqueeze(0) * 1", "b.clamp(0, 1)", "b.pow(2)", "b.mean(1)"]),
       st.sampled_from(["add_(1)", "mul_(2)", "unsqueeze_(0)", "t_()", "squeeze_()",
                        "transpose_(0, 0)", "clamp_(0, 1)"]))
def test_a_saved_tensor_modified_in_place_names_its_creators_op(make: str,
                                                                change: str) -> None:
    """torch names the op behind the node that made it: the node's name without
    "Backward0", an overload's number kept (UnsqueezeBackward1 of unsqueeze_ is Unsqueeze1)."""
    assert_as_torch(f"b = L.ones(2, 3, requires_grad=True)\na = {make}\nz = a.abs()\n"
                    f"a.{change}\nz.sum().backward()\nR = b.grad")


@settings(SETTINGS, max_examples=30)
@given(st.lists(st.integers(0, 2), max_size=2),
       st.sampled_from(["L.linalg.cholesky(A)", "L.linalg.cholesky(A, upper=True)",
                        "L.linalg.cholesky_ex(A).L", "L.cholesky(A)", "A.cholesky()"]),
       st.sampled_from(["float32", "float64"]))
def test_cholesky_of_empty_matrices(batch: list, call: str, dtype: str) -> None:
    """0 x 0 matrices (in any batch, an empty one too) factor to themselves; the kernel's
    batch of them was a numpy reshape error."""
    assert_as_torch(f"A = L.zeros({(*batch, 0, 0)!r}, dtype=L.{dtype}, requires_grad=True)\n"
                    f"R = {call}\nR.sum().backward()\nR = (R, A.grad)")


@settings(SETTINGS, max_examples=30)
@given(st.lists(st.integers(1, 2), max_size=2), st.sampled_from(["nan", "inf", "1."]),
       st.sampled_from(["L.linalg.pinv(A)", "L.pinverse(A)", "A.pinverse()",
                        "L.linalg.pinv(A, rtol=0.1)"]))
def test_pinv_of_a_matrix_holding_a_nan(batch: list, value: str, call: str) -> None:
    """torch's pinv is its SVD's: a NaN is refused in linalg.svd's words (numpy's own
    LinAlgError escaped)."""
    assert_as_torch(f"A = L.ones({(*batch, 2, 3)!r})\nA[..., 0, 0] = float('{value}')\n"
                    f"R = {call}")
