"""The short cuts the kernels take on small arrays give the bits of their general path."""

import numpy as np
import pytest

from minitorch.ops import _nll_order

SPECIAL = [0.0, -0.0, 1.5, -2.25, np.inf, -np.inf, np.nan, 1e-45, 3.4e38]


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
@pytest.mark.parametrize("row", [0, 1, 15, 16, 17, 256, 16 ** 7, 16 ** 8 + 3])
def test_nll_sum_of_one_value_is_the_cascades(dtype, row):
    for v in SPECIAL:
        values, rows = np.array([v], dtype), np.array([row])
        fast = _nll_order.cascade_nll_sum(values, rows)
        full = _nll_order._cascade(values, rows)
        assert type(fast) is type(full) and fast.dtype == full.dtype
        assert np.asarray(fast).tobytes() == np.asarray(full).tobytes()


def test_aligned_copies_sit_where_torchs_twin_would():
    from minitorch import _mkl

    m = np.arange(7 * 13, dtype=np.float32).reshape(7, 13)
    views = [m, m[1], m[2:, 3:], m.T, m[::-1], m[:, ::-2], m[3:5, ::-1].T, m[1:].copy()]
    for view in views:
        copy = _mkl._aligned(view)
        assert copy.ctypes.data % 64 == _mkl._torch_offset(view, view.ctypes.data)
        assert copy.strides == view.strides and np.array_equal(copy, view)


@pytest.mark.parametrize("size", [0, 1, 15, 16, 31, 32, 33, 40, 100, 4096, 4097, 70000])
def test_by_vector_loop_takes_each_value_as_its_plan_says(size):
    from minitorch.ops import _softmax_order

    flat = np.arange(size, dtype=np.float32)
    out = _softmax_order.by_vector_loop(flat, lambda v: v + 1, lambda v: v - 1)
    width = 2 * _softmax_order.lanes()
    threads = _softmax_order.get_num_threads()
    expected = np.zeros(size, bool)  # the plan as by_vector_loop made it before plans were kept
    for begin, end in _softmax_order._thread_ranges(size, 32768, threads):
        expected[begin:end] = _softmax_order._covered(np.arange(begin, end), begin, end, width)
    assert np.array_equal(out, np.where(expected, flat + 1, flat - 1))
