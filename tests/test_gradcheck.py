"""gradcheck and gradgradcheck against live torch 2.13.

Every case is a function of the library ``L`` that returns ``(func, inputs)``; it runs on torch
first, whose verdict (and, for slow mode, whose exact failure text) minitorch must reproduce.
The deliberately wrong backwards are the kind a student writes: a wrong sign, a missing
factor, a transposed matrix, a forgotten broadcast reduction.
"""

from __future__ import annotations

import doctest
import importlib
import re
import warnings
from collections.abc import Callable
from functools import cache
from typing import Any

import numpy as np
import pytest
import torch
from oracle import mt

import minitorch.nn  # noqa: F401  (binds minitorch.nn, which the package may not import yet)

LIBS = pytest.mark.parametrize("L", [mt, torch], ids=["minitorch", "torch"])

# Anything a case prints to stderr is a failure, except what a test expects and captures.
pytestmark = pytest.mark.filterwarnings("error")

NOT_DOUBLE = ("Input #0 requires gradient and is not a double precision floating point or "
              "complex. This check will likely fail if all the inputs are not of double "
              "precision floating point or complex. ")


def data(seed: int, *shape: int) -> np.ndarray:
    """Reproducible float64 normal samples."""
    return np.random.default_rng(seed).standard_normal(shape)


def leaf(L: Any, array: np.ndarray, dtype: Any = None, requires_grad: bool = True) -> Any:
    return L.tensor(array, dtype=dtype or L.float64, requires_grad=requires_grad)


# ---------------------------------------------------------------------------- custom Functions


@cache
def functions(L: Any) -> Any:
    """The custom Functions of these tests, defined once per library (by ``L``)."""
    Function = L.autograd.Function

    class Sigmoid(Function):
        """The seed note's Sigmoid."""

        @staticmethod
        def forward(ctx: Any, x: Any) -> Any:
            output = 1 / (1 + L.exp(-x))
            ctx.save_for_backward(output)
            return output

        @staticmethod
        def backward(ctx: Any, grad_output: Any) -> Any:
            output, = ctx.saved_tensors
            return output * (1 - output) * grad_output

    class Scale(Function):
        """``x * k`` with a Python number ``k``: the non-tensor argument gets no gradient."""

        @staticmethod
        def forward(ctx: Any, x: Any, k: float) -> Any:
            ctx.k = k
            return x * k

        @staticmethod
        def backward(ctx: Any, g: Any) -> Any:
            return g * ctx.k, None

    class SinAndDouble(Function):
        """Two outputs from one input."""

        @staticmethod
        def forward(ctx: Any, x: Any) -> Any:
            ctx.save_for_backward(x)
            return x.sin(), x * 2

        @staticmethod
        def backward(ctx: Any, g_sin: Any, g_double: Any) -> Any:
            x, = ctx.saved_tensors
            return g_sin * x.cos() + g_double * 2

    class SquareWrongSign(Function):
        @staticmethod
        def forward(ctx: Any, x: Any) -> Any:
            ctx.save_for_backward(x)
            return x * x

        @staticmethod
        def backward(ctx: Any, g: Any) -> Any:
            x, = ctx.saved_tensors
            return -2 * x * g

    class CubeMissingFactor(Function):
        @staticmethod
        def forward(ctx: Any, x: Any) -> Any:
            ctx.save_for_backward(x)
            return x ** 3

        @staticmethod
        def backward(ctx: Any, g: Any) -> Any:
            x, = ctx.saved_tensors
            return x ** 2 * g  # forgot the 3

    class MatmulTransposed(Function):
        @staticmethod
        def forward(ctx: Any, a: Any, b: Any) -> Any:
            ctx.save_for_backward(a, b)
            return a @ b

        @staticmethod
        def backward(ctx: Any, g: Any) -> Any:
            a, b = ctx.saved_tensors
            return g @ b, a @ g  # should be g @ b.T, a.T @ g (square matrices hide it)

    class OuterSumUnreduced(Function):
        """``out[i, j] = x[i] + y[j]``. The backward forgets to sum the broadcast copies; both
        libraries then sum a too-large gradient over its *leading* dims, which is right for
        y and wrong for x (its copies run along dim 1)."""

        @staticmethod
        def forward(ctx: Any, x: Any, y: Any) -> Any:
            return x.unsqueeze(1) + y.unsqueeze(0)

        @staticmethod
        def backward(ctx: Any, g: Any) -> Any:
            return g, g

    class SquareDetachedBackward(Function):
        """First derivative right, but computed outside the graph: no second derivative."""

        @staticmethod
        def forward(ctx: Any, x: Any) -> Any:
            ctx.save_for_backward(x)
            return x * x

        @staticmethod
        def backward(ctx: Any, g: Any) -> Any:
            x, = ctx.saved_tensors
            return 2 * x.detach() * g

    return type("Functions", (), {c.__name__: c for c in (
        Sigmoid, Scale, SinAndDouble, SquareWrongSign, CubeMissingFactor, MatmulTransposed,
        OuterSumUnreduced, SquareDetachedBackward)})


# ---------------------------------------------------------------------------- the cases

Case = Callable[[Any], tuple[Callable[..., Any], tuple]]


def avg_pool(L: Any, x: Any) -> Any:
    return L.nn.AvgPool2d(kernel_size=2)(x)


CORRECT: dict[str, Case] = {
    "sin(x) * x": lambda L: (lambda x: x.sin() * x, (leaf(L, data(0, 5)),)),
    "broadcast x * y + y": lambda L: (lambda x, y: x * y + y,
                                      (leaf(L, data(1, 2, 3)), leaf(L, data(2, 3)))),
    "matmul": lambda L: (lambda a, b: a @ b, (leaf(L, data(3, 2, 3)), leaf(L, data(4, 3, 4)))),
    "softmax": lambda L: (lambda x: L.softmax(x, 1), (leaf(L, data(5, 2, 4)),)),
    "sum(dim) / mean": lambda L: (lambda x: x.sum(1) / (x.mean() + 3),
                                  (leaf(L, data(6, 3, 2)),)),
    "log(exp + 1) / (x**2 + 1)": lambda L: (lambda x: (x.exp() + 1).log() / (x ** 2 + 1),
                                            (leaf(L, data(7, 4)),)),
    "tanh, sigmoid, relu": lambda L: (lambda x: x.tanh() + x.sigmoid() * x.relu(),
                                      (leaf(L, data(8, 6)),)),
    "reshape, t, select": lambda L: (lambda x: x.reshape(3, 2).t()[0] * 2,
                                     (leaf(L, data(9, 6)),)),
    "AvgPool2d then square": lambda L: (lambda x: avg_pool(L, x) ** 2,
                                        (leaf(L, data(10, 1, 1, 4, 4)),)),
    "Function: Sigmoid": lambda L: (functions(L).Sigmoid.apply, (leaf(L, data(11, 5)),)),
    "Function: Scale by a number": lambda L: (functions(L).Scale.apply,
                                              (leaf(L, data(12, 3)), 2.5)),
    "Function: two outputs": lambda L: (functions(L).SinAndDouble.apply,
                                        (leaf(L, data(13, 4)),)),
    "mixed arguments": lambda L: (
        lambda x, k, c, y: (x * y * k + c, (x ** 2).sum()),
        (leaf(L, data(14, 3)), 3, leaf(L, data(15, 3), requires_grad=False),
         leaf(L, data(16, 3)))),
}

WRONG: dict[str, Case] = {
    "wrong sign": lambda L: (functions(L).SquareWrongSign.apply, (leaf(L, data(20, 3)),)),
    "missing factor": lambda L: (functions(L).CubeMissingFactor.apply, (leaf(L, data(21, 3)),)),
    "transposed": lambda L: (functions(L).MatmulTransposed.apply,
                             (leaf(L, data(22, 3, 3)), leaf(L, data(23, 3, 3)))),
    "forgotten broadcast reduction": lambda L: (functions(L).OuterSumUnreduced.apply,
                                                (leaf(L, data(24, 3)), leaf(L, data(25, 3)))),
    "error in the second output, second input": lambda L: (
        lambda x, k, y: (x * y * k, functions(L).SquareWrongSign.apply(y) + x.sum()),
        (leaf(L, data(26, 2)), 2.0, leaf(L, data(27, 2)))),
}


def gradcheck_error(L: Any, func: Callable[..., Any], inputs: tuple, **options: Any) -> str:
    """The message of the GradcheckError that gradcheck must raise."""
    with pytest.raises(RuntimeError) as info:
        L.autograd.gradcheck(func, inputs, **options)
    assert type(info.value).__name__ == "GradcheckError"
    return str(info.value)


# ---------------------------------------------------------------------------- slow mode


@pytest.mark.parametrize("case", CORRECT, ids=str)
@LIBS
def test_correct_gradients_pass(L: Any, case: str) -> None:
    func, inputs = CORRECT[case](L)
    assert L.autograd.gradcheck(func, inputs) is True
    assert L.autograd.gradcheck(func, inputs, raise_exception=False) is True


@pytest.mark.parametrize("case", WRONG, ids=str)
def test_wrong_backward_fails_with_torchs_message(case: str) -> None:
    want = gradcheck_error(torch, *WRONG[case](torch))
    func, inputs = WRONG[case](mt)
    assert gradcheck_error(mt, func, inputs) == want
    assert mt.autograd.gradcheck(func, inputs, raise_exception=False) is False


def test_failure_message_layout() -> None:
    """Rows are input elements, columns output elements; the reference's layout, exactly."""
    x = leaf(mt, np.array([0.5, -1.25, 2.0]))
    assert gradcheck_error(mt, functions(mt).SquareWrongSign.apply, (x,)) == (
        "Jacobian mismatch for output 0 with respect to input 0,\n"
        "numerical:tensor([[ 1.0000,  0.0000,  0.0000],\n"
        "        [ 0.0000, -2.5000,  0.0000],\n"
        "        [ 0.0000,  0.0000,  4.0000]], dtype=torch.float64)\n"
        "analytical:tensor([[-1.0000, -0.0000, -0.0000],\n"
        "        [ 0.0000,  2.5000,  0.0000],\n"
        "        [-0.0000, -0.0000, -4.0000]], dtype=torch.float64)\n")


def test_gradcheck_error_is_a_runtime_error_in_the_gradcheck_module() -> None:
    for L in (torch, mt):
        module = importlib.import_module(f"{L.__name__}.autograd.gradcheck")
        assert issubclass(module.GradcheckError, RuntimeError)
        assert callable(L.autograd.gradcheck) and callable(L.autograd.gradgradcheck)
    assert mt.autograd.gradcheck.__module__ == "minitorch.autograd.gradcheck"


def test_float32_warns_and_fails_like_torch() -> None:
    """float32 inputs warn with torch's text; the failure text matches torch's digits too."""
    texts = []
    for L in (torch, mt):
        x = leaf(L, np.array([0.5, -1.25, 2.0]), dtype=L.float32)
        with pytest.warns(UserWarning) as record:
            texts.append(gradcheck_error(L, functions(L).SquareWrongSign.apply, (x,)))
        assert [str(w.message) for w in record] == [NOT_DOUBLE]
    assert texts[1] == texts[0]


@LIBS
def test_inputs_are_left_alone(L: Any) -> None:
    x = leaf(L, data(30, 4))
    before = x.detach().clone()
    assert L.autograd.gradcheck(lambda t: t.exp() * t, (x,))
    assert x.grad is None and bool(L.all(x.detach() == before))


# ---------------------------------------------------------------------------- the seed's lesson


def sigmoid_verdict(L: Any, dtype_name: str, eps: float, seed: int) -> bool:
    x = leaf(L, data(seed, 300), dtype=getattr(L, dtype_name))
    check = L.autograd.gradcheck
    if dtype_name == "float64":
        return check(functions(L).Sigmoid.apply, (x,), eps=eps, raise_exception=False)
    with pytest.warns(UserWarning, match="is not a double precision"):
        return check(functions(L).Sigmoid.apply, (x,), eps=eps, raise_exception=False)


@pytest.mark.parametrize(("dtype_name", "eps", "passes"), [
    ("float32", 1e-3, True),
    ("float32", 1e-4, False),
    ("float64", 1e-4, True),
    ("float64", 1e-6, True),
])
@pytest.mark.parametrize("seed", [0])
def test_seed_sigmoid_eps_lesson(dtype_name: str, eps: float, passes: bool, seed: int) -> None:
    """float32 rounding of f(x ± eps), divided by a small eps, beats rtol once eps is 1e-4;
    float64 has room to spare. 300 elements make the float32 failure certain."""
    assert sigmoid_verdict(torch, dtype_name, eps, seed) is passes
    assert sigmoid_verdict(mt, dtype_name, eps, seed) is passes


# ---------------------------------------------------------------------------- fast mode


@pytest.mark.parametrize(("case", "expected"),
                         [(c, True) for c in CORRECT] + [(c, False) for c in WRONG], ids=str)
def test_fast_mode_agrees_with_slow_mode(case: str, expected: bool) -> None:
    table = CORRECT if expected else WRONG
    func, inputs = table[case](mt)
    slow = mt.autograd.gradcheck(func, inputs, raise_exception=False)
    fast = mt.autograd.gradcheck(func, inputs, raise_exception=False, fast_mode=True)
    assert slow is fast is expected
    func, inputs = table[case](torch)
    assert torch.autograd.gradcheck(func, inputs, raise_exception=False, fast_mode=True) is fast


def split_fast_message(text: str) -> tuple[str, float, float, str]:
    """(header, numerical, analytical, the slow-mode report that follows)."""
    match = re.fullmatch(r"(Jacobian mismatch for output \d+ with respect to input \d+,)\n"
                         r"numerical:(\S+)\nanalytical:(\S+)\n(.*)", text, flags=re.DOTALL)
    assert match, text
    return match[1], float(match[2]), float(match[3]), match[4]


@pytest.mark.parametrize("case", WRONG, ids=str)
def test_fast_mode_failure_message(case: str) -> None:
    """Same pair and the same slow-mode report as torch; the projections themselves use other
    random vectors, so only their disagreement is checked."""
    head_t, _, _, report_t = split_fast_message(
        gradcheck_error(torch, *WRONG[case](torch), fast_mode=True))
    head, numerical, analytical, report = split_fast_message(
        gradcheck_error(mt, *WRONG[case](mt), fast_mode=True))
    assert head == head_t
    assert abs(numerical - analytical) > 1e-5 + 1e-3 * abs(numerical)
    # the max difference is printed to 16 digits: compare it as a number
    number = r"is: (\S+)\.\n"
    assert re.sub(number, "", report) == re.sub(number, "", report_t)
    worst, worst_t = (float(re.search(number, r)[1]) for r in (report, report_t))
    assert worst == pytest.approx(worst_t, rel=1e-9)


def test_fast_mode_report_says_when_slow_mode_would_pass() -> None:
    """A small error on a Jacobian whose entries cancel in ``vᵀJu``: within rtol elementwise,
    beyond the tolerance of the projection."""
    def func(L: Any) -> Callable[..., Any]:
        signs = L.tensor(np.resize([100.0, -100.0], 50), dtype=L.float64)

        class Nudged(L.autograd.Function):
            @staticmethod
            def forward(ctx: Any, x: Any) -> Any:
                return x * signs

            @staticmethod
            def backward(ctx: Any, g: Any) -> Any:
                return g * signs + g * 0.05

        return Nudged.apply

    for L in (torch, mt):
        x = leaf(L, data(31, 50))
        assert L.autograd.gradcheck(func(L), (x,))
        text = gradcheck_error(L, func(L), (x,), fast_mode=True)
        assert "Fast gradcheck failed but element-wise differences are small." in text


def test_fast_mode_is_reproducible_and_leaves_the_random_state_alone() -> None:
    mt.manual_seed(5)
    expected = mt.rand(3)
    mt.manual_seed(5)
    func, inputs = WRONG["wrong sign"](mt)
    texts = {gradcheck_error(mt, func, inputs, fast_mode=True) for _ in range(2)}
    assert len(texts) == 1
    assert bool(mt.all(mt.rand(3) == expected))


# ---------------------------------------------------------------------------- other checks


def no_grad_output(L: Any) -> tuple:
    return lambda x: x.detach() * 2, (leaf(L, data(40, 3)),)


def piecewise_constant(L: Any) -> tuple:
    return lambda x: (x > 0).double(), (leaf(L, data(41, 3)),)


def forgets_grad_output(L: Any) -> tuple:
    class SumOfSquares(L.autograd.Function):
        @staticmethod
        def forward(ctx: Any, x: Any) -> Any:
            ctx.save_for_backward(x)
            return (x * x).sum()

        @staticmethod
        def backward(ctx: Any, g: Any) -> Any:
            x, = ctx.saved_tensors
            return 2 * x  # right Jacobian (g is 1 there), but not scaled by g

    return SumOfSquares.apply, (leaf(L, data(42, 3)),)


def nondeterministic(L: Any) -> tuple:
    rng = np.random.default_rng(43)

    class Noisy(L.autograd.Function):
        @staticmethod
        def forward(ctx: Any, x: Any) -> Any:
            return x * 2

        @staticmethod
        def backward(ctx: Any, g: Any) -> Any:
            return g * (2 + L.tensor(rng.random(tuple(g.shape)) * 1e-9))

    return Noisy.apply, (leaf(L, data(44, 3)),)


@pytest.mark.parametrize("fast_mode", [False, True])
@pytest.mark.parametrize("case", [no_grad_output, forgets_grad_output, nondeterministic],
                         ids=lambda c: c.__name__)
def test_other_failures_match_torch(case: Callable[[Any], tuple], fast_mode: bool) -> None:
    want = gradcheck_error(torch, *case(torch), fast_mode=fast_mode)
    got = gradcheck_error(mt, *case(mt), fast_mode=fast_mode)
    assert got.startswith(want.split("\n\n")[0])


@LIBS
def test_tolerances_are_honoured(L: Any) -> None:
    func, inputs = nondeterministic(L)
    assert L.autograd.gradcheck(func, inputs, nondet_tol=1e-7)
    func, inputs = WRONG["missing factor"](L)
    assert L.autograd.gradcheck(func, inputs, atol=100.0)
    assert L.autograd.gradcheck(func, inputs, rtol=3.0)


@LIBS
def test_piecewise_constant_output_passes(L: Any) -> None:
    assert L.autograd.gradcheck(*piecewise_constant(L))


def materialize_off(L: Any) -> Any:
    class Double(L.autograd.Function):
        @staticmethod
        def forward(ctx: Any, x: Any) -> Any:
            ctx.set_materialize_grads(False)
            return x * 2

        @staticmethod
        def backward(ctx: Any, g: Any) -> Any:
            return g * 2  # fails on an undefined (None) gradient

    return Double.apply


@LIBS
def test_undefined_output_gradient_is_checked(L: Any) -> None:
    x = leaf(L, data(45, 3))
    with pytest.raises(TypeError, match="unsupported operand"):
        L.autograd.gradcheck(materialize_off(L), (x,))
    assert L.autograd.gradcheck(materialize_off(L), (x,), check_undefined_grad=False)


def test_bad_arguments_match_torch() -> None:
    def no_input_requires_grad(L: Any) -> Any:
        return L.autograd.gradcheck(lambda t: t * 2, (leaf(L, data(46, 2), requires_grad=False),))

    def no_mode(L: Any) -> Any:
        return L.autograd.gradcheck(lambda t: t, (leaf(L, data(47, 2)),),
                                    check_forward_ad=False, check_backward_ad=False)

    for scenario in (no_input_requires_grad, no_mode):
        with pytest.raises(Exception) as want:
            scenario(torch)
        with pytest.raises(type(want.value), match=re.escape(str(want.value))):
            scenario(mt)


@pytest.mark.parametrize("option", ["check_batched_forward_grad"])
def test_unsupported_options_are_refused(option: str) -> None:
    x = leaf(mt, data(48, 2))
    with pytest.raises(NotImplementedError, match=option):
        mt.autograd.gradcheck(lambda t: t * 2, (x,), check_forward_ad=True, **{option: True})
    assert mt.autograd.gradcheck(lambda t: t * 2, (x,), **{option: False})


# ---------------------------------------------------------------------------- gradgradcheck

GRADGRAD: dict[str, tuple[Case, bool]] = {
    "exp(x) * x": (lambda L: (lambda x: x.exp() * x, (leaf(L, data(50, 4)),)), True),
    "matmul then tanh": (lambda L: (lambda a, b: (a @ b).tanh(),
                                    (leaf(L, data(51, 2, 3)), leaf(L, data(52, 3, 2)))), True),
    "Function: Sigmoid": (lambda L: (functions(L).Sigmoid.apply, (leaf(L, data(53, 4)),)), True),
    "Function: detached backward": (lambda L: (functions(L).SquareDetachedBackward.apply,
                                               (leaf(L, data(54, 3)),)), False),
}


@pytest.mark.parametrize("case", GRADGRAD, ids=str)
def test_gradgradcheck_matches_torch(case: str) -> None:
    build, expected = GRADGRAD[case]
    verdicts = []
    for L, seed in ((torch, torch.manual_seed), (mt, mt.manual_seed)):
        seed(0)  # random grad_outputs
        func, inputs = build(L)
        assert L.autograd.gradcheck(func, inputs)  # first derivatives are right in every case
        verdicts.append(L.autograd.gradgradcheck(func, inputs, raise_exception=False))
        verdicts.append(L.autograd.gradgradcheck(func, inputs, raise_exception=False,
                                                 fast_mode=True))
    assert verdicts == [expected] * 4


@LIBS
def test_gradgradcheck_with_given_grad_outputs(L: Any) -> None:
    x = leaf(L, data(55, 3))
    for requires_grad in (False, True):
        g = leaf(L, data(56, 3), requires_grad=requires_grad)
        assert L.autograd.gradgradcheck(lambda t: t ** 3, (x,), (g,))
    func, inputs = GRADGRAD["Function: detached backward"][0](L)
    with pytest.raises(RuntimeError, match="Jacobian mismatch for output 0 with respect to "
                                           "input 0"):
        L.autograd.gradgradcheck(func, inputs, g)


def test_gradgradcheck_refuses_forward_over_reverse() -> None:
    with pytest.raises(NotImplementedError, match="check_fwd_over_rev"):
        mt.autograd.gradgradcheck(lambda t: t * t, (leaf(mt, data(57, 2)),),
                                  check_fwd_over_rev=True)


CALL_CASES: dict[str, Case] = {
    "one input": lambda L: (lambda t: t.sin() * t, (leaf(L, data(60, 3)),)),
    "two inputs": lambda L: (lambda a, b: (a * b).exp(), (leaf(L, data(61, 3)),
                                                          leaf(L, data(62, 2, 3)))),
    "a constant": lambda L: (lambda a, b: a * b.sum(), (leaf(L, data(63, 3)),
                                                        leaf(L, data(64, 3), requires_grad=False))),
    "two outputs": lambda L: (lambda a, b: (a * b, a.sin()), (leaf(L, data(65, 3)),
                                                              leaf(L, data(66, 2, 3)))),
}
CALL_OPTIONS = [{}, {"fast_mode": True}, {"check_undefined_grad": False},
                {"fast_mode": True, "check_undefined_grad": False}, {"check_forward_ad": True},
                {"check_forward_ad": True, "fast_mode": True},
                {"check_forward_ad": True, "check_backward_ad": False,
                 "check_undefined_grad": False}]


@pytest.mark.parametrize("options", CALL_OPTIONS, ids=str)
@pytest.mark.parametrize("check", ["gradcheck", "gradgradcheck"])
@pytest.mark.parametrize("case", CALL_CASES, ids=str)
def test_func_is_called_as_often_as_torch_calls_it(case: str, check: str,
                                                   options: dict) -> None:
    """Programs count the calls (before: 2 too many per gradcheck, 3 per gradgradcheck)."""
    if check == "gradgradcheck" and "check_forward_ad" in options:
        pytest.skip("minitorch refuses gradgradcheck's forward-over-reverse")
    counts = []
    for L in (torch, mt):
        L.manual_seed(0)
        func, inputs = CALL_CASES[case](L)
        calls = []

        def counted(*args: Any, func: Callable = func, calls: list = calls) -> Any:
            calls.append(1)
            return func(*args)

        with warnings.catch_warnings():  # torch's forward AD: "torch.jit.script is deprecated"
            warnings.simplefilter("ignore", DeprecationWarning)
            assert getattr(L.autograd, check)(counted, inputs, **options)
        counts.append((len(calls), L.rand(1).item()))  # and the random state left behind
    assert counts[0] == counts[1]


@pytest.mark.parametrize("non_contiguous", [False, True])
@pytest.mark.parametrize(("dtype", "shape"), [("float64", (2, 3)), ("float32", (5,)),
                                              ("float64", ()), ("float32", (3, 1)),
                                              ("int64", (4,))])
def test_random_grad_outputs_are_torchs_make_tensor(dtype: str, shape: tuple,
                                                    non_contiguous: bool) -> None:
    """gradgradcheck's grad_outputs: torch.testing.make_tensor(low=-1, high=1), noncontiguous
    ones drawn twice as long along the last dim and every second kept."""
    from minitorch.autograd.gradcheck import _random_cotangent
    torch.manual_seed(3)
    mt.manual_seed(3)
    output = torch.zeros(shape, dtype=getattr(torch, dtype))
    want = torch.testing.make_tensor(
        shape, dtype=output.dtype if output.is_floating_point() else torch.double,
        device="cpu", low=-1, high=1, requires_grad=True, noncontiguous=non_contiguous)
    got = _random_cotangent(mt.zeros(shape, dtype=getattr(mt, dtype)), non_contiguous)
    assert got.requires_grad and str(got.dtype) == str(want.dtype)
    assert got.detach().numpy().tobytes() == want.detach().numpy().tobytes()
    x = leaf(mt, data(67, 2, 3))
    assert mt.autograd.gradgradcheck(lambda t: t ** 3, (x,), gen_non_contig_grad_outputs=True)


def test_gradgradcheck_defaults_are_torchs() -> None:
    import inspect
    params = [inspect.signature(L.autograd.gradgradcheck).parameters for L in (torch, mt)]
    assert list(params[0]) == list(params[1])
    assert {k: v.default for k, v in params[0].items()} == {k: v.default
                                                             for k, v in params[1].items()}
    x = leaf(mt, data(68, 2))
    for options in ({"check_undefined_grad": True}, {"check_batched_grad": True}):
        with pytest.raises(AssertionError) as want:
            torch.autograd.gradgradcheck(lambda t: t * t, (leaf(torch, data(68, 2)),),
                                         check_rev_over_rev=False, check_fwd_over_rev=True,
                                         **options)
        with pytest.raises(AssertionError, match=re.escape(str(want.value))):
            mt.autograd.gradgradcheck(lambda t: t * t, (x,), check_rev_over_rev=False,
                                      check_fwd_over_rev=True, **options)


def test_docstring_examples() -> None:
    module = importlib.import_module("minitorch.autograd.gradcheck")
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        assert doctest.testmod(module).failed == 0
