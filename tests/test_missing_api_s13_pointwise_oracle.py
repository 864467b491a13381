"""Public names torch programs use that minitorch lacked (session 13, pointwise and tensor
attributes), against live torch: print options, tensor constructors and attributes, the
trigonometric and special functions, and the comparisons by name and in place. Each case
runs on torch and on minitorch and must end the same: values, dtype, shape, grad_fn and
gradients, or the exception's type and message.
"""

from __future__ import annotations

import json
import math

import numpy as np
import pytest
import torch
from hypothesis import given, settings
from hypothesis import strategies as st
from oracle import SETTINGS
from test_bad_input_fuzz21b_oracle import assert_as_torch
from test_tensor_str import realistic_cases, small_cases

import minitorch as mt

# ---------------------------------------------------------------------------- print options


@pytest.fixture
def default_print_options():
    """Both libraries print with their defaults again after the test."""
    yield
    for lib in (torch, mt):
        lib.set_printoptions(profile="default")


def _print_options() -> st.SearchStrategy[dict]:
    return st.fixed_dictionaries({}, optional={
        "precision": st.integers(0, 8),
        "threshold": st.sampled_from([0, 1, 5, 10, 40, 1000, math.inf]),
        "edgeitems": st.integers(0, 4),
        "linewidth": st.integers(10, 120),
        "profile": st.sampled_from(["default", "short", "full"]),
        "sci_mode": st.sampled_from([None, True, False]),
    })


def _twin_reprs(array: np.ndarray, grad: str | None) -> tuple[str, str]:
    """The reprs of the same values in minitorch and torch, tracked as ``grad`` says."""
    reprs = []
    for lib in (mt, torch):
        t = lib.tensor(array)
        if grad is not None:
            t = t.requires_grad_() if grad == "leaf" else t.requires_grad_() * 1
        reprs.append(repr(t))
    return reprs[0], reprs[1]


@settings(SETTINGS, max_examples=150)
@given(st.one_of(small_cases(), realistic_cases()), _print_options())
def test_printed_under_any_print_options_as_torch(case, options) -> None:
    """Every option, alone or with others and a profile, prints every kind of tensor as
    torch does (summarised or not, scientific or not, wrapped at any width)."""
    array, grad, _ = case
    grad = grad if grad in (None, "leaf") else "node"
    try:
        for lib in (torch, mt):
            lib.set_printoptions(**options)
        ours, theirs = _twin_reprs(array, grad)
    finally:
        for lib in (torch, mt):
            lib.set_printoptions(profile="default")
    assert ours == theirs, options


@pytest.mark.parametrize("options", [
    {"precision": 2}, {"precision": 0}, {"threshold": 5}, {"threshold": 5, "edgeitems": 1},
    {"threshold": 3, "edgeitems": 0}, {"edgeitems": 0}, {"linewidth": 20},
    {"profile": "short"}, {"profile": "full"}, {"profile": "unknown"},
    {"sci_mode": True}, {"sci_mode": False}, {"threshold": 2.5}, {"precision": -1},
    {"precision": 2.0},
])
@pytest.mark.parametrize("values", [
    "L.arange(2000.) / 7", "L.arange(10)", "L.tensor([1e-9, 1e10])", "L.tensor(3.25)",
    "L.tensor([[1.5, float('nan')], [float('inf'), -0.]])", "L.zeros(0, 3)",
    "L.tensor([True, False, True, True, False, False, True])",
    "L.arange(120.).reshape(2, 3, 4, 5)", "L.tensor([0., 0.])", "L.tensor([12.])",
])
def test_print_options_cases_as_torch(options: dict, values: str,
                                      default_print_options: None) -> None:
    """Named cases, their errors too (a precision the format refuses), with the options
    restored after each."""
    assert_as_torch(f"L.set_printoptions(**{options!r})\n"
                    f"try:\n    R = repr({values})\nfinally:\n"
                    "    L.set_printoptions(profile='default')")


def test_sci_mode_resets_with_each_call(default_print_options: None) -> None:
    """As in torch, a call that does not name sci_mode sets it back to None."""
    for lib in (torch, mt):
        lib.set_printoptions(sci_mode=True)
        lib.set_printoptions(precision=3)
    assert repr(mt.tensor([1.5, 2.0])) == repr(torch.tensor([1.5, 2.0])) == \
        "tensor([1.500, 2.000])"


# ------------------------------------------------------- constructors and tensor attributes

A = "a = np.arange(6.).reshape(2, 3)\n"
Y = "y = L.ones(2, requires_grad=True)\n"


@pytest.mark.parametrize("program", [
    # as_tensor shares a numpy array's memory when no conversion is needed, else copies
    A + "t = L.as_tensor(a); a[0, 0] = 9.; R = t",
    A + "t = L.as_tensor(a, dtype=L.float64, device='cpu'); a[0, 0] = 9.; R = t",
    A + "t = L.as_tensor(a, dtype=L.float32); a[0, 0] = 9.; R = t",
    A + "t = L.as_tensor(a[:, ::2]); a[0, 0] = 9.; R = (t, t.stride())",
    A + "R = L.as_tensor(a[:, ::-1])", A + "R = repr(L.as_tensor(a, device='meta'))",
    A + "R = L.as_tensor(a, 'cpu')", A + "R = L.as_tensor(a, dtype='float')",
    "R = L.as_tensor([1, 2])", "R = L.as_tensor((1, 2.), dtype=L.float64)",
    "R = L.as_tensor(3.5)", "R = L.as_tensor(np.float64(2.5))", "R = L.as_tensor(np.int32(2))",
    "R = L.as_tensor([L.tensor(1.), L.tensor(2.)])", "R = L.as_tensor('a')",
    "R = L.as_tensor(None)",
    Y + "R = L.as_tensor(y) is y", Y + "R = L.as_tensor(y, dtype=L.float32) is y",
    Y + "R = L.as_tensor(y, dtype=L.float64)", Y + "R = L.as_tensor(y, device='cpu') is y",
    # asarray: copy=None shares where it can, copy=True never, copy=False refuses to copy
    A + "t = L.asarray(a); a[0, 0] = 9.; R = t",
    A + "t = L.asarray(a, copy=True); a[0, 0] = 9.; R = t",
    A + "t = L.asarray(a, copy=False); a[0, 0] = 9.; R = t",
    A + "R = L.asarray(a, dtype=L.float32)", A + "R = L.asarray(a, copy=False, dtype=L.float32)",
    A + "R = L.asarray(a, dtype=L.int64, copy=False)", A + "R = repr(L.asarray(a, device='meta'))",
    A + "R = L.asarray(a, device='meta', copy=False)", A + "R = L.asarray(a, copy=1)",
    A + "R = L.asarray(a, requires_grad=1)", A + "R = L.asarray(a, dtype=3)",
    A + "R = L.asarray(a, 'cpu')", A + "R = L.asarray(a[::-1])",
    A + "R = L.asarray(a, requires_grad=True)",
    "R = L.asarray([1, 2], requires_grad=True)", "R = L.asarray([1., 2.], requires_grad=True)",
    "R = L.asarray([1, 2], copy=False)", "R = L.asarray(3.5, copy=False)", "R = L.asarray(True)",
    "R = L.asarray(np.float64(2.5), copy=False)", "R = L.asarray(np.float32(2))",
    "R = L.asarray([[1., 2.]], dtype=L.int32)", "R = L.asarray(None)",
    "R = L.asarray([[1], [2, 3]])",
    "R = L.asarray(L.ones(2, dtype=L.int32), dtype=L.int64, copy=False)",
    "R = L.asarray(L.ones(2), device='meta', copy=False)",
])
def test_as_tensor_and_asarray_as_torch(program: str) -> None:
    """Values, dtypes and memory sharing (a write to the array shows in the tensor), and
    torch's refusals."""
    assert_as_torch(program)


_ASARRAY_GRAD = [f"{flag}{extra}" for flag in ("", ", requires_grad=True",
                                                ", requires_grad=False")
                 for extra in ("", ", copy=True", ", copy=False", ", dtype=L.float64",
                               ", dtype=L.float64, copy=True")]


@pytest.mark.parametrize("source", ["L.ones(2, requires_grad=True)", "L.ones(2)",
                                    "L.ones(2, requires_grad=True) * 2"])
@pytest.mark.parametrize("arguments", _ASARRAY_GRAD)
def test_asarray_of_a_tensor_as_torch(source: str, arguments: str) -> None:
    """asarray of a tensor: itself or a recorded copy (``CloneBackward0``,
    ``ToCopyBackward0``), its ``requires_grad`` set in place where torch sets it."""
    assert_as_torch(f"y = {source}; r = L.asarray(y{arguments})\n"
                    "R = (r is y, r, y.requires_grad, r.is_leaf)")


def test_asarray_warns_once_as_torch_where_it_returns_a_tensor_that_requires_grad(
        monkeypatch) -> None:
    """torch's warning, once a process: asked of a fresh torch, and of minitorch with its
    memory of given warnings emptied."""
    said = _fresh_torch_warnings("y = torch.ones(2, requires_grad=True)\n"
                                 "torch.asarray(y); torch.asarray(y * 1); torch.asarray(y)")
    from minitorch import _warn_once

    monkeypatch.setattr(_warn_once, "_given", set())
    with pytest.warns(UserWarning) as record:
        y = mt.ones(2, requires_grad=True)
        mt.asarray(y), mt.asarray(y * 1), mt.asarray(y)
    assert [str(w.message) for w in record] == said


def _fresh_torch_warnings(program: str) -> list[str]:
    """The warnings ``program`` gets from torch in a new process (torch's C++ warns once a
    process, so this one's may have warned already), without their C++ location."""
    import subprocess
    import sys

    code = ("import json, warnings, torch\nwith warnings.catch_warnings(record=True) as w:\n"
            "    warnings.simplefilter('always')\n" + "".join(f"    {line}\n" for line in
                                                         program.splitlines())
            + "print(json.dumps([str(x.message).split(' (Triggered')[0] for x in w]))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         check=True).stdout
    return json.loads(out)


@pytest.mark.parametrize("program", [
    "R = L.scalar_tensor(3)", "R = L.scalar_tensor(3, dtype=L.int64)",
    "R = L.scalar_tensor(True)", "R = L.scalar_tensor(2.5, requires_grad=True)",
    "R = L.scalar_tensor(L.tensor(2))", "R = L.scalar_tensor('a')", "R = L.scalar_tensor(2 ** 70)",
    "R = L.scalar_tensor(1 + 2j)", "R = L.scalar_tensor(2.5, dtype=L.int32)",
    "R = L.scalar_tensor(np.float64(2.5))", "R = L.scalar_tensor(None)",
    "R = L.scalar_tensor(L.tensor([2.]))", "R = L.scalar_tensor(3, dtype=L.bool)",
    "R = L.scalar_tensor(300, dtype=L.int8)", "R = L.scalar_tensor(1e40)",
    "R = L.scalar_tensor(2, requires_grad=True, dtype=L.int64)",
    # empty_strided: the values are not compared (torch leaves them uninitialised)
    "t = L.empty_strided((2, 3), (1, 2)); R = (t.shape, t.stride(), t.is_contiguous(), t.dtype)",
    "t = L.empty_strided((2, 3), (1, 2), dtype=L.int64); R = (t.stride(), t.dtype)",
    "t = L.empty_strided((2, 3), (3, 1), requires_grad=True); R = (t.stride(), t.requires_grad)",
    "R = L.empty_strided((2, 3), (1,))", "R = L.empty_strided((2, 3), (-1, 2))",
    "R = L.empty_strided((2, -3), (1, 2))", "R = L.empty_strided((2, -3), (-1, 2))",
    "R = L.empty_strided((0, 3), (-1, 2))", "R = L.empty_strided(2, 1)",
    "R = L.empty_strided((2, 3), (1, 2.5))", "R = L.empty_strided((2, 3), None)",
    "R = L.empty_strided((), ()).shape", "R = L.empty_strided((2, 3), (0, 0)).stride()",
    "R = L.empty_strided((2, 3), (0, 0)).add_(1)",
    "R = L.empty_strided((2, 3), (3, 1), dtype=L.int64, requires_grad=True)",
    "t = L.empty_strided((2, 3), (1, 2)); t.copy_(L.arange(6.).view(2, 3)); R = (t, t + 1)",
    "t = L.ones(2, dtype=L.int32).new_empty_strided((2, 2), (1, 2)); R = (t.dtype, t.stride())",
    "t = L.ones(2).new_empty_strided((2, 2), (1, 2), dtype=L.float64, requires_grad=True)\n"
    "R = (t.dtype, t.requires_grad, t.stride())",
    "R = L.ones(2).new_empty_strided(2, 1)", "R = L.ones(2).new_empty_strided((2,), (1,), 3)",
])
def test_scalar_tensor_and_empty_strided_as_torch(program: str) -> None:
    assert_as_torch(program)


X6 = "x = L.arange(6.).reshape(2, 3)\n"


@pytest.mark.parametrize("program", [
    X6 + "R = (L.get_device(x), x.get_device(), x.ndimension(), x.nbytes, x.itemsize, x.is_cpu)",
    "x = L.ones(2, 3, dtype=L.int16).expand(4, 2, 3); R = (x.nbytes, x.itemsize)",
    "x = L.ones(2, device='meta'); R = (x.get_device(), x.is_cpu, x.nbytes)",
    "R = L.get_device(3)", "R = L.is_complex(2)", X6 + "R = L.is_complex(x)",
    "R = L.is_nonzero(L.tensor([0.]))", "R = L.is_nonzero(L.tensor(2))",
    "R = L.is_nonzero(L.tensor([[True]]))", "R = L.is_nonzero(L.tensor(float('nan')))",
    X6 + "R = L.is_nonzero(x)", "R = L.is_nonzero(L.ones(0))", "R = bool(L.ones(0))",
    "R = L.is_nonzero(1)", X6 + "R = x.is_nonzero()",
    "R = L.is_nonzero(L.tensor([1.], requires_grad=True))",
    X6 + "R = (L.is_same_size(x, x.t()), L.is_same_size(x, x + 1), x.is_same_size(x))",
    X6 + "R = L.is_same_size(x, 2)", X6 + "R = x.is_same_size([2, 3])",
    *(f"R = L.is_signed(L.ones(1, dtype=L.{d})), L.ones(1, dtype=L.{d}).is_signed()"
      for d in ("bool", "uint8", "int8", "int16", "int32", "int64", "float16", "float32",
                "float64")),
    X6 + "R = [v.storage_offset() for v in (x, x[1], x[:, 1:], x.t()[1], x.view(-1)[3:],\n"
    "     x.diagonal(1), x.unbind(0)[1], x.split(1, 1)[2], x.narrow(1, 1, 2), x[1][2:],\n"
    "     x[:, 1:][1, ::2], x.expand(2, 2, 3)[1, 1, 2:], x.T[2], x.unsqueeze(0)[0, 1])]",
    "R = L.from_numpy(np.arange(4.)[1:]).storage_offset()",
    "R = L.from_numpy(np.arange(4.))[2:].storage_offset()",
])
def test_tensor_attributes_as_torch(program: str) -> None:
    """get_device, is_complex, is_nonzero, is_same_size, is_signed, ndimension, nbytes,
    itemsize, is_cpu and views' storage offsets."""
    assert_as_torch(program)


@pytest.fixture
def default_dtype_restored():
    yield
    for lib in (torch, mt):
        lib.set_default_dtype(lib.float32)


@pytest.mark.parametrize("program", [
    "L.set_default_tensor_type(L.DoubleTensor); R = (L.tensor([1.]), L.Tensor(2).dtype, "
    "L.get_default_dtype())",
    "L.set_default_tensor_type('torch.DoubleTensor'); R = L.tensor([1.])",
    "L.set_default_tensor_type('torch.HalfTensor'); R = L.get_default_dtype()",
    "L.set_default_tensor_type(L.LongTensor)", "L.set_default_tensor_type('torch.IntTensor')",
    "L.set_default_tensor_type(L.float64)", "L.set_default_tensor_type(3)",
    "L.set_default_tensor_type('float')",
])
def test_set_default_tensor_type_as_torch(program: str, default_dtype_restored: None) -> None:
    assert_as_torch(program)


def test_set_default_tensor_type_warns_once_as_torch(monkeypatch, default_dtype_restored
                                                     ) -> None:
    """torch's deprecation warning, once a process (its C++ warns once)."""
    said = _fresh_torch_warnings("torch.set_default_tensor_type(torch.DoubleTensor)\n"
                                 "torch.set_default_tensor_type(torch.FloatTensor)")
    from minitorch import _warn_once

    monkeypatch.setattr(_warn_once, "_given", set())
    with pytest.warns(UserWarning) as record:
        mt.set_default_tensor_type(mt.DoubleTensor)
        mt.set_default_tensor_type(mt.FloatTensor)
    assert [str(w.message) for w in record] == said


# --------------------------------------------------------------- element-wise functions

# name -> the open interval its gradient is tested on (inside the function's domain)
UNARY = {"acos": (-0.9, 0.9), "asin": (-0.9, 0.9), "atan": (-3, 3), "tan": (-1.4, 1.4),
         "arccos": (-0.9, 0.9), "arcsin": (-0.9, 0.9), "arctan": (-3, 3),
         "absolute": (-3, 3), "negative": (-3, 3), "deg2rad": (-400, 400),
         "rad2deg": (-7, 7), "sinc": (-3, 3), "fix": (-3, 3), "erfc": (-3, 3),
         "erfinv": (-0.9, 0.9), "lgamma": (0.3, 4), "digamma": (0.3, 4), "i0": (-3, 3),
         "logit": (0.1, 0.9), "nan_to_num": (-3, 3)}
# torch's in-place function (``torch.acos_``) besides the method (``x.acos_()``)
INPLACE_FUNCTIONS = {"acos", "asin", "atan", "tan", "arccos", "arcsin", "arctan", "negative",
                     "deg2rad", "rad2deg", "sinc", "fix", "erfc", "i0", "logit", "nan_to_num"}
VALUES = {
    "float": "[0., -0., 0.5, -0.75, 1., -1., 2.5, -3., 1e-20, -1e-20, 0.999, -0.9999, 7.5, "
             "30., 100., float('inf'), -float('inf'), float('nan')]",
    "int": "[0, 1, -1, 2, 7, -3]", "uint8": "[0, 1, 2, 7, 200]", "bool": "[True, False]"}
DTYPES = {"float64": "float", "float32": "float", "float16": "float", "int64": "int",
          "int32": "int", "int16": "int", "int8": "int", "uint8": "uint8", "bool": "bool"}


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("name", UNARY)
def test_unary_values_over_dtypes_as_torch(name: str, dtype: str) -> None:
    """Every dtype, special values included: torch's values and result dtype (integers and
    bools in the default float where torch computes in it), or torch's refusal; the method
    too, and a non-tensor refused."""
    values = f"L.tensor({VALUES[DTYPES[dtype]]}, dtype=L.{dtype})"
    assert_as_torch(f"R = L.{name}({values})")
    assert_as_torch(f"R = {values}.{name}()")


@pytest.mark.parametrize("name", UNARY)
def test_unary_refuses_what_is_not_a_tensor_as_torch(name: str) -> None:
    assert_as_torch(f"R = L.{name}([0.5])")
    assert_as_torch(f"R = L.{name}(0.5)")


def _twice_unary(expr: str, low: float, high: float, dtype: str = "float64") -> str:
    """``R``: ``expr`` of ``x`` (values inside (low, high)), its gradient (with a graph) and
    the gradient of that gradient."""
    values = np.linspace(low, high, 7)[1:-1].round(6).tolist()
    return (f"x = L.tensor({values}, dtype=L.{dtype}, requires_grad=True)\n"
            f"r = {expr}\n"
            "g, = L.autograd.grad((r * L.arange(5.)).sum(), x, create_graph=True)\n"
            "gg = L.autograd.grad((g * g).sum(), x, allow_unused=True)[0]\n"
            "R = (r, g.detach(), gg if gg is None else gg + 0)")  # (+ 0: torch's ZeroTensor)


@pytest.mark.parametrize("dtype", ["float64", "float32"])
@pytest.mark.parametrize("name", UNARY)
def test_unary_gradients_as_torch(name: str, dtype: str) -> None:
    """The node's name, the gradient and the second-order gradient, as torch's formulas."""
    low, high = UNARY[name]
    assert_as_torch(_twice_unary(f"L.{name}(x)", low, high, dtype))
    assert_as_torch(_twice_unary(f"x.{name}()", low, high, dtype))


@pytest.mark.parametrize("name", UNARY)
def test_unary_gradcheck(name: str) -> None:
    """Each backward against central differences, to the second order, in float64."""
    low, high = UNARY[name]
    x = mt.tensor(np.linspace(low, high, 9)[1:-1] + 1e-3, dtype=mt.float64,
                  requires_grad=True)
    fn = getattr(mt, name)
    assert mt.autograd.gradcheck(fn, (x,))
    assert mt.autograd.gradgradcheck(fn, (x,))


@pytest.mark.parametrize("name", UNARY)
def test_unary_in_place_as_torch(name: str) -> None:
    """``x.name_()`` (and ``torch.name_(x)`` where torch has it) writes into ``x`` with
    torch's node, and refuses an integer tensor whose result would be a float."""
    low, high = UNARY[name]
    value = (low + high) / 2 + 0.25
    assert_as_torch(f"x = L.tensor([{value}, {high / 2}], requires_grad=True)\n"
                    f"y = x * 1; z = y.{name}_(); z.sum().backward()\n"
                    "R = (z is y, y, x.grad, y._version)")
    assert_as_torch(f"x = L.tensor([1, 2]); R = x.{name}_()")
    assert_as_torch(f"x = L.tensor([{value}], requires_grad=True); R = x.{name}_()")
    if name in INPLACE_FUNCTIONS:
        assert_as_torch(f"x = L.tensor([{value}]); y = L.{name}_(x); R = (y is x, x)")


@settings(SETTINGS, max_examples=20)
@given(st.sampled_from(sorted(UNARY)), st.sampled_from(["float64", "float32"]),
       st.lists(st.integers(1, 4), max_size=3), st.integers(0, 2 ** 16))
def test_unary_any_shape_as_torch(name: str, dtype: str, shape: list, seed: int) -> None:
    """Values and gradients (through a broadcast product) for any shape."""
    low, high = UNARY[name]
    rng = np.random.default_rng(seed)
    values = rng.uniform(low, high, shape).round(5).tolist()
    weight = rng.uniform(-1, 1, shape[-1:]).round(3).tolist()
    assert_as_torch(f"x = L.tensor({values}, dtype=L.{dtype}, requires_grad=True)\n"
                    f"r = L.{name}(x) * L.tensor({weight}, dtype=L.{dtype})\n"
                    "r.sum().backward(); R = (r, x.grad)")


@pytest.mark.parametrize("program", [
    "x = L.tensor([0.5, -1.], requires_grad=True); R = L.multiply(x, 2)",
    "x = L.tensor([0.5, -1.], requires_grad=True); R = x.multiply(x)",
    "R = L.multiply(L.ones(2), 3, out=L.empty(2))",
    "x = L.tensor([0.5, -1.], requires_grad=True); R = L.subtract(x, 1, alpha=2)",
    "x = L.tensor([0.5, -1.], requires_grad=True); R = x.subtract(x * 2, alpha=3)",
    "x = L.tensor([0.5, -1.], requires_grad=True); R = L.subtract(2, x)",
    "x = L.tensor([0.5, -1.], requires_grad=True); r = L.sub(2, x)\n"
    "R = (r, [f is None for f, _ in r.grad_fn.next_functions])",
    "x = L.tensor([0.5, -1.], requires_grad=True); R = (2 - x, L.rsub(x, 2))",
    "R = (L.sub(2, L.tensor([1, 2])), L.sub(2.5, L.tensor([1, 2])), L.sub(2, 3))",
    "R = L.sub(True, L.ones(2))", "R = L.subtract(L.ones(2), True)",
    "x = L.ones(2); R = (x.multiply_(3), x.subtract_(1, alpha=2), x)",
    "R = L.tensor([1, 2]).subtract_(0.5)",
])
def test_multiply_and_subtract_as_torch(program: str) -> None:
    """torch's other names for mul and sub, and a number minus a tensor by ``sub`` (torch's
    ``SubBackward0``, the number an operand without an edge) against ``2 - x``
    (``RsubBackward1``)."""
    assert_as_torch(program)


SPECIAL = "L.tensor([0., -0., 0.5, 1., -1., 2., -2.5, 3.7, 10., 30., 1e-20, -1e-20, -0.9999, " \
    "-1e4 + 0.5, float('inf'), -float('inf'), float('nan')], dtype=L.{dtype})"


@pytest.mark.parametrize("dtype", ["float64", "float32", "float16", "int64", "bool"])
@pytest.mark.parametrize("call", ["L.polygamma({n}, {x})", "{x}.polygamma({n})",
                                  "L.mvlgamma({x}, {n})", "{x}.mvlgamma(p={n})"])
@pytest.mark.parametrize("n", [0, 1, 2, 3])
def test_polygamma_and_mvlgamma_values_as_torch(call: str, n: int, dtype: str) -> None:
    """Every order over special values (poles, negative numbers, infinities) and dtypes,
    torch's refusals of a negative order, a p below 1 and a bool mvlgamma."""
    values = ("L.tensor([True, False])" if dtype == "bool" else "L.tensor([1, 2, 0, -3])"
              if dtype == "int64" else SPECIAL.format(dtype=dtype))
    assert_as_torch(f"R = {call.format(n=n, x=values)}")


@pytest.mark.parametrize("program", [
    "R = L.polygamma(-1, L.ones(2))", "R = L.polygamma(1.5, L.ones(2))",
    "R = L.polygamma(1, [1.])", "R = L.mvlgamma(L.ones(2), 1.5)", "R = L.mvlgamma([1.], 2)",
    "R = L.ones(2).polygamma_(1)", "R = L.ones(2).mvlgamma_(2)", "R = L.ones(2).mvlgamma_(p=3)",
    "R = L.tensor([1, 2]).polygamma_(1)", "R = L.ones(2).polygamma_(-1)",
    "R = L.ones(2).polygamma_(1.5)", "R = L.mvlgamma(L.tensor([True]), 0)",
    "R = L.ones(2).mvlgamma_(0)",
    "x = L.tensor([0.5, 2.], requires_grad=True); y = x * 1; y.polygamma_(2)\n"
    "y.sum().backward(); R = (y, x.grad)",
    "R = L.logit(L.tensor([0.05, 0.5, 0.95, 1.2, -0.1, float('nan')]), 0.1)",
    "R = L.logit(L.tensor([0.05, 0.5, 0.95, 1.2, -0.1]), eps=-0.5)",
    "R = L.logit(L.tensor([0.05, 0.5, 1.]), 0.)", "R = L.logit(L.tensor([1, 0]))",
    "R = L.logit(L.ones(2), 'a')", "R = L.tensor([0.3]).logit(0.4)",
    "R = (L.ones(2) * 0.3).logit_(0.1)", "R = L.logit_(L.ones(2) * 0.3, eps=0.4)",
    "x = L.tensor([0.05, 0.5, 0.95, 1.2, -0.1, 0.], requires_grad=True)\n"
    "R = (L.autograd.grad(L.logit(x, 0.1).sum(), x)[0],\n"
    "     L.autograd.grad(L.logit(x).sum(), x)[0])",
    "x = L.tensor([float('nan'), float('inf'), -float('inf'), 2.], requires_grad=True)\n"
    "r = L.nan_to_num(x, 1., 2., -3.); r.sum().backward(); R = (r, x.grad)",
    *(f"R = L.nan_to_num(L.tensor([float('nan'), float('inf'), -float('inf'), 2.], "
      f"dtype=L.{d}){args})" for d in ("float64", "float32", "float16")
      for args in ("", ", posinf=1e40", ", 3, -2, 2", ", neginf=1")),
    "R = L.nan_to_num(L.tensor([1, 2]), 1.5)", "R = L.nan_to_num(L.tensor([True]))",
    "R = L.nan_to_num(L.ones(1), 'a')", "R = L.ones(1).nan_to_num(nan=3)",
    "R = L.nan_to_num_(L.tensor([float('nan')]), 2.)",
    "R = L.tensor([float('inf')]).nan_to_num_(posinf=5)",
])
def test_special_functions_arguments_as_torch(program: str) -> None:
    """polygamma's order, mvlgamma's p, logit's eps and nan_to_num's replacements: values,
    gradients, in-place forms and torch's refusals."""
    assert_as_torch(program)


@pytest.mark.parametrize("n", [0, 1, 2, 3])
@pytest.mark.parametrize("dtype", ["float64", "float32"])
def test_polygamma_and_mvlgamma_gradients_as_torch(n: int, dtype: str) -> None:
    """Each order's gradient is the next order, to the second order; mvlgamma's is the sum
    of digammas."""
    assert_as_torch(_twice_unary(f"L.polygamma({n}, x)", 0.3, 4, dtype))
    assert_as_torch(_twice_unary(f"L.mvlgamma(x, {n + 1})", 1.7, 4, dtype))


def test_polygamma_and_mvlgamma_gradcheck() -> None:
    x = mt.tensor(np.linspace(1.6, 4, 5), dtype=mt.float64, requires_grad=True)
    for fn in (lambda t: mt.polygamma(2, t), lambda t: mt.mvlgamma(t, 3),
               lambda t: mt.logit(t / 5, 0.01), lambda t: mt.nan_to_num(t)):
        assert mt.autograd.gradcheck(fn, (x,))
        assert mt.autograd.gradgradcheck(fn, (x,))


def test_polygamma_refuses_an_input_it_would_take_too_many_steps_for() -> None:
    """torch adds a term per unit from x up to 9: minitorch refuses beyond 100 000 steps
    rather than hanging."""
    with pytest.raises(NotImplementedError, match="polygamma"):
        mt.polygamma(2, mt.tensor([-1e6 + 0.5]))


# ------------------------------------------------------------------- functions of two tensors

BINARY = ["float_power", "fmax", "fmin", "heaviside", "ldexp", "logaddexp2", "nextafter", "gcd",
          "lcm", "bitwise_left_shift", "bitwise_right_shift"]
FIRST = ["L.tensor([0.5, -0.25, 0., float('nan')], requires_grad=True)",
         "L.tensor([1, 2, -3, 0])", "L.tensor([True, False, True, False])",
         "L.tensor([1.5, 2., -0., 3.], dtype=L.float64)",
         "L.tensor([0.5, -0.25, 0., 2.], dtype=L.float16)", "2",
         "L.tensor([1, 2, -3, 0]).to(L.int8)"]
SECOND = ["L.tensor([2., 0.5, 0., 1.], requires_grad=True)", "L.tensor([1, 2, -3, 0])",
          "L.tensor([True, False, True, False])", "L.tensor([1.5, 2., -0., 3.], dtype=L.float64)",
          "2", "1.5", "L.tensor([1, 2, -3, 0]).to(L.int8)", "'a'", "L.ones(3)"]


@pytest.mark.parametrize("first", FIRST)
@pytest.mark.parametrize("name", BINARY)
def test_binary_values_over_operand_kinds_as_torch(name: str, first: str) -> None:
    """Every pairing of dtypes (and numbers where torch takes them): torch's values, result
    dtype and node, or its refusal (a dtype its kernel lacks, a number where it takes only
    tensors, shapes that do not broadcast); the method form too."""
    for second in SECOND:
        assert_as_torch(f"R = L.{name}({first}, {second})")
    if first[0] != "2":
        assert_as_torch(f"R = ({first}).{name}({SECOND[1]})")


SPECIALS = "[float('nan'), float('inf'), -float('inf'), 0., -0., 1., -2.5, 1e-30, 3e38]"


@pytest.mark.parametrize("dtype", ["float32", "float64", "float16"])
@pytest.mark.parametrize("name", ["fmax", "fmin", "logaddexp2", "nextafter", "heaviside",
                                  "float_power"])
def test_binary_special_values_as_torch(name: str, dtype: str) -> None:
    """NaN, infinities and signed zeros against each other (ties keep the first operand)."""
    values = f"L.tensor({SPECIALS}, dtype=L.{dtype})"
    assert_as_torch(f"R = L.{name}({values}, {values}.flip(0))")


@pytest.mark.parametrize("program", [
    "R = L.ldexp(L.tensor([float('nan'), 0., 1e-30, 3., 1., 3e38, -0.]),\n"
    "            L.tensor([1, 200, 130, -150, 128, 2, 7]))",
    "R = L.ldexp(L.tensor([0., 1e-300, 1e300, 5e-324, -3.], dtype=L.float64),\n"
    "            L.tensor([2000, 1500, -1400, 1100, -1074]))",
    "R = L.ldexp(L.tensor([0., 1e-3, 3., 1.], dtype=L.float16), L.tensor([40, 20, -20, 16]))",
    "R = L.ldexp(L.tensor([0., 1e-30, 3.]), L.tensor([200., 130., -150.]))",
    "R = L.ldexp(L.ones(1), L.tensor([0.5], dtype=L.float64))",
    "R = L.lcm(L.tensor([2 ** 40]), L.tensor([3 ** 20]))",
    "R = L.gcd(L.tensor([-128], dtype=L.int8), L.tensor([0], dtype=L.int8))",
    "R = L.gcd(L.tensor([[12], [-18], [0]]), L.tensor([8, 0, -7]))",
    "R = L.lcm(L.tensor([[12], [-18], [0]]), L.tensor([8, 0, -7]))",
    "R = L.float_power(2, 3)", "R = L.float_power(L.tensor([-8.]), 1 / 3)",
    "R = L.float_power(L.tensor([True]), True)", "R = L.float_power(2.5, L.tensor([1, 2]))",
    "x = L.tensor([0.5, 2.], requires_grad=True); r = L.float_power(x, 2)\n"
    "R = (r, r.grad_fn.next_functions[0][0].name())",
    "x = L.tensor([0.5, 2.], dtype=L.float64, requires_grad=True); r = L.float_power(x, x)\n"
    "R = (r, r.grad_fn.next_functions[0][0] is not None)",
    "R = L.heaviside(L.tensor([0, -2, 3]), L.tensor([7]))",
    "R = L.heaviside(L.ones(2), L.ones(3))",
    "x = L.tensor([0.5, 0.], requires_grad=True); L.heaviside(x, x).sum().backward()",
    "x = L.tensor([0.5, 0.], requires_grad=True); R = L.heaviside(x, L.ones(2)).grad_fn.name()",
    "x = L.tensor([0.5, -0.25, 0., float('nan')], requires_grad=True)\n"
    "y = L.tensor([2., 0.5, 0., 1.], requires_grad=True)\n"
    "R = L.autograd.grad(L.nextafter(x, y).sum(), [x, y])",
    "R = L.bitwise_left_shift(2, 3)", "R = L.bitwise_right_shift(L.tensor([-8, 8]), 70)",
    "R = L.tensor([1, 2]).bitwise_left_shift_(3)", "R = L.tensor([16]).bitwise_right_shift_(2)",
    "R = L.ones(2).bitwise_left_shift_(1)",
])
def test_binary_cases_as_torch(program: str) -> None:
    """ldexp exact for integer exponents (no overflowing power of two on the way), gcd/lcm
    as torch's kernel (wrapping, the smallest int8), float_power's conversions, heaviside's
    missing derivative and nextafter's flat one."""
    assert_as_torch(program)


# name -> the inputs' range for its gradients, and whether the second operand takes one
GRADIENTS = {"fmax": "x, y", "fmin": "x, y", "logaddexp2": "x, y", "float_power": "x, y",
             "ldexp": "x"}


@pytest.mark.parametrize("dtype", ["float64", "float32"])
@pytest.mark.parametrize("name", sorted(GRADIENTS))
def test_binary_gradients_as_torch(name: str, dtype: str) -> None:
    """Values, gradients (through a broadcast) and second-order gradients, as torch's
    formulas; ties and NaN for fmax/fmin."""
    other = ("L.tensor([[1], [3]])" if name == "ldexp" else
             f"L.tensor([[0.5, 0.25, 1.5, float('nan'), 0.7]], dtype=L.{dtype}, "
             "requires_grad=True)")
    assert_as_torch(
        f"x = L.tensor([[0.3, 0.25, 2., 1.1, 0.7], [1.2, 0.9, 0.4, 3., float('nan')]], "
        f"dtype=L.{dtype}, requires_grad=True)\ny = {other}\n"
        f"r = L.{name}(x, y)\n"
        f"g = L.autograd.grad((r * r).sum(), [{GRADIENTS[name]}], create_graph=True)\n"
        f"gg = L.autograd.grad(sum(v.sum() for v in g), [{GRADIENTS[name]}], "
        "allow_unused=True)\n"
        "R = (r, *(v.detach() for v in g), *(v if v is None else v + 0 for v in gg))")


@pytest.mark.parametrize("name", sorted(GRADIENTS))
def test_binary_gradcheck(name: str) -> None:
    x = mt.tensor([[0.3, 0.6, 2.0], [1.2, 0.9, 0.45]], dtype=mt.float64, requires_grad=True)
    y = mt.tensor([[0.5, 0.25, 1.5]], dtype=mt.float64, requires_grad=True)
    fn = getattr(mt, name)
    inputs = (x, mt.tensor([[1], [-2]])) if name == "ldexp" else (x, y)
    assert mt.autograd.gradcheck(fn, inputs)
    assert mt.autograd.gradgradcheck(fn, inputs)


@pytest.mark.parametrize("name", ["fmax", "fmin", "logaddexp2", "float_power", "ldexp",
                                  "nextafter", "heaviside", "gcd", "lcm"])
def test_binary_in_place_as_torch(name: str) -> None:
    """``x.name_(other)`` (and ``torch.name_`` where torch has it): written into ``x`` with
    torch's node, or torch's refusal of a result ``x`` cannot hold."""
    pairs = [("L.tensor([0.5, 2.], requires_grad=True) * 1", "L.tensor([1.5, 1.])"),
             ("L.tensor([0.5, 2.], dtype=L.float64, requires_grad=True) * 1",
              "L.tensor([1, 2])"),
             ("L.tensor([4, 6])", "L.tensor([6, 4])"), ("L.tensor([4, 6])", "L.tensor([1.5])"),
             ("L.tensor([0.5, 2.])", "L.tensor([1.5], dtype=L.float64)")]
    for first, second in pairs:
        assert_as_torch(f"x = {first}; y = x.{name}_({second}); R = (y is x, x, x._version)")
        if name in ("ldexp", "gcd", "lcm"):
            assert_as_torch(f"x = {first}; y = L.{name}_(x, {second}); R = (y is x, x)")


def test_ldexp_gradient_of_a_negative_integer_exponent_is_the_true_one() -> None:
    """torch's backward takes ``pow(2, other)`` in integers, so its gradient for a negative
    integer exponent is 0; minitorch gives the true ``2 ** other`` (never a silently wrong
    gradient), which is torch's for the same exponent as a float."""
    grads = []
    for lib, exponent in ((mt, "[1, -2]"), (torch, "[1., -2.]")):
        x = lib.tensor([0.3, 1.2], requires_grad=True)
        (g,) = lib.autograd.grad(lib.ldexp(x, lib.tensor(eval(exponent))).sum(), x)
        grads.append(g.tolist())
    assert grads[0] == grads[1] == [2.0, 0.25]


@settings(SETTINGS, max_examples=20)
@given(st.sampled_from(["fmax", "fmin", "logaddexp2", "float_power", "nextafter"]),
       st.lists(st.integers(1, 3), min_size=1, max_size=3), st.integers(0, 2 ** 16))
def test_binary_broadcast_shapes_as_torch(name: str, shape: list, seed: int) -> None:
    """Any pair of broadcasting shapes: values and the gradients summed back to each."""
    rng = np.random.default_rng(seed)
    other = [1 if rng.random() < 0.5 else n for n in shape][rng.integers(0, len(shape)):]
    x = rng.uniform(0.1, 3, shape).round(4).tolist()
    y = rng.uniform(0.1, 3, other or [1]).round(4).tolist()
    assert_as_torch(f"x = L.tensor({x}, dtype=L.float64, requires_grad=True)\n"
                    f"y = L.tensor({y}, dtype=L.float64, requires_grad=True)\n"
                    f"r = L.{name}(x, y); r.sum().backward(); R = (r, x.grad, y.grad)")


FREXP_INPUTS = [f"L.tensor({SPECIALS}, dtype=L.{d})" for d in ("float32", "float64", "float16")] \
    + ["L.tensor([1e-310, 5e-324, -7., 0.75], dtype=L.float64)", "L.tensor([1e-45, 3e-39])",
       "L.tensor([1, 2])", "L.tensor([True])", "3."]


@pytest.mark.parametrize("values", FREXP_INPUTS)
def test_frexp_and_float_tests_as_torch(values: str) -> None:
    """frexp's mantissa and int32 exponent (subnormals, zeros and non-finite values too),
    isposinf/isneginf/isreal, as functions and methods."""
    assert_as_torch(f"R = tuple(L.frexp({values}))")
    for name in ("isposinf", "isneginf", "isreal"):
        assert_as_torch(f"R = L.{name}({values})")
        assert_as_torch(f"v = {values}; R = v.{name}() if isinstance(v, L.Tensor) else None")
    assert_as_torch(f"v = {values}; R = tuple(v.frexp()) if isinstance(v, L.Tensor) else None")


@pytest.mark.parametrize("program", [
    "x = L.tensor([0.5, -0.25, 0., 8.], requires_grad=True); m, e = L.frexp(x)\n"
    "R = (repr(L.frexp(x.detach())), L.autograd.grad(m.sum(), x), e.requires_grad, m)",
    "x = L.tensor([0.5, 3.], dtype=L.float64, requires_grad=True); m, e = x.frexp()\n"
    "g, = L.autograd.grad((m * m).sum(), x, create_graph=True)\n"
    "R = (g, L.autograd.grad(g.sum(), x))",
])
def test_frexp_gradient_as_torch(program: str) -> None:
    assert_as_torch(program)


@pytest.mark.parametrize("program", [
    "R = L.hardshrink(L.tensor([0.5, -0.6, float('nan'), -0.5, 0.]), 0.5)",
    "R = L.hardshrink(L.tensor([0.5, -0.6, 0.]), -1.)", "R = L.hardshrink(L.ones(2), 'a')",
    "R = L.hardshrink(L.tensor([0.5, -0.6, 0.7], dtype=L.float16))",
    "R = L.hardshrink(L.tensor([1, 2]))", "R = L.hardshrink(L.tensor([True]))",
    "R = L.tensor([0.5, -0.6]).hardshrink(0.55)", "R = L.tensor([0.5]).hardshrink(lambd=0.3)",
    "R = L.hardshrink([0.5])",
    "x = L.tensor([0.5, -0.25, 0.7, float('nan')], requires_grad=True)\n"
    "g, = L.autograd.grad(L.hardshrink(x, 0.3).sum(), x, create_graph=True)\n"
    "R = (g, L.autograd.grad((g * x).sum(), x, allow_unused=True))",
    "x = L.tensor([0.5, -0.25, 0.7], dtype=L.float64, requires_grad=True)\n"
    "g, = L.autograd.grad((L.hardshrink(x, 0.3) ** 2).sum(), x, create_graph=True)\n"
    "R = (g, L.autograd.grad(g.sum(), x))",
])
def test_hardshrink_as_torch(program: str) -> None:
    """Values (NaN kept, a negative lambd), the nodes of its gradient and of that gradient,
    and torch's refusals."""
    assert_as_torch(program)


# ------------------------------------------------------------------------ the array seam

STRICT_CALLS = [*(f"x.{name}()" for name in UNARY), "L.polygamma(1, x)", "L.polygamma(3, x)",
                "L.mvlgamma(x + 2, 3)", "x.logit(0.1)", "L.fmax(x, y)", "L.fmin(x, y)",
                "L.logaddexp2(x, y)", "L.float_power(x, y)", "L.ldexp(x, L.tensor([1, -2, 3]))",
                "L.nextafter(x, y)", "L.frexp(x)[0]", "L.hardshrink(x, 0.4)", "L.sub(2, x)",
                "L.subtract(x, y, alpha=2)"]
NOT_DIFFERENTIABLE = ["L.heaviside(x, y)", "L.gcd(i, i * 3)", "L.lcm(i, i + 1)",
                      "L.frexp(x)[1]", "L.isposinf(x / 0)", "L.isneginf(x / 0)", "L.isreal(x)",
                      "L.bitwise_left_shift(i, 2)", "L.bitwise_right_shift(-i, 1)",
                      "L.nan_to_num(x / 0)"]


def _on(namespace: object, call: str, differentiable: bool) -> list:
    """The values (and gradients) of ``call`` with tensors of ``namespace`` (numpy: None)."""
    from contextlib import nullcontext

    from minitorch import backend

    with nullcontext() if namespace is None else backend.device_namespace("cpu", namespace):
        x = mt.tensor([0.3, -0.6, 0.9], dtype=mt.float64, requires_grad=differentiable)
        y = mt.tensor([0.5, 0.2, -0.4], dtype=mt.float64, requires_grad=differentiable)
        i = mt.tensor([4, -6, 0])
        r = eval(call, {"L": mt, "x": x, "y": y, "i": i})
        assert namespace is None or backend.namespace(r._data) is namespace, call
        grads = mt.autograd.grad(r.sum(), [x, y], allow_unused=True) if differentiable else ()
        return [np.asarray(t.detach().numpy(force=True)) for t in (r, *grads) if t is not None]


@pytest.mark.parametrize("call", [*STRICT_CALLS, *NOT_DIFFERENTIABLE])
def test_new_ops_run_on_the_strict_array_namespace(call: str) -> None:
    """Each op (forward and gradient) through the array-API seam alone: array-api-strict,
    which refuses anything outside the standard, gives numpy's values (so CuPy can run it)."""
    import array_api_strict

    differentiable = call in STRICT_CALLS
    want, got = _on(None, call, differentiable), _on(array_api_strict, call, differentiable)
    assert len(want) == len(got)
    for a, b in zip(want, got):
        assert a.dtype == b.dtype and np.allclose(a, b, rtol=1e-12, equal_nan=True), call


# ------------------------------------------------------------- comparisons by name, in place

COMPARISONS = ["eq", "ne", "lt", "le", "gt", "ge", "greater", "greater_equal", "less",
               "less_equal", "not_equal"]
SELVES = ["L.tensor([0.5, -0.25, 2.], requires_grad=True) * 1", "L.tensor([1, 5, 0])",
          "L.tensor([True, False, True])", "L.tensor([1, 2, 0], dtype=L.uint8)",
          "L.tensor([1, 2, 0], dtype=L.int8)", "L.tensor([0.5, 1., 2.], dtype=L.float64)"]
OTHERS = ["1.", "L.tensor([0., 0., 3.])", "L.tensor([1, 0, 2])", "True", "2 ** 64", "1 + 2j",
          "1 + 0j", "'a'", "None", "L.ones(2, 2)", "np.float32(0.5)", "L.tensor(0.5)", "-1",
          "300", "L.tensor([0.5, 1., 2.], dtype=L.float64)"]


@pytest.mark.parametrize("other", OTHERS)
@pytest.mark.parametrize("name", COMPARISONS)
def test_comparisons_in_place_and_by_name_as_torch(name: str, other: str) -> None:
    """``x.name_(other)`` writes 1/0 in x's own dtype (a Python int read in that dtype, as
    torch's in-place ops read it; a complex for eq/ne only), with torch's refusals (shapes,
    operand types); the out-of-place named forms give torch's bool result or refusal."""
    for self_ in SELVES:
        assert_as_torch(f"y = {self_}; z = y.{name}_({other}); R = (z is y, y, y._version)")
    assert_as_torch(f"R = L.tensor([0.5, -0.25, 2.]).{name}({other})")
    if name in ("greater", "greater_equal", "less", "less_equal", "not_equal"):
        assert_as_torch(f"R = L.{name}(L.tensor([0.5, -0.25, 2.]), {other})")
        assert_as_torch(f"R = L.{name}({other}, L.tensor([0.5, -0.25, 2.]))")


@pytest.mark.parametrize("name", COMPARISONS)
def test_comparisons_in_place_record_zero_gradients_as_torch(name: str) -> None:
    """torch's node (``<Name>Backward0`` for a number, ``...Backward1`` for a tensor, its
    edges), zero gradients for both operands, and a comparison on a view rewriting its
    base's history (``CopySlices``)."""
    x = "x = L.tensor([0.5, -0.25, 2.], requires_grad=True)\n"
    assert_as_torch(x + f"y = x * 1; y.{name}_(1.)\n"
                    "R = (y, [f is None for f, _ in y.grad_fn.next_functions],\n"
                    "     L.autograd.grad(y.sum(), x, create_graph=True))")
    assert_as_torch(x + f"y = x * 1; w = L.ones(3, requires_grad=True); y.{name}_(w * x)\n"
                    "R = (y, L.autograd.grad(y.sum(), [x, w]))")
    assert_as_torch(x + f"z = x * 1; z[1:].{name}_(1.); R = (z, L.autograd.grad(z.sum(), x))")
    assert_as_torch(x + f"R = x.{name}_(1.)")
