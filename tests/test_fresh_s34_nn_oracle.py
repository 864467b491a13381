"""Fresh fuzz findings of session 34 in nn.functional: what they found. Each case runs under
torch and minitorch (``L``) and must raise torch's exception with torch's message, or give
torch's result."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest
import torch

from tests.oracle import assert_as_torch, assert_same, dtype_name, numpy_of


def assert_close(got: Any, want: torch.Tensor, what: str = "result") -> None:
    """:func:`assert_same`, and for float16 (which it does not know) half's tolerance."""
    if dtype_name(want) != "float16":
        assert_same(got, want, what)
        return
    assert str(got.dtype) == str(want.dtype), f"{what}: dtype {got.dtype} vs {want.dtype}"
    assert tuple(got.shape) == tuple(want.shape), f"{what}: shape {got.shape}"
    np.testing.assert_allclose(numpy_of(got).astype(np.float32),
                               numpy_of(want).astype(np.float32), rtol=2e-3, atol=1e-4,
                               err_msg=what)


RNG = np.random.default_rng(34)
X = RNG.standard_normal((4, 3, 5)).astype(np.float16)
CHANNEL = [RNG.standard_normal(3).astype(np.float32) for _ in range(3)]
LAST = [RNG.standard_normal(5).astype(np.float32) for _ in range(2)]
WEIGHTS = RNG.standard_normal((4, 3, 5)).astype(np.float32)


def _norm_run(fn: Any, arrays: dict, grads: tuple, summed: bool) -> Any:
    """``fn(L, **tensors)``, then the backward of its (weighted) sum: the output, the
    gradients of ``grads``, and every tensor after (running statistics are moved in place)."""
    def run(L: Any) -> Any:
        ts = {k: None if a is None else L.tensor(a.copy(), requires_grad=k in grads)
              for k, a in arrays.items()}
        out = fn(L, **ts)
        weights = L.ones(out.shape) if summed else L.tensor(WEIGHTS[:out.shape[0]])
        (out.float() * weights).sum().backward()
        return (out.detach(), [ts[k].grad for k in grads],
                [t.detach() for t in ts.values() if t is not None])
    return run


def _f16(a: np.ndarray) -> np.ndarray:
    return a.astype(np.float16)


STATS = {"running_mean": CHANNEL[0], "running_var": np.abs(CHANNEL[1]) + 0.5}
BATCH_NORMS = [
    ("stats", lambda L, x, running_mean, running_var, training: L.nn.functional.batch_norm(
        x, running_mean, running_var, training=training), {}),
    ("all", lambda L, x, running_mean, running_var, weight, bias, training:
        L.nn.functional.batch_norm(x, running_mean, running_var, weight, bias, training),
     {"weight": CHANNEL[1], "bias": CHANNEL[2]}),
    ("bias half", lambda L, x, running_mean, running_var, weight, bias, training:
        L.nn.functional.batch_norm(x, running_mean, running_var, weight, bias, training),
     {"weight": CHANNEL[1], "bias": _f16(CHANNEL[2])}),
    ("weight half", lambda L, x, running_mean, running_var, weight, bias, training:
        L.nn.functional.batch_norm(x, running_mean, running_var, weight, bias, training),
     {"weight": _f16(CHANNEL[1]), "bias": CHANNEL[2]}),
]


@pytest.mark.parametrize("summed", [True, False])
@pytest.mark.parametrize("training", [True, False])
@pytest.mark.parametrize("spatial", [True, False])
@pytest.mark.parametrize("name, fn, params", BATCH_NORMS, ids=[c[0] for c in BATCH_NORMS])
def test_batch_norm_runs_a_half_input_with_float32_parameters_as_torch(
        name: str, fn: Any, params: dict, spatial: bool, training: bool, summed: bool) -> None:
    """A half input with float32 weight, bias and running statistics was refused ("mixed
    dtype (CPU): all inputs must share same datatype."): torch's mixed mode computes it in
    float32, the output and input's gradient in half, the statistics moved in float32; a half
    parameter among float32 ones is still refused."""
    x = X if spatial else X[:, :, 0].copy()
    arrays = {"x": x, **STATS, **params}
    grads = ("x", *(k for k in ("weight", "bias") if k in params))
    assert_as_torch(_norm_run(lambda L, **ts: fn(L, training=training, **ts), arrays, grads,
                              summed), assert_close)


@pytest.mark.parametrize("x_dtype, param_dtype, which", [
    ("float32", "float16", "stats"), ("float64", "float32", "stats"),
    ("float64", "float32", "params"), ("float16", "float64", "stats"),
    ("float32", "float64", "params"), ("float16", "float32", "params"),
])
def test_batch_norm_refuses_other_dtype_mixes_as_torch(x_dtype: str, param_dtype: str,
                                                       which: str) -> None:
    """Only a half input takes float32 parameters; any other mix keeps torch's refusal, the
    parameters' dtype checked before the input's."""
    def fn(L: Any) -> Any:
        p = getattr(L, param_dtype)
        x = L.tensor(X, dtype=getattr(L, x_dtype))
        stats = [L.zeros(3, dtype=p if which == "stats" else x.dtype) for _ in range(2)]
        return L.nn.functional.batch_norm(x, *stats, L.ones(3, dtype=p), L.zeros(3, dtype=p),
                                          training=True)
    assert_as_torch(fn, assert_close)


INSTANCE_NORMS = [
    ("bias", lambda L, x, bias: L.nn.functional.instance_norm(x, bias=bias),
     {"bias": CHANNEL[2]}),
    ("all", lambda L, x, running_mean, running_var, weight, bias: L.nn.functional.instance_norm(
        x, running_mean, running_var, weight, bias), {**STATS, "weight": CHANNEL[1],
                                                       "bias": CHANNEL[2]}),
    ("eval", lambda L, x, running_mean, running_var, weight: L.nn.functional.instance_norm(
        x, running_mean, running_var, weight, use_input_stats=False),
     {**STATS, "weight": CHANNEL[1]}),
]


@pytest.mark.parametrize("summed", [True, False])
@pytest.mark.parametrize("name, fn, params", INSTANCE_NORMS, ids=[c[0] for c in INSTANCE_NORMS])
def test_instance_norm_runs_a_half_input_with_float32_parameters_as_torch(
        name: str, fn: Any, params: dict, summed: bool) -> None:
    """instance_norm is a batch_norm of its input seen as one sample: its half input with
    float32 parameters was refused as batch_norm's."""
    grads = ("x", *(k for k in ("weight", "bias") if k in params))
    assert_as_torch(_norm_run(fn, {"x": X, **params}, grads, summed), assert_close)


ROW_NORMS = [
    ("layer", lambda L, x, weight, bias: L.nn.functional.layer_norm(x, [5], weight, bias),
     {"weight": LAST[0], "bias": LAST[1]}),
    ("layer 2d", lambda L, x, weight: L.nn.functional.layer_norm(x, [3, 5], weight),
     {"weight": RNG.standard_normal((3, 5)).astype(np.float32)}),
    ("layer bias", lambda L, x, bias: L.nn.functional.layer_norm(x, [5], None, bias),
     {"bias": LAST[1]}),
    ("group", lambda L, x, weight, bias: L.nn.functional.group_norm(x, 3, weight, bias),
     {"weight": CHANNEL[1], "bias": CHANNEL[2]}),
    ("group 1", lambda L, x, weight: L.nn.functional.group_norm(x, 1, weight),
     {"weight": CHANNEL[1]}),
    ("group bias", lambda L, x, bias: L.nn.functional.group_norm(x, 3, None, bias),
     {"bias": CHANNEL[2]}),
    ("rms", lambda L, x, weight: L.nn.functional.rms_norm(x, [5], weight), {"weight": LAST[0]}),
]


@pytest.mark.filterwarnings("ignore:Mismatch dtype")
@pytest.mark.parametrize("summed", [True, False])
@pytest.mark.parametrize("name, fn, params", ROW_NORMS, ids=[c[0] for c in ROW_NORMS])
def test_row_norms_of_a_half_input_with_float32_parameters_differentiate_as_torch(
        name: str, fn: Any, params: dict, summed: bool) -> None:
    """layer_norm of a half input with a float32 weight differentiated in half (the input's
    gradient 1e-3 where torch's is 1e-5); torch's mixed mode computes in float32 and sums the
    weight's and bias's gradients in half buffers (and, with a float32 bias and no weight,
    its backward fails)."""
    grads = ("x", *params)
    assert_as_torch(_norm_run(fn, {"x": X, **params}, grads, summed), assert_close)


def test_layer_norm_of_the_finding_differentiates_as_torch() -> None:
    """The fuzzer's case: (2, 3, 2) half input, normalized_shape [2], float32 weight, the
    backward of the sum."""
    x = RNG.standard_normal((2, 3, 2)).astype(np.float16)
    assert_as_torch(_norm_run(lambda L, x, weight: L.nn.functional.layer_norm(x, [2], weight),
                              {"x": x, "weight": LAST[0][:2].copy()}, ("x", "weight"), True),
                    assert_close)


@pytest.mark.parametrize("norm", ["layer", "group"])
@pytest.mark.parametrize("x_grad, bias_grad", [(True, False), (False, True), (True, True)])
def test_row_norms_with_a_float32_bias_alone_fail_backward_as_torch(
        norm: str, x_grad: bool, bias_grad: bool) -> None:
    """torch's mixed-mode backward reads the parameters' dtype from the weight: with a
    float32 bias and no weight layer norm's fails, group norm's where the bias needs a
    gradient."""
    def fn(L: Any) -> Any:
        x = L.tensor(X, requires_grad=x_grad)
        bias = L.tensor(CHANNEL[2] if norm == "group" else LAST[1], requires_grad=bias_grad)
        out = (L.nn.functional.group_norm(x, 3, None, bias) if norm == "group" else
               L.nn.functional.layer_norm(x, [5], None, bias))
        out.sum().backward()
        return out
    assert_as_torch(fn, assert_close)


@pytest.mark.parametrize("indices", [[0, 2, 4], [-1, 0, 5], [-5, 0, 1], [3, -1, 7, -9],
                                     [[2, 9], [2, 1]], [1, -1, 3, 6], [4], [-4, 3, 4]])
@pytest.mark.parametrize("dtype", ["float32", "float64", "int64"])
@pytest.mark.parametrize("bag", [False, True])
def test_embedding_renorms_the_rows_before_an_index_out_of_range_as_torch(
        indices: list, dtype: str, bag: bool) -> None:
    """torch renorms the rows an embedding (or embedding_bag) names in ascending order, each
    selected on its own: those before the first index out of range are renormed (in place)
    before it is refused; minitorch refused first and left the weight as it was."""
    def fn(L: Any) -> Any:
        weight = L.arange(1, 9, dtype=getattr(L, dtype)).reshape(4, 2)
        idx = L.tensor(indices)
        try:
            if bag:
                L.nn.functional.embedding_bag(idx.reshape(1, -1), weight, max_norm=0.5)
            else:
                L.nn.functional.embedding(idx, weight, max_norm=0.5)
        except (IndexError, RuntimeError) as error:
            return str(error), weight
        return "", weight
    assert_as_torch(fn, assert_same)


@pytest.mark.parametrize("shapes", [((0,), (1, 1)), ((2,), (3,)), ((2,), (2,))])
@pytest.mark.parametrize("input_dtype", ["float32", "bool"])
@pytest.mark.parametrize("grad", [True, False])
def test_soft_margin_loss_refuses_a_target_that_requires_grad_first_as_torch(
        shapes: tuple, input_dtype: str, grad: bool) -> None:
    """torch's autograd refuses a soft_margin_loss target that requires grad before its
    kernel checks the shapes (or negates a bool input); minitorch checked those first."""
    def fn(L: Any) -> Any:
        target = L.ones(shapes[1], requires_grad=True)
        with L.set_grad_enabled(grad):
            return L.nn.functional.soft_margin_loss(
                L.ones(shapes[0], dtype=getattr(L, input_dtype)), target)
    assert_as_torch(fn, assert_same)


@pytest.mark.filterwarnings("ignore:There is a performance drop")
@pytest.mark.parametrize("transform", ["jacfwd", "jacfwd(jacfwd)", "jacrev(jacfwd)"])
@pytest.mark.parametrize("target", ["of x", "fixed", "only"])
def test_soft_margin_loss_under_forward_ad_refuses_as_torch(transform: str,
                                                            target: str) -> None:
    """torch's forward formula of soft_margin_loss is its backward, which has no forward AD:
    a target with a tangent, or operands dual at an outer level, fail there; minitorch
    refused (or not) through the target's requires_grad, also under no_grad."""
    def fn(L: Any) -> Any:
        def loss(x: Any) -> Any:
            if target == "only":
                return L.nn.functional.soft_margin_loss(L.ones(6, dtype=x.dtype), x)
            y = x.flip(0) * 0.7 + 0.3 if target == "of x" else L.ones(6, dtype=x.dtype)
            return L.nn.functional.soft_margin_loss(x, y)
        jac = {"jacfwd": L.func.jacfwd(loss), "jacfwd(jacfwd)": L.func.jacfwd(L.func.jacfwd(loss)),
               "jacrev(jacfwd)": L.func.jacrev(L.func.jacfwd(loss))}[transform]
        return jac(L.arange(6, dtype=L.float64) / 7)
    assert_as_torch(fn, assert_same)


UNKNOWN_KEYWORD_CALLS = [
    "F.conv_transpose1d(L.ones(1, 1, 3), L.ones(1, 1, 2), stride=False, pad=2)",
    "F.conv_transpose2d(L.ones(1, 1, 3, 3), L.ones(1, 1, 2, 2), None, 'x', foo=1)",
    "F.avg_pool1d(L.ones(1, 1, 3), 'k', foo=1)",
    "F.avg_pool2d(L.ones(1, 3, 3), 2, 'x', foo=1)",
    "F.avg_pool1d(L.ones(1, 1, 4), 2, None, foo=1)",
    "F.adaptive_avg_pool1d(L.ones(1, 1, 3), 1.5, foo=1)",
    "L.max_pool2d(L.ones(1, 3, 3), 2, 1, 'p', foo=1)",
    "L.layer_norm(L.ones(2), 'k', foo=1)",
    "L.rms_norm(L.ones(2), 'k', foo=1)",
    "L.permute(L.ones(2), 'x', foo=1)",
    "L.tile(L.ones(2), 1.5, foo=1)",
    "L.reshape(L.ones(2), 'x', foo=1)",
    "L.broadcast_to(L.ones(2), 'x', foo=1)",
    "L.constant_pad_nd(L.ones(2), 'x', foo=1)",
    "L.split_with_sizes(L.ones(2), 'x', foo=1)",
    "L.tile(L.ones(2), (1,), foo=1)",
]


@pytest.mark.parametrize("call", UNKNOWN_KEYWORD_CALLS)
def test_a_bad_type_is_refused_before_an_unknown_keyword_as_torch(call: str) -> None:
    """torch's parser checks each argument's type as it binds it and looks for keywords left
    over last; minitorch refused the unknown keyword first where its parameter was annotated
    ``Any`` (a list of ints: kernel_size, stride, padding, dims, normalized_shape, ...)."""
    assert_as_torch(lambda L: eval(call, {"L": L, "F": L.nn.functional}), assert_same)


@pytest.mark.parametrize("call", [
    "F.threshold()", "F.threshold(L.ones(2))", "F.threshold(L.ones(2), 1)",
    "F.threshold(L.ones(2), 1, 2, foo=1)", "F.threshold(input=L.ones(2))",
    "F.threshold(L.ones(2), 1, 2, False, 5)",
    "F.threshold(L.ones(2), threshold=1, value=2, input=L.ones(2))",
    "L.threshold()", "L.threshold(L.ones(2), 1, 2, foo=1)", "F.max_pool2d()",
])
def test_threshold_binding_refusals_name_torchs_python_function(call: str) -> None:
    """torch's F.threshold is its Python ``_threshold``: Python's refusal of a call that does
    not bind names that (torch.threshold, its C++ twin, keeps its parser's words)."""
    assert_as_torch(lambda L: eval(call, {"L": L, "F": L.nn.functional}), assert_same)


NON_TENSORS = {"list": [[1.0]], "tuple": ((1.0,),), "ndarray": np.zeros((3, 3, 3, 4)),
               "int": 3, "float": 1.5, "None": None, "str": "ab"}


@pytest.mark.parametrize("kind", list(NON_TENSORS))
@pytest.mark.parametrize("call", ["F.tanhshrink(V)", "F.softsign(V)", "F.max_pool3d(V, 3)",
                                  "F.hardtanh(V)", "F.normalize(V)", "F.glu(V)"])
def test_python_functions_fail_on_their_first_read_of_a_non_tensor_as_torch(
        call: str, kind: str) -> None:
    """torch's tanhshrink and softsign are Python (``input - input.tanh()``,
    ``input / (input.abs() + 1)``): a non-tensor fails on that first attribute read, an
    AttributeError; minitorch refused it as its parser would (a TypeError)."""
    value = NON_TENSORS[kind]
    assert_as_torch(lambda L: eval(call, {"L": L, "F": L.nn.functional, "V": value}),
                    assert_same)
