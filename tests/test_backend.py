"""The array seam (``minitorch/backend.py``): namespaces, devices, and the pieces the array API
standard lacks (scatter-add, fancy-index reading and writing, random numbers), checked on numpy
and on array-api-strict against plain numpy computed here.
"""

from __future__ import annotations

import ast
import doctest
import inspect
from pathlib import Path

import array_api_strict as xs
import numpy as np
import pytest

import minitorch
from minitorch import backend

PACKAGE = Path(minitorch.__file__).parent
# Modules that may import numpy, and why; everything else reaches arrays through a namespace.
NUMPY_ALLOWED = {
    "backend.py": "the seam itself",
    "_meta.py": "the meta device's arrays: a shape and a numpy dtype, no values",
    "_dtype.py": "numpy dtypes as descriptors (tensor.dtype.np)",
    "_tensor_str.py": "formats a host copy of the values",
    "_creation.py": "parses Python data (nested lists) on the host before it goes to a device",
    "_as_tensor.py": "tells a host numpy array (whose memory a CPU tensor may share) and a "
                     "numpy scalar from other data",
    "serialization.py": "a saved tensor's values are host bytes, read back on the host",
    "_generator.py": "torch's CPU random stream is host words (mt19937)",
    "_sampling.py": "torch's CPU sampling steps on those host words, then moved to the device",
    "_libm.py": "glibc's float32 logf/sinf/cosf, host math for torch's normal numbers",
    "_gamma_grad.py": "torch's reparameterised Gamma and Dirichlet gradients, one host number "
                      "at a time in its scalar kernels' float32 and float64 steps, then moved "
                      "to the device",
    "ops/rrelu.py": "torch's rrelu slopes: one host random word per value (its CPU kernel's "
                    "draws), then moved to the device",
    "_powf.py": "the C library's powf (its algorithm, vectorised) and pow (through ctypes) "
                "on numpy arrays, as torch's scalar loops call them; any other array takes "
                "its namespace's power",
    "_sleef.py": "SLEEF's float32 exp, log, log1p, pow, sinh, cosh and atanh (torch's "
                 "vectorised CPU kernels) on numpy arrays; callers take them only for float32 "
                 "numpy arrays",
    "_onednn.py": "oneDNN's float32 gelu kernels (torch's for contiguous CPU tensors), "
                  "emulated instruction by instruction on numpy arrays",
    "_mkl.py": "Intel MKL's products and vector maths on numpy arrays (torch's CPU kernels); "
               "it answers None for any other array, which then takes the xp path",
    "autograd/gradcheck.py": "host random numbers for fast mode's directions (copied to the "
                             "device) and host floats for its scalar comparisons",
    "ops/_softmax_order.py": "torch's CPU float32 softmax, sigmoid and pow: SLEEF's "
                             "functions and the kernels' lane order on numpy arrays; any other "
                             "array module takes the xp path",
    "ops/_batch_norm_order.py": "torch's CPU batch norm kernels' order of adding and rounding "
                                "on numpy arrays; any other array module takes "
                                "NativeBatchNorm's plain formulas",
    "ops/_layer_norm_order.py": "torch's CPU layer norm kernels (RowwiseMoments' Welford "
                                "lanes and cascade, the backward's lanes) on numpy arrays; any "
                                "other array module takes NativeLayerNorm's formulas",
    "ops/_norm_order.py": "torch's CPU 1- and 2-norm order of adding, on numpy arrays; any "
                          "other array module takes sqrt(xp.sum(a * a))",
    "ops/_variance_order.py": "torch's CPU var/std: double accumulation, two-pass or Welford "
                              "in memory order, on float numpy arrays; any other array module "
                              "takes xp.var",
    "ops/_nll_order.py": "torch's CPU nll_loss order of adding, on numpy arrays; any other "
                         "array module sums with its own xp.sum",
    "ops/_fused.py": "torch's CPU float32 fused multiply-adds (add with alpha, addcmul, lerp) "
                     "on numpy arrays; any other array module computes the same formula",
    "ops/hyperbolic.py": "torch's CPU sinh/cosh/atanh split (SLEEF pairs, libm tail) and libm "
                         "asinh/acosh on numpy arrays; any other array module takes the xp path",
    "ops/_conv_order.py": "torch's CPU float32 convolution kernels' order of adding (and "
                          "MKL's gemm through _mkl) on numpy arrays; any other array module "
                          "takes conv.py's xp path",
    "ops/_group_norm_order.py": "torch's CPU group norm forward (layer norm's row moments, "
                                "its fused scale and shift) on numpy arrays; any other array "
                                "module takes NativeGroupNorm's formulas",
    "ops/_flash_attention_order.py": "torch's CPU float32 flash attention (MKL's gemm through "
                                     "_mkl, its exp_u20 and lane sums) on numpy arrays; any "
                                     "other array module takes the math path",
    "ops/weight_norm.py": "torch's CPU order of the fused weight norm's dot products on numpy "
                          "arrays; any other array module takes xp.sum",
    "ops/ctc.py": "CTC's alpha and beta recursions, one sample at a time on host arrays as "
                  "torch's CPU kernel runs them; a device tensor's log_probs go to the host and "
                  "the loss and gradient come back",
    "ops/_grid_sample_order.py": "torch's CPU grid_sampler_2d backward order (bilinear) on "
                                 "float32 numpy arrays; any other array module differentiates "
                                 "grid_sample's composition",
    "ops/_cascade_sum.py": "torch's CPU sum order: numpy's in-order reductions as a fast path "
                           "for numpy arrays; any other array module takes the xp path "
                           "(test_backend_suites runs the sums on array-api-strict)",
}


def test_only_the_backend_imports_numpy_for_array_math() -> None:
    importers = set()
    for path in PACKAGE.rglob("*.py"):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            names = ([a.name for a in node.names] if isinstance(node, ast.Import)
                     else [node.module or ""] if isinstance(node, ast.ImportFrom) else [])
            if any(n == "numpy" or n.startswith("numpy.") for n in names):
                importers.add(path.relative_to(PACKAGE).as_posix())
    assert importers <= set(NUMPY_ALLOWED), sorted(importers - set(NUMPY_ALLOWED))


@pytest.mark.parametrize("xp", [np, xs], ids=["numpy", "strict"])
def test_namespace_and_device_of_arrays(xp) -> None:
    a = xp.asarray([1.0, 2.0])
    assert backend.namespace(a) is xp
    assert backend.device_of(a) == minitorch.device("cpu")
    assert backend.dtype_name(a.dtype) == "float64"
    assert backend.array_dtype(xp, "int64") == xp.int64
    np.testing.assert_array_equal(backend.to_numpy(a), [1.0, 2.0])


def test_numpy_stays_without_copies() -> None:
    a = np.arange(3.0)
    assert backend.to_numpy(a) is a
    assert backend.from_numpy(a, None) is a
    assert backend.to_device(a, minitorch.device("cpu")) is a
    assert minitorch.from_numpy(a)._data is a


@pytest.mark.parametrize("xp", [np, xs], ids=["numpy", "strict"])
def test_index_add_adds_repeated_indices(xp) -> None:
    target = xp.zeros((3, 2))
    index = (xp.asarray([0, 2, 0]),)
    backend.index_add(xp, target, index, xp.asarray([[1.0, 1.0], [2.0, 2.0], [3.0, 3.0]]))
    np.testing.assert_array_equal(backend.to_numpy(target), [[4, 4], [0, 0], [2, 2]])
    assert backend.namespace(target) is xp



@pytest.mark.parametrize("xp", [np, xs], ids=["numpy", "strict"])
@pytest.mark.parametrize("shape", [(), (1,), (1, 1), (3,), (2, 3)], ids=str)
@pytest.mark.parametrize("dtype", ["float32", "float64"])
def test_add_into_writes_the_sum_in_place(xp, shape: tuple, dtype: str) -> None:
    """One element or many (numpy's single-element in-place add is done another way), the
    target's own memory ends up holding ``target + values``, bit for bit."""
    rng = np.random.default_rng(0)
    a, b = (rng.standard_normal(shape).astype(dtype) for _ in range(2))
    target = xp.asarray(a.copy())
    written = target
    backend.add_into(target, xp.asarray(b))
    assert written is target and backend.namespace(target) is xp
    assert backend.to_numpy(target).tobytes() == (a + b).tobytes()


def test_add_into_writes_through_a_view() -> None:
    """A view's sum lands in its base's memory, one element or several (float16 too)."""
    base = np.zeros((2, 4), np.float16)
    backend.add_into(base[1, 2:3], np.ones(1, np.float16))  # one element, inside a row
    backend.add_into(base[:, 0], np.full(2, 2, np.float16))  # a strided column
    assert base.tolist() == [[2, 0, 0, 0], [2, 0, 1, 0]]

KEYS = [
    (slice(None), [1, 0]),           # a slice before an integer array: outside the standard
    ([0, 1], [2, 0]),                # two integer arrays
    ([1, 1],),                       # an integer array, trailing dims implied
    (1, slice(0, 2)),                # basic indexing, trailing dims implied
]


@pytest.mark.parametrize("xp", [np, xs], ids=["numpy", "strict"])
@pytest.mark.parametrize("key", KEYS, ids=str)
def test_getitem_and_setitem_follow_numpy(xp, key: tuple) -> None:
    host = np.arange(12.0).reshape(3, 4)
    as_key = tuple(xp.asarray(k) if isinstance(k, list) else k for k in key)
    np_key = tuple(np.asarray(k) if isinstance(k, list) else k for k in key)
    got = backend.getitem(xp, xp.asarray(host), as_key)
    np.testing.assert_array_equal(backend.to_numpy(got), host[np_key])
    target = xp.asarray(host.copy())
    backend.setitem(xp, target, as_key, -1.0)
    expected = host.copy()
    expected[np_key] = -1.0
    np.testing.assert_array_equal(backend.to_numpy(target), expected)
    assert backend.namespace(target) is xp


def test_setitem_with_a_mask_on_strict() -> None:
    a = xs.asarray([1.0, -2.0, 3.0])
    backend.setitem(xs, a, a < 0, 0.0)
    np.testing.assert_array_equal(backend.to_numpy(a), [1.0, 0.0, 3.0])


def test_random_numbers_per_namespace_follow_the_seed() -> None:
    from minitorch import _sampling
    from minitorch._generator import Generator

    first = _sampling.draw(np, "normal", (3,), "float64", Generator().manual_seed(7))
    again = _sampling.draw(xs, "normal", (3,), "float64", Generator().manual_seed(7))
    assert backend.namespace(again) is xs
    np.testing.assert_array_equal(backend.to_numpy(again), first)
    uniform = _sampling.draw(np, "uniform", (1000,), "float32")
    assert uniform.dtype == np.float32 and uniform.min() >= 0 and uniform.max() < 1


def test_manual_seed_reproduces_rand_and_dropout() -> None:
    x = minitorch.ones(50)
    minitorch.manual_seed(3)
    a, mask = minitorch.rand(4), minitorch.nn.functional.dropout(x, 0.5)
    minitorch.manual_seed(3)
    assert minitorch.equal(a, minitorch.rand(4))
    assert minitorch.equal(mask, minitorch.nn.functional.dropout(x, 0.5))


def test_device_namespace_restores_on_error() -> None:
    with pytest.raises(KeyError), backend.device_namespace("cpu", xs):
        assert type(minitorch.ones(1)._data).__module__.startswith("array_api_strict")
        raise KeyError
    assert type(minitorch.ones(1)._data) is np.ndarray
    assert backend.device_of(xs.asarray(1.0)) == minitorch.device("cpu")


def test_strict_tensors_do_not_mix_with_numpy_tensors_silently() -> None:
    with backend.device_namespace("cpu", xs):
        strict = minitorch.ones(2)
    plain = minitorch.ones(2)
    with pytest.raises((TypeError, ValueError)):  # both "cpu": the namespaces refuse
        strict + plain


@pytest.mark.parametrize("obj", [
    backend, minitorch.cuda, minitorch.Tensor.to, minitorch.Tensor.cpu, minitorch.Tensor.cuda,
    minitorch.Tensor.device, minitorch.nn.Module.to, minitorch.nn.Module.cpu,
], ids=lambda o: getattr(o, "__qualname__", getattr(o, "__name__", "")))
def test_docstring_examples(obj) -> None:
    finder, runner = doctest.DocTestFinder(), doctest.DocTestRunner()
    target = obj.fget if isinstance(obj, property) else obj
    globs = {**vars(inspect.getmodule(target)), "minitorch": minitorch, "np": np,
             "nn": minitorch.nn}
    tests = finder.find(target, "obj", globs=globs)
    for test in tests:
        runner.run(test)
    assert runner.summarize(verbose=False).attempted > 0
    assert runner.summarize(verbose=False).failed == 0


@pytest.mark.parametrize("errors", [backend.FLOAT_ERRORS, backend._PublicErrstate()],
                         ids=["numpy's context variable", "np.errstate fallback"])
def test_float_errors_are_silent_inside_and_warn_again_after(errors) -> None:
    import warnings

    token = errors.set(backend.IGNORE_ALL)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        assert np.isinf(np.log(np.array(0.0)))
    errors.reset(token)
    with pytest.warns(RuntimeWarning, match="divide by zero"):
        np.log(np.array(0.0))


def test_ops_stay_silent_on_inf_and_nan_even_when_warnings_are_errors() -> None:
    import warnings

    x = minitorch.tensor([0.0, -1.0, 1e38], requires_grad=True)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        y = (x.log() * x * 1e10 / 0.0).sum()  # -inf, nan, inf and overflow, forward
        y.backward()                            # and backward
    assert np.isnan(y.item())
