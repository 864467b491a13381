"""Bad and edge input found by issue #21's black-box fuzzers (seeds 24500-24599, 25500-25549)
that branch s24-bbox fixed apart from main's mechanisms, folded into them: writes into an
expanded tensor (``Tensor._inplace``'s ``fills``), out= of the factorisations and sort/max/min
(``ops/_out.py``), tensors nested in ``tensor()`` for a small integer dtype, a missing
attribute of a Module, in-place ops on an empty read-only tensor. Each case is a small
program run on torch and on minitorch (``L``); its outcome, the value of ``R`` or the
exception's type and message, must be the same.
"""

from __future__ import annotations

import warnings

import pytest
import torch
from hypothesis import given, settings
from hypothesis import strategies as st
from oracle import raised_by
from test_bad_input_fuzz21b_oracle import assert_as_torch

import minitorch as mt

E = "x = L.zeros(3); v = x.expand(2, 3)\n"


@pytest.mark.parametrize("program", [
    E + "v.fill_(1); R = (x, v, x._version)",
    E + "v.zero_(); R = (x, v)",
    E + "v.fill_(-0.0); R = 1 / x",
    E + "v.masked_fill_(L.tensor([[True, False, False], [False, False, True]]), 5.); R = x",
    E + "v.masked_fill_(L.tensor([[True, False, True], [False, False, False]]), "
        "float('nan')); R = x",
    E + "v.masked_fill_(L.ones(2, 3, dtype=L.bool), L.tensor(2.)); R = x",
    E + "v.index_fill_(1, L.tensor([1]), -5); R = x",
    E + "v.index_fill_(0, L.tensor([0]), L.tensor(1.)); R = x",
    E + "v.index_put_((L.tensor([1]), L.tensor([2])), L.tensor(4.)); R = x",
    # accumulate: each element named adds into its place, a place named twice adds twice
    E + "v.index_put_((L.tensor([0, 1]), L.tensor([2, 2])), L.tensor(4.), True); R = x",
    "x = L.zeros(3); v = x.unsqueeze(1).expand(3, 2)\n"
    "v.index_put_((L.tensor([0]),), L.tensor(4.), accumulate=True); R = x",
    "x = L.zeros(3, dtype=L.int16); v = x.expand(2, 3)\n"
    "v.index_put_((L.tensor([0, 1]),), L.tensor([1, 2, 3], dtype=L.int16), True); R = x",
    "x = L.zeros(3, dtype=L.bool); v = x.expand(2, 3)\n"
    "v.index_put_((L.tensor([0]),), L.tensor(True), accumulate=True); R = x",
    E + "v.fill_diagonal_(3.); R = x",
    "x = L.zeros(2, 1); v = x.expand(2, 3); v.fill_diagonal_(3.); R = x",
    "x = L.zeros(3, dtype=L.bool); v = x.expand(2, 3); v.fill_(True); R = x",
    "x = L.zeros(3, dtype=L.int16); v = x.expand(4, 3); v.fill_(7); R = x",
    E + "v[0] = 1.; R = x", E + "v[0] = L.tensor([5., 6., 7.]); R = x",
    E + "v[L.tensor([True, False])] = 1.; R = x",
    E + "v[L.tensor([0, 1])] = L.tensor([[1., 2, 3], [4, 5, 6]]); R = x",
    E + "v[L.tensor([0, 1]), L.tensor([1, 1])] = 2.; R = x",
    E + "v[..., L.tensor([1])] = L.ones(1); R = x",
    # torch copies into the view a basic key makes: its overlap is refused
    E + "v[...] = 1.", E + "v[:, 0] = L.ones(1)", E + "v[None] = 1.", E + "v[:, :2] = 1.",
    E + "v.copy_(L.ones(2, 3))", E + "v.add_(1)",
    E + "v.index_copy_(0, L.tensor([0]), L.ones(1, 3, dtype=L.int64))",
    E + "v.index_copy_(0, L.tensor([[0]]), L.ones(1, 3))",
    "x = L.arange(4, dtype=L.float32).reshape(2, 2).requires_grad_().detach()\n"
    "v = x.expand(2, 2, 2); a = x._version; v.fill_(1); R = (a, x._version, v._version, x)",
    "x = L.arange(4, dtype=L.float64).requires_grad_(); y = x.expand(2, 4); d = y.detach()\n"
    "d.fill_(1); y.sum().backward(); R = (x.grad, d)",
    # recorded: the base's history is rewritten (CopySlices), its backward refused
    "x = L.zeros(3, requires_grad=True); b = x * 1; v = b.expand(2, 3)\n"
    "v.masked_fill_(L.tensor([[True, False, False], [False, False, True]]), 5.)\n"
    "R = (b, v.grad_fn.name(), b.grad_fn.name())",
    "x = L.zeros(3, requires_grad=True); b = x * 1; v = b.expand(2, 3)\n"
    "v.index_fill_(1, L.tensor([0]), 2.); b.sum().backward()",
    "x = L.zeros(3, requires_grad=True); b = x * 1; v = b.expand(2, 3); v.fill_diagonal_(2.)\n"
    "R = (b, b.grad_fn.name())",
    "x = L.zeros(3, requires_grad=True); b = x * 1; v = b.expand(2, 3)\n"
    "v[L.tensor([0])] = 5.; R = (b, b.grad_fn.name())"])
def test_writes_into_an_expanded_tensor_as_torch(program: str) -> None:
    """torch fills (fill_, zero_, masked_fill_, index_fill_, fill_diagonal_, index_put_ and
    an index write) into a tensor whose elements share memory, each place written once it is
    named; a copy into one or an arithmetic op is refused."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # torch's deprecation of index writes into an expand
        assert_as_torch(program)


@settings(max_examples=40, deadline=None)
@given(st.lists(st.lists(st.booleans(), min_size=3, max_size=3), min_size=1, max_size=4),
       st.integers(1, 3))
def test_masked_fill_of_an_expand_writes_each_named_place(rows: list, width: int) -> None:
    """A place shared by several elements gets the value when any of them is masked."""
    mask = f"L.tensor({[r * width for r in rows]})"
    assert_as_torch(f"x = L.zeros({3 * width}); v = x.expand({len(rows)}, {3 * width})\n"
                    f"v.masked_fill_({mask}, 4.); R = x")


@pytest.mark.parametrize("dtype", ["uint8", "int8", "int16", "int32", "int64", "bool",
                                   "float16", "float32"])
@pytest.mark.parametrize("data", [
    "[L.tensor([1, 2]), L.tensor([3, 4])]", "[L.tensor([1., 2])]", "[L.tensor([])]",
    "[1, L.tensor([1, 2])]", "[[L.tensor([True, False])]]", "[L.tensor(1.5)]",
    "[L.tensor([[7]])]"])
def test_tensors_nested_in_tensor_for_any_integer_dtype(dtype: str, data: str) -> None:
    """For every integer (and bool) dtype torch reads a nested tensor as an index: one not of
    one integer element is refused as an index (TypeError), not as a number."""
    assert_as_torch(f"R = L.tensor({data}, dtype=L.{dtype})")


@pytest.mark.parametrize("program", [
    "m = L.nn.Linear(3, 2); m.apply(L.nn.init.zeros_)",
    "m = L.nn.Sequential(); m.apply(L.nn.init.zeros_)",
    "R = L.nn.Linear(2, 2).nope",
    "m = L.nn.Linear(2, 2); del m.weight; R = m.weight",
    "R = hasattr(L.nn.Linear(2, 2), 'nope'), getattr(L.nn.ReLU(), 'nope', 5)"])
def test_a_missing_module_attribute_as_torch(program: str) -> None:
    """A name a Module lacks is refused with torch's AttributeError, raised by the Module's
    own ``__getattr__`` as in torch."""
    assert_as_torch(program)


def test_a_module_property_that_raises_attribute_error_names_itself() -> None:
    """As torch's ``__getattr__``, the property's name is reported, not the inner one."""
    def program(lib: object) -> None:
        class Box(lib.nn.Module):
            @property
            def inner(self) -> object:
                return self.missing_name

        return Box().inner

    want, got = raised_by(program, torch), raised_by(program, mt)
    assert (type(got), str(got)) == (type(want), str(want))


@pytest.mark.parametrize("op", ["t.fill_(3)", "t.mul_(2)", "t.zero_()", "t.add_(t)",
                                "t.copy_(L.ones(2, 0, dtype=L.int64))", "t[...] = 1"])
def test_a_write_into_an_empty_read_only_array_writes_nothing(op: str) -> None:
    """An empty tensor over a read-only numpy array takes any in-place op (nothing is
    written), as torch."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # torch's warning: the array is not writable
        assert_as_torch("a = np.zeros((2, 0), dtype=np.int64); a.setflags(write=False)\n"
                        f"t = L.from_numpy(a); {op}; R = (t, t._version)")


_OUT_CALLS = {
    "L.sort(x, out=OUT)": 2, "L.sort(x, 0, True, stable=True, out=OUT)": 2,
    "L.max(x, 0, out=OUT)": 2, "L.min(x, dim=1, keepdim=True, out=OUT)": 2,
    "L.max(x, out=OUT)": 1, "L.min(x, other=m, out=OUT)": 1, "L.max(x, m, out=OUT)": 1,
    "L.lu_unpack(*L.linalg.lu_factor(m), out=OUT)": 3,
    "L.triangular_solve(m, m, out=OUT)": 2, "L.linalg.cholesky_ex(m, out=OUT)": 2,
    "L.linalg.inv_ex(m, out=OUT)": 2, "L.linalg.lu(m, out=OUT)": 3,
    "L.linalg.lu_factor(m, out=OUT)": 2, "L.linalg.lu_factor_ex(m, out=OUT)": 3,
    "L.linalg.qr(m, out=OUT)": 2, "L.linalg.slogdet(m, out=OUT)": 2,
    "L.linalg.svd(m, out=OUT)": 3, "L.linalg.solve_ex(m, m, out=OUT)": 2,
    "L.linalg.cond(m, out=OUT)": 1, "L.linalg.matrix_rank(m, out=OUT)": 1,
    "L.linalg.tensorinv(m, 1, out=OUT)": 1}
_OUT_DTYPES = ["float32", "float64", "int64", "int32", "bool"]


@settings(max_examples=150, deadline=None)
@given(st.sampled_from(sorted(_OUT_CALLS)), st.lists(st.sampled_from(_OUT_DTYPES), min_size=3,
                                                     max_size=3),
       st.sampled_from(["", "[", "1"]))
def test_out_of_sort_max_min_and_linalg_factorisations_as_torch(call: str, dtypes: list,
                                                                form: str) -> None:
    """torch's parser takes out= for sort, max/min (a tuple with dim, else a Tensor), the
    factorisations and linalg.cond/matrix_rank/tensorinv; each kernel checks out's dtype
    (exact, or castable with its own message)."""
    n = _OUT_CALLS[call]
    outs = [f"L.empty(0, dtype=L.{d})" for d in dtypes[:n]]
    out = f"({', '.join(outs)},)" if n > 1 or form == "1" else outs[0]
    if form == "[":
        out = f"[{', '.join(outs)}]"
    assert_as_torch("x = L.tensor([[3., 1.], [2., 5.]]); m = L.tensor([[2., 1.], [1., 3.]])\n"
                    f"R = {call.replace('OUT', out)}")


@pytest.mark.parametrize("program", [
    "R = L.max(L.tensor([]), 0, out=[L.empty(0), L.empty(0), L.empty(0)])",
    "R = L.aminmax(L.tensor([]), out=(L.empty(0),) * 4)",
    "R = L.linalg.cholesky_ex(L.tensor([]), out=(L.empty(0),) * 3)",
    "R = L.linalg.lu_factor_ex(L.ones(2, 2, dtype=L.int64), out=(L.empty(0),) * 4)",
    "R = L.linalg.svd(L.ones(2, 2), out=(L.empty(0),) * 2)",
    "R = L.mode(L.ones(2), out=(L.empty(0),), foo=1)",
    "R = L.cummax(L.ones(2), dim=True, out=(L.empty(0),))",
    "R = L.sort(L.ones(2), out=(None, 5))", "R = L.sort(L.ones(2), stable=True, out=(None, 5))",
    "R = L.linalg.svd(L.ones(2, 2), out=(L.empty(0), L.empty(0, dtype=L.float64), "
    "L.empty(0, dtype=L.int64)))"])
def test_a_tuple_out_is_bound_as_torch(program: str) -> None:
    """torch's binding of a tuple out: each element a Tensor (its argument's number in the
    overload called), then the other arguments' refusals, then its length, before the op's
    own checks; svd's dtypes are checked U, Vh, then S."""
    assert_as_torch(program)


@pytest.mark.parametrize("program", [
    "m = L.tensor([[2., 1.], [1., 3.]]); R = L.linalg.matrix_power(m, 2, out=L.empty(0))",
    "m = L.tensor([[2., 1.], [1., 3.]])\n"
    "R = L.linalg.matrix_power(m, 2, out=L.empty(0, dtype=L.float64))",
    "m = L.tensor([[2., 1.], [1., 3.]]); R = L.matrix_power(m, 2, out=(L.empty(0),))",
    "m = L.tensor([[2., 1.], [1., 3.]]); R = L.linalg.matmul(m, m, out=L.empty(0))",
    "m = L.tensor([[2., 1.], [1., 3.]])\n"
    "R = L.linalg.lu_solve(*L.linalg.lu_factor(m), m, out=L.empty(0, dtype=L.float64))",
    "m = L.tensor([[2., 1.], [1., 3.]])\n"
    "R = L.linalg.tensorsolve(m, L.ones(2), out=L.empty(0, dtype=L.float64))",
    "m = L.tensor([[2., 1.], [1., 3.]])\n"
    "R = L.linalg.tensorsolve(m, L.ones(2), out=L.empty(0, dtype=L.int64))",
    "m = L.tensor([[2., 1.], [1., 3.]]); R = L.linalg.lstsq(m, m, out=(L.empty(0),) * 3)",
    "m = L.tensor([[2., 1.], [1., 3.]]); R = L.linalg.lstsq(m, m, out=(L.empty(0), 1))",
    "R = L.geqrf(L.eye(2, dtype=L.float64), out=(L.empty(0, dtype=L.int64), L.empty(0)))",
    "R = L.geqrf(L.eye(2, dtype=L.float64), out=(L.empty(0), L.empty(0, dtype=L.int32)))",
    "R = L.linalg.eigh(L.eye(2, dtype=L.float16), out=(L.empty(0), L.empty(0)))",
    "R = L.linalg.lu_factor(L.eye(2, dtype=L.float16), out=(L.empty(0), L.empty(0, "
    "dtype=L.int32)))"])
def test_out_of_more_linalg_functions_as_torch(program: str) -> None:
    """torch's parser takes out= for these too, each checked as its kernel checks it (before
    a float16 input is refused)."""
    assert_as_torch(program)


@pytest.mark.parametrize("dtype", ["float64", "float16", "int64", "int8", "uint8", "bool"])
@pytest.mark.parametrize("out", ["float64", "bool", "same"])
@pytest.mark.parametrize("fn", ["max", "min"])
def test_max_and_min_of_an_empty_tensor_into_out(fn: str, dtype: str, out: str) -> None:
    """torch's kernel of all elements into out checks out's dtype, then no size: an empty
    input gives the reduction's identity."""
    out = dtype if out == "same" else out
    assert_as_torch(f"R = L.{fn}(L.tensor([], dtype=L.{dtype}), out=L.empty(0, "
                    f"dtype=L.{out}))")


@pytest.mark.parametrize("obj", ["L.float32", "L.device('cpu')", "L.Size([1])", "L.no_grad()",
                                 "L.finfo(L.float32)", "L.strided", "L.optim.SGD",
                                 "L.nn.Linear(1, 1)", "L.ones(1)", "1.5"])
def test_typename_as_torch(obj: str) -> None:
    """torch's own types by their name at its top (torch.dtype), the others by their path."""
    assert_as_torch(f"R = L.typename({obj})")


@pytest.mark.parametrize("program", [
    "x = L.tensor([True, False]); v = x[0:1].expand(3); v.resize_(2)",
    "x = L.tensor([2., -0.25, 4.]); v = x[0:1].expand(3); v.resize_(2); v[1] = 7.",
    "x = L.arange(6.).reshape(2, 3); v = x.t(); v.resize_(5)",
    "x = L.arange(6.).reshape(2, 3); v = x[:, 1]; v.resize_(4)",
    "x = L.arange(6.); v = x[2:]; v.resize_(2, 2); v.fill_(9)"])
def test_resize_of_a_view_lays_its_shape_over_the_storage(program: str) -> None:
    """A view's resize_ reads its storage from its first element on (and still shares it),
    not its own elements in row-major order."""
    assert_as_torch(program + "; R = (x, v, v.is_contiguous(), x._version)")


@pytest.mark.parametrize("program", [
    'R = L.linalg.eigh(L.tensor([[-1.0, 4.0], [-0.25, 1.0]], dtype=L.float16), out=(L'
    '.empty(0, dtype=L.bool), L.empty(0, dtype=L.float32)))',
    'R = L.triangular_solve(L.tensor([[1.0]], dtype=L.float16), L.tensor([[1.0]], dty'
    'pe=L.float16), out=(L.empty(0, dtype=L.int64), L.empty(0, dtype=L.float64)))',
    'R = L.linalg.eigh(L.tensor([[1]], dtype=L.int64), out=[L.empty((), dtype=L.int32'
    '), L.empty(0, dtype=L.float32)])',
    'R = L.linalg.lu(L.tensor([[-1.0]], dtype=L.float16), out=[L.empty(0, dtype=L.int'
    '32), L.empty(0, dtype=L.float32), L.empty(0, dtype=L.float32)])',
    'R = L.linalg.eigh(L.tensor([[0]], dtype=L.int64), out=(L.empty(0, dtype=L.float6'
    '4), L.empty(0, dtype=L.float32)))',
    'R = L.linalg.lstsq(L.ones(2, 2), L.ones(2, 2), out=(L.empty(0, dtype=L.int32), L'
    '.empty(0), L.empty(0, dtype=L.int64), L.empty(0)))',
    'R = L.linalg.qr(L.tensor([[1]]), out=(L.empty(0), L.empty(0)))',
    'R = L.linalg.qr(L.tensor([[1.]], dtype=L.float16), out=(L.empty(0), L.empty(0)))',
    'R = L.linalg.svd(L.tensor([[1.]], dtype=L.float16), out=(L.empty(0), L.empty(0),'
    ' L.empty(0)))',
    'R = L.linalg.cholesky_ex(L.tensor([[1.]], dtype=L.float16), out=(L.empty(0), L.e'
    'mpty(0)))',
    'R = L.linalg.cholesky_ex(L.tensor([[True]]), out=(L.empty(0), L.empty(0)))',
    'R = L.linalg.lu_factor_ex(L.tensor([[True]]), out=(L.empty(0), L.empty(0), L.emp'
    'ty(0)))',
    'R = L.triangular_solve(L.tensor([[1]]), L.tensor([[1]]), out=(L.empty(0, dtype=L'
    '.bool), L.empty(0)))'])
def test_out_checked_before_the_kernel_refuses_its_input_as_torch(program: str) -> None:
    """An input of a dtype the kernel refuses (float16; some an integer one too): out's dtypes
    are checked first (eigh's eigenvectors first), as torch's kernels do."""
    assert_as_torch(program)


@pytest.mark.parametrize("program", [
    "R = L.lu_unpack(*L.linalg.lu_factor(L.tensor([[], []], dtype=L.float16)))",
    "R = L.linalg.lu(L.tensor([[]], dtype=L.bool))",
    "R = L.linalg.lu_factor_ex(L.zeros(0, 3, 2, dtype=L.int64))",
    "R = L.linalg.lu(L.zeros(2, 0, 3, dtype=L.float16))",
    "R = L.linalg.lu_factor(L.zeros(2, 2, dtype=L.float16))",
    "R = L.linalg.solve_ex(L.ones(2, 3, dtype=L.float16), L.ones(2, 3, dtype=L.float16))",
    "R = L.linalg.solve(L.ones(2, 3, dtype=L.float16), L.ones(2, 3, dtype=L.float16))",
    "R = L.linalg.solve(L.ones(2, 2, dtype=L.float16), L.ones(2, 2, dtype=L.float16))"])
def test_lu_and_solve_refuse_a_dtype_as_torch(program: str) -> None:
    """torch calls no LU kernel for an empty batch (any dtype passes); solve checks A is
    square before it refuses float16."""
    assert_as_torch(program)


@pytest.mark.parametrize("program", [
    'R = L.linalg.lu_factor_ex(L.tensor([], dtype=L.float16), out=(L.empty(0, dtype=L'
    '.int64), L.empty(0, dtype=L.bool), L.empty(0, dtype=L.float32)))',
    'R = L.triangular_solve(L.tensor([], dtype=L.float16), L.tensor([], dtype=L.float'
    '16), out=(L.empty(0, dtype=L.float32), L.empty(0, dtype=L.float64)))',
    'R = L.linalg.lu(L.tensor([], dtype=L.int64), out=(L.empty(0, dtype=L.float64), L'
    '.empty((), dtype=L.int32), L.empty(0, dtype=L.float32)))',
    'R = L.linalg.solve_ex(L.tensor([[-1.0, -1.0], [0.5, -1.0]], dtype=L.float16), L.'
    'tensor([[-1.0, -1.0], [0.5, -1.0]], dtype=L.float16), out=[L.empty(0, dtype=L.fl'
    'oat32), L.empty(0, dtype=L.float64)])',
    'R = L.linalg.solve_ex(L.ones(2, 3, dtype=L.float16), L.ones(2, 3, dtype=L.float1'
    '6), out=[L.empty(0, dtype=L.float32), L.empty(0, dtype=L.int32)])',
    'R = L.linalg.solve_ex(L.ones(2, 2, dtype=L.int64), L.ones(2, 2, dtype=L.int64), '
    'out=[L.empty(0, dtype=L.float32), L.empty(0, dtype=L.int32)])',
    'R = L.linalg.eigh(L.tensor([1.], dtype=L.float16), out=(L.empty(0), L.empty(0)))',
    'R = L.linalg.qr(L.tensor([1.], dtype=L.float16), out=(L.empty(0), L.empty(0)))'])
def test_out_checked_after_the_input_dims_as_torch(program: str) -> None:
    """A linear algebra kernel checks its input's dims (solve_ex's square) before out's dtypes,
    then refuses a float16 input."""
    assert_as_torch(program)


@pytest.mark.parametrize("program", [
    'R = L.geqrf(L.tensor([[0.0]], dtype=L.float16), out=(L.empty(0, dtype=L.int32), '
    'L.empty(2, 2)))',
    'R = L.geqrf(L.tensor([[1]]), out=(L.empty(0), L.empty(0)))',
    'R = L.min(L.tensor(6, dtype=L.int64), L.tensor(6, dtype=L.int64), out=(L.empty(0'
    ', dtype=L.float64),))',
    'R = L.min(L.tensor(-4, dtype=L.int64), L.tensor(-4, dtype=L.int64), out=(L.empty'
    '(0, dtype=L.int64), L.empty(0, dtype=L.float32), 5))',
    'R = L.min(L.tensor(-7, dtype=L.int64), L.tensor(-7, dtype=L.int64), out=(None, L'
    '.empty(0, dtype=L.bool)))',
    'R = L.max(L.ones(3), L.tensor(0), out=(L.empty(0), L.empty(0, dtype=L.long)))',
    'R = L.max(L.ones(3), L.tensor(0), True, out=(L.empty(0), L.empty(0, dtype=L.long'
    ')))',
    'R = L.min(L.ones(3), L.tensor(True), out=(L.empty(0), L.empty(0, dtype=L.long)))',
    'R = L.max(L.ones(3), L.tensor([0]), out=(L.empty(0), L.empty(0, dtype=L.long)))',
    'R = L.max(L.ones(3), L.tensor(0), out=L.empty(0))',
    'R = L.linalg.tensorinv(L.tensor([], dtype=L.float16), 1, out=(L.empty((), dtype='
    'L.int32)))',
    'R = L.linalg.tensorinv(L.ones(2,3), 1, out=L.empty(0, dtype=L.int32))',
    'R = L.linalg.tensorinv(L.ones(2,3, dtype=L.int64), 1, out=L.empty(0, dtype=L.int'
    '32))',
    'R = L.linalg.tensorinv(L.ones(2,2, dtype=L.int64), 1, out=L.empty(0, dtype=L.flo'
    'at32))'])
def test_out_of_geqrf_max_min_and_tensorinv_as_torch(program: str) -> None:
    """geqrf's outs checked before float16 is refused; max/min read a 0-d integer tensor as
    the dim of the overload whose out is a tuple; tensorinv checks a floating input's out
    before its shapes."""
    assert_as_torch(program)


@pytest.mark.parametrize("program", [
    'R = L.max(L.tensor([[-8, 6, -4], [9223372036854775807, 2, -7]], dtype=L.int64), '
    'out=L.empty((), dtype=L.int32))',
    'R = L.max(L.tensor([1e300, 3.0, 1e-45], dtype=L.float64), out=L.empty(0, dtype=L'
    '.float32))',
    'R = L.min(L.tensor([-1e300, 3.0], dtype=L.float64), out=L.empty(0, dtype=L.float'
    '16))',
    'R = L.max(L.tensor([300, 3]), out=L.empty(0, dtype=L.float16))',
    'R = L.max(L.tensor([70000, 3]), out=L.empty(0, dtype=L.float16))',
    'R = L.max(L.tensor([True, False]), out=L.empty(0, dtype=L.int8))',
    'R = L.max(L.tensor([], dtype=L.int64), out=L.empty(0, dtype=L.int32))',
    "R = L.max(L.tensor([float('nan'), 1.], dtype=L.float64), out=L.empty(0, dtype=L."
    'float32))',
    'R = L.min(L.tensor([200, 3], dtype=L.int64), out=L.empty(0, dtype=L.uint8))',
    'R = L.min(L.tensor([-200, 3], dtype=L.int64), out=L.empty(0, dtype=L.int16))',
    'R = L.linalg.eigvalsh(L.tensor([[[1.0]], [[-0.25]]], dtype=L.float16), out=(L.em'
    'pty(0, dtype=L.int64)))',
    'R = L.linalg.eigvalsh(L.tensor([[1]]), out=L.empty(0, dtype=L.int32))',
    'R = L.linalg.eigvalsh(L.tensor([[1]]), out=L.empty(0, dtype=L.int64))',
    'R = L.linalg.eigvalsh(L.tensor([1.], dtype=L.float16), out=L.empty(0, dtype=L.in'
    't64))'])
def test_max_min_of_all_into_out_convert_checked_as_torch(program: str) -> None:
    """max/min of all elements fill out with their value: a checked conversion (float16's
    rounds to inf); eigvalsh checks out before it refuses its input's dtype."""
    assert_as_torch(program)
