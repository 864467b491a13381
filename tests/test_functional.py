"""autograd.functional against live torch 2.13: jacobian, hessian, vjp, jvp, hvp, vhp.

Values, shapes, dtypes and requires_grad of every result must equal torch's on the same
random inputs (hypothesis draws them), and so must the error messages. The seed note's three
functions (sum(x**2), a Linear(4, 2), a 4x4 input through AvgPool2d(2) then squared) run
with the note's own assertions.
"""

from __future__ import annotations

import doctest
import importlib
import warnings
from collections.abc import Callable
from typing import Any

import numpy as np
import pytest
import torch
from hypothesis import given, settings
from hypothesis import strategies as st
from oracle import SETTINGS, arrays, assert_same, assert_same_error, mt, raised_by

import minitorch.nn  # noqa: F401  (binds minitorch.nn, which the package may not import yet)

LIBS = pytest.mark.parametrize("L", [mt, torch], ids=["minitorch", "torch"])
pytestmark = pytest.mark.filterwarnings("error")
FEW = settings(SETTINGS, max_examples=10)


def assert_same_tree(got: Any, want: Any, what: str = "result") -> None:
    """Nested tuples of tensors agree (see oracle.assert_same) and nest the same way."""
    if isinstance(want, torch.Tensor):
        assert_same(got, want, what)
        return
    assert isinstance(got, tuple) and len(got) == len(want), f"{what}: {got!r}"
    for i, (g, w) in enumerate(zip(got, want)):
        assert_same_tree(g, w, f"{what}[{i}]")


def both(arrays_: tuple) -> tuple[tuple, tuple]:
    """The same float64 data as minitorch and torch tensors (not requiring grad)."""
    return (tuple(mt.tensor(a) for a in arrays_), tuple(torch.tensor(a) for a in arrays_))


def draw_arrays(data: st.DataObject, shapes: tuple) -> tuple:
    return tuple(data.draw(arrays(s)) for s in shapes)


def single(values: tuple) -> Any:
    """A one-element tuple of inputs is passed as the tensor itself (the other calling form)."""
    return values[0] if len(values) == 1 else values


# ---------------------------------------------------------------------------- the functions

# name -> (input shapes, func(L)); outputs of any shape
VECTOR: dict[str, tuple[tuple, Callable[[Any], Callable[..., Any]]]] = {
    "exp(x) * x": (((3,),), lambda L: lambda x: x.exp() * x),
    "tanh(a @ b)": (((2, 3), (3,)), lambda L: lambda a, b: (a @ b).tanh()),
    "two outputs": (((2, 2),), lambda L: lambda x: (x.sin(), (x ** 2).sum())),
    "an unused input": (((3,), (2,)), lambda L: lambda x, y: x * 2),
    "normalised exp": (((2, 3),), lambda L: lambda x: x.exp() / x.exp().sum(1, keepdim=True)),
}

# name -> (input shapes, func(L)); one-element outputs
SCALAR: dict[str, tuple[tuple, Callable[[Any], Callable[..., Any]]]] = {
    "sum(x**3)": (((4,),), lambda L: lambda x: (x ** 3).sum()),
    "log(sum(exp))": (((2, 2),), lambda L: lambda x: x.exp().sum().log()),
    "two inputs": (((3,), (3,)), lambda L: lambda x, y: (x * y.sin()).sum() + (x * x * y).sum()),
    "quadratic form": (((3,), (3, 3)), lambda L: lambda x, a: (x * (a @ x)).sum()),
}


@pytest.mark.parametrize("create_graph", [False, True])
@pytest.mark.parametrize("case", VECTOR, ids=str)
@FEW
@given(data=st.data())
def test_jacobian_matches_torch(case: str, create_graph: bool, data: st.DataObject) -> None:
    shapes, func = VECTOR[case]
    ours, theirs = both(draw_arrays(data, shapes))
    want = torch.autograd.functional.jacobian(func(torch), single(theirs),
                                              create_graph=create_graph)
    got = mt.autograd.functional.jacobian(func(mt), single(ours), create_graph=create_graph)
    assert_same_tree(got, want)


@pytest.mark.parametrize("create_graph", [False, True])
@pytest.mark.parametrize("case", SCALAR, ids=str)
@FEW
@given(data=st.data())
def test_hessian_matches_torch(case: str, create_graph: bool, data: st.DataObject) -> None:
    shapes, func = SCALAR[case]
    ours, theirs = both(draw_arrays(data, shapes))
    want = torch.autograd.functional.hessian(func(torch), single(theirs),
                                             create_graph=create_graph)
    got = mt.autograd.functional.hessian(func(mt), single(ours), create_graph=create_graph)
    assert_same_tree(got, want)


def output_shapes(func: Callable[..., Any], inputs: tuple) -> tuple:
    out = func(*inputs)
    return tuple(o.shape for o in out) if isinstance(out, tuple) else (out.shape,)


@pytest.mark.parametrize("name", ["vjp", "jvp"])
@pytest.mark.parametrize("create_graph", [False, True])
@pytest.mark.parametrize("case", VECTOR, ids=str)
@FEW
@given(data=st.data())
def test_vjp_and_jvp_match_torch(name: str, case: str, create_graph: bool,
                                 data: st.DataObject) -> None:
    shapes, func = VECTOR[case]
    ours, theirs = both(draw_arrays(data, shapes))
    v_shapes = output_shapes(func(torch), theirs) if name == "vjp" else shapes
    v_ours, v_theirs = both(draw_arrays(data, tuple(tuple(s) for s in v_shapes)))
    want = getattr(torch.autograd.functional, name)(
        func(torch), single(theirs), single(v_theirs), create_graph=create_graph)
    got = getattr(mt.autograd.functional, name)(
        func(mt), single(ours), single(v_ours), create_graph=create_graph)
    assert_same_tree(got, want)


@pytest.mark.parametrize("name", ["hvp", "vhp"])
@pytest.mark.parametrize("create_graph", [False, True])
@pytest.mark.parametrize("case", SCALAR, ids=str)
@FEW
@given(data=st.data())
def test_hvp_and_vhp_match_torch(name: str, case: str, create_graph: bool,
                                 data: st.DataObject) -> None:
    shapes, func = SCALAR[case]
    ours, theirs = both(draw_arrays(data, shapes))
    v_ours, v_theirs = both(draw_arrays(data, shapes))
    want = getattr(torch.autograd.functional, name)(
        func(torch), single(theirs), single(v_theirs), create_graph=create_graph)
    got = getattr(mt.autograd.functional, name)(
        func(mt), single(ours), single(v_ours), create_graph=create_graph)
    assert_same_tree(got, want)


@LIBS
def test_hvp_equals_vhp_for_a_symmetric_hessian(L: Any) -> None:
    x = L.tensor([0.5, -1.0, 2.0], dtype=L.float64)
    v = L.tensor([1.0, 2.0, 3.0], dtype=L.float64)
    f = SCALAR["log(sum(exp))"][1](L)
    (_, hv), (_, vh) = L.autograd.functional.hvp(f, x, v), L.autograd.functional.vhp(f, x, v)
    h = L.autograd.functional.hessian(f, x)
    np.testing.assert_allclose(hv.numpy(), vh.numpy(), rtol=1e-12)
    np.testing.assert_allclose(hv.numpy(), (h @ v).numpy(), rtol=1e-12)


@LIBS
def test_create_graph_reaches_the_callers_inputs(L: Any) -> None:
    """J = d(x * sum(x))/dx = sum(x) I + x 1ᵀ, so d(sum J)/dx_k = 2n: the graph reaches x."""
    x = L.tensor([1.0, 2.0, 3.0], dtype=L.float64, requires_grad=True)
    jac = L.autograd.functional.jacobian(lambda t: t * t.sum(), x, create_graph=True)
    jac.sum().backward()
    np.testing.assert_allclose(x.grad.numpy(), [6.0, 6.0, 6.0])


@LIBS
def test_results_are_detached_without_create_graph(L: Any) -> None:
    x = L.tensor([1.0, 2.0], requires_grad=True)
    out, vjp = L.autograd.functional.vjp(lambda t: (t ** 2).sum(), x)
    assert not out.requires_grad and not vjp.requires_grad and out.grad_fn is None


@LIBS
def test_vectorize_gives_the_same_jacobian(L: Any) -> None:
    x = L.tensor([0.5, 1.5], dtype=L.float64)
    f = VECTOR["exp(x) * x"][1](L)
    plain = L.autograd.functional.jacobian(f, x)
    vectorized = L.autograd.functional.jacobian(f, x, vectorize=True)
    np.testing.assert_array_equal(plain.numpy(), vectorized.numpy())


FORWARD_MODE = {
    "one in, one out": lambda L: (lambda x: x.exp() * x, (L.tensor([1.0, 2.0]),)),
    "tuple in": lambda L: (lambda x, y: x * y.sin(), (L.tensor([1.0, 2.0]), L.tensor([0.5, 3.0]))),
    "tuple out": lambda L: (lambda x: (x * 2, (x ** 2).sum()), L.tensor([1.0, 2.0])),
    "both": lambda L: (lambda x, y: (x * y, y.sum()), (L.tensor([1.0, 2.0]), L.tensor([3.0, 4.0]))),
    "unused input": lambda L: (lambda x, y: x * 2, (L.ones(2), L.ones(3))),
    "constant": lambda L: (lambda x: L.ones(2), L.tensor([1.0, 2.0])),
}


@pytest.mark.parametrize("name", sorted(FORWARD_MODE))
def test_forward_mode_jacobian_prints_as_torch(name: str) -> None:
    """torch's forward-mode strategy (vectorize=True): its lists over inputs included."""
    printed = []
    for L in (mt, torch):
        f, inputs = FORWARD_MODE[name](L)
        with warnings.catch_warnings():  # torch's vmap scripts a helper: a deprecation
            warnings.simplefilter("ignore", DeprecationWarning)
            printed.append(repr(L.autograd.functional.jacobian(f, inputs, vectorize=True,
                                                               strategy="forward-mode")))
    assert printed[0] == printed[1]


@pytest.mark.parametrize("kwargs", [{}, {"vectorize": True, "create_graph": True}])
def test_forward_mode_refusals_as_torch(kwargs: dict) -> None:
    x = mt.ones(2)
    want = raised_by(lambda L: L.autograd.functional.jacobian(
        lambda t: t * 2, L.ones(2), strategy="forward-mode", **kwargs), torch)
    assert_same_error(raised_by(lambda L: L.autograd.functional.jacobian(
        lambda t: t * 2, L.ones(2), strategy="forward-mode", **kwargs), mt), want)
    with pytest.raises(NotImplementedError, match="forward-over-reverse"):
        mt.autograd.functional.hessian(lambda t: t.sum(), x,
                                       outer_jacobian_strategy="forward-mode")


# ---------------------------------------------------------------------------- errors

F = "autograd.functional"
ERRORS: dict[str, Callable[[Any], Any]] = {
    "vjp without v, vector output": lambda L: L.autograd.functional.vjp(
        lambda t: t * 2, L.ones(4)),
    "jvp without v, vector input": lambda L: L.autograd.functional.jvp(
        lambda t: t * 2, L.ones(4)),
    "hvp without v, vector input": lambda L: L.autograd.functional.hvp(
        lambda t: t.sum(), L.ones(4)),
    "vjp v of the wrong size": lambda L: L.autograd.functional.vjp(
        lambda t: t * 2, L.ones(4), L.ones(3)),
    "vjp v tuple too short": lambda L: L.autograd.functional.vjp(
        lambda t: (t, t), L.ones(4), L.ones(4)),
    "vjp v entry of the wrong size": lambda L: L.autograd.functional.vjp(
        lambda t: (t, t), L.ones(4), (L.ones(4), L.ones(3))),
    "jvp v tuple for one input": lambda L: L.autograd.functional.jvp(
        lambda t: t, L.ones(2), (L.ones(2), L.ones(2))),
    "inputs as a list": lambda L: L.autograd.functional.jacobian(lambda t: t, [L.ones(2)]),
    "a tuple holding a number": lambda L: L.autograd.functional.jacobian(
        lambda a, b: a, (L.ones(2), 3)),
    "output is a number": lambda L: L.autograd.functional.jacobian(lambda t: 3, L.ones(2)),
    "strict: output independent of input": lambda L: L.autograd.functional.jacobian(
        lambda t: L.ones(2), L.ones(2), strict=True),
    "strict: unused input": lambda L: L.autograd.functional.vjp(
        lambda a, b: a * 2, (L.ones(2), L.ones(2)), L.ones(2), strict=True),
    "strict: linear function's hessian": lambda L: L.autograd.functional.hessian(
        lambda t: t.sum(), L.ones(2), strict=True),
    "strict: jacobian graph with create_graph": lambda L: L.autograd.functional.jacobian(
        lambda t: t * 2, L.ones(2), strict=True, create_graph=True),
    "strict: hvp of a quadratic with create_graph": lambda L: L.autograd.functional.hvp(
        lambda t: (t * t).sum(), L.ones(2), L.ones(2), strict=True, create_graph=True),
    "hessian of a vector function": lambda L: L.autograd.functional.hessian(
        lambda t: t, L.ones(2)),
    "hessian of two outputs": lambda L: L.autograd.functional.hessian(
        lambda t: (t.sum(), t.sum()), L.ones(2)),
    "vhp of a vector function": lambda L: L.autograd.functional.vhp(
        lambda t: t, L.ones(2), L.ones(2)),
    "hvp of a tuple": lambda L: L.autograd.functional.hvp(
        lambda t: (t.sum(),), L.ones(2), L.ones(2)),
    "unknown strategy": lambda L: L.autograd.functional.jacobian(
        lambda t: t, L.ones(2), strategy="sideways"),
    "strict and vectorize": lambda L: L.autograd.functional.jacobian(
        lambda t: t, L.ones(2), strict=True, vectorize=True),
    "an integer input": lambda L: L.autograd.functional.jacobian(lambda t: t, L.arange(3)),
}


@pytest.mark.parametrize("scenario", ERRORS, ids=str)
def test_errors_match_torch(scenario: str) -> None:
    want = raised_by(ERRORS[scenario], torch)
    assert want is not None, "the scenario must fail on torch"
    assert_same_error(raised_by(ERRORS[scenario], mt), want)


# ---------------------------------------------------------------------------- the seed's examples


def seed_functions(L: Any, weight: np.ndarray, bias: np.ndarray) -> tuple:
    """scalar_func, vector_func, mat_func and the Linear, exactly as the note writes them."""
    fc = L.nn.Linear(4, 2)
    fc.load_state_dict({"weight": L.tensor(weight), "bias": L.tensor(bias)})
    pool = L.nn.AvgPool2d(kernel_size=2)

    def scalar_func(x: Any) -> Any:
        y = x ** 2
        z = L.sum(y)
        return z

    def vector_func(x: Any) -> Any:
        y = fc(x)
        return y

    def mat_func(x: Any) -> Any:
        x = x.reshape((1, 1,) + x.shape)  # noqa: RUF005  (the note's spelling)
        x = pool(x)
        x = x.reshape(x.shape[2:])
        return x ** 2

    return scalar_func, vector_func, mat_func, fc


def seed_data() -> dict[str, np.ndarray]:
    rng = np.random.default_rng(2024)
    return {"weight": rng.uniform(-0.5, 0.5, (2, 4)).astype(np.float32),
            "bias": rng.uniform(-0.5, 0.5, 2).astype(np.float32),
            "vector": rng.standard_normal(4).astype(np.float32),
            "matrix": rng.standard_normal((4, 4)).astype(np.float32)}


@LIBS
def test_seed_assertions(L: Any) -> None:
    """The note's asserts, verbatim (with the library as ``L``)."""
    d = seed_data()
    jacobian, hessian = L.autograd.functional.jacobian, L.autograd.functional.hessian
    scalar_func, vector_func, mat_func, fc = seed_functions(L, d["weight"], d["bias"])
    vector_input = L.tensor(d["vector"], requires_grad=True)
    mat_input = L.tensor(d["matrix"], requires_grad=True)

    j = jacobian(scalar_func, vector_input)
    assert j.shape == (4, )
    assert L.all(jacobian(scalar_func, vector_input) == 2 * vector_input)
    h = hessian(scalar_func, vector_input)
    assert h.shape == (4, 4)
    assert L.all(hessian(scalar_func, vector_input) == 2 * L.eye(4))
    j = jacobian(vector_func, vector_input)
    assert j.shape == (2, 4)
    assert L.all(j == fc.weight)
    j = jacobian(mat_func, mat_input)
    assert j.shape == (2, 2, 4, 4)


def test_seed_functions_match_torch() -> None:
    d = seed_data()
    ours, theirs = seed_functions(mt, d["weight"], d["bias"]), seed_functions(
        torch, d["weight"], d["bias"])
    for k, name in enumerate(("scalar_func", "vector_func", "mat_func")):
        x = d["matrix"] if name == "mat_func" else d["vector"]
        for which in ("jacobian", "hessian") if name == "scalar_func" else ("jacobian",):
            want = getattr(torch.autograd.functional, which)(theirs[k], torch.tensor(x))
            got = getattr(mt.autograd.functional, which)(ours[k], mt.tensor(x))
            assert_same_tree(got, want, f"{which}({name})")


def test_docstring_examples() -> None:
    module = importlib.import_module("minitorch.autograd.functional")
    assert doctest.testmod(module).failed == 0
