"""Fuzz s18t (tensor API, seeds 18001 and 18002): bad or edge input that minitorch accepted,
refused from deep inside (numpy, or a line that is no ``raise``), or refused in other words
than torch. Each program runs under torch and minitorch (``L``): the same result ``R``, or the
same exception type and message."""

import linecache
import traceback

import pytest
import torch
from test_bad_input_fuzz21b_oracle import assert_as_torch, run

import minitorch as mt


def _innermost_line(program: str) -> str:
    """The source line of the innermost frame of the error ``program`` raises in minitorch."""
    try:
        exec(program, {"L": mt})
    except Exception as error:  # the traceback is what is inspected
        frame = traceback.extract_tb(error.__traceback__)[-1]
        return linecache.getline(frame.filename, frame.lineno).strip()
    raise AssertionError(f"{program!r} raised nothing")


@pytest.mark.parametrize("program", [
    "L.ones(2).erfc(dim=1)",  # a method taking nothing, given a keyword
    "L.ones(2).aminmax(-4)",  # too many positional arguments
    "L.ones(2).unsqueeze()",  # a required argument left out
    "L.max(L.ones(2), L.ones(2, dtype=L.bool), dim=0)",  # an argument given twice
])
def test_a_refused_call_is_raised_by_a_raise(program: str) -> None:
    """Python's refusal of a call's arguments is re-raised where minitorch words it (a
    ``raise``), not left to point at the line that called the op."""
    assert_as_torch(f"R = {program}")
    assert _innermost_line(program).startswith("raise")


@pytest.mark.parametrize("name", ["dim", "numel", "element_size", "item", "tolist", "detach",
                                  "is_floating_point", "storage_offset", "retain_grad"])
@pytest.mark.parametrize("call", ["(bad=1)", "(1, 2)"])
def test_methods_of_the_class_that_take_nothing(name: str, call: str) -> None:
    """torch's C methods refuse any argument in CPython's words for a C method."""
    assert_as_torch(f"R = L.ones(1).{name}{call}")


@pytest.mark.parametrize("program", [
    "L.ones(2, 1, 2).squeeze(2 ** 63)", "L.ones(3).size(2 ** 63)", "L.ones(2).movedim(0, 2 ** 63)",
    "L.nansum(L.ones(2), 2 ** 63)", "L.ones(2).amin(-2 ** 63 - 1)",
])
def test_a_dim_past_int64_overflows_in_the_parser(program: str) -> None:
    assert_as_torch(f"R = {program}")


@pytest.mark.parametrize("program", ["L.ones(2).sum((2 ** 63,))", "L.ones(2).flip((0, 2 ** 63))"])
def test_a_dim_past_int64_in_a_list(program: str) -> None:
    """torch's quoted error names its C++ source, then lists its stack's frames (this
    machine's paths); minitorch's has the same words without the frames."""
    want, got = run(torch, f"R = {program}"), run(mt, f"R = {program}")
    assert got[0] == want[0] == "TypeError"
    head = "(most recent call first):\n"
    assert got[1] == want[1][:want[1].index(head) + len(head)] + '"', (got[1], want[1])


@pytest.mark.parametrize("key", [
    "[0, [1]],", "[[0, 1], [1]],", "[[0], 1],", "[0, None],", "[0, slice(1)],", "[0, 'a'],",
    "[[0, [1]]],", "[0, 1.5],", "[1, True],", "[0, [1]]", "[[0, 1], [1, 2]]",
])
@pytest.mark.parametrize("write", [False, True])
def test_a_list_in_an_index_key_is_read_as_torch_tensor_reads_it(key: str, write: bool) -> None:
    program = f"x = L.arange(12.).reshape(3, 4)\nR = x[{key}]"
    assert_as_torch(program.replace("R = x[", "x[") + " = 0\nR = x" if write else program)


@pytest.mark.parametrize("dtype", ["int8", "int16", "int32", "int64", "uint8", "float16"])
@pytest.mark.parametrize("fn", ["median", "nanmedian"])
def test_the_median_of_nothing_is_nan_in_the_dtype(dtype: str, fn: str) -> None:
    assert_as_torch(f"R = L.tensor([], dtype=L.{dtype}).{fn}()")


def test_broadcast_tensors_of_nothing() -> None:
    assert_as_torch("R = L.broadcast_tensors()")


@pytest.mark.parametrize("program", [
    "L.ones(2, 2).max(keepdim=None)", "L.ones(3).min(keepdim='a')",
    "L.max(L.ones(3), keepdim=False)", "L.ones(0).max(keepdim=False)",
    "L.median(L.ones(3, 3), keepdim=1)", "L.ones(1).nanmedian(keepdim=False)",
    "L.ones(3, 2).median(1, keepdim=True)", "L.ones(3, 2).max(1, keepdim=True)",
])
def test_keepdim_without_dim(program: str) -> None:
    """torch's overloads without a dim take no keepdim."""
    assert_as_torch(f"R = {program}")


@pytest.mark.parametrize("program", [
    "L.sort(L.ones(3), descending=1)", "L.ones(3).sort(descending=1)",
    "L.argsort(L.ones(3), descending=1)", "L.ones(3).argsort(0, 1)", "L.ones(3).sort(0, None)",
    "L.ones(3).sort(stable=None)", "L.ones(3).argsort(stable=1)",
    "L.ones(3).argsort(stable=None)", "L.argsort(L.ones(3), stable=True, descending=True)",
])
def test_sort_flags_are_bools(program: str) -> None:
    assert_as_torch(f"R = {program}")


@pytest.mark.parametrize("program", [
    "L.ones(1).gather(-1, L.zeros(0, dtype=L.int64), sparse_grad=None)",
    "L.ones(1).gather(1.5, L.zeros(0, dtype=L.int64), sparse_grad=None)",
    "L.ones(1).gather(0, 3, sparse_grad=1)",
])
def test_gather_parses_before_checking(program: str) -> None:
    assert_as_torch(f"R = {program}")


@pytest.mark.parametrize("other", ["2 ** 64", "2 ** 63", "-2 ** 63 - 1"])
@pytest.mark.parametrize("dtype", ["int16", "float32"])
def test_copysign_of_an_int_past_int64(other: str, dtype: str) -> None:
    assert_as_torch(f"R = L.zeros(2, dtype=L.{dtype}).copysign({other})")


@pytest.mark.parametrize("program", [
    "L.range(3.2, 2 ** 63)", "L.range(0, 2 ** 63 - 1)", "L.range(0, 1e19)",
    "L.range(0, 2 ** 62)", "L.range(0, 3, dtype=L.int32)",
])
def test_range_with_a_count_past_int64(program: str) -> None:
    assert_as_torch(f"R = {program}")


def test_diag_embed_checks_its_storage_size() -> None:
    assert_as_torch("R = L.ones(4, dtype=L.int32).diag_embed(offset=2 ** 31)")


@pytest.mark.parametrize("fn", ["tril_indices", "triu_indices"])
@pytest.mark.parametrize("row, col, offset", [(2, 2 ** 31, 0), (2 ** 31, 2, 1), (3, 5, -1),
                                              (4, 2, 3), (0, 3, 0), (3, 3, -5)])
def test_triangle_indices_of_a_thin_matrix(fn: str, row: int, col: int, offset: int) -> None:
    """Only the rows or columns that can hold an index are built (torch's cost)."""
    if (fn, row) == ("tril_indices", 2 ** 31) or (fn, col) == ("triu_indices", 2 ** 31):
        pytest.skip("a huge triangle in both")
    assert_as_torch(f"R = L.{fn}({row}, {col}, {offset})")


@pytest.mark.parametrize("program", [
    "L.ones(2).sum(0.0)", "L.sum(L.ones(2), 0.0, dtype=L.bool)", "L.ones(2).mean(dim=False)",
    "L.ones(2).amax(0.0)", "L.amin(L.ones(2), dim='a')", "L.ones(2).nansum(1.5)",
    "L.ones(2).count_nonzero(1.5)", "L.count_nonzero(L.ones(2), 'a')", "L.ones(2).std(1.5)",
    "L.std(L.ones(2), 'a')", "L.var(L.ones(2), 'a')", "L.ones(2).nanmean(1.5)",
    "L.ones(2).mean('a')", "L.sum(L.ones(2), 0.5)", "L.ones(2).std(dim=1.0, keepdim='a')",
    "L.ones(2, 3).std(1, True, True)", "L.ones(2, 3).var(True)",
])
def test_a_reduction_dim_that_is_no_int(program: str) -> None:
    """One refusal of the dim's type, worded by the call: the argument where one of torch's
    overloads takes that many arguments, else the invalid combination of all of them."""
    assert_as_torch(f"R = {program}")


@pytest.mark.parametrize("program", [
    "L.ones(4).nansum(1, dtype=L.int64, keepdim=None)",
    "L.ones(1, dtype=L.int8).nanmean(1, keepdim=None)",
    "L.ones(2, dtype=L.bool).nanmean(0, keepdim=1)", "L.min(L.ones(3), dim=2 ** 63, keepdim=1)",
    "L.ones(0).max(dim=2 ** 63, keepdim=1)", "L.ones(0).max(dim=2 ** 63, keepdim=True)",
    "L.argmin(L.ones(4), [0], keepdim=1)", "L.ones(3).argmax(5, keepdim=None)",
    "L.ones(3).amax(5, keepdim=None)", "L.ones(3).amax(1.5, keepdim=None)",
    "L.ones(3).prod(5, keepdim=None)", "L.ones(3).prod(1.5, keepdim=None)",
    "L.ones(3).aminmax(dim=5, keepdim=None)", "L.ones(3).aminmax(dim=1.5, keepdim=None)",
    "L.ones(3, 2).aminmax(dim=1, keepdim=True)", "L.ones(3, 2).nanmean(1, keepdim=True)",
])
def test_keepdims_type_before_the_dims_range(program: str) -> None:
    """torch's parser reads every argument's type (dim's, then keepdim's) before any value is
    checked (the dim's range, int64 overflow, the input's dtype)."""
    assert_as_torch(f"R = {program}")


@pytest.mark.parametrize("program", [
    "L.ones(2).new_zeros(-1, 2)", "L.ones(2).new_zeros((-1,))", "L.ones(2).new_zeros(2.5)",
    "L.ones(2, dtype=L.int8).new_zeros((2,))", "L.zeros(-1, 2)",
    "L.row_stack(None)", "L.row_stack([1])", "L.row_stack([L.ones(2), L.ones(3)])",
    "L.full_like(L.ones(2), 'x')", "L.full_like(L.ones(2), 1, requires_grad=None)",
    "L.ger(L.ones(2), True)", "L.ones(2).ger(True)", "L.ones(1).moveaxis((), 1.5)",
])
def test_refusals_name_the_function_called(program: str) -> None:
    """new_zeros is torch's empty then zero_ (empty's size message); an alias's parser names
    the alias."""
    assert_as_torch(f"R = {program}")


@pytest.mark.parametrize("dtype", ["bool", "uint8", "int8", "int32", "int64", "float16"])
@pytest.mark.parametrize("value", ["2 ** 63", "-2 ** 63 - 1", "2 ** 64", "2 ** 63 - 1", "300"])
def test_an_int_past_int64_in_data_for_any_integer_dtype(dtype: str, value: str) -> None:
    """torch unpacks a Python int into int64 for every integer dtype (then casts)."""
    assert_as_torch(f"R = L.tensor([{value}, 1], dtype=L.{dtype})")
    assert_as_torch(f"R = L.as_tensor({value}, dtype=L.{dtype})")


@pytest.mark.parametrize("data", ["None", "{1, 2}", "{1: 2}", "2.5", "True", "range(3)", "b'ab'",
                                  "'ab'", "(x for x in [1])", "(1, 2)", "object()"])
@pytest.mark.parametrize("constructor", ["Tensor", "ByteTensor", "FloatTensor"])
def test_a_legacy_constructors_data_must_be_a_sequence(data: str, constructor: str) -> None:
    assert_as_torch(f"R = L.{constructor}({data})")


@pytest.mark.parametrize("program", [
    "L.range('a')", "L.range(5)", "L.range()", "L.range(1, 'a')", "L.range(start=1)",
    "L.range(end=1)", "L.range(1, 3, 0.5, dtype=L.float64)",
    "L.zeros(2.5, dtype='float32')", "L.zeros(dtype=L.bool, requires_grad=1, layout='meta')",
    "L.zeros()", "L.rand(2.5, dtype=3)", "L.randn(None, layout=3)", "L.empty((2, 3), dtype='a')",
    "L.zeros(size=(2,), dtype='a')",
])
def test_factories_read_positional_arguments_first(program: str) -> None:
    """torch's parser reads the positional arguments (their types, a missing one) before the
    keywords."""
    assert_as_torch(f"R = {program}")


@pytest.mark.parametrize("program", [
    "L.where(L.ones(4, dtype=L.bool), L.ones(1, 3, 1), L.ones(3, 3))",
    "L.where(L.ones(3, 3, dtype=L.bool), 1.0, L.ones(2, 4))",
    "L.where(L.ones(2, 3, dtype=L.bool), L.ones(5, 3, 2), L.ones(3))",
    "L.ones(4).addcmul(L.ones(1, 3, 1), L.ones(3, 3))",
    "L.ones(4).addcdiv(L.ones(3, 3), L.ones(1, 3, 1))",
    "L.ones(4).lerp(L.ones(1, 3, 1), L.ones(3, 3))",
    "L.ldexp(L.ones(2, 3, dtype=L.float16), L.ones(4, dtype=L.bool))",
    "L.fmod(L.ones(3, 3, dtype=L.bool), L.ones(2, 1, 2, dtype=L.bool))",
    "L.ones(3, 3, dtype=L.int8) // L.zeros(2, 1, 2, dtype=L.uint8)",
    "L.ones(3, 3, dtype=L.int8).remainder(L.zeros(2, 1, 2, dtype=L.uint8))",
    "L.ones(3, dtype=L.int8) // L.zeros(3, dtype=L.uint8)",
    "L.ones(0).aminmax(dim=0)", "L.ones(2, 0).aminmax(dim=1, keepdim=True)",
])
def test_operands_broadcast_before_the_kernel_looks_at_them(program: str) -> None:
    """torch's TensorIterator broadcasts each operand against those before it (its error
    counts dims in that shape) before the kernel checks dtypes or divisors."""
    assert_as_torch(f"R = {program}")


@pytest.mark.parametrize("program", [
    "L.ones(2, 3).sum((0, -2, -3))", "L.ones(2, 3).amax((0, -2, -3))",
    "L.ones(2, 3).amin((0, -2, -3))",
    "L.ones(2, 3).logsumexp((0, -2, 5))", "L.ones(2, 3).mean((0, -2, -3))",
    "L.ones(2, 3).count_nonzero((0, -2, -3))", "L.ones(2, 3).all((0, -2, -3))",
    "L.ones(2, 3).any((0, -2, -3))", "L.ones(2, 3).nanmean((0, -2, -3))",
    "L.ones(2, 3).std((0, -2, -3))", "L.ones(2, 3).nansum((0, -2, -3))",
    "L.ones(2, 3).norm(dim=(0, -2, -3))", "L.ones(2, 3).sum((0, 0))",
    "L.ones(3).any(-2, keepdim=None)", "L.any(L.ones(3), dim=(1, -1), keepdim=None)",
    "L.all(L.ones(1, dtype=L.int32), 2 ** 63, keepdim=None)",
])
def test_a_repeated_dim_against_one_out_of_range(program: str) -> None:
    """torch's dim mask (sum, amax, all, ...) wraps every dim before it looks for repeats;
    var, std, nansum and norm refuse a repeat as they meet it."""
    assert_as_torch(f"R = {program}")


@pytest.mark.parametrize("program", [
    "L.ones(2, 1, 2).permute(-3, -3, -4)", "L.ones(2, 1, 2).permute(0, 5, 0)",
    "L.ones(4).unflatten(-2, ())", "L.ones(4).unflatten(1.5, ())",
    "L.ones(4).unflatten(-2, (2, 2))",
    "L.ones(4).movedim((-1,), (0, 1))", "L.ones(4).movedim((5,), (0, 1))",
    "L.ones(3, dtype=L.bool).trace()", "L.ones(3).trace()",
    "L.tensordot(L.ones(4), 3, dims=([1], [0]))", "L.tensordot(L.ones(4), 3, dims=1)",
    "L.tensordot(3, L.ones(4), dims=([1], [0]))", "L.tensordot(L.ones(4), 3, dims=L.tensor(1))",
    "L.tensordot(L.ones(4), L.ones(4), dims=L.tensor(3))",
    "L.ones(1, 3, 1, dtype=L.int64).renorm(True, -4, float('nan'))",
    "L.empty_strided((-1,), (3, 1))", "L.empty_strided((2,), (3, 1))",
])
def test_shape_ops_check_in_torchs_order(program: str) -> None:
    assert_as_torch(f"R = {program}")


@pytest.mark.parametrize("b", [
    "L.ones(2, 2, 2)", "L.ones(2, 1, 2)", "L.ones(2, 0, 3)", "L.ones(0, 2, 3)",
    "L.ones(2, 2, 2).permute(1, 0, 2)", "L.ones(2, 2, 2).transpose(-1, -2)",
    "L.ones(3, 2, 2, 2)[:, 0:1]", "L.arange(12.).reshape(2, 3, 2)"])
@pytest.mark.parametrize("a", ["L.tensor([1., 2., 3.])", "L.tensor([1., 2.])", "L.ones(0)"])
def test_a_vector_times_a_batch_folds_where_torch_folds(a: str, b: str) -> None:
    """torch folds a batch into one matrix for a vector when its transpose's layout allows
    it without a copy, or when it is empty: its size error is then mv's."""
    assert_as_torch(f"R = {a} @ {b}")
    assert_as_torch(f"r = {a} @ {b}.requires_grad_()\nR = (r, r.grad_fn.name())")


@pytest.mark.parametrize("program", [
    "L.meshgrid(L.ones(3, 3, dtype=L.bool), L.ones(3, 3), indexing=None)",
    "L.meshgrid(L.ones(2, 3), indexing='bad')",
    "L.meshgrid(L.ones(2, 3), L.ones(2), indexing='ij')",
    "L.meshgrid(L.ones(4, dtype=L.int8), L.ones(4, dtype=L.bool), L.ones(2, 3, dtype=L.bool))",
])
def test_meshgrid_checks_in_torchs_order(program: str) -> None:
    assert_as_torch(f"R = {program}")


@pytest.mark.parametrize("program", [
    "L.var_mean(L.tensor(1, dtype=L.int16), correction=-1, keepdim='a')",
    "L.var_mean(L.tensor(1, dtype=L.int16), dim=(0,), unbiased=None, correction=None)",
    "L.std_mean(L.tensor(1, dtype=L.int16), keepdim='a')", "L.std_mean(L.ones(3), keepdim=None)",
    "L.std_mean(L.ones(3), True)", "L.var_mean(L.ones(3, 2), 1, True, True)",
    "L.std_mean(L.ones(3, 2, dtype=L.int32), 1)",
    "L.ones(3).movedim(1, 2 ** 63)", "L.ones(4).moveaxis(3, 2 ** 63)",
    "L.ones(3).movedim(2 ** 63, 1)",
    "L.ones(2, 3).movedim((0, 1), [-1, 0])",
])
def test_the_parser_reads_before_the_kernel(program: str) -> None:
    """std_mean/var_mean match an overload (and read keepdim) before refusing an integer
    input; movedim's ints are unpacked into int64 before any range is checked."""
    assert_as_torch(f"R = {program}")


@pytest.mark.parametrize("program", [
    "L.ones(2, 3).sort(-1, stable=True)", "L.sort(L.ones(2, 3), -1, stable=True)",
    "L.ones(2, 3).argsort(-1, stable=True)", "L.argsort(L.ones(2, 3), -1, stable=True)",
    "L.ones(2).argsort(-1, descending=False, stable=False)",
    "L.argsort(L.ones(2), -1, descending=False, stable=False)",
    "L.ones(2, 3).sort(-1, True, stable=True)", "L.sort(L.ones(2), -1, True, stable=True)",
    "L.ones(2, 3).sort(dim=-1, stable=True)", "L.sort(L.ones(2, 3), stable=True)",
    "L.ones(2, 3).sort(-1, descending=True)",
])
def test_stable_takes_the_other_options_by_keyword(program: str) -> None:
    """torch's overload with ``stable`` takes dim and descending by keyword only."""
    assert_as_torch(f"R = {program}")


@pytest.mark.parametrize("program", [
    "L.scatter(L.ones(2, 0, 3), [0], L.zeros(0, dtype=L.int32), -2.5)",
    "L.ones(3).scatter([0], L.zeros(0, dtype=L.int64), -2.5)",
    "L.scatter(L.ones(3), 0, L.zeros(0, dtype=L.int64), 'a')",
    "L.ones(3).scatter(0, L.zeros(1, dtype=L.int64), 2.0, reduce=3)",
    "L.scatter(L.ones(3), 0, L.zeros(1, dtype=L.int64), value=L.ones(2))",
])
def test_scatter_lists_the_overloads_of_the_form_called(program: str) -> None:
    assert_as_torch(f"R = {program}")


@pytest.mark.parametrize("program", [
    "L.ones(4).narrow_copy(1, 0, 1)", "L.ones(2, 2).narrow_copy(3, 0, 1)",
    "L.ones(4).narrow_copy(-2, 0, 1)", "L.tensor(1.).narrow_copy(1, 0, 1)",
    "L.ones(4).narrow_copy(0, 1, 2)",
])
def test_narrow_copy_of_a_dim_past_the_rank(program: str) -> None:
    """torch's narrow_copy kernel wraps only a negative dim; a positive one past the rank
    fails its internal check."""
    assert_as_torch(f"R = {program}")


@pytest.mark.parametrize("program", [
    "L.ones(2, 3).index_fill_(2 ** 63, L.tensor(1.), L.tensor(1.))",
    "L.ones(3).index_fill_(2 ** 63, L.tensor([0, 1]), L.tensor([1, 0]))",
    "L.index_fill(L.ones(3), -2 ** 63 - 1, L.tensor([0]), 1.)",
    "L.ones(3).requires_grad_().index_fill_(2 ** 63, L.tensor([0]), 1.)",
])
def test_index_fill_unpacks_its_dim_first(program: str) -> None:
    assert_as_torch(f"R = {program}")


@pytest.mark.parametrize("program", [
    "L.normal(L.ones(3, dtype=L.int32), L.ones(4, dtype=L.float16))",
    "L.normal(L.ones(3, dtype=L.int64), L.ones(3))", "L.normal(L.ones(3), -L.ones(4))",
    "L.normal(L.ones(2, 1), L.ones(3)).shape",
])
def test_normal_broadcasts_before_its_kernel(program: str) -> None:
    assert_as_torch(f"R = {program}")
