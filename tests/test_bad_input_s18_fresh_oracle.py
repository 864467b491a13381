"""The fresh seed of fuzz s18t (18003, never used for fixing): calls minitorch accepted where
torch refuses. Each program runs under torch and minitorch (``L``): the same result ``R``, or
the same exception type and message."""

import pytest
from test_bad_input_fuzz21b_oracle import assert_as_torch

SIZE_KEYWORD = ["L.empty(1, size=None)", "L.zeros(1, size=(2,))", "L.randn(1, size=None)",
                "L.rand(size=None)", "L.zeros(size=None)", "L.ones(size=2)", "L.rand(size=2)",
                "L.empty(size=[2.5])", "L.zeros(size=L.Size([2]))", "L.ones(size=[2, 1])"]


@pytest.mark.parametrize("program", SIZE_KEYWORD)
def test_the_size_keyword(program: str) -> None:
    """``size=`` is a tuple or list of ints (one int is a size only by position), and never
    beside positional sizes, even when None."""
    assert_as_torch(f"R = {program}")


@pytest.mark.parametrize("exponent", ["2 ** 64", "-2 ** 64", "2 ** 63", "-2 ** 63"])
@pytest.mark.parametrize("form", ["L.float_power(L.ones(2), {})", "L.float_power({}, L.ones(2))"])
def test_float_power_of_an_int_the_parser_cannot_hold(form: str, exponent: str) -> None:
    assert_as_torch(f"R = {form.format(exponent)}")


@pytest.mark.parametrize("program", [
    "L.where(x > 0, x, 1e40)", "L.where(x > 0, 1e40, x)", "L.where(x > 0, 1e40, 1.0)",
    "L.where(x > 0, x, 1e300)", "L.where(x > 0, x.double(), 1e300)",
    "L.where(x > 0, x.half(), 1e5)", "L.where(x > 0, x.int(), 2 ** 31)",
    "L.where(x > 0, x.long(), 2 ** 63)", "L.where(x > 0, x.byte(), 300)",
    "L.where(x > 0, x.byte(), -1)", "L.where(x > 0, x.byte(), -200)",
    "L.where(x > 0, x.to(L.int8), 200)", "L.where(x > 0, x.int(), 1e20)",
    "L.where(x > 0, x, float('inf'))", "L.where(x > 0, 2 ** 40, 1)",
])
def test_where_reads_a_number_into_the_results_type(program: str) -> None:
    """A number the result's dtype cannot hold is refused (float16's read in float)."""
    assert_as_torch(f"x = L.ones(2)\nR = {program}")


@pytest.mark.parametrize("program", [
    "L.isin(x, True)", "L.isin(True, x)", "L.isin(x.bool(), 1)", "x.bool().isin(x)",
    "L.isin(x, L.tensor([]).bool())", "L.isin(x, x.half())", "L.isin(x.long(), 1.0)",
    "L.isin(x.bool(), x, invert='a')",
])
def test_isin_refuses_bools(program: str) -> None:
    assert_as_torch(f"x = L.ones(2)\nR = {program}")


@pytest.mark.parametrize("program", [
    "L.rsub(x.long(), float('nan'), alpha=False)", "L.rsub(x.long(), 2, alpha=True)",
    "L.rsub(x, x, alpha=True)", "L.rsub(x.long(), x.long(), alpha=2.5)",
    "L.rsub(x.long(), 2, alpha=2.5)", "L.rsub(x.bool(), True, alpha=True)",
    "L.rsub(x, 3, alpha=2)", "L.rsub(x, x * 3, alpha=-2)", "L.rsub(x.int(), 3, alpha=2 ** 40)",
    "L.rsub(x, 3, alpha='a')", "L.rsub(x, 3, alpha=None)", "L.rsub(x.long(), 3, alpha=2 ** 63)",
    "L.rsub(x, 3.5, alpha=1e40)",
])
def test_rsub_checks_alpha_as_sub(program: str) -> None:
    """``alpha=True`` equals 1 to Python: it was taken as the default."""
    assert_as_torch(f"x = L.ones(2)\nR = {program}")


@pytest.mark.parametrize("p", ["-1", "-0.5", "float('inf')", "-float('inf')", "0", "2"])
@pytest.mark.parametrize("dtype", ["L.float64", "L.int32"])
def test_dist_of_empty_tensors_has_no_identity(p: str, dtype: str) -> None:
    """Fuzz seed 18004: an inf or negative norm over no elements is refused, as torch's
    vector_norm (it returned 0 or inf)."""
    assert_as_torch(f"a = L.zeros(2, 0, 3, dtype={dtype})\nR = L.dist(a, a.double(), {p})")


SIZE_KEYWORD_TWICE = [
    "L.zeros(2.5, size=(2,))", "L.zeros(2, size=(2,))", "L.randn(None, size=(1,))",
    "L.arange(6).tile(0.5, dims=(1,))", "L.arange(6).permute(0.5, dims=(0,))",
    "L.arange(6).reshape(2, shape=(2, 3))", "L.arange(6).tile(dims=1)", "L.ones(size=2)",
]


@pytest.mark.parametrize("call", SIZE_KEYWORD_TWICE)
def test_sizes_by_keyword_and_position_read_the_positional_types_first(call):
    """Values given both by position and by keyword: torch's parser reads the positional
    values' types first, then refuses the second value, for factories and methods alike."""
    assert_as_torch(f"R = {call}")
