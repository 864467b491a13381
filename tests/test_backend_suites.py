"""The op suite and the autograd tests again, on the other array namespaces.

The modules below run as they are on numpy. Here every one of their tests runs again with new
tensors holding arrays of another namespace:

- ``strict``: array-api-strict, which raises on any call outside the array API standard, so a
  pass shows that the ops (forward values and gradients, compared with torch) would run on any
  standard namespace such as CuPy's;
- ``cuda``: CuPy on a GPU (``pytest -m cuda``), skipped with a reason where there is none. The
  CuPy arrays play the default device here so the suites' numpy comparisons stay as they are;
  the device API itself is tested in ``test_device.py``.
"""

from __future__ import annotations

import importlib

import array_api_strict
import numpy as np
import pytest

import minitorch
from minitorch import backend

SUITES = ("test_ops_oracle", "test_engine", "test_function", "test_hooks", "test_inplace",
          "test_saved_tensor_hooks", "test_functional", "test_gradcheck", "test_nn",
          "test_optim", "test_creation_more_oracle", "test_layers_losses_oracle",
          "test_optim_more_oracle", "test_forward_ad_oracle", "test_saved_tools_oracle",
          "test_more_apis_oracle", "test_tutorial_apis_more_oracle",
          "test_tutorial_apis_linalg_oracle", "test_conv_transpose_oracle",
          "test_conv_transpose_nd_oracle", "test_max_pool3d_oracle",
          "test_multihead_attention_oracle", "test_corpus20g_oracle",
          "test_solve_triangular_oracle", "test_multivariate_normal_oracle",
          "test_distribution_expand_oracle", "test_exponential_laplace_oracle",
          "test_poisson_oracle", "test_transform_to_oracle",
          "test_log_normal_oracle", "test_gamma_oracle", "test_gamma_sampling_oracle",
          "test_binomial_sampling_oracle",
          "test_student_t_oracle", "test_clone_contiguous_oracle",
          "test_group_norm_oracle",
          "test_linalg_solve_ex_oracle", "test_linalg_lu_oracle", "test_linalg_cond_rank_oracle",
          "test_linalg_lstsq_oracle", "test_triangular_solve_oracle",
          "test_testing_assert_close_oracle")
SKIPPED = {
    # the engine's memory and depth, not array calls: 50 s on the strict namespace
    "test_engine": {"test_100k_chain_backpropagates_and_frees_memory",
                    # numpy's arrays are not tracked by the collector; the strict namespace's
                    # Python wrappers around them are, so it counts more than one per node
                    "test_a_chain_node_is_one_object_for_the_garbage_collector"},
    # a float32 exp's bits (MKL's, or numpy's float64 rounded once) in the KL formula
    "test_exponential_laplace_oracle": {"test_kl_pairs_through_float32_exp_as_torch"},
    # the same: every LogNormal sample is a float32 exp
    "test_log_normal_oracle": {"test_rsample_and_log_prob_as_torch", "test_expand_as_torch"},
    # its examples print numpy values
    "test_gradcheck": {"test_docstring_examples"},
    # torch's float32 bits come from numpy's kernels; other namespaces keep their own sums
    # torch's bits come from MKL's LAPACK, which takes numpy arrays only
    "test_linalg_solve_ex_oracle": {"test_solve_ex_is_torchs_bits_and_infos",
                                    "test_inv_ex_is_torchs_bits_and_infos"},
    "test_linalg_lu_oracle": {"test_factors_are_torchs_bits", "test_lu_solve_is_torchs_bits",
                              # the strict namespace has no float16
                              "test_half_is_refused_as_torch"},
    "test_gamma_sampling_oracle": {"test_half_is_refused_as_torch"},  # the same
    "test_binomial_sampling_oracle": {"test_half_is_refused_as_torch"},
    # eigvalsh's backend call passes numpy's UPLO keyword
    "test_linalg_cond_rank_oracle": {"test_matrix_rank_hermitian"},
    "test_conv_transpose_oracle": {"test_conv_transpose2d_float32_is_torchs_bits",
                                   "test_conv_transpose2d_float32_gradients_are_torchs_bits"},
    # the same (a norm's float32 sum); and a hermitian rank reads one triangle by numpy's UPLO,
    # which ops/eigh.py asks of the namespace outside the array API
    "test_corpus20g_oracle": {"test_adafactor_steps_bitwise",
                              "test_matrix_rank_of_low_rank_products",
                              # compares float32 bytes of the steps (numpy's and MKL's bits)
                              "test_lbfgs_strong_wolfe_keeps_its_own_tolerance"},
    # the rank of a nearly rank-deficient draw: the namespace's own singular values decide it
    # against torch's gelsy (numpy's agree; the strict namespace's differ in the last bits)
    "test_linalg_lstsq_oracle": {"test_lstsq_without_mkl_is_torchs_within_rounding",
                                 "test_lstsq_is_torchs"},
    # the strict namespace has no float16 (drawn there too), nor strides of a view
    "test_testing_assert_close_oracle": {"test_float16_and_strides_as_torch",
                                         "test_drawn_tensors_as_torch",
                                         "test_isclose_of_bools_and_specials_as_torch"},
}
# Not yet on CuPy: gradcheck compares host copies made with np.asarray, which CuPy refuses.
GPU_REASON = "needs a CUDA GPU with CuPy: minitorch.cuda.is_available() is False here"


def _collect() -> None:
    """Every test of ``SUITES`` as ``test_<suite>__<name>`` here, with its module's marks."""
    for suite in SUITES:
        module = importlib.import_module(suite)
        marks = getattr(module, "pytestmark", [])
        for name, test in vars(module).items():
            if not name.startswith("test_") or not callable(test) or \
                    name in SKIPPED.get(suite, ()):
                continue
            for mark in marks if isinstance(marks, list) else [marks]:
                test = mark(test)
            globals()[f"test_{suite[5:]}__{name[5:]}"] = test


_collect()


def _namespace(name: str):  # type: ignore[no-untyped-def]
    if name == "strict":
        return array_api_strict
    import array_api_compat.cupy

    return array_api_compat.cupy


@pytest.fixture(autouse=True, params=[
    "strict",
    pytest.param("cuda", marks=[pytest.mark.cuda,
                                pytest.mark.skipif(not minitorch.cuda.is_available(),
                                                   reason=GPU_REASON)]),
])
def array_namespace(request: pytest.FixtureRequest):  # type: ignore[no-untyped-def]
    """New tensors hold arrays of the parametrised namespace."""
    with backend.device_namespace("cpu", _namespace(request.param)) as xp:
        yield xp


def test_tensors_hold_the_namespaces_arrays(array_namespace) -> None:  # type: ignore[no-untyped-def]
    made = [minitorch.tensor([1.0, 2.0]), minitorch.zeros(2), minitorch.randn(2),
            minitorch.arange(2), minitorch.eye(2), minitorch.from_numpy(np.ones(2))]
    x = minitorch.ones(2, 2, requires_grad=True)
    y = (x @ x).relu()[[0, 1], [1, 0]].sum()
    y.backward()
    made += [y, x.grad, minitorch.nn.Linear(2, 1)(x)]
    for t in made:
        assert backend.namespace(t._data) is array_namespace, t
