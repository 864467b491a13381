"""Fresh fuzz seeds of session 35 (the four fuzzers of session 33, written by helpers who did
not see minitorch's tests, on the new seed 3501, and session 34's leftovers): what they
found. Each case runs under torch and minitorch (``L``) and must raise torch's exception with
torch's message, or give torch's result."""

from __future__ import annotations

import warnings
from typing import Any

import numpy as np
import pytest

import minitorch as mt
from tests.oracle import assert_as_torch, assert_same

DTYPES = ["float32", "int64", "bool"]


@pytest.mark.parametrize("fn", ["gcd", "lcm", "logaddexp", "logaddexp2", "nextafter", "hypot",
                                "igamma", "igammac"])
@pytest.mark.parametrize("a", DTYPES)
@pytest.mark.parametrize("b", DTYPES)
@pytest.mark.parametrize("out", [*DTYPES, "int8"])
def test_a_pairs_out_dtype_is_cast_checked_before_its_kernel_refuses_as_torch(
        fn: str, a: str, b: str, out: str) -> None:
    """Math fuzz: ``lcm(float, float, out=long)`` raised lcm's "not implemented for 'Float'";
    torch's TensorIterator finds the operands' result type cannot be cast into out first
    (nextafter, hypot, igamma(c), logaddexp(2) of integers into a bool out alike)."""
    def call(L: Any) -> Any:
        o = L.zeros(2, dtype=getattr(L, out))
        return getattr(L, fn)(L.ones(2, dtype=getattr(L, a)), L.ones(2, dtype=getattr(L, b)),
                              out=o), o
    assert_as_torch(call, assert_same)


def _grad_fn_name(t: Any) -> Any:
    return t.grad_fn.name() if t.grad_fn is not None else None


FIRST_WRITES = [
    "x.le_(w)", "x.eq_(w[0])", "x.ge_(w)", "x.ne_(w)", "x.fill_(w[0])", "x.copy_(w)",
    "x.masked_fill_(x > 1, w[0])", "x.index_fill_(0, L.tensor([1]), w[0])",
    "x[1] = w[0]", "x[x > 1] = w[0]", "x[:] = w", "x[...] = w[0]", "x[None] = w[0]",
    "x[1] = w", "x.logical_and_(w)", "x.add_(w)"]


@pytest.mark.parametrize("write", FIRST_WRITES)
@pytest.mark.parametrize("dtype", ["int64", "bool", "uint8"])
@pytest.mark.parametrize("shape", [(2,), (2, 2)])
def test_a_write_into_an_integer_tensor_by_a_value_requiring_grad_is_recorded_as_torch(
        write: str, dtype: str, shape: tuple) -> None:
    """Math and creation fuzz: ``int_tensor.le_(w)``, ``x[mask] = w0`` or ``x[1] = w0``
    with ``w`` requiring grad left ``x`` without history; torch's in-place ops rebase the
    written tensor's history whatever its dtype (only copy_ checks it), so ``x`` requires
    grad (LeBackward1, IndexPutBackward0, CopySlices...)."""
    def fn(L: Any) -> Any:
        x = L.ones(shape, dtype=getattr(L, dtype))
        w = L.tensor([0.5, 2.0], requires_grad=True)
        exec(write, {"x": x, "w": w, "L": L})
        return x, _grad_fn_name(x), x.is_leaf
    assert_as_torch(fn)


THEN = ["r.sum()", "r * 2", "r.float()", "r + w", "r.view(2)", "r[0]", "r.clone()",
        "r.detach()", "r.float().sum().backward()", "L.autograd.grad((r + w).sum(), w)",
        "r.backward(L.ones(2, dtype=L.long))", "r.requires_grad_(False)", "r.add_(1)",
        "r.zero_()", "r.neg_()", "r.mul_(r)", "r.clamp_(0, 1)", "r.copy_(L.tensor([1., 2]))",
        "r.logical_and_(r)", "r.numpy()", "r.tolist()", "r.argmax()", "r.le(1)",
        "r.to(L.float64)", "r.int()", "L.cat([r, r])", "r.max(0)", "r.abs()", "r * w",
        "r.sort()"]


@pytest.mark.parametrize("then", THEN)
def test_an_integer_tensor_that_requires_grad_is_used_as_torch_uses_it(then: str) -> None:
    """After ``r = int_tensor.le_(w)`` (``r`` requires grad), torch refuses an op whose
    integer output would record a gradient ("Autograd not support dtype: Long"), an in-place
    op that saves r's old values, and any gradient that reaches r in backward (its engine's
    internal assert); casts, detach, comparisons and float results go on."""
    def fn(L: Any) -> Any:
        w = L.tensor([1.0, 2.0], requires_grad=True)
        r = L.tensor([1, 2]).le_(w)
        out = eval(then, {"r": r, "w": w, "L": L})
        return out if isinstance(out, L.Tensor) else type(out).__name__, r, _grad_fn_name(r)
    assert_as_torch(fn)


@pytest.mark.parametrize("op", ["x.prod()", "x.prod(0)", "x.prod(1)", "x.prod(-1, keepdim=True)",
                                "x.cumprod(0)", "x.cumprod(1)", "x.prod().clamp(max=0)"])
@pytest.mark.parametrize("data", [[[0.0, 2.0]], [[0.0], [2.0]], [[0.0, 2.0], [1.0, 3.0]],
                                  [[2.0, 3.0]], [[0.0, 0.0]], [[-0.0]], [[3.0]],
                                  [[float("nan")]]])
def test_prod_and_cumprod_gradients_of_one_element_slices_have_no_graph_as_torch(
        op: str, data: list) -> None:
    """Autograd fuzz: ``x.prod().clamp(max=0)`` of ``x = [-0.]`` (or ``x.cumprod(-1)`` of
    one element) gave a create_graph gradient that depended on ``x``; torch's prod_backward
    through a slice of one element with a zero, and cumprod_backward along a dim of size 1,
    return the incoming gradient itself, so a second grad is refused."""
    def fn(L: Any) -> Any:
        x = L.tensor(data, dtype=L.float64, requires_grad=True)
        g, = L.autograd.grad(eval(op, {"x": x}).sum(), x, create_graph=True)
        return g, L.autograd.grad(g.sum(), x, allow_unused=True, materialize_grads=True)
    assert_as_torch(fn, assert_same)


@pytest.mark.parametrize("eps", [(), (0.0,), (0.2,)])
@pytest.mark.parametrize("create_graph", [False, True])
@pytest.mark.parametrize("dtype", ["float32", "float64"])
def test_logits_gradient_at_zero_and_one_is_torchs(eps: tuple, create_graph: bool,
                                                   dtype: str) -> None:
    """Autograd fuzz: ``y.logit_()`` of ``[-0., 0., 1.]`` gave the gradient ``g / (x(1-x))``,
    whose sign follows 0's; torch's kernel gives ``g * inf`` at 0 and 1 (its composite
    formula, under create_graph, is the division)."""
    def fn(L: Any) -> Any:
        x = L.tensor([-0.0, 0.0, 1.0, 0.5, -0.1, 1.1, 0.0, 1.0], dtype=getattr(L, dtype),
                     requires_grad=True)
        g = L.tensor([-1.0, 1.0, -1.0, 2.0, 1.0, 1.0, 0.0, 0.0], dtype=getattr(L, dtype))
        return L.autograd.grad((x.logit(*eps) * g).sum(), x, create_graph=create_graph)
    assert_as_torch(fn, assert_same)


@pytest.mark.parametrize("op", ["q.mul_(d)", "q.add_(d)", "q.copy_(d)", "q.sub_(d, alpha=2)",
                                "q.clamp_(d)", "q.addcmul_(d, d)", "q.mul_(d.float())",
                                "q.masked_fill_(q > 0, d[0, 0])", "q.fill_(d[0, 0])",
                                "q.mul_(d.detach())", "q.lerp_(d, 0.5)"])
def test_an_in_place_op_by_a_dual_tensor_whose_tangent_requires_grad_records_as_torch(
        op: str) -> None:
    """Autograd fuzz: ``q.mul_(d)`` with ``d``'s tangent requiring grad gave ``q`` a tangent
    without a graph; torch's tangent formula is recorded where a tangent requires grad, as
    where a primal does."""
    def fn(L: Any) -> Any:
        fa = L.autograd.forward_ad
        p = L.tensor([[1.75, 1.36], [-0.89, 1.44]], dtype=L.float64)
        with fa.dual_level():
            d = fa.make_dual(p, L.ones_like(p).requires_grad_())
            q = L.tensor([[0.14, -0.64], [-0.72, -0.54]])
            exec(op, {"q": q, "d": d})
            tangent = fa.unpack_dual(q).tangent
            return q.detach(), tangent.requires_grad, tangent.detach().to(L.float64)
    assert_as_torch(fn, assert_same)


ALIASED_PRODUCTS = ["L.matmul(t.t(), t, out=t)", "L.mm(t.t(), t, out=t)",
                    "L.mm(s, s, out=s)", "L.mm(s, s.clone(), out=s)", "L.mv(s, s[0], out=s[1])",
                    "L.bmm(b, b, out=b)", "L.addmm(s.clone(), s, s.clone(), out=s)",
                    "L.addmv(s[0].clone(), s, s[0], out=s[0])", "L.matmul(s, s.t(), out=s)"]


@pytest.mark.parametrize("call", ALIASED_PRODUCTS)
def test_a_product_into_an_out_sharing_memory_with_a_factor_is_refused(call: str) -> None:
    """Math fuzz: ``matmul(t.t(), t, out=t)`` gave the product; torch reads the factor after
    it resized or zeroed out, and gives zeros (bmm and addmm give other values: their
    kernels' order of reads and writes). minitorch refuses it and says what to do."""
    scope = {"L": mt, "t": mt.ones(1, 3), "s": mt.ones(2, 2), "b": mt.ones(2, 2, 2)}
    with pytest.raises(RuntimeError, match=r"out= shares memory with an input.*pass an out"):
        eval(call, scope)


@pytest.mark.parametrize("call", ["L.addmm(s, s.clone(), s.clone(), out=s)",
                                  "L.baddbmm(b, b.clone(), b.clone(), out=b)",
                                  "L.mm(t[:, :1], t[:, 1:2], out=t[:, 2:])",
                                  "L.mm(t[:, :1], t[:, :1], out=t[:, 2:])"])
def test_a_product_whose_out_is_only_its_added_input_or_apart_runs_as_torch(call: str) -> None:
    """An out that is addmm's added input (BLAS scales it in place), or that shares no
    bytes with the factors, is torch's product, as are shape refusals before the check."""
    def fn(L: Any) -> Any:
        scope = {"L": L, "t": L.ones(1, 3), "s": L.ones(2, 2), "b": L.ones(2, 2, 2)}
        return eval(call, scope)
    assert_as_torch(fn)


@pytest.mark.parametrize("transform", ["jacfwd", "jacrev", "hessian"])
@pytest.mark.parametrize("body", ["x.sum().flip(0)", "x.sum().flip(-1)",
                                  "L.flip(x.sum(), (0,))", "x.median().logit().flip(-1) * x",
                                  "x.flip(0)", "x.sum().flip(())"])
def test_flip_of_a_0d_tensor_under_a_jacobian_transform_is_refused_as_torch(
        transform: str, body: str) -> None:
    """Autograd fuzz: ``jacfwd(lambda x: ... x.median().flip(-1))`` returned; torch's
    jacfwd/jacrev vmap their tangents/cotangents, and vmap's flip rule reads a 0-d example's
    dim as the batch's dim 1, out of range."""
    def fn(L: Any) -> Any:
        f = eval(f"lambda x: {body}", {"L": L})
        return getattr(L.func, transform)(f)(L.tensor([1.25, 0.5, 0.75]))
    assert_as_torch(fn, assert_same)


@pytest.mark.parametrize("call", ["x0.flip(0)", "x0.flip(-1)", "x0.flip(())", "x.flip(-1, 0)",
                                  "L.flip(x, [-2])", "x.fliplr()", "x.flipud()"])
def test_flips_node_saves_its_dims_as_written_as_torch(call: str) -> None:
    """Autograd fuzz (grad_fn attributes): FlipBackward0's ``_saved_dims`` showed the dims
    wrapped; torch's node keeps them as written (a negative one read back unsigned)."""
    def fn(L: Any) -> Any:
        scope = {"L": L, "x0": L.tensor(1.0, requires_grad=True),
                 "x": L.ones(2, 3, requires_grad=True)}
        return eval(call, scope).grad_fn._saved_dims
    assert_as_torch(fn)


@pytest.mark.parametrize("call", ["t.addcdiv_(1j, i, value=np.int32(-1))", "t.addcmul_(1j, i)",
                                  "t.addcdiv_(i, 1j)", "t.mul_(1j)", "t.add_(1j)",
                                  "t.sub_(1j, alpha=2)", "t.lerp_(t, 1j)", "t.clamp_(1j)",
                                  "t.fmod_(1j)", "t.eq_(1j)", "t.pow_(1j)", "t.xlogy_(1j)",
                                  "t.atan2_(1j)", "t.hypot_(1j)", "t.addcmul_(3, i)"])
def test_an_in_place_ops_parser_refuses_a_number_where_it_wants_a_tensor_first(
        call: str) -> None:
    """Math fuzz: ``t.addcdiv_(1j, i)`` said a complex result cannot be cast into ``t``;
    torch's parser first refuses a complex (or int) where ``tensor1`` must be a Tensor."""
    def fn(L: Any) -> Any:
        return eval(call, {"t": L.tensor([-0.25, 1.5]), "i": L.tensor([2, 3]), "np": np})
    assert_as_torch(fn)


@pytest.mark.parametrize("value", ["1 + 1j", "1e300", "np.float64(1e300)", "True", "'a'", "None",
                                   "2", "2 ** 64", "2 ** 64 - 1", "-2 ** 63 - 1", "10 ** 400",
                                   "np.uint64(2 ** 64 - 1)"])
@pytest.mark.parametrize("make", ["L.zeros(2, requires_grad=True)",
                                  "L.zeros(0, requires_grad=True)",
                                  "L.zeros(2, requires_grad=True)[0]",
                                  "L.zeros(2, requires_grad=True) * 1",
                                  "L.zeros(2, dtype=L.float16)"])
def test_fill_checks_autograd_before_it_converts_the_number_as_torch(value: str,
                                                                      make: str) -> None:
    """Creation fuzz: ``leaf.fill_(1 + 1j)`` said the value cannot be converted; torch's
    autograd refuses the leaf (or its view) first, after the parser and before the kernel
    converts the number."""
    def fn(L: Any) -> Any:
        return eval(f"({make}).fill_({value})", {"L": L, "np": np})
    assert_as_torch(fn)


@pytest.mark.parametrize("scalar", ["np.float32(2.5)", "np.float64(-2.5)", "np.float32(np.nan)",
                                    "np.float16(300)", "np.int64(300)", "np.bool_(True)",
                                    "np.int16(-3)", "np.float64(1e300)"])
@pytest.mark.parametrize("dtype", ["L.uint8", "L.int8", "L.int64", "L.bool", "L.float16", "None"])
@pytest.mark.parametrize("copy", ["None", "True"])
def test_asarray_reads_a_numpy_scalar_as_a_0d_array_as_torch(scalar: str, dtype: str,
                                                              copy: str) -> None:
    """Creation fuzz: ``asarray(np.float32(2.5), dtype=uint8)`` raised Python's "cannot be
    interpreted as an integer" (torch.tensor's reading of a number); torch's asarray reads a
    numpy scalar as a 0-d array and casts it, and with copy=True checks an alias of it."""
    def fn(L: Any) -> Any:
        return eval(f"L.asarray({scalar}, dtype={dtype}, copy={copy})", {"L": L, "np": np})
    assert_as_torch(fn)


@pytest.mark.parametrize("data", [[[-0.25, -3.5], [1.0, 7e4], [2.5, -3.5], [1e30, -0.75]],
                                  [[1e30, -1e30, 0.0]], [[-80.0, 80.0, 3.0]], [[0.5]], [[]]])
@pytest.mark.parametrize("dim", [0, -1])
@pytest.mark.parametrize("dtype", ["float32", "float64"])
def test_logcumsumexps_gradient_is_torchs_formula(data: list, dim: int, dtype: str) -> None:
    """Math fuzz: logcumsumexp's gradient beside 1e30 was 2 where torch's is 1: torch takes
    the gradient in logs (a reversed logcumsumexp of ``log|g| - out``), which loses what is
    below the rounding of 1e30; minitorch summed ``g_j exp(x_i - out_j)`` directly."""
    def fn(L: Any) -> Any:
        x = L.tensor(data, dtype=getattr(L, dtype), requires_grad=True)
        g = L.linspace(-1, 2, x.numel()).reshape(x.shape).to(x.dtype)
        first, = L.autograd.grad(L.logcumsumexp(x, dim), x, g, create_graph=True)
        return first, L.autograd.grad(first.sum(), x, allow_unused=True)
    assert_as_torch(fn, assert_same)


@pytest.mark.parametrize("keywords", ["sparse=True", "sparse=True, padding_idx=0",
                                      "sparse=True, scale_grad_by_freq=True",
                                      "sparse=True, max_norm=1.0", "padding_idx=-1",
                                      "scale_grad_by_freq=True"])
@pytest.mark.parametrize("then", ["y", "y.grad_fn._saved_sparse",
                                  "y.grad_fn._saved_padding_idx",
                                  "y.grad_fn._saved_weight_sym_argsize_0",
                                  "y.grad_fn._saved_scale_grad_by_freq",
                                  "sorted(a for a in dir(y.grad_fn) if 'saved' in a)",
                                  "y.sum().backward()"])
def test_embeddings_sparse_forward_runs_and_its_backward_is_refused(keywords: str,
                                                                     then: str) -> None:
    """nn fuzz: ``F.embedding(..., sparse=True)`` was refused at once; torch's forward is an
    ordinary dense result, only the weight's gradient is sparse (minitorch refuses that
    backward, after torch's own refusal of scale_grad_by_freq with sparse gradients)."""
    def fn(L: Any) -> Any:
        w = L.ones(3, 2, requires_grad=True)
        y = eval(f"L.nn.functional.embedding(L.tensor([0, 2, 2]), w, {keywords})", {"L": L, "w": w})
        return eval(then, {"y": y})
    if "sparse" in keywords and then.endswith("backward()"):
        with pytest.raises(Exception) as got:
            fn(mt)
        wanted = "scale_grad_by_freq not supported" if "scale" in keywords else \
            "minitorch has no sparse tensors"
        assert wanted in str(got.value)
    else:
        assert_as_torch(fn)


@pytest.mark.parametrize("dtype", ["float16", "float32"])
@pytest.mark.parametrize("max_norm", [0.5, 1.0, 3.3])
@pytest.mark.parametrize("norm_type", [1.0, 2.0, float("inf")])
def test_embeddings_max_norm_scales_rows_as_torchs_kernel(dtype: str, max_norm: float,
                                                          norm_type: float) -> None:
    """embedding's max_norm renorm took its scale in the row's dtype (the last bit off for
    float32: 0.70710671 for torch's 0.70710677); torch reads the norm as a double, takes the
    scale in double and rounds it to the row's dtype."""
    def fn(L: Any) -> Any:
        w = L.linspace(-3, 4, 15).reshape(5, 3).to(getattr(L, dtype))
        y = L.nn.functional.embedding(L.tensor([0, 4, 2, 2]), w, max_norm=max_norm,
                                      norm_type=norm_type)
        return y, w
    assert_as_torch(fn)


@pytest.mark.parametrize("pad", [(0, 0), (-1, 0), (0, 0, 0, 0), (-1, -1), (1, 0), (-1, 1),
                                 (0, -5)])
@pytest.mark.parametrize("value", [float("nan"), float("inf"), 1e30, 300, -1, 2.5])
@pytest.mark.parametrize("dtype", ["int64", "int8", "uint8", "bool"])
def test_pad_converts_its_value_only_where_it_pads_as_torch(pad: tuple, value: float,
                                                             dtype: str) -> None:
    """nn fuzz: ``F.pad(int_tensor, (0, 0), value=nan)`` was refused (nan cannot be an
    int); torch's constant pad with no positive pad narrows and copies, and never converts
    the value."""
    def fn(L: Any) -> Any:
        return L.nn.functional.pad(L.ones(2, 4, dtype=getattr(L, dtype)), pad, value=value)
    assert_as_torch(fn)


SCALED = {"addmm": [(2, 4), (2, 3), (3, 4)], "addmv": [(2,), (2, 3), (3,)],
          "addr": [(2, 3), (2,), (3,)], "addbmm": [(2, 4), (3, 2, 5), (3, 5, 4)],
          "baddbmm": [(3, 2, 4), (3, 2, 5), (3, 5, 4)]}


@pytest.mark.parametrize("op", sorted(SCALED))
@pytest.mark.parametrize("needs", ["100", "010", "001", "011", "110", "111"])
@pytest.mark.parametrize("scales", [{}, {"beta": 0.5, "alpha": 2.0}, {"beta": 0}])
def test_a_scaled_products_gradients_with_one_factor_saved_are_torchs(
        op: str, needs: str, scales: dict) -> None:
    """Math fuzz: ``addbmm(t0, t1, t2)`` with only t1 requiring grad failed in backward
    ("'NoneType' object has no attribute 'shape'"): as torch, each factor is saved only for
    the other's gradient, and addbmm read the unsaved one's batch count."""
    def fn(L: Any) -> Any:
        gen = np.random.default_rng(3)
        ts = [L.tensor(gen.standard_normal(s), requires_grad=n == "1")
              for s, n in zip(SCALED[op], needs)]
        y = getattr(L, op)(*ts, **scales)
        wanted = [t for t in ts if t.requires_grad]
        grads = L.autograd.grad(y.sum(), wanted, create_graph=True)
        return grads, L.autograd.grad(sum(g.sum() for g in grads), wanted, allow_unused=True,
                                      materialize_grads=True)
    assert_as_torch(fn, assert_same)


@pytest.mark.parametrize("write", ["x[..., 0] = w[:1]", "x[..., 0] = w[0]", "x[0] = w[:1]",
                                   "x[..., 0] = w[:1].reshape(1, 1)", "x[:, :1] = w[:1]"])
@pytest.mark.parametrize("shape", [(2, 0, 2), (2, 1, 2), (2, 2)])
def test_a_write_of_a_value_with_leading_ones_into_an_integer_tensor_is_torchs_copy(
        write: str, shape: tuple) -> None:
    """Math fuzz: ``x[..., 0] = w[:1]`` into an integer tensor was recorded (CopySlices);
    torch picks copy_ (unrecorded into integers) by the value's dims before it drops the
    value's leading ones, and fill_ (recorded) only for a 0-d value."""
    def fn(L: Any) -> Any:
        x = L.zeros(shape, dtype=L.int64)
        w = L.tensor([-4.0, 2.0], requires_grad=True)
        exec(write, {"x": x, "w": w})
        return x, _grad_fn_name(x)
    assert_as_torch(fn)


@pytest.mark.parametrize("transform", ["grad", "jacrev", "jacfwd"])
@pytest.mark.parametrize("body", ["x.nanmean().numpy().sum()", "x.numpy().sum()",
                                  "x.detach().numpy().sum()", "x.numpy(force=True).sum()",
                                  "x.prod(-1).numpy().sum()",
                                  "(x * 1).sum() + L.ones(1).numpy()[0]"])
def test_numpy_under_a_transform_is_refused_as_torch(transform: str, body: str) -> None:
    """Autograd fuzz: ``func.grad(lambda x: x.nanmean().numpy().sum())`` said the tensor had
    no storage; torch's grad wrapper requires grad, so numpy() refuses that first (jvp's
    wrapper, which does not, has no storage)."""
    def fn(L: Any) -> Any:
        f = eval(f"lambda x: {body}", {"L": L})
        return getattr(L.func, transform)(f)(L.tensor([0.5, -1.0, 2.0]))
    assert_as_torch(fn, assert_same)


@pytest.mark.parametrize("call", ["L.tensor(True) + np.array([True, False])",
                                  "L.tensor(True) + np.array(True)",
                                  "L.tensor(True) | np.array([True, False])",
                                  "L.tensor([1]) > np.array([0, 3])",
                                  "(L.ones(2) > 0) & np.array([True, False])",
                                  "L.tensor([1.5]) + np.array([True, False])"])
def test_a_bool_result_numpy_computes_for_a_tensor_comes_back_as_uint8(call: str) -> None:
    """Repo fuzz (wide, seed 35502): ``tensor(True) + np.array([True, False])`` gave a bool
    tensor; numpy computes it, and torch's ``__array_wrap__`` turns a bool result into
    uint8 (its old workaround)."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", DeprecationWarning)  # (numpy's, about torch's wrap)
        assert_as_torch(lambda L: eval(call, {"L": L, "np": np}))
