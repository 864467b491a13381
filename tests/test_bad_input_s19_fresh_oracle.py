"""Fresh fuzz seeds of session 19 (19003's leftovers): torch as the oracle for in-place
scans' dtypes, isin's out-of-range integers, vander of a 0-d tensor, and the LAPACK kernels'
refusals of float16, integer and mixed dtypes (some silently solved in float64 before)."""
from __future__ import annotations

import pytest
from test_bad_input_fuzz21b_oracle import assert_as_torch

SCANS = [f"R = L.tensor([1, 2, 3]{d}).{op}({a})"
         for op in ("cumsum_", "cumprod_") for d in ("", ", dtype=L.bool", ", dtype=L.int32",
                                                     ", dtype=L.float16", ", dtype=L.uint8")
         for a in ("0", "0, dtype=L.int32", "0, dtype=L.int64", "-1, dtype=L.float16",
                   "0, L.float16", "5, dtype=L.float16", "", "dim=None", "0.5", "0, dtype=1")]
SCANS += [f"R = L.zeros(3, requires_grad=True).{op}({a})" for op in ("cumsum_", "cumprod_")
          for a in ("0, dtype=1", "0.5", "0, L.float16", "0", "5")]
SCANS += [f"R = {pre}({a})" for pre in ("L.zeros(3).cumsum", "L.cumprod")
          for a in ("", "0, L.float16", "dim=None", "foo=1")]


@pytest.mark.parametrize("program", SCANS)
def test_in_place_scans_compute_in_the_tensors_own_dtype(program):
    """cumsum_/cumprod_ refuse another dtype ('Bad in-place call') after the dim's range,
    compute in the tensor's dtype (bool has no kernel), and check types before the leaf."""
    assert_as_torch(program)


ISIN = [f"R = L.isin({a}, {b})" for a, b in [
    ("L.tensor([1, 255], dtype=L.uint8)", "-1"), ("L.tensor([1, 44], dtype=L.int8)", "300"),
    ("L.tensor([1, 2], dtype=L.int8)", "2.5"), ("2**40", "L.tensor([0, 1], dtype=L.int8)"),
    ("-1", "L.tensor([1, 255], dtype=L.uint8)"), ("L.tensor([1, 255], dtype=L.uint8)",
                                                  "np.int64(-1)"),
    ("L.tensor([0, 1])", "2**63 - 1")]]
ISIN += ["R = L.bucketize(-1, L.tensor([1, 255], dtype=L.uint8))",
         "R = L.searchsorted(L.tensor([1, 255], dtype=L.uint8), 300)"]


@pytest.mark.parametrize("program", ISIN)
def test_a_number_compared_with_an_integer_tensor_keeps_its_low_bits(program):
    assert_as_torch(program)


def _lapack_programs() -> list:
    programs = []
    for d in ("float16", "int64", "int32", "bool", "uint8"):
        A = f"(L.eye(2, dtype=L.{d}) * 2 + 1)" if d != "bool" else "L.eye(2, dtype=L.bool)"
        programs += [f"R = L.{call}" for call in (
            f"cholesky({A})", f"cholesky_inverse({A})", f"cholesky_solve({A}, {A})",
            f"linalg.solve_triangular({A}, {A}, upper=True)", f"cholesky_solve({A}, L.eye(2))",
            f"cholesky_solve(L.eye(2), {A})", f"linalg.cholesky({A})", f"logdet({A})",
            f"linalg.lu_solve({A}, L.ones(2, dtype=L.int32), {A})", f"pinverse({A})",
            f"linalg.pinv({A})", f"linalg.matrix_rank({A})", f"linalg.cholesky_ex({A})")]
    return [*programs,
        "R = L.cholesky_solve(L.ones(2, 3, dtype=L.int64), L.eye(3))",
        "R = L.linalg.lu_solve(L.ones(2, 3, dtype=L.int64), L.ones(2, dtype=L.int32), L.eye(2))",
        "R = L.linalg.lu_solve(L.eye(2, dtype=L.float16), L.ones(3, dtype=L.int32), "
        "L.eye(2, dtype=L.float16))", "R = L.vander(L.tensor(2.0))",
        "R = L.vander(L.tensor(2.0), N=1.5)", "R = L.vander(L.ones(2), N=1.5)"]


@pytest.mark.parametrize("program", _lapack_programs())
def test_lapack_kernels_refuse_the_dtypes_they_have_no_version_of(program):
    assert_as_torch(program)


@pytest.mark.parametrize("rates", ["[float('inf')]", "[float('inf'), 2.0, 30.0, float('inf')]",
                                   "[1e30]", "[5e18, 1e19]"])
@pytest.mark.parametrize("dtype", ["L.float32", "L.float64"])
def test_poisson_of_an_infinite_or_huge_rate_is_torchs_int64_cast(rates, dtype):
    """torch's sampler returns its double count cast to int64 (INT64_MIN where it is
    infinite or NaN) and draws the same uniforms; numpy's floor of inf raised ValueError."""
    assert_as_torch(f"L.manual_seed(3); R = (L.poisson(L.tensor({rates}, dtype={dtype})), "
                    "L.rand(3))")


@pytest.mark.parametrize("output", ["(t * 2).long()", "t > 1", "(t * 2).to(L.uint8)",
                                    "(t * 0).long()", "(t.long(), t > 0)", "t.sum().long()",
                                    "(t * 2).detach()"])
@pytest.mark.parametrize("nondet_tol", ["None", "0.0", "1e10", "'a'"])
def test_fast_gradcheck_moves_every_output_when_none_is_differentiable(output, nondet_tol):
    """With no differentiable output, torch's fast gradcheck differences every output,
    integer ones too (bool ones refused by the subtraction), against nondet_tol: an integer
    output that jumps under the step is 'expected to be zero' (minitorch skipped it)."""
    assert_as_torch(f"R = L.autograd.gradcheck(lambda t: {output}, (L.ones(2, dtype=L.float64, "
                    f"requires_grad=True),), nondet_tol={nondet_tol}, fast_mode=True)")


@pytest.mark.parametrize("p", [1.0, 2.0, 255.0])
@pytest.mark.parametrize("dtype", ["float32", "float16", "float64"])
@pytest.mark.parametrize("maxnorm", [1.0, 5.0, 2.0 ** 63])
def test_renorm_scales_as_torchs_kernel(p, dtype, maxnorm):
    """renorm's norm in torch's accumulating type (a huge p overflows there: every slice
    scaled to 0), its factor divided in double and rounded to the tensor's dtype: bit for
    bit (fuzz seed 19004 found the overflow; float32 and float16 differed in the last bit)."""
    assert_as_torch(f"x = L.tensor([[1., -0.2, 2.], [-0.46, 0., 2.88], [0.3, 7.5, -1.]], "
                    f"dtype=L.{dtype}); R = (x.renorm({p}, 0, {maxnorm}), "
                    f"x.renorm({p}, 1, {maxnorm}), x.clone().renorm_({p}, 0, {maxnorm}))")


@pytest.mark.parametrize("p", [0.5, 3.0, 4.5, 50.0, 255.0])
@pytest.mark.parametrize("dim", ["None", "0", "1"])
def test_a_half_tensors_p_norm_is_computed_in_float(p, dim):
    """torch computes a float16 tensor's p-norm in float32 (minitorch overflowed to inf)."""
    assert_as_torch("L.manual_seed(0); x = (L.randn(4, 9) * 3).half(); "
                    f"R = L.linalg.vector_norm(x, {p}, {dim})")
