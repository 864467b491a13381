"""Fresh fuzz seeds of session 33 (the in-repo fuzzer on seeds 34001-34003, and four fuzzers
written anew by helpers who did not see minitorch's tests): what they found. Each case runs
under torch and minitorch (``L``) and must raise torch's exception with torch's message, or
give torch's result."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

from tests.oracle import assert_as_torch, assert_same

UNSIGNED = [np.uint8(3), np.uint16(3), np.uint32(3), np.uint64(3), np.uint64(2**64 - 1),
            np.uint64(2**63)]


@pytest.mark.parametrize("value", UNSIGNED, ids=repr)
@pytest.mark.parametrize("dtype", ["float32", "int64", "uint8", "bool", "float16"])
@pytest.mark.parametrize("write", ["setitem", "mask", "fill_", "full", "masked_fill"])
def test_a_numpy_unsigned_integer_is_written_as_torch(value: Any, dtype: str, write: str
                                                      ) -> None:
    """Seed 34001: ``x[i] = np.uint8(3)`` was refused ("can't assign a numpy.uint8"): torch
    reads every numpy integer as an int, the unsigned ones too."""
    def fn(L: Any) -> Any:
        x = L.zeros(3, 2, dtype=getattr(L, dtype))
        if write == "setitem":
            x[0] = value
        elif write == "mask":
            x[L.tensor([True, False, True])] = value
        elif write == "fill_":
            x.fill_(value)
        elif write == "full":
            return L.full((2,), value, dtype=getattr(L, dtype))
        else:
            return x.masked_fill(L.tensor([True, False]), value)
        return x
    assert_as_torch(fn)


@pytest.mark.parametrize("call", [
    "x.std(correction=1j)", "x.var(correction=1j)", "L.std(x, 0, correction=1j)",
    "x.std(5, correction=1j)", "x.std(correction=2**63)", "L.var_mean(x, correction=1j)",
    "L.std_mean(x, correction=1j)", "x.var(correction=2**64 + 5)"])
@pytest.mark.parametrize("dtype", ["int64", "bool", "float32"])
@pytest.mark.filterwarnings("ignore:.*degrees of freedom is <= 0")
def test_a_variance_checks_its_dtype_before_reading_correction(call: str, dtype: str) -> None:
    """Seed 34002: ``int_tensor.std(correction=1j)`` said the complex could not be read as a
    double; torch's kernel refuses the integer tensor before it reads the correction."""
    assert_as_torch(lambda L: eval(call, {"L": L, "x": L.ones(2, 3, dtype=getattr(L, dtype))}),
                    assert_same)


@pytest.mark.parametrize("call", [
    "L.pow(self=2, exponent=x)", "L.pow(self=True, exponent=x)", "L.pow(self=2., exponent=3)",
    "L.pow(self=L.tensor(2.), exponent=x)", "L.pow(self=np.float32(2), exponent=x)",
    "L.pow(self=L.tensor(2., requires_grad=True), exponent=x)", "L.pow(self=x, exponent=2)",
    "L.pow(self='a', exponent=x)", "L.pow(2, self=2, exponent=x)",
    "L.pow(self=2., exponent=x, out=L.empty(2))", "L.remainder(self=2, other=x)",
    "L.float_power(self=2, exponent=x)", "L.xlogy(self=2, other=x)",
    "L.xlogy(2, other=x, self=3)", "L.special.xlog1py(self=2, other=x)",
    "L.special.zeta(self=2, other=x)", "L.bitwise_and(self=2, other=x.long())",
    "L.bitwise_left_shift(self=2, other=x.long())", "L.searchsorted(x, self=1.5)",
    "L.bucketize(self=1.5, boundaries=x)", "L.where(x > 1, self=1., other=x)",
    "L.where(x > 1, self=1., other=0.)", "L.eq(self=2, other=x)", "L.sub(self=2, other=x)"])
def test_a_number_given_as_self_takes_its_place_as_torch(call: str) -> None:
    """torch's overloads that take a number first name it ``self`` (``Number self, Tensor
    exponent``), and its parser binds ``pow(self=2, exponent=x)`` to it; minitorch, whose
    functions name it ``input``, refused that call as matching no overload."""
    assert_as_torch(lambda L: eval(call, {"L": L, "np": np, "x": L.arange(1., 3.)}), assert_same)


INPLACE = ["exp_()", "tanh_()", "sigmoid_()", "sqrt_()", "rsqrt_()", "reciprocal_()",
           "expm1_()", "relu_()", "abs_()", "mul_(2)", "add_(1)", "pow_(2)", "neg_()",
           "log_()", "clamp_(0.1, 5)", "div_(2)", "mul_(w)", "square_()"]


@pytest.mark.parametrize("second", INPLACE)
@pytest.mark.parametrize("first", INPLACE)
@pytest.mark.parametrize("view", [False, True])
def test_an_inplace_op_that_saves_its_result_refuses_a_later_write_as_torch(
        first: str, second: str, view: bool) -> None:
    """A fresh autograd fuzz: ``y.exp_(); y.exp_(); y.sum().backward()`` returned a gradient.
    torch saves the tensor an in-place op wrote its result into, so the second write bumps
    the version the first one's node saved, and backward refuses it."""
    def fn(L: Any) -> Any:
        x = L.tensor([[0.5, 1.5, 2.0], [0.25, 0.75, 1.0]], requires_grad=True)
        w = L.tensor([0.5, 2.0, 3.0], requires_grad=True)
        y = x.clone()
        t = y[0] if view else y
        eval(f"t.{first}", {"t": t, "w": w})
        eval(f"t.{second}", {"t": t, "w": w})
        (y * 1).sum().backward()
        return x.grad, w.grad
    assert_as_torch(fn, assert_same)


@pytest.mark.parametrize("program", [
    "h = x * 1; y = h.pow(2); h.detach_(); y.sum().backward()",
    "h = x * 1; y = h.pow(2); h.detach_(); h.requires_grad_(); y.sum().backward()",
    "h = x * 1; y = h * h; h.detach_(); y.sum().backward()",
    "h = x * 1; y = h.sin(); h.detach_(); y.sum().backward(create_graph=True)",
    "h = x * 1; y = h.exp(); z = y * 2; y.detach_(); z.sum().backward()",  # a saved output
    "h = x * 1; y = h.pow(2); h.detach_(); r = y.grad_fn._saved_self",  # read, not backward
    "y = x.pow(2); x.detach_(); y.sum().backward()",  # a saved leaf
    "h = x * 1; y = h[0:2] * 2; h.detach_(); y.sum().backward()",  # saves nothing of h
    "h = x * 1; y = h.sum(); h.detach_(); y.backward()"])
@pytest.mark.filterwarnings("ignore:Using backward\\(\\) with create_graph=True")
def test_a_saved_input_detached_in_place_is_refused_by_backward_as_torch(program: str) -> None:
    """A fresh autograd fuzz: ``h = x * 1; y = h.pow(2); h.detach_()`` then backward returned
    a gradient through the history ``detach_`` had cut; torch's backward refuses to read a
    saved input that lost its grad_fn (its ``_saved_self`` accessor still reads it)."""
    def fn(L: Any) -> Any:
        x = L.ones(3, requires_grad=True)
        exec(program, {"x": x})
        return x.grad
    assert_as_torch(fn, assert_same)


BYTE_KEYS = {
    "array": lambda: np.array([1, 0, 1], dtype=np.uint8),
    "columns": lambda: (slice(None), np.array([1, 0, 1, 1], dtype=np.uint8)),
    "0-d": lambda: np.array(1, dtype=np.uint8), "0-d false": lambda: np.array(0, dtype=np.uint8),
    "in a tuple": lambda: (np.array([1, 0, 1], dtype=np.uint8),),
    "in a list": lambda: [np.array([1, 0, 1], dtype=np.uint8)],
    "scalars in a list": lambda: [np.uint8(1), np.uint8(0), np.uint8(1)],
    "one scalar in a list": lambda: [np.uint8(1)], "mixed list": lambda: [np.uint8(1), 2],
    "2-d": lambda: np.array([[1, 0, 1, 1], [0, 0, 0, 1], [1, 1, 1, 1]], dtype=np.uint8),
    "with an int": lambda: (np.array([1, 0, 1], dtype=np.uint8), 1),
    "int8 array": lambda: np.array([1, 0, 1], dtype=np.int8), "a scalar": lambda: np.uint8(1)}


@pytest.mark.parametrize("value", [None, "5", "tensor(5.)", "ones(4)"])
@pytest.mark.parametrize("key", BYTE_KEYS)
@pytest.mark.filterwarnings("ignore:indexing with dtype torch.uint8 is now deprecated")
@pytest.mark.filterwarnings("ignore:Using a non-tuple sequence for multidimensional indexing")
def test_a_numpy_uint8_array_indexes_as_a_mask_as_torch(key: str, value: str | None) -> None:
    """A fresh fuzz of indexing: ``x[np.array([1, 0, 1], dtype=np.uint8)]`` took the rows 1,
    0, 1; torch makes a uint8 tensor of the array, which indexes as a mask (deprecated), and
    which masked_fill_ refuses when one value is written through it."""
    def fn(L: Any) -> Any:
        x = L.arange(12.).reshape(3, 4)
        if value is None:
            return x[BYTE_KEYS[key]()]
        x[BYTE_KEYS[key]()] = eval(value, {"tensor": L.tensor, "ones": L.ones})
        return x
    assert_as_torch(fn, assert_same)


@pytest.mark.parametrize("call", [
    "x.to(np.float32)", "x.to(np.int64)", "x.to(np.bool_)", "x.to(float)", "x.to(int)",
    "x.to(bool)", "x.to(str)", "x.to(list)", "x.to(dtype=np.float32)", "x.to(dtype=float)",
    "x.to('cpu', float)", "x.to('cpu', np.float64)", "x.to(np.float32(1))",
    "x.to(np.int64(0))", "x.to(np.float32, copy=True)"])
def test_to_takes_pythons_types_but_no_numpy_type_as_torch(call: str) -> None:
    """A fresh fuzz of conversions: ``x.to(np.float32)`` failed inside minitorch reading the
    type's ``dtype`` descriptor; torch's parser takes Python's bool, int and float as dtypes
    and refuses numpy's types as matching none of to()'s signatures."""
    assert_as_torch(lambda L: eval(call, {"x": L.zeros(3), "np": np}), assert_same)


@pytest.mark.parametrize("dtype", ["int8", "bool", "int64", "float64", None])
@pytest.mark.parametrize("source", ["leaf", "non-leaf", "detached"])
@pytest.mark.parametrize("requires_grad", [None, False, True])
@pytest.mark.filterwarnings("ignore:torch.asarray. unspecified requires_grad")
def test_asarray_of_a_tensor_requiring_grad_keeps_that_flag_as_torch(
        dtype: str | None, source: str, requires_grad: bool | None) -> None:
    """A fresh fuzz: ``asarray(leaf_requiring_grad, dtype=int8)`` returned an int8 tensor;
    torch's asarray keeps obj's requires_grad where it is not given, which no integer tensor
    can have."""
    def fn(L: Any) -> Any:
        x = L.tensor([1.0, 2.0], requires_grad=True)
        x = {"leaf": x, "non-leaf": x * 1, "detached": x.detach()}[source]
        kwargs = {} if requires_grad is None else {"requires_grad": requires_grad}
        return L.asarray(x, dtype=dtype and getattr(L, dtype), **kwargs)
    assert_as_torch(fn, assert_same)


@pytest.mark.parametrize("args", [
    "3j, 5", "0, 5, 3j", "math.nan, 3j, 0", "math.inf, 3j", "0, 5, 1 + 0j",
    "0, 5, 1 + 0j, dtype=L.float16", "0, 5, 1j, dtype=L.float16", "0, 5j, 1, dtype=L.int64",
    "0, 5 + 0j, 1, dtype=L.int32", "2j, 1"])
@pytest.mark.filterwarnings("ignore:torch.range is deprecated")
def test_range_reads_a_complex_bound_as_torch(args: str) -> None:
    """A fresh fuzz: ``range(3j, 5)`` failed in Python's ``math.isfinite``; torch's kernel
    reads each bound as a double (a float for float16), which a complex number is only when
    its imaginary part is zero."""
    assert_as_torch(lambda L: eval(f"L.range({args})", {"L": L, "math": __import__("math")}))


@pytest.mark.parametrize("call", [
    "L.norm(np.array([1., 2.]), L.ones(2))", "F.log_softmax(np.zeros((2, 2)))",
    "L.nn.Parameter(np.zeros(2))", "L.nn.Parameter(np.float32(2))",
    "L.autograd.grad(L.ones(2, requires_grad=True).sum(), np.ones(2))",
    "F.mse_loss(np.zeros(3), L.zeros(3))", "F.l1_loss(L.zeros(3), np.zeros(3))",
    "F.smooth_l1_loss(np.zeros(3), L.zeros(3))", "F.huber_loss(np.zeros(3), L.zeros(3))",
    "F.instance_norm(np.zeros((1, 2, 3)))", "F.adaptive_avg_pool2d(np.zeros((1, 2, 3)), 1)",
    "F.embedding(L.tensor([0]), np.zeros((2, 2)))", "F.mse_loss(np.float32(1), L.zeros(3))",
    "F.cross_entropy(L.zeros(2, 3), L.tensor([0, 1]), weight=np.ones(3))",
    "L.cat([L.ones(2), np.float16(1)])", "L.stack([np.bool_(1)])"])
def test_a_numpy_value_is_named_as_torchs_messages_name_it(call: str) -> None:
    """Fresh fuzzes: where torch's Python reads ``input.dim()`` of a numpy array, Python's
    message names its type ``numpy.ndarray`` (minitorch said ``ndarray``); where it calls
    ``input.size()``, an array's size is an int, which is not callable."""
    assert_as_torch(lambda L: eval(call, {"L": L, "F": L.nn.functional, "np": np}))


def test_a_numpy_value_saved_or_assigned_as_grad_is_named_as_torch() -> None:
    def fn(L: Any) -> Any:
        class Saves(L.autograd.Function):
            @staticmethod
            def forward(ctx: Any, x: Any) -> Any:
                ctx.save_for_backward(x, np.ones(2))
                return x * 2

            @staticmethod
            def backward(ctx: Any, g: Any) -> Any:
                return g
        return Saves.apply(L.ones(2, requires_grad=True))
    assert_as_torch(fn)

    def assign(L: Any) -> None:
        L.ones(2, requires_grad=True).grad = np.ones(2)
    assert_as_torch(assign)


@pytest.mark.parametrize("program", [
    "prof = L.profiler.profile(); prof.stop()",
    "prof = L.profiler.profile(schedule=L.profiler.schedule(wait=1, warmup=1, active=1)); "
    "prof.stop()",
    "prof = L.profiler.profile(); prof.start(); prof.stop()",
    "prof = L.profiler.profile(activities=['cpu'])", "prof = L.profiler.profile(activities=[])",
    "prof = L.profiler.profile(activities=set())", "prof = L.profiler.profile(activities=[{}])",
    "prof = L.profiler.profile(activities=5)",
    "prof = L.profiler.profile(activities=[CPU, 'x'])",
    "prof = L.profiler.profile(activities=[CPU, CPU])",
    "prof = L.profiler.profile(activities=[{CPU: []}])",
    "prof = L.profiler.profile(activities={CPU: 1})",
    "prof = L.profiler.profile(activities=(a for a in [CPU]))",
    "prof = L.profiler.profile(activities=(a for a in [CPU])); prof.start()"])
def test_the_profiler_refuses_what_torchs_refuses(program: str) -> None:
    """A fresh autograd fuzz: ``profile().stop()`` before any start, and ``activities=['cpu']``
    (no ProfilerActivity), were accepted; torch asserts on both, and reads the activities a
    second time (each a ProfilerActivity or a dict of them, none twice)."""
    def fn(L: Any) -> Any:
        exec(program, {"L": L, "CPU": L.profiler.ProfilerActivity.CPU})
    assert_as_torch(fn)


@pytest.mark.parametrize("program", [
    "x = leaf([0., 0., 1., 1e-30, 1e-30, inf]); y = leaf([0., -0., 0., 0., 1e-30, 1.]); "
    "L.atan2(x, y).sum().backward()",
    "x = leaf([0., 0., 1., 1e-30]); y = leaf([0., -0., 0., 0.]); "
    "L.atan2(x, y).backward(L.full((4,), inf))",
    "x = leaf([nan, 1.6, .5]); y = leaf(0.); x.max().backward()",
    "x = leaf([nan, 1.6, nan]); y = leaf(0.); x.min().backward()",
    "x = leaf([1., 1.6, 1.6]); y = leaf(0.); x.max().backward(L.tensor(inf))",
    "x = leaf([1., 2., 3.]); y = leaf(0.); z = x + 0; z.copy_(L.tensor([-1., 1, 2])); "
    "z.sqrt_(); z.sum().backward()",
    "x = leaf([1., 2., 3.]); y = leaf([1., 2., 3.]); z = x * 1; z.copy_(y); z.log_(); "
    "z.sum().backward()",
    "x = leaf([1., 2., 3.]); y = leaf(0.); z = x + 0; z.fill_(-1.); z.sqrt_(); "
    "z.sum().backward()",
    "x = leaf([1., 2., 3.]); y = leaf(0.); z = x + 0; z[0:2] = -1.; z.sqrt_(); "
    "z.sum().backward()",
    "x = leaf([1., 2., 3.]); y = leaf(-1.); z = x + 0; z[...] = y; z.sqrt_(); "
    "z.sum().backward()",
    "x = leaf([1., 2., 3.]); y = leaf(-1.); z = x + 0; z.index_put_((L.tensor([0]),), y); "
    "z.sqrt_(); z.sum().backward()"])
def test_a_gradient_that_is_zero_has_no_nan_as_torch(program: str) -> None:
    """A fresh autograd fuzz: atan2's gradient at (0, 0), max()'s of a nan, and the part a
    copy_, fill_ or index write overwrote were nan in minitorch (``g * 0`` of an inf, or
    ``0 / 0``); torch's formulas give 0 there (its max() sends the gradient to the nans)."""
    def fn(L: Any) -> Any:
        def leaf(values: Any) -> Any:
            return L.tensor(values, requires_grad=True)
        scope = {"L": L, "leaf": leaf, "nan": float("nan"), "inf": float("inf")}
        exec(program, scope)
        return scope["x"].grad, scope["y"].grad
    assert_as_torch(fn)


NODE_CALLS = {
    "gather": "x.gather(1, L.tensor([[0], [1]]))",
    "scatter": "x.scatter(1, L.tensor([[0], [1]]), w[:, :1])",
    "scatter value": "x.scatter(1, L.tensor([[0], [1]]), 2.)",
    "scatter_add": "x.scatter_add(1, L.tensor([[0], [1]]), w[:, :1])",
    "where": "L.where(x > 0, x, w[:, :1])", "where number": "L.where(x > 0, x, 0.)",
    "take": "x.take(L.tensor([0, 1]))", "take_along_dim": "x.take_along_dim(L.tensor([[0]]), 1)",
    "embedding": "F.embedding(L.tensor([0]), x)", "masked_select": "x.masked_select(x > 0)",
    "masked_scatter": "x.masked_scatter(x > 0, L.ones(6))",
    "put": "x.put(L.tensor([0]), L.ones(1))",
    "multi_margin_loss": "F.multi_margin_loss(x, L.tensor([0, 1]))",
    "multilabel_margin_loss": "F.multilabel_margin_loss(x, L.tensor([[0, 1, -1], [1, -1, 0]]))",
    "index_select": "x.index_select(0, L.tensor([0]))", "mv": "x.mv(L.ones(3))",
    "mul": "x * L.ones(3)", "masked_fill": "x.masked_fill(x > 0, 1.)"}


@pytest.mark.parametrize("call", NODE_CALLS)
def test_a_nodes_edges_and_direct_call_are_torchs(call: str) -> None:
    """A fresh autograd fuzz: ``x.gather(1, index).grad_fn.next_functions`` had an entry for
    the index, and ``x.mv(v).grad_fn(g)`` returned a gradient for ``v``, which needs none;
    torch's node has no edge for an index, a mask or a condition, and computes nothing for
    an input that does not need grad."""
    def fn(L: Any) -> Any:
        x = L.tensor([[1., -2., 3.], [4., 5., -6.]], requires_grad=True)
        w = L.tensor([[1., 2., 3.], [4., 5., 6.]], requires_grad=True)
        y = eval(NODE_CALLS[call], {"L": L, "F": L.nn.functional, "x": x, "w": w})
        called = y.grad_fn(L.ones_like(y))
        return (len(y.grad_fn.next_functions),
                [type(t).__name__ for t in (called if isinstance(called, tuple) else (called,))])
    assert_as_torch(fn)


@pytest.mark.parametrize("program", [
    "y = L.where(x > 0, x, 0.); y.grad_fn.register_hook(lambda gi, go: seen.append(len(gi)))",
    "y = L.where(x > 0, x, 0.); y.grad_fn.register_hook(lambda gi, go: (gi[0] * 3, gi[1]))",
    "y = x.scatter_add(0, L.tensor([0]), w); "
    "y.grad_fn.register_hook(lambda gi, go: (gi[0], gi[1] * 5))",
    "y = x.gather(0, L.tensor([0])); y.grad_fn.register_hook(lambda gi, go: (gi[0] * 2, None))",
    "y = x.gather(0, L.tensor([0])); y.grad_fn.register_hook(lambda gi, go: (gi[0] * 2,))"])
def test_a_node_hook_sees_one_gradient_per_edge_as_torch(program: str) -> None:
    """A node's hook gets ``grad_inputs`` as torch's: one per edge, none for a where's
    condition or a gather's index (and what it returns replaces those)."""
    def fn(L: Any) -> Any:
        x = L.tensor([1., -2., 3.], requires_grad=True)
        w = L.ones(1, requires_grad=True)
        seen: list = []
        scope = {"L": L, "x": x, "w": w, "seen": seen}
        exec(program, scope)
        scope["y"].sum().backward()
        return x.grad, w.grad, seen
    assert_as_torch(fn)


@pytest.mark.parametrize("f", [
    "lambda x: x.long()", "lambda x: x.detach()", "lambda x: L.ones(2)", "lambda x: x * 2",
    "lambda x: (x * 2, L.ones(2))", "lambda x: (x * 2, 3)"])
@pytest.mark.parametrize("has_aux", [False, True])
def test_jvp_strict_refuses_an_output_independent_of_the_inputs_as_torch(
        f: str, has_aux: bool) -> None:
    """A fresh autograd fuzz: ``func.jvp(lambda x: x.detach(), ..., strict=True)`` returned a
    zero tangent; torch refuses an output without a tangent under strict."""
    def fn(L: Any) -> Any:
        return L.func.jvp(eval(f, {"L": L}), (L.ones(2),), (L.ones(2),), strict=True,
                          has_aux=has_aux)
    assert_as_torch(fn)


@pytest.mark.parametrize("program", [
    "out = L.func.jvp(lambda x: L.copysign(x, y), (x,), (L.ones(4),))",
    "out = L.func.jvp(lambda x: L.copysign(x, 2.), (x,), (L.ones(4),))",
    "out = L.autograd.functional.jvp(lambda x: L.copysign(x, y), (x,), (L.ones(4),))",
    "x.requires_grad_(); L.copysign(x, y).backward(L.full((4,), float('inf'))); out = x.grad"])
def test_copysigns_derivative_at_zero_is_zero_as_torch(program: str) -> None:
    """A fresh autograd fuzz: copysign's forward-mode tangent at 0 was nan (the tangent of
    ``where(a == 0, 0, g * out / a)`` multiplies 0 by nan); torch masks ``out / a`` first."""
    def fn(L: Any) -> Any:
        scope = {"L": L, "x": L.tensor([1., 0., -0., -2.]), "y": L.tensor([1., 1., -1., 1.])}
        exec(program, scope)
        return scope["out"]
    assert_as_torch(fn)


@pytest.mark.parametrize("args", [
    "2**63, dtype=L.int32", "2**63, dtype=L.int64", "2**63, dtype=L.uint8",
    "-2**63 - 1, 0, dtype=L.int32", "0, 2**64, 2**62, dtype=L.int32",
    "0, 1e19, 1e18, dtype=L.int32", "0, 1e19, 1e18, dtype=L.int64",
    "0, -1e19, -1e18, dtype=L.int16", "1e19, 0, -1e18, dtype=L.int32",
    "0, 1e30, 1e29, dtype=L.int8", "0, float('inf'), dtype=L.int32"])
def test_a_narrow_integer_arange_reads_only_start_and_step_in_int64_as_torch(args: str) -> None:
    """A fresh fuzz of creation: ``arange(2**63, dtype=int32)`` refused the end as no int64;
    torch's kernel reads only start and step in int64 for a narrower integer type (its end
    only counts the length, as a double), so such a range wraps or is too long."""
    assert_as_torch(lambda L: eval(f"L.arange({args})", {"L": L}))


@pytest.mark.parametrize("args", ["(-1, 1), (-2, 1)", "(0, 1), (1, -1)", "[0, -2], (1, 0)",
                                  "(0, 0), (1, 0)", "(1, -1), (0, 1)"])
def test_movedim_names_repeated_dims_as_given_as_torch(args: str) -> None:
    """A fresh fuzz: movedim's "repeated dim" message listed the dims wrapped; torch's lists
    them as given."""
    assert_as_torch(lambda L: eval(f"L.zeros(4, 1).movedim({args})", {"L": L}))


VMAPPED = ["floor()", "ceil()", "trunc()", "frac()", "erf()", "atan()", "asinh()", "exp2()",
           "log2()", "isnan()", "signbit()", "logical_not()", "deg2rad()", "lgamma()", "sgn()",
           "clamp(0, 1)", "clamp(min=0.5)", "clip(-1, 1)", "clamp_min(0.)", "nan_to_num(0.)",
           "round()", "round(decimals=1)", "fmod(2)", "remainder(2)",
           "div(2, rounding_mode='floor')", "to(L.float64)", "max()", "min()", "prod()",
           "amax()", "amax(0)", "amin(-1)", "var(-1)", "std()", "std(0, correction=0)",
           "std(False)", "cumsum(0)", "cumprod(dim=-1)", "argmax(0)", "argmax()",
           "logsumexp(0)", "count_nonzero()", "copysign(-1.)", "std(5)"]


@pytest.mark.parametrize("op", VMAPPED)
@pytest.mark.parametrize("then", ["value", "item", "tolist", "if", "into unbatched"])
def test_vmap_batches_more_ops_and_refuses_a_value_read_after_them_as_torch(op: str, then: str
                                                                            ) -> None:
    """A fresh autograd fuzz: under vmap, ``x.max().item()`` (and the same after clamp, floor,
    round, prod and some eighty more) ran per example and returned, where torch batches the
    op and refuses to read one example's value; a write of it into an unbatched tensor too."""
    assert_as_torch(lambda L: vmap_then(L, f"e.{op}", then, L.zeros(3)), assert_same)


def vmap_then(L: Any, op: str, then: str, sink: Any) -> Any:
    """vmap over the rows of a matrix of ``op`` on each row ``e``, followed by ``then``: a
    Python read of its value (item, tolist, numpy, if) or a write of it into ``sink``."""
    def f(e: Any) -> Any:
        y = eval(op, {"e": e, "L": L})
        if then == "item":
            return y.sum().item() * e
        if then == "tolist":
            return L.tensor(y.tolist()).sum()
        if then == "if":
            return e if y.float().sum() > 0 else -e
        if then == "into unbatched":
            return sink.add_(y.float().sum())
        if then == "numpy":
            return L.tensor(y.detach().numpy())
        return y
    return L.func.vmap(f)(L.tensor([[1.25, -2., 3.], [4., 5., -6.]], requires_grad=True))


@pytest.mark.parametrize("view", ["x.unbind(0)[0]", "x.split(1)[0]", "x.chunk(2)[1]",
                                  "no_grad", "inference"])
@pytest.mark.parametrize("key", ["0", "slice(0, 2)", "...", "slice(None)", "slice(0, 3)",
                                 "None", "L.tensor([0])", "5", "(..., 1)", "(0, L.tensor([1]))"])
@pytest.mark.parametrize("value", ["5.", "L.tensor(5., requires_grad=True)"])
@pytest.mark.parametrize("grad", [True, False])
def test_a_write_into_a_view_autograd_cannot_rebase_names_torchs_view(
        view: str, key: str, value: str, grad: bool) -> None:
    """A fresh autograd fuzz: ``x.unbind(0)[0][0] = 5.`` was refused as "Output 0 of Unbind";
    torch's ``v[0] = 5.`` writes into the view ``v.select(0, 0)``, which inherits v's refusal,
    so its message names Select (Slice, Unsqueeze; v itself where the key makes no view), and
    a view created in no_grad mode gets the no_grad refusal, not the leaf one."""
    def fn(L: Any) -> Any:
        x = L.ones(2, 3, requires_grad=grad) * 1
        if view == "no_grad":
            with L.no_grad():
                v = x[0]
        elif view == "inference":
            with L.inference_mode():
                v = x[0]
        else:
            v = eval(view, {"x": x})
        v[eval(key, {"L": L})] = eval(value, {"L": L})
        return x
    assert_as_torch(fn)


@pytest.mark.parametrize("returned", [
    "(g, L.ones(5))", "(g, L.ones(5, dtype=L.int64))", "(g, 3)", "(g * 2, None)", "(g, g)",
    "(L.ones(4), None)", "(g, L.ones(2))", "(g,)", "(g, None, None)", "(g, None, L.ones(1))"])
def test_a_gradient_for_an_input_that_needs_none_is_not_checked_as_torch(returned: str) -> None:
    """A fresh autograd fuzz: a custom backward returning a wrong-shaped gradient for an input
    that does not require grad was refused ("invalid gradient at index 1"); torch's engine
    skips what has no edge, after the node's own checks (count, type)."""
    def fn(L: Any) -> Any:
        class Scale(L.autograd.Function):
            @staticmethod
            def forward(ctx: Any, x: Any, y: Any) -> Any:
                return x * 2 + y.sum()

            @staticmethod
            def backward(ctx: Any, g: Any) -> Any:
                return eval(returned, {"L": L, "g": g})
        x = L.ones(3, requires_grad=True)
        Scale.apply(x, L.ones(2)).sum().backward()
        return x.grad
    assert_as_torch(fn)
