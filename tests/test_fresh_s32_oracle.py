"""Fresh fuzz seeds of session 32 (base 32000): what they found. Each case runs under torch
and minitorch (``L``) and must raise torch's exception with torch's message, or give torch's
result."""

from __future__ import annotations

import tracemalloc
import warnings
from decimal import Decimal
from fractions import Fraction
from typing import Any

import numpy as np
import pytest
import torch
from hypothesis import given, settings
from hypothesis import strategies as st

import minitorch as mt
from tests.oracle import SETTINGS, assert_as_torch, assert_same, raised_by


@SETTINGS
@given(start=st.integers(-2**40, 2**40), step=st.integers(-600, 600).filter(bool),
       length=st.integers(0, 3 * 2**16 + 5), dtype=st.sampled_from(["uint8", "int8", "int16"]))
def test_a_narrow_integer_arange_wraps_round_as_torch(start: int, step: int, length: int,
                                                      dtype: str) -> None:
    """Seed 32002 (``arange(2**31, dtype=int8)``) timed out counting 2**31 int64s first: a
    type of one or two bytes repeats after 2**bits values, so one round is counted."""
    end = start + step * length
    assert_as_torch(lambda L: L.arange(start, end, step, dtype=getattr(L, dtype)), assert_same)


@pytest.mark.parametrize("dtype", ["int8", "uint8", "int16"])
def test_a_long_narrow_arange_holds_no_int64_count(dtype: str) -> None:
    """Seed 32002: ``arange(2**31, dtype=int8)`` timed out (16 GiB of int64s counted first);
    the memory it takes at most is its result's and a round's."""
    length = 2**22
    tracemalloc.start()
    try:
        made = mt.arange(length, dtype=getattr(mt, dtype))
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert peak < 1.2 * length * made.element_size() + 2**20, peak
    assert made[-1].item() == torch.arange(length, dtype=getattr(torch, dtype))[-1].item()


def _sizes(most: int) -> st.SearchStrategy[tuple[int, ...]]:
    return st.lists(st.integers(0, 3), max_size=most).map(tuple)


@SETTINGS
@given(lu=_sizes(4), pivots=_sizes(3), b=_sizes(4), dtypes=st.sampled_from([
    ("float32", "int32", "float32"), ("float64", "int32", "float32"),
    ("float32", "int64", "float32"), ("int8", "int32", "float64")]),
    left=st.booleans(), old=st.booleans())
def test_lu_solve_checks_dtypes_then_shapes_then_batches_as_torch(
        lu: tuple, pivots: tuple, b: tuple, dtypes: tuple, left: bool, old: bool) -> None:
    """Seed 32008: ``lu_solve`` with a 1-d LU indexed a shape it did not have; torch checks
    the dtypes first, then each shape, then that pivots' batch is LU's and that B's batch
    broadcasts with it (a pivots batch that only broadcast was taken)."""
    def fn(L: Any) -> Any:
        lu_, piv, b_ = (L.ones(size, dtype=getattr(L, dt)) for size, dt in
                        zip((lu, pivots, b), dtypes))
        if old:
            return L.lu_solve(b_, lu_, piv)
        return L.linalg.lu_solve(lu_, piv, b_, left=left)
    assert_as_torch(fn, assert_same)


@pytest.mark.parametrize("factory", ["zeros", "ones", "eye", "empty", "randn", "arange"])
@pytest.mark.parametrize("args, kwargs", [
    ((), {"out": "x"}), ((), {"requires_grad": "yes"}), ((), {"out": "x", "requires_grad": 1}),
    ((2.5,), {"out": "x"}), ((2, 3, 4), {"out": "x"}), ((2,), {"out": "x", "requires_grad": "y"}),
    ((), {"out": "x", "device": 5, "requires_grad": 2}), ((), {"out": "x", "dtype": "x"}),
    ((), {"out": 5}), ((), {"out": 5, "requires_grad": 1}),
], ids=str)
def test_a_factory_counts_out_among_its_arguments_as_torch(factory: str, args: tuple,
                                                           kwargs: dict) -> None:
    """Seed 32008: ``eye(out=t, requires_grad='yes')`` is two arguments, so both of eye's
    signatures are plausible and torch lists them; minitorch had dropped ``out`` from the
    count and answered in Python's words."""
    def fn(L: Any) -> Any:
        given = {k: L.ones(2, 3) if v == "x" else v for k, v in kwargs.items()}
        made = getattr(L, factory)(*args, **given)
        return tuple(made.shape), made.dtype  # (empty's and randn's values differ)
    assert_as_torch(fn, assert_same)


NUMBERS = {"complex": 1 + 2j, "Fraction": Fraction(1, 2), "Decimal": Decimal("0.5"),
           "np.int64": np.int64(2), "np.float32": np.float32(0.5), "np.float64": np.float64(0.5),
           "bool": True, "int": 2, "float": 0.5}
DISTRIBUTIONS = {
    "Normal(x, 1)": lambda D, x: D.Normal(x, 1.0), "Normal(0.5, x)": lambda D, x: D.Normal(0.5, x),
    "Beta": lambda D, x: D.Beta(x, 1.0), "Gamma": lambda D, x: D.Gamma(x, 1.0),
    "Uniform": lambda D, x: D.Uniform(0.0, x), "Cauchy": lambda D, x: D.Cauchy(x, 1.0),
    "Laplace": lambda D, x: D.Laplace(x, 1.0), "Gumbel": lambda D, x: D.Gumbel(x, 1.0),
    "Exponential": lambda D, x: D.Exponential(x), "Poisson": lambda D, x: D.Poisson(x),
    "Bernoulli": lambda D, x: D.Bernoulli(x),
    "Bernoulli(logits)": lambda D, x: D.Bernoulli(logits=x),
    "Geometric": lambda D, x: D.Geometric(x),
    "ContinuousBernoulli": lambda D, x: D.ContinuousBernoulli(x),
    "FisherSnedecor": lambda D, x: D.FisherSnedecor(x, 1.0),
    "Chi2": lambda D, x: D.Chi2(x), "StudentT": lambda D, x: D.StudentT(x),
    "HalfNormal": lambda D, x: D.HalfNormal(x), "LogNormal": lambda D, x: D.LogNormal(x, 1.0),
    "Pareto": lambda D, x: D.Pareto(x, 1.0), "Weibull": lambda D, x: D.Weibull(x, 1.0),
    "Kumaraswamy": lambda D, x: D.Kumaraswamy(x, 1.0), "VonMises": lambda D, x: D.VonMises(x, 1.0),
    "HalfCauchy": lambda D, x: D.HalfCauchy(x),
    "RelaxedBernoulli": lambda D, x: D.RelaxedBernoulli(1.0, x),
    "Binomial": lambda D, x: D.Binomial(3, x),
    "NegativeBinomial": lambda D, x: D.NegativeBinomial(3, x),
    "GeneralizedPareto": lambda D, x: D.GeneralizedPareto(x, 1.0, 0.5),
}


@pytest.mark.parametrize("number", NUMBERS)
@pytest.mark.parametrize("distribution", DISTRIBUTIONS)
def test_a_distribution_takes_torchs_numbers_only(distribution: str, number: str) -> None:
    """Seed 32008: ``Beta(1+2j, 1.0)`` failed in Python's ``float()``; minitorch read a number
    as ``numbers.Number``, so a Fraction, a Decimal or a numpy integer made a distribution
    where torch (its numbers are int and float) refuses them all."""
    def fn(L: Any) -> Any:
        made = DISTRIBUTIONS[distribution](L.distributions, NUMBERS[number])
        return made.mean, tuple(made.batch_shape)
    assert_as_torch(fn, assert_same)


@pytest.mark.parametrize("number", NUMBERS)
def test_an_affine_transform_takes_torchs_numbers_only(number: str) -> None:
    def fn(L: Any) -> Any:
        x = L.ones(2)
        return L.distributions.AffineTransform(NUMBERS[number], 2.0).log_abs_det_jacobian(x, x)
    assert_as_torch(fn, assert_same)


def _fusion_values(L: Any) -> dict[str, Any]:
    return {"ones(3)": L.ones(3), "ones(3, 1)": L.ones(3, 1), "int32": L.ones(3, 3, dtype=L.int32),
            "0.5": 0.5, "'a'": "a", "None": None, "ones(0, 3)": L.ones(0, 3),
            "float64": L.ones(2, dtype=L.float64), "conv weight": L.ones(3, 2, 1, 1)}


@settings(SETTINGS, max_examples=200)
@given(args=st.lists(st.sampled_from(list(_fusion_values(torch))), min_size=7, max_size=7),
       conv=st.booleans(), transpose=st.booleans())
def test_fusing_batch_norm_reads_its_arguments_in_torchs_order(args: list, conv: bool,
                                                               transpose: bool) -> None:
    """Seed 32008: ``fuse_linear_bn_weights(0.5, ...)`` failed adding a string where torch
    reads the weight's dtype first; ``fuse_conv_bn_weights`` made its defaults from the
    running mean even when none was missing."""
    def fn(L: Any) -> Any:
        given = [_fusion_values(L)[name] for name in args]
        if conv:
            return L.nn.utils.fuse_conv_bn_weights(*given, transpose=transpose)
        return L.nn.utils.fuse_linear_bn_weights(*given)
    assert_as_torch(fn, assert_same)


@pytest.mark.parametrize("call", [
    "F.glu(None)", "F.glu(3)", "F.glu(np.ones(2))", "F.upsample_nearest([[1, 2], [3]])",
    "F.upsample_bilinear([1.0, 2.0])", "F.interpolate(None)", "F.upsample(None)",
    "F.upsample_nearest('a', (1, 1), (3,))", "F.interpolate(None, mode='bilinear')",
    "F.interpolate(None, mode='nearest', align_corners=True)",
])
def test_a_python_function_asks_its_input_for_dim_first(call: str) -> None:
    """Seed 32008: torch's Python ``glu`` and ``interpolate`` call ``input.dim()`` before any
    check of theirs, so what is no tensor fails there (an AttributeError)."""
    assert_as_torch(lambda L: eval(call, {"F": L.nn.functional, "np": np}), assert_same)


@pytest.mark.parametrize("call", [
    "x.new_empty_strided(2, stride=None)", "x.new_empty_strided(size=4, stride=2.5)",
    "x.new_empty_strided(4, 2.5)", "x.new_empty_strided((4,), 2.5)",
    "x.new_empty_strided(size=(4.5,), stride=(2,))", "x.new_empty_strided((4,), 'a')",
    "x.new_empty_strided(np.int64(4), (1,)).shape", "x.new_empty_strided([4], [1]).shape",
])
def test_new_empty_strided_takes_no_lone_int_for_a_size(call: str) -> None:
    """Seed 32008: a size or stride given as one int is no ``tuple of ints`` to torch's parser
    (only a list of a fixed length takes one); the size's type is read before the stride's."""
    assert_as_torch(lambda L: eval(call, {"x": L.ones(3), "np": np}), assert_same)


@pytest.mark.parametrize("call", [
    "L.softmax(x, dimm=1)", "L.log_softmax(x, dimm=1)", "x.softmax(dimm=1, dtype=None)",
    "x.log_softmax(foo=1)", "x.softmax()", "L.softmax(x, dtype='a')", "L.softmax(x, None)",
    "x.softmax(dtype=L.float64)", "L.softmax(x, 0, L.float64, 4)",
])
def test_softmax_misses_its_dim_before_an_unknown_keyword(call: str) -> None:
    """Seed 32008: ``x.log_softmax(dimm=1)``: torch's parser finds ``dim`` missing before it
    looks at the keywords left over."""
    assert_as_torch(lambda L: eval(call, {"L": L, "x": L.ones(2, 3)}), assert_same)


@pytest.mark.parametrize("fn", ["hstack", "vstack", "row_stack", "dstack", "column_stack"])
@pytest.mark.parametrize("tensors, out", [
    ("[]", "ones(4, requires_grad=True)"), ("[]", "ones(4)"),
    ("[ones(3, 3), ones(1, 1, 5)]", "ones(1, dtype=L.bool)"),
    ("[ones(3, 3), ones(1, 5)]", "ones(1, dtype=L.bool)"),
    ("[ones(2, requires_grad=True)]", "ones(1, dtype=L.bool)"),
    ("[L.tensor(1.), L.tensor(2)]", "ones(1, dtype=L.int64)"),
    ("[ones(2)]", "ones(4, requires_grad=True)"),
], ids=str)
def test_a_stacking_op_with_out_checks_as_its_cat(fn: str, tensors: str, out: str) -> None:
    """Seed 32008: ``row_stack(..., out=bool)`` compared the tensors' ranks before its cat's
    out dtype, and ``dstack([], out=t)`` refused t's gradient before the empty list."""
    def call(L: Any) -> Any:
        scope = {"L": L, "ones": L.ones}
        return getattr(L, fn)(eval(tensors, scope), out=eval(out, scope))
    assert_as_torch(call, assert_same)


@pytest.mark.parametrize("call", [
    "L.scatter_add(None, -7, index=L.ones(1, dtype=L.uint8), src=L.ones(2))",
    "L.scatter_add(None, 'a', L.ones(1), L.ones(2))", "L.scatter_add(3, 0, L.ones(1), L.ones(2))",
    "L.scatter_add(input=None, dim=0, index=L.ones(1, dtype=L.int64), src=L.ones(2))",
    "L.linalg.tensorinv(L.ones(3, 2, dtype=L.int64), out=L.ones(3, 3, dtype=L.bool))",
    "L.linalg.tensorinv(L.ones(3, 2, dtype=L.int64), ind=0, out=L.ones(3, 3, dtype=L.bool))",
    "L.linalg.tensorinv(L.ones(3, 2, dtype=L.int64), out=L.ones(3, 3, dtype=L.int32))",
    "L.linalg.tensorinv(L.ones(4, dtype=L.bool), 1, out=L.ones(3, 3, dtype=L.bool))",
])
def test_the_first_refusal_is_torchs(call: str) -> None:
    """Seed 32008: ``scatter_add(None, ...)`` was refused in scatter's name; tensorinv of an
    integer tensor compared its shape before out's dtype (checked first for any dtype)."""
    assert_as_torch(lambda L: eval(call, {"L": L}), assert_same)


DISTRIBUTION_NAMES = sorted(
    name for name in dir(torch.distributions)
    if isinstance(getattr(torch.distributions, name), type) and name != "Distribution"
    and issubclass(getattr(torch.distributions, name), torch.distributions.Distribution)
    and hasattr(mt.distributions, name))


@pytest.mark.parametrize("kwargs", [{"foo": 1}, {}], ids=["unknown keyword", "no arguments"])
@pytest.mark.parametrize("name", DISTRIBUTION_NAMES)
def test_a_distribution_refuses_its_call_in_its_own_name(name: str, kwargs: dict) -> None:
    """Seed 32008: ``HalfNormal(t, foo=1)`` was refused as ``Folded.__init__()``, the base
    minitorch shares; torch defines an ``__init__`` in each class."""
    def fn(L: Any) -> Any:
        made = getattr(L.distributions, name)(**kwargs)
        return tuple(made.batch_shape), tuple(made.event_shape)
    assert_as_torch(fn, assert_same)


@pytest.mark.parametrize("call", [
    "finfo()", "iinfo()", "finfo(x=1)", "finfo(L.float32, x=1)", "iinfo(L.int32, x=1)",
    "finfo(L.float32, type=L.float32)", "iinfo(L.int32, type=L.int32)", "iinfo(x=1)",
    "finfo(L.float32, L.float32)", "iinfo(L.int32, 1)", "iinfo(L.int32, 1, 2)", "finfo(1, 2, 3)",
    "iinfo(type=1)", "finfo(type=1)", "finfo(1)", "finfo(type=None)", "iinfo(type=L.float32)",
    "finfo(float)", "iinfo(type=int)", "finfo(L.ones(2), 1)", "finfo(type=L.float16).eps",
])
def test_finfo_and_iinfo_parse_their_type_as_torch(call: str) -> None:
    """Seed 32008: ``finfo(t, 1)`` was refused by Python's call of ``finfo.__init__``; torch's
    parser has finfo's two signatures and iinfo's one, and names a keyword's type without a
    position."""
    assert_as_torch(lambda L: repr(eval(f"L.{call}", {"L": L})), assert_same)


def _warned(program: Any, L: Any, about: str) -> list[str]:
    """The warnings about ``about`` that ``program(L)`` gives, without torch's note of where
    in its C++ they were raised."""
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        raised_by(program, L)
    return [str(w.message).split(" (Triggered internally")[0] for w in caught
            if about in str(w.message)]


@pytest.mark.filterwarnings("ignore:The argument 'device' of Tensor.is_pinned")
@pytest.mark.parametrize("call", [
    "is_pinned()", "is_pinned('cpu')", "is_pinned('cuda')", "is_pinned(device=None)",
    "is_pinned('x')", "is_pinned(L.device('cpu'))", "is_pinned(1, 2)", "is_pinned(0)",
    "is_pinned(1.5)", "is_pinned('meta')", "is_pinned(foo=1)", "is_pinned(None, None)",
    "is_pinned(-1)", "is_pinned(True)", "is_pinned(np.int64(0))", "pin_memory(-1)",
    "pin_memory(np.int64(0))", "pin_memory(True)", "pin_memory('cpu')", "pin_memory()",
])
def test_is_pinned_reads_its_deprecated_device_as_torch(call: str) -> None:
    """Seed 32008: ``x.is_pinned(foo=1)`` was Python's refusal of a method without
    arguments; torch's takes a device (deprecated): an index needs an accelerator, and only
    a device read warns."""
    def program(L: Any) -> Any:
        return eval(f"L.ones(2).{call}", {"L": L, "np": np})

    assert _warned(program, mt, "deprecated") == _warned(program, torch, "deprecated")
    assert_as_torch(program, assert_same)


@pytest.mark.parametrize("call", [
    "x.float_power(x, None, 3, inplace_=1)", "L.float_power(x, L.ones(4, 5), keepdims_=1)",
    "L.float_power(x, other=x.bool(), dim=5)", "x.float_power(other=x, keepdims_=(1, 2))",
    "L.float_power(x, other=x, dimm=1, out=x.bool())", "L.ones(4).float_power(L.ones(5), None)",
    "L.float_power(x, 'a')", "L.float_power('a', x)", "L.float_power(x)", "x.float_power()",
    "L.float_power(input=2, exponent=x)", "x.float_power(exponent=x)",
])
def test_float_power_is_refused_with_its_three_signatures(call: str) -> None:
    """Seeds 32006 and 32008: float_power, declared without torch's overloads, was refused in
    Python's words where torch lists the signatures none of which the call fits."""
    assert_as_torch(lambda L: eval(call, {"L": L, "x": L.ones(2, 3)}), assert_same)


NORM_CALLS = [line.strip() for line in """
    L.linalg.norm(x, ord=(1, 2), dims=1)
    L.linalg.norm(x.double(), 2, dims=1)
    L.linalg.norm(x.byte(), 2, 1, 1, 2)
    L.linalg.norm(x, 1, ord=(1, 2), dim=1, out=L.ones(2, 3))
    L.linalg.norm(x.bool(), 2, 'a', dim=1)
    L.linalg.norm(1j, 2, 1, out=(L.ones(2, 3),), inplace_=1)
    L.linalg.norm(input=L.ones(2, 1), ord=L.ones(0, 3))
    L.linalg.norm(L.ones(3), L.tensor(2.))
    L.linalg.norm(L.ones(3), [2])
    L.linalg.norm(x, None, None, False, L.float64)
    L.linalg.matrix_norm(L.ones(3, 3), None, 3, ord='fro', out=L.ones(2, 3), keepdims_=1)
    L.linalg.matrix_norm(L.ones(3, 3), dims=1)
    L.linalg.matrix_norm(L.ones(3, 3), 2, (0, 1), False, L.float64)
    L.linalg.vector_norm(x.half(), None, 3, dim=1, ords=2)
    L.linalg.vector_norm(x, 2, 'a', dim=1)
    L.linalg.vector_norm(x, 1, 1, dim=1)
    L.linalg.vector_norm(x, 2, 1.5)
    L.linalg.vector_norm(x, 2, L.tensor(1))
""".strip().splitlines()]


@pytest.mark.parametrize("call", NORM_CALLS)
def test_the_norms_are_refused_with_their_signatures(call: str) -> None:
    """Seed 32006: linalg.norm and matrix_norm, declared without torch's two signatures each,
    were refused in Python's words; vector_norm's parser reads ord's and dim's types before
    it finds an argument given twice."""
    assert_as_torch(lambda L: eval(call, {"L": L, "x": L.ones(2, 3)}), assert_same)


@pytest.mark.parametrize("call", [
    "F.embedding_bag('a', None, -1, scale_grad_by_freq='yes', padding_idx=0)",
    "F.embedding_bag(L.eye(3), L.tensor([[0, 1], [2, 2]]))",
    "F.embedding_bag(L.eye(3), L.tensor([0, 1, 2]), L.tensor([0, 1]), mode='sum')",
    "F.embedding_bag(L.tensor([1.]), L.tensor([0]))", "F.embedding_bag(L.tensor([0]), None)",
])
def test_embedding_bag_takes_torchs_old_argument_order(call: str) -> None:
    """Seed 33008: torch's Python reads weight's dtype first, to take (with a warning) the
    old order, weight then input; minitorch read weight's rank first, and refused it."""
    def program(L: Any) -> Any:
        return eval(call, {"F": L.nn.functional, "L": L})

    assert _warned(program, mt, "Argument order") == _warned(program, torch, "Argument order")
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        assert_as_torch(program, assert_same)
