"""Bad and edge input of issue #21's later groups against live torch: 0-d shapes passed on,
``index_add``'s checks and gradients, ... Each case runs on torch and on minitorch and must
have the same outcome (the same result, or the same exception type and message).
"""

from __future__ import annotations

import math
import warnings
from typing import Any

import numpy as np
import pytest
import torch
from badinput import classify
from hypothesis import given
from hypothesis import strategies as st
from oracle import SETTINGS, assert_same, assert_same_error, raised_by

import minitorch as mt


def assert_same_as_torch(expression: str) -> None:
    """``expression`` (over ``L``, ``np``) has torch's outcome in minitorch."""
    outcome, said = classify(lambda L, e: eval(e, {"np": np, "L": L}), [lambda L: expression])
    assert outcome == "same", said


@pytest.mark.parametrize("expression", [
    "L.ones(3).expand_as(L.tensor(1.))", "L.ones(3).view_as(L.tensor(1.))",
    "L.ones(1).reshape_as(L.tensor(1.))", "L.rand_like(L.tensor(1.)).shape",
    "L.randn_like(L.tensor(True)).shape", "L.normal(2.5, 1, ()).shape",
    "L.nn.Dropout(0.5)(L.tensor(1.)).shape", "L.bernoulli(L.tensor(0.5), 0.5).shape",
    "L.nn.functional.mse_loss(L.tensor(1.), L.tensor(2.))",
    "L.nn.functional.avg_pool2d(L.tensor(1.), 1, 1)",
    "L.nn.functional.avg_pool2d(L.ones(2, 3), 3, np.int64(2))",
    "L.nn.functional.avg_pool2d(L.ones(1, 1, 4, 4), 2, ())"])
def test_zero_dim_shapes_pass_on_as_torch(expression: str) -> None:
    """A 0-d tensor's shape ``()`` reaches the op as a shape, not as no argument at all."""
    assert_same_as_torch(expression)


def _int_tensor(values: Any, dtype: str) -> Any:
    return lambda L: L.tensor(values, dtype=getattr(L, dtype))


INDEX_ADD_SELF = [(3,), (), (2, 3), (0, 3)]
INDEX_ADD_INDEX = [([0], "int64"), (0, "int64"), ([0.0], "float32"), ([[0]], "int64"),
                   (True, "bool"), ([0, 1], "int64"), ([5], "int64"), ([-1], "int64"),
                   ([], "int64")]
INDEX_ADD_SOURCE = [(1,), (), (1, 3), (2,), (1, 2), (3,), (2, 1), (2, 3)]


@SETTINGS
@given(self_shape=st.sampled_from(INDEX_ADD_SELF), index=st.sampled_from(INDEX_ADD_INDEX),
       source_shape=st.sampled_from(INDEX_ADD_SOURCE), dim=st.sampled_from([0, 1, -1, 2]),
       dtypes=st.sampled_from([("float32", "float32"), ("float32", "float64"),
                               ("int64", "float32"), ("int64", "int64")]))
def test_index_add_checks_as_torch(self_shape: tuple, index: tuple, source_shape: tuple,
                                   dim: int, dtypes: tuple) -> None:
    """Index dims and dtypes, self and source dtypes and shapes, index values: torch's
    checks in torch's order."""
    def call(L: Any) -> Any:
        self_ = L.ones(self_shape, dtype=getattr(L, dtypes[0]))
        source = L.ones(source_shape, dtype=getattr(L, dtypes[1]))
        return self_.index_add_(dim, _int_tensor(*index)(L), source, alpha=2)

    outcome, said = classify(lambda L, f: f(L), [lambda L: call])
    assert outcome == "same", said


@pytest.mark.parametrize("shapes", [((), [0], ()), ((), 0, ()), ((3,), [2, 0, 2], (3,)),
                                    ((2, 3), [1], (1, 3)), ((3,), 1, (1,))])
def test_index_add_gradients_as_torch(shapes: tuple) -> None:
    self_shape, index, source_shape = shapes
    results = []
    for L in (torch, mt):
        a = L.ones(self_shape, requires_grad=True)
        s = L.full(source_shape, 2.0, requires_grad=True)
        out = L.index_add(a * 1, 0, L.tensor(index), s, alpha=3)
        (out * L.arange(1.0, out.numel() + 1).reshape(out.shape)).sum().backward()
        results.append((out.tolist(), a.grad.tolist(), s.grad.tolist()))
    assert results[0] == results[1]


NORMAL_VALUES = [lambda L, v=v: v for v in (
    0.0, -1.0, float("nan"), 2, True, np.float32(1.5), np.int32(3), np.array(2.0), 1j, None,
    "a", 2 ** 1100)] + [lambda L: L.ones(2), lambda L: L.tensor(-1.0),
                        lambda L: L.ones(2, dtype=L.int64), lambda L: L.tensor([1.0, np.nan])]
NORMAL_SIZES = [(2,), [2, 3], (), (2, 0), (-1,), (2.0,), 3, None, (np.int64(2),), (2 ** 63,)]


@SETTINGS
@given(mean=st.sampled_from(NORMAL_VALUES), std=st.sampled_from(NORMAL_VALUES),
       size=st.sampled_from(NORMAL_SIZES))
def test_normal_picks_torch_overload_and_checks(mean: Any, std: Any, size: Any) -> None:
    """Numbers with a size, tensors without one (a 0-d tensor reads as a number); then the
    size, the std's sign (nan too) and the dtype, in torch's order."""
    def call(L: Any, m: Any, s: Any) -> Any:
        return (L.normal(m, s) if size is None else L.normal(m, s, size)).shape

    outcome, said = classify(call, [mean, std])
    assert outcome == "same", said


BROADCAST_SHAPES = [lambda L, v=v: v for v in (
    (), (2, 3), [2, 3], (3, 1), (-1, 3), (2, -1), (True, 2), (2.0,), (1.5, 1), (None,), 2, -1,
    None, "ab", (np.int64(2), 3), np.int64(2), {}, np.array([2, 3]), [2, [3]])] + [
    lambda L: (L.tensor(2), 1)]


@SETTINGS
@given(shapes=st.lists(st.sampled_from(BROADCAST_SHAPES), max_size=3))
def test_broadcast_shapes_fails_where_and_as_torch(shapes: list) -> None:
    """torch's broadcast_shapes is Python over whatever it is given: its odd errors (an
    AssertionError for a tensor's comparison, a ValueError for a negative size, torch.Size's
    TypeError for a float) are minitorch's too."""
    outcome, said = classify(lambda L, *s: L.broadcast_shapes(*s), shapes)
    assert outcome == "same", said


@SETTINGS
@given(values=st.sampled_from([[1.25, -2.5], [0.0, np.nan], [1, 2], [True]]),
       dtype=st.sampled_from(["float32", "float64", None]),
       decimals=st.sampled_from([0, 2, -1, 39, 400, -400, 2 ** 62, -(2 ** 62), 2 ** 63, True,
                                 1.0, np.int64(2), np.int32(1), None]))
def test_round_decimals_as_torch(values: list, dtype: str | None, decimals: Any) -> None:
    """decimals: any int (numpy's, a tensor's) read as torch reads it, huge ones giving
    torch's nan, not numpy's C overflow; integer tensors refused with torch's kernel name."""
    def call(L: Any) -> Any:
        x = L.tensor(values, dtype=dtype and getattr(L, dtype))
        return L.round(x, decimals=decimals)

    outcome, said = classify(lambda L, f: f(L), [lambda L: call])
    assert outcome == "same", said


ALPHA_OPERANDS = [lambda L: L.ones(3), lambda L: L.ones(2, 3, dtype=L.int64),
                  lambda L: L.tensor([True, False]), lambda L: 2, lambda L: 1.5,
                  lambda L: True]


@SETTINGS
@given(input=st.sampled_from(ALPHA_OPERANDS[:3]), other=st.sampled_from(ALPHA_OPERANDS),
       alpha=st.sampled_from([1, 2, 0, 0.5, True, 1j, 1e308, np.float32(2.5),
                              np.array([1.0, 2.0]), "a", None, np.bool_(True), 2 ** 62,
                              np.int64(2)]),
       name=st.sampled_from(["add", "sub"]))
def test_add_sub_alpha_as_torch(input: Any, other: Any, alpha: Any, name: str) -> None:
    """alpha: a number the result's dtype takes (no bool but for bool results, where it is
    read as a bool; no float nor numpy bool for integer ones; no complex, no float32 overflow),
    in place too; a numpy array is refused rather than compared with 1; ``-`` refuses a bool
    operand before it reads alpha."""
    def call(L: Any, a: Any, b: Any) -> Any:
        return (getattr(L, name)(a, b, alpha=alpha), getattr(a.clone(), f"{name}_")(b, alpha=alpha))

    outcome, said = classify(call, [input, other])
    assert outcome == "same", said


@SETTINGS
@given(call=st.sampled_from(["L.sum(x, {})", "x.sum({})", "L.mean(x, {})", "x.mean({})"]),
       args=st.sampled_from(["keepdim=True", "keepdim=1", "keepdim=None", "keepdim=False",
                             "keepdim=True, dtype=L.float64", "keepdim=True, dtype=None",
                             "None, True", "dim=None, keepdim=True", "axis=1, keepdim=True",
                             "1, dtype=L.int64", "dtype=bool", "5, dtype=L.int64", ""]),
       grad=st.booleans())
def test_sum_mean_overloads_as_torch(call: str, args: str, grad: bool) -> None:
    """keepdim needs a dim (torch has no overload taking it alone: its message differs for
    the method and the function); an integer or bool sum of a tensor needing gradients is
    refused after the dims' range."""
    def run(L: Any, e: str) -> Any:
        return eval(e, {"L": L, "x": L.ones(2, 3, requires_grad=grad)})

    outcome, said = classify(run, [lambda L: call.format(args)])
    assert outcome == "same", said


@SETTINGS
@given(shape=st.sampled_from([(2, 3), (0, 3), (3, 0), (), (0,), (2,)]),
       dtype=st.sampled_from(["float32", "int64"]),
       p=st.sampled_from([2, 1, 0, 3, -1, -2.5, math.inf, -math.inf, 2 ** 70, np.float32(2.5)]),
       dim=st.sampled_from([None, 0, 1, -1, 5, (), [], (0, 1), [0, 0], [0, -1], (0, 1.5), True,
                            [True], (0, True), 1.5, "a", np.int64(0), (0, 2 ** 63)]),
       keepdim=st.booleans())
def test_norm_dims_and_empty_dims_as_torch(shape: tuple, dtype: str, p: Any, dim: Any,
                                           keepdim: bool) -> None:
    """``dim``: torch's tuple-of-ints parsing (types before the tensor's dtype, the range
    after), ``()`` meaning every dim; an inf or negative norm over an empty dim is refused."""
    def call(L: Any) -> Any:
        return L.ones(shape, dtype=getattr(L, dtype)).norm(p, dim, keepdim)

    outcome, said = classify(lambda L, f: f(L), [lambda L: call])
    assert outcome == "same", said


@SETTINGS
@given(value=st.sampled_from([np.float32(2.5), np.float16(1.5), np.float64(2.5), np.bool_(True),
                              np.int64(3), np.int32(2), np.uint8(3), 2.5, True]),
       listed=st.booleans(), dtype=st.sampled_from([int, bool, float, "float32", "int64"]),
       requires_grad=st.sampled_from([False, True, None]))
def test_tensor_of_numpy_scalars_as_torch(value: Any, listed: bool, dtype: Any,
                                          requires_grad: Any) -> None:
    """torch reads a numpy scalar as a number: an integer or bool dtype takes numpy ints and
    floats that are Python floats (float64), not float32/float16 (nor numpy bools for int);
    requires_grad must be a bool."""
    def call(L: Any) -> Any:
        dt = getattr(L, dtype) if isinstance(dtype, str) else dtype
        return L.tensor([value] if listed else value, dtype=dt, requires_grad=requires_grad)

    outcome, said = classify(lambda L, f: f(L), [lambda L: call])
    assert outcome == "same", said


@SETTINGS
@given(name=st.sampled_from(["SGD", "Adam", "AdamW", "RMSprop", "Adagrad"]),
       key=st.sampled_from(["lr", "eps", "momentum", "weight_decay", "alpha", "lr_decay"]),
       value=st.sampled_from([math.nan, "a", None, -1.0, 0.0, True, np.float32(0.5)]))
def test_optimizer_settings_compare_as_torch(name: str, key: str, value: Any) -> None:
    """torch checks ``0.0 <= value`` in the adaptive optimizers (nan refused, a str failing
    Python's comparison) and ``value < 0.0`` in SGD (nan taken)."""
    def call(L: Any) -> Any:
        kwargs = {"lr": 0.1, key: value}
        return getattr(L.optim, name)([L.ones(2, requires_grad=True)], **kwargs).defaults

    outcome, said = classify(lambda L, f: f(L), [lambda L: call])
    assert outcome == "same", said


@SETTINGS
@given(shape=st.sampled_from([(2, 3), (), (3,)]),
       key=st.sampled_from([(Ellipsis, Ellipsis), (0, Ellipsis, Ellipsis), (Ellipsis, None,
                                                                          Ellipsis),
                            (Ellipsis, 0, Ellipsis), (Ellipsis,), 0]),
       value=st.sampled_from([None, 2.0, -0.0, np.float16(1.5), np.float32(2.5),
                              np.float64(2.5), np.bool_(True), np.int32(3), "ones3"]),
       dtype=st.sampled_from(["float32", "float64", "int64"]))
def test_ellipses_and_numpy_values_index_as_torch(shape: tuple, key: Any, value: Any,
                                                  dtype: str) -> None:
    """The first ``...`` takes every spare dim and later ones none (reading and writing);
    ``x[key] = v`` takes numpy ints and float64 only, as torch's indexing."""
    def call(L: Any) -> Any:
        x = L.ones(shape, dtype=getattr(L, dtype))
        if value is None:
            return x[key]
        x[key] = L.ones(3, dtype=x.dtype) if value == "ones3" else value
        return x

    outcome, said = classify(lambda L, f: f(L), [lambda L: call])
    assert outcome == "same", said


DUAL_VALUES = [lambda L: L.ones(3), lambda L: L.ones(2, 3), lambda L: L.ones(3, dtype=L.int64),
               lambda L: L.tensor([True, False, True]), lambda L: L.ones(3, dtype=L.float64),
               lambda L: 2.0, lambda L: None]


@SETTINGS
@given(primal=st.sampled_from(DUAL_VALUES), tangent=st.sampled_from(DUAL_VALUES),
       inside=st.booleans())
def test_make_dual_checks_as_torch(primal: Any, tangent: Any, inside: bool) -> None:
    """torch's order: a level, the primal's dtype, the tangent's dtype (a non-tensor failing
    on ``is_floating_point`` as in torch's Python), then the sizes."""
    def call(L: Any, p: Any, t: Any) -> Any:
        fwAD = L.autograd.forward_ad
        if not inside:
            return fwAD.make_dual(p, t)
        with fwAD.dual_level():
            return [str(v) for v in fwAD.unpack_dual(fwAD.make_dual(p, t) * 2)]

    outcome, said = classify(call, [primal, tangent])
    assert outcome == "same", said


RANDINT_VALUES = [lambda L, v=v: v for v in (
    5, 0, -1, -3, True, 2.5, None, np.int64(2), 2 ** 63, (2,), [2, 3], (), (-1,), (2.5,),
    ("a",), (True, 2), (2, True), (False,), (2 ** 63,), (np.int64(2),))] + [
    lambda L: L.tensor(1)]


@SETTINGS
@given(args=st.lists(st.sampled_from(RANDINT_VALUES), min_size=1, max_size=3))
def test_randint_overloads_as_torch(args: list) -> None:
    """``(high, size)`` or ``(low, high, size)``: the types (in the three-argument form one
    wrong type matches no overload), then the sizes, then the range."""
    outcome, said = classify(lambda L, *a: L.randint(*a).shape, args)
    assert outcome == "same", said


@SETTINGS
@given(dtype=st.sampled_from(["float32", "float64", "int64", "bool"]),
       call=st.sampled_from(["exponential_({a})", "normal_({a}, {b})", "uniform_({a}, {b})",
                             "bernoulli_({b})"]),
       a=st.sampled_from([2.5, -1.0, 0.0, math.nan]), b=st.sampled_from([0.5, -0.5, math.nan, 2.0]))
def test_in_place_samplers_check_as_torch(dtype: str, call: str, a: float, b: float) -> None:
    """The parameter checks (lambda > 0, std >= 0, nan refused) before the dtype's, and the
    exponential's own message for an integer or bool tensor."""
    def run(L: Any) -> Any:
        x = L.zeros(3, dtype=getattr(L, dtype))
        return eval(f"x.{call.format(a=a, b=b)}", {"x": x, "nan": math.nan}).shape

    outcome, said = classify(lambda L, f: f(L), [lambda L: run])
    assert outcome == "same", said


@SETTINGS
@given(x=st.sampled_from([lambda L: L.ones(2, 3), lambda L: L.ones(3, dtype=L.int64),
                          lambda L: L.tensor(True), lambda L: L.ones(3, requires_grad=True)]),
       value=st.sampled_from([np.ones(3), np.array(2.0), np.array([1, 2, 3], dtype=np.int64),
                              np.array([True, False, True]), np.float32(2.5), "a", None]),
       op=st.sampled_from(["+", "-", "*", "/"]), method=st.booleans())
def test_in_place_numpy_operands_as_torch(x: Any, value: Any, op: str, method: bool) -> None:
    """``x op= array`` lets numpy compute ``x op array`` (a new tensor, as torch); the
    methods ``add_`` ... refuse an array, naming themselves."""
    names = {"+": "add_", "-": "sub_", "*": "mul_", "/": "div_"}

    def call(L: Any, t: Any) -> Any:
        if method:
            return getattr(t, names[op])(value)
        scope = {"t": t, "v": value}
        exec(f"t {op}= v", scope)
        return scope["t"]

    with warnings.catch_warnings():
        warnings.simplefilter("ignore", DeprecationWarning)  # numpy's, about torch's wrap
        outcome, said = classify(call, [x])
    assert outcome == "same", said


@SETTINGS
@given(shape=st.sampled_from([(3,), (2, 3), (2, 3, 4), (2, 3, 2, 2), (1, 3, 2, 1, 2),
                              (0, 3, 2)]),
       reduction=st.sampled_from(["mean", "sum", "none"]), weighted=st.booleans(),
       ignore_index=st.sampled_from([-100, 1]), loss=st.sampled_from(["nll", "cross"]),
       smoothing=st.sampled_from([0.0, 0.3]), seed=st.integers(0, 2 ** 16))
def test_nll_and_cross_entropy_of_any_rank_as_torch(shape: tuple, reduction: str,
                                                    weighted: bool, ignore_index: int,
                                                    loss: str, smoothing: float,
                                                    seed: int) -> None:
    """Input (C,), (N, C) or (N, C, d1, ...) against targets (), (N,) or (N, d1, ...), with
    class weights and an ignored class: torch's values and input gradients."""
    rng = np.random.default_rng(seed)
    values = rng.standard_normal(shape)
    target_shape = () if len(shape) == 1 else (shape[0], *shape[2:])
    targets = rng.integers(0, shape[1 if len(shape) > 1 else 0], target_shape)
    class_weights = rng.uniform(0.5, 2.0, 3)
    results = []
    for L in (torch, mt):
        x = L.tensor(values.ravel().tolist()).reshape(shape).requires_grad_()
        target = L.tensor(targets.ravel().tolist(), dtype=L.int64).reshape(target_shape)
        kwargs = {"weight": L.tensor(class_weights.tolist()) if weighted else None,
                  "ignore_index": ignore_index, "reduction": reduction}
        if loss == "cross":
            out = L.nn.functional.cross_entropy(x, target, label_smoothing=smoothing, **kwargs)
        else:
            out = L.nn.functional.nll_loss(x, target, **kwargs)
        (out * L.arange(1.0, out.numel() + 1).reshape(out.shape)).sum().backward()
        results.append((np.array(out.tolist()), np.array(x.grad.tolist())))
    for want, got in zip(results[0], results[1]):
        np.testing.assert_allclose(got, want, rtol=1e-5, atol=1e-6, equal_nan=True)


@pytest.mark.parametrize("expression", [
    "L.ones(2, 3).mean((0, 1.5), False, dtype=L.int64)", "L.ones(2, 3).mean(5, True, dtype=bool)",
    "L.ones(2, 3).norm(None, 0)", "L.ones(2, 3).norm(None, 3)", "L.randint(2 ** 130, (2 ** 63,))",
    "L.randint(1, 2 ** 63, (np.int64(2),))", "L.randint(2 ** 63, 5, (-1, 3))",
    "L.nn.functional.nll_loss(L.ones(3, dtype=L.bool), L.tensor([0, 1, 2]), ignore_index=5)",
    "L.nn.functional.nll_loss(L.ones(0, 3), L.tensor([0, 1, 2]))",
    "L.nn.functional.nll_loss(L.ones(0, 3), L.tensor(1))",
    "L.nn.functional.nll_loss(L.ones(2, 3, 4), L.zeros(2, 5, dtype=L.int64))",
    "L.nn.functional.nll_loss(L.ones(2, 3, 4, 5), L.zeros(2, 4, 6, dtype=L.int64))",
    "L.nn.functional.nll_loss(L.ones(2, 3), L.tensor([0, 1]), weight=L.ones(1, 3))",
    "L.nn.functional.nll_loss(L.ones(2, 3), L.tensor([0, 1]), weight=L.ones(3, dtype=L.int64))",
    "L.nn.functional.nll_loss(L.ones(2, 3), L.tensor([0, 1]), weight=[1, 2, 3])",
    "L.nn.functional.nll_loss(L.ones(2, 3), L.tensor([0, 1]), "
    "weight=L.ones(3, requires_grad=True))",
    "L.sub(L.tensor(True), -0.0, alpha=2 ** 64)",
    "L.nn.functional.nll_loss(L.ones(3), L.tensor([True, False, True]))",
    "L.randint(2 ** 130, (-1, 3))", "L.randint(-1, (-1, 3))",
    "L.ones(2, 3).uniform_(2 ** 1100, None)", "L.ones(2, 3).uniform_(0, 2 ** 1100)",
    "L.ones(2, 3).normal_(2 ** 1100, None)"])
def test_orders_of_checks_as_torch(expression: str) -> None:
    """Which of several bad arguments torch reports first, for the checks added above."""
    assert_same_as_torch(expression)


@SETTINGS
@given(kernel=st.sampled_from([2, 3, 0, -1, (2, 0), (3, 1)]),
       stride=st.sampled_from([None, 1, 2, 0, -1, (1, 0)]),
       padding=st.sampled_from([0, 1, 2, -1, (1, 0)]), dilation=st.sampled_from([1, 2, 0, -1]))
def test_max_pool_window_checks_as_torch(kernel: Any, stride: Any, padding: Any,
                                         dilation: Any) -> None:
    """Zero stride, negative padding, padding beyond half the (effective) kernel, and kernel,
    stride and dilation signs: torch's checks in torch's order, never numpy's errors."""
    def call(L: Any) -> Any:
        x = L.arange(50.0).reshape(1, 2, 5, 5)
        return L.nn.functional.max_pool2d(x, kernel, stride, padding, dilation)

    outcome, said = classify(lambda L, f: f(L), [lambda L: call])
    assert outcome == "same", said


@SETTINGS
@given(channels=st.sampled_from([1, 2]), kernel=st.sampled_from([1, 3, 5]),
       stride=st.sampled_from([1, 2, 0, -1, np.int64(2), (1, 0)]),
       padding=st.sampled_from([0, 1, -1, (0, -1), np.int64(1), "same", "valid"]),
       dilation=st.sampled_from([1, 2, 0, (1, -1)]), groups=st.sampled_from([1, 0]))
def test_conv2d_geometry_checks_as_torch(channels: int, kernel: int, stride: Any, padding: Any,
                                         dilation: Any, groups: int) -> None:
    """groups, then the padding's, stride's and dilation's signs, then the weight, as torch;
    numpy ints read as ints; 'same' refused for strides."""
    def call(L: Any) -> Any:
        x = L.arange(32.0).reshape(1, channels, 4, 8 // channels)
        w = L.ones(1, 1, kernel, kernel)
        return L.nn.functional.conv2d(x, w, None, stride, padding, dilation, groups)

    outcome, said = classify(lambda L, f: f(L), [lambda L: call])
    assert outcome == "same", said


@pytest.mark.parametrize("expression", [
    "(lambda x: x.__setitem__(np.array([True, False]), L.ones(0)) or x)(L.ones(0, 3))",
    "L.ones(0, 3)[np.array([True, False])]", "L.ones(2, 3)[:, np.array([True, False, True])]",
    "L.ones(2, 3)[np.array([[True, False, True], [False, True, True]])]",
    "(lambda x: x.__setitem__(np.array([True, False]), 2.0) or x)(L.ones(2, 3))"])
def test_numpy_masks_are_checked_as_torch(expression: str) -> None:
    """A numpy bool array indexes as a mask, its shape checked with torch's message."""
    assert_same_as_torch(expression)


@pytest.mark.parametrize("dtype", ["float32", "float64", "int64", "bool"])
@pytest.mark.parametrize("call", [
    lambda x: x // 1j, lambda x: 1j // x, lambda x: x % 1j, lambda x: 1j % x,
    lambda x: x & 1j, lambda x: x | 1j, lambda x: 1j ^ x, lambda x: x < 1j, lambda x: x <= 1j,
], ids=["floordiv", "rfloordiv", "mod", "rmod", "and", "ror", "rxor", "lt", "le"])
def test_complex_operand_of_an_op_without_complex_kernel_as_torch(dtype: str, call) -> None:
    """torch has no complex kernel for these: it says so, naming the kernel (so does
    minitorch, which has no complex tensors at all)."""
    want = raised_by(lambda L: call(L.ones(2, dtype=getattr(L, dtype))), torch)
    assert_same_error(raised_by(lambda L: call(L.ones(2, dtype=getattr(L, dtype))), mt), want)


@pytest.mark.parametrize("call", [lambda x: 3 | x, lambda x: 6 & x, lambda x: True ^ x,
                                  lambda x: 2.5 | x], ids=["ror", "rand", "rxor", "float"])
@pytest.mark.parametrize("dtype", ["int64", "bool"])
def test_reflected_bitwise_operators_as_torch(call, dtype: str) -> None:
    values = [[1, 0], [3, 2]] if dtype == "int64" else [[True, False], [False, True]]
    want_error = raised_by(lambda L: call(L.tensor(values, dtype=getattr(L, dtype))), torch)
    if want_error is not None:
        assert_same_error(raised_by(lambda L: call(L.tensor(values, dtype=getattr(L, dtype))),
                                    mt), want_error)
        return
    assert_same(call(mt.tensor(values, dtype=getattr(mt, dtype))),
                call(torch.tensor(values, dtype=getattr(torch, dtype))))


@pytest.mark.parametrize("bounds", [(0, 3), (2, 3), (-1, 2), (0, 2), (1, 2), (3,), (0,), (2,),
                                    (1,)])
@pytest.mark.parametrize("dtype", ["bool", "int64", "float32"])
def test_random_bounds_as_torch(bounds: tuple, dtype: str) -> None:
    """random_(to) and random_(from, to): 'from' < 'to', then a bool draws from [0, 2)."""
    def call(L: Any) -> Any:
        return L.zeros(3, dtype=getattr(L, dtype)).random_(*bounds).shape
    want = raised_by(call, torch)
    if want is None:
        assert call(mt) == call(torch)
    else:
        assert_same_error(raised_by(call, mt), want)


@pytest.mark.parametrize("kwargs", [{"min": True}, {"max": False}, {"min": True, "max": True},
                                    {"min": 0}, {"min": 0.5}])
def test_clamp_of_bool_tensor_as_torch(kwargs: dict) -> None:
    def call(L: Any) -> Any:
        return L.clip(L.tensor([True, False]), **kwargs)
    want = raised_by(call, torch)
    if want is None:
        assert_same(call(mt), call(torch))
    else:
        assert_same_error(raised_by(call, mt), want)


@pytest.mark.parametrize("kwargs", [{"beta": "a"}, {"beta": None}, {"beta": 1j}, {"beta": [1]},
                                    {"threshold": None}, {"threshold": 1j},
                                    {"beta": np.float32(2)}, {"beta": 2}],
                         ids=lambda k: repr(k))
@pytest.mark.parametrize("values", [3.0, [1, 2]], ids=["float", "long"])
def test_softplus_options_as_torch(kwargs: dict, values: Any) -> None:
    def call(L: Any) -> Any:
        return L.nn.functional.softplus(L.tensor(values), **kwargs)
    want = raised_by(call, torch)
    if want is None:
        assert_same(call(mt), call(torch))
    else:
        assert_same_error(raised_by(call, mt), want)


@pytest.mark.parametrize("k", [0, 1])
def test_topk_of_a_0d_tensor_as_torch(k: int) -> None:
    """A 0-d tensor is its own top value for k 0 or 1; its index has no grad_fn."""
    got = mt.tensor(2.0, requires_grad=True).topk(k)
    want = torch.tensor(2.0, requires_grad=True).topk(k)
    assert repr(got) == repr(want)
