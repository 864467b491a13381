"""Bad input found by the differential fuzzer of the tensor API (session 25): each program
runs on torch and on minitorch, which must raise torch's error or give torch's result."""

from __future__ import annotations

import warnings
from typing import Any

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

import minitorch
from tests.oracle import SETTINGS, assert_as_torch

BIG = 2 ** 63 - 1


def _quiet(program: Any) -> None:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        assert_as_torch(program)


# ------------------------------------------ a numpy scalar exponent is the number it holds

NUMPY_EXPONENTS = [np.int32(2 ** 31 - 1), np.float64(1e300), np.float32(1e10), np.int64(-1),
                   np.int16(3), np.float64(2.0), np.longdouble(2)]
POW_FORMS = {
    "pow": lambda L, t, e: L.pow(t, e),
    "method": lambda L, t, e: t.pow(e),
    "in place": lambda L, t, e: t.clone().pow_(e),
    "operator": lambda L, t, e: t ** e,
    "reflected": lambda L, t, e: e ** t,
    "number base": lambda L, t, e: L.pow(e, t),
}


@pytest.mark.parametrize("form", POW_FORMS)
@given(dtype=st.sampled_from(["float16", "float32", "int16", "int8", "int64", "uint8", "bool"]),
       exponent=st.sampled_from(NUMPY_EXPONENTS))
@SETTINGS
def test_pow_reads_a_numpy_scalar_as_torch(form: str, dtype: str, exponent: Any) -> None:
    _quiet(lambda L: POW_FORMS[form](L, L.ones(2, dtype=getattr(L, dtype)), exponent))


# ------------------------------- normal(number, tensor) adds the number to an empty output

@given(dtype=st.sampled_from(["uint8", "int8", "int64", "bool", "float16", "float32"]),
       number=st.sampled_from([-1, 300, -300, 2.5, 1e39, 1e300, float("inf")]),
       mean_first=st.booleans(), size=st.sampled_from([0, 2]), sign=st.sampled_from([1, -1]))
@SETTINGS
def test_normal_reads_a_number_mean_into_the_dtype(dtype: str, number: float, mean_first: bool,
                                                    size: int, sign: int) -> None:
    def program(L: Any) -> Any:
        t = sign * L.ones(size, dtype=getattr(L, dtype))
        r = L.normal(number, t) if mean_first else L.normal(t, number)
        return r.shape, r.dtype
    _quiet(program)


# ---------------------------------------- reshape/view: torch's int64 count of the new shape

@pytest.mark.parametrize("shape", [(4, -1, BIG), (2 ** 40, 2 ** 40, 0), (BIG, BIG, 0),
                                   (-1, 0), (0, -1), (2, -1, 2 ** 62)])
@pytest.mark.parametrize("how", ["reshape", "view"])
def test_reshape_counts_as_torch(shape: tuple, how: str) -> None:
    _quiet(lambda L: getattr(L.zeros(0, 3), how)(shape).shape)


@pytest.mark.parametrize("make", [
    lambda L: L.zeros(0, 3).reshape(0, BIG),
    lambda L: L.zeros(0, 3).view(-1, BIG),
    lambda L: L.zeros(0, 3).as_strided((0, 2 ** 62), (BIG, 1)),
    lambda L: L.zeros(0, 3).new_empty_strided((2 ** 62, 0, 3), (1, 1, 1)),
    lambda L: L.empty_strided((0, BIG), (1, 1)),
])
def test_an_empty_shape_numpy_cannot_hold_is_refused_plainly(make: Any) -> None:
    assert make(torch_lib()).numel() == 0  # torch holds it
    with pytest.raises(RuntimeError, match="minitorch cannot hold an empty tensor"):
        make(minitorch)


def torch_lib() -> Any:
    import torch
    return torch


# ------------------------------------------------ as_strided_: in place, torch's geometry

@pytest.mark.parametrize("args", [((2,), (-1,)), ((2, 3), (1,)), ((2,), (1,), -1),
                                  ((2,), (1,), 100), ((2 ** 62, 2 ** 62), (1, 1)), ((-1,), (1,)),
                                  ((2, 2), (1, 2), 1), ((3,), (2,)), ("a",), (), ((2,),),
                                  (3, (1,))])
@pytest.mark.parametrize("base", ["own", "slice", "leaf", "nonleaf"])
@pytest.mark.parametrize("name", ["as_strided", "as_strided_"])
def test_as_strided_in_place(args: tuple, base: str, name: str) -> None:
    def program(L: Any) -> Any:
        x = L.arange(6.)
        if base == "slice":
            x = x[1:]
        if base == "leaf":
            x.requires_grad_()
        if base == "nonleaf":
            x = x.requires_grad_() * 1
        r = getattr(x, name)(*args)
        grads = None
        if base == "nonleaf":
            r.sum().backward()
            grads = x.grad_fn.next_functions[0][0].variable.grad
        return (r.detach(), r.storage_offset(), r.stride(), r is x, x._version,
                r.grad_fn.name() if r.grad_fn else None, grads)
    _quiet(program)


def test_as_strided_function_in_place() -> None:
    _quiet(lambda L: L.as_strided_(L.arange(4.), (2,), (2,), 1))


# ------------------------------- index_put(_): the parser's type of indices; a method's count

@pytest.mark.parametrize("args", [("a",), (True,), ("x",), (0, "x"), ((0,), 1, True),
                                  ([0, "m"], "x"), ()])
@pytest.mark.parametrize("name", ["index_put", "index_put_"])
@pytest.mark.parametrize("method", [True, False])
def test_index_put_refuses_as_torch(args: tuple, name: str, method: bool) -> None:
    def program(L: Any) -> Any:
        x = L.zeros(3, 3)
        given = [x if a == "x" else a for a in args]
        given = [[x > 0 if v == "m" else v for v in a] if isinstance(a, list) else a
                 for a in given]
        return getattr(x, name)(*given) if method else getattr(L, name)(x, *given)
    _quiet(program)


# ------------------------------------ unique(_consecutive): boolean_dispatch asks bool(flag)

@pytest.mark.parametrize("flag", [lambda L: L.ones(3), lambda L: L.ones(0),
                                  lambda L: L.ones(1), "a", None])
@pytest.mark.parametrize("keyword", ["return_inverse", "return_counts"])
@pytest.mark.parametrize("name", ["unique", "unique_consecutive"])
def test_unique_flags_are_asked_their_truth(flag: Any, keyword: str, name: str) -> None:
    def program(L: Any) -> Any:
        value = flag(L) if callable(flag) else flag
        return getattr(L, name)(L.tensor([1., 1., 2.]), **{keyword: value})
    _quiet(program)


# --------------------------------------------------------- sum_to_size(()) sums everything

@pytest.mark.parametrize("dtype", ["bool", "int32", "uint8", "float16", "float32"])
@pytest.mark.parametrize("shapes", [((), ()), ((2, 3), ()), ((2, 3), (2, 3)), ((2, 3), (1, 3))])
def test_sum_to_size_of_no_shape(dtype: str, shapes: tuple) -> None:
    have, want = shapes
    _quiet(lambda L: L.ones(have, dtype=getattr(L, dtype)).sum_to_size(want))


# ------------------------------------------- tensor_split: a numpy integer is the int it holds

@pytest.mark.parametrize("value", [np.int64(0), np.uint8(2), np.int32(-1), np.uint64(2 ** 63),
                                   np.bool_(True), np.float32(2), np.array(2)])
@pytest.mark.parametrize("form", ["method", "function", "keyword"])
def test_tensor_split_numpy_sections(value: Any, form: str) -> None:
    def program(L: Any) -> Any:
        x = L.arange(5)
        if form == "method":
            return x.tensor_split(value)
        return L.tensor_split(x, value) if form == "function" else x.tensor_split(sections=value)
    _quiet(program)


# ------------------------------------ lerp_: autograd's leaf check, then dtypes, then overlap

LERP_CASES = {
    "leaf, bool end": lambda L, b: L.ones(3, requires_grad=True).lerp_(
        L.ones(3, dtype=L.bool), 2 ** 63),
    "leaf, long end": lambda L, b: L.ones(3, dtype=L.float64, requires_grad=True).lerp_(
        L.ones(3, dtype=L.int64), L.ones(3, dtype=L.float64)),
    "leaf, shape": lambda L, b: L.ones(3, requires_grad=True).lerp_(L.ones(4), 0.5),
    "overlap": lambda L, b: b[1:4].lerp_(b[0:3], 0.5),
    "overlap, dtype": lambda L, b: b[1:4].lerp_(b[0:3].long(), 0.5),
    "overlap, weight dtype": lambda L, b: b[1:4].lerp_(b[0:3], L.ones(3, dtype=L.float64)),
    "overlap, shape": lambda L, b: b[1:4].lerp_(b[0:4], 0.5),
}


@pytest.mark.parametrize("case", LERP_CASES)
def test_lerp_in_place_check_order(case: str) -> None:
    _quiet(lambda L: LERP_CASES[case](L, L.arange(6.)))


# ------------------------- the older linalg names: orgqr, lu_solve, and the missing methods

def _linalg_cases(L: Any) -> dict:
    x = L.tensor([[2., 1., 0.], [1., 3., 1.], [0., 1., 4.]])
    lu, piv = L.linalg.lu_factor(x)
    a, tau = L.geqrf(x)
    return {
        "orgqr": lambda: L.orgqr(a, tau), "orgqr method": lambda: a.orgqr(tau),
        "orgqr missing": lambda: L.orgqr(x), "orgqr 0-d": lambda: x.orgqr(L.ones(())),
        "orgqr dtype": lambda: L.orgqr(x, L.ones(3, dtype=L.float64)),
        "orgqr bool": lambda: x.orgqr(True),
        "lu_solve": lambda: L.lu_solve(L.ones(3, 1), lu, piv),
        "lu_solve method": lambda: L.ones(3, 2).lu_solve(lu, piv),
        "lu_solve missing": lambda: L.lu_solve(x), "lu_solve None": lambda: x.lu_solve(x, None),
        "lu_solve int64 pivots": lambda: L.lu_solve(x, x, L.ones(3, dtype=L.int64)),
        "geqrf method": lambda: x.geqrf(), "geqrf argument": lambda: x.geqrf(1),
        "geqrf int16": lambda: L.ones(2, 2, dtype=L.int16).geqrf(),
        "triangular_solve method": lambda: L.ones(3, 1).triangular_solve(x),
        "triangular_solve int upper": lambda: x.triangular_solve(x, 1),
        "triangular_solve missing": lambda: L.ones(0, dtype=L.int16).triangular_solve(),
        "triangular_solve dtypes first": lambda: L.ones(2, 2, 2, dtype=L.uint8).triangular_solve(
            L.ones(3, 0, dtype=L.int8)),
        "triangular_solve square": lambda: L.triangular_solve(L.ones(2, 2), L.ones(3, 0)),
    }


@pytest.mark.parametrize("case", list(_linalg_cases(minitorch)))
def test_older_linalg_names(case: str) -> None:
    _quiet(lambda L: _linalg_cases(L)[case]())


# ------------- an in-place rounded division: the cast of the result before a zero divisor's

@pytest.mark.parametrize("dtype", ["bool", "int16", "uint8", "float32"])
@pytest.mark.parametrize("other", ["int16", "float32", "bool", 0, 2, 0.0, np.int64(0), "shape"])
@pytest.mark.parametrize("how", ["div floor", "div trunc", "div None", "floor_divide_",
                                 "remainder_", "fmod_"])
def test_inplace_division_checks_the_cast_first(dtype: str, other: Any, how: str) -> None:
    def program(L: Any) -> Any:
        a = L.tensor([1, 0, 3, 1]).to(getattr(L, dtype))
        if other == "shape":
            b = L.ones(3, dtype=L.int64)
        elif isinstance(other, str):
            b = L.tensor([0, 1, 2, -1]).to(getattr(L, other))
        else:
            b = other
        if how.startswith("div"):
            mode = how.split()[1]
            return a.div_(b, rounding_mode=None if mode == "None" else mode)
        return getattr(a, how)(b)
    _quiet(program)


# ---------------------------- histogram: one node without a derivative when something needs

HISTOGRAMS = {
    "bins": lambda L, x: L.histogram(x, L.tensor([0., 0.3, 1.], requires_grad=True)),
    "weight": lambda L, x: L.histogram(x, 3, weight=L.ones(2, 2, requires_grad=True)),
    "input": lambda L, x: L.histogram(x.clone().requires_grad_(), 3),
    "none": lambda L, x: L.histogram(x, 3, density=True),
}


@pytest.mark.parametrize("case", HISTOGRAMS)
def test_histogram_records_no_derivative(case: str) -> None:
    def program(L: Any) -> Any:
        hist, edges = HISTOGRAMS[case](L, L.tensor([[0.1, 0.5], [0.7, 0.2]]))
        nodes = [type(t.grad_fn).__name__ if t.grad_fn else None for t in (hist, edges)]
        if hist.requires_grad:
            hist.sum().backward()
        return hist.detach(), edges.detach(), nodes
    _quiet(program)


# ------------- the parser reads every type before any value; a dim takes no tensor of dims

BIG_DIM = 2 ** 63
PARSER_ORDER = {
    "topk largest": lambda L, x: x.topk(1, dim=BIG_DIM, largest=1),
    "topk sorted": lambda L, x: x.topk(BIG_DIM, dim=0, sorted="a"),
    "nanmedian": lambda L, x: x.nanmedian(BIG_DIM, keepdim="a"),
    "median": lambda L, x: x.median(0, keepdim=None),
    "mode": lambda L, x: x.mode(BIG_DIM, keepdim="a"),
    "cumsum": lambda L, x: x.cumsum(BIG_DIM, dtype="a"),
    "cumprod_": lambda L, x: x.cumprod_(BIG_DIM, dtype="a"),
    "norm of ints": lambda L, x: L.norm(x.int(), dim=BIG_DIM),
    "argmin": lambda L, x: x.argmin(L.tensor([[0]]), 0),
    "max": lambda L, x: x.max(L.tensor([[0]]), 0),
    "min": lambda L, x: x.min(L.tensor([0]), 1),
    "aminmax": lambda L, x: x.aminmax(dim=L.tensor([0]), keepdim=1),
    "prod": lambda L, x: x.prod(L.tensor([[1]]), 0),
    "split": lambda L, x: x.split(1, L.tensor([1])),
    "tensor_split": lambda L, x: x.tensor_split(2, L.tensor([1])),
    "scatter": lambda L, x: x.scatter(L.tensor([0]), L.tensor([[0]]), 1.0),
    "argmax 0-d": lambda L, x: x.argmax(L.tensor(1), 1),
}


@pytest.mark.parametrize("case", PARSER_ORDER)
def test_parser_types_before_values(case: str) -> None:
    def program(L: Any) -> Any:
        try:
            return PARSER_ORDER[case](L, L.ones(2, 3))
        except (TypeError, ValueError) as e:  # torch's C++ trace after an int's overflow
            raise type(e)(str(e).split("\nException raised from")[0].rstrip('"')) from None
    _quiet(program)


# ---------------------------------- more parser orders, and repeat's int64 sizes as torch's

MORE_ORDER = {
    "lu pivot None": lambda L, x: x.lu(None),
    "lu pivot tensor": lambda L, x: L.lu(x, x, True),
    "lu pivot int": lambda L, x: x.lu(pivot=0),
    "svd some": lambda L, x: L.ones(2, 2, dtype=L.int32).svd(x),
    "svd compute_uv": lambda L, x: L.svd(x, True, "a"),
    "index_copy_ dim first": lambda L, x: x.index_copy_(True, np.uint64(2 ** 63), 1.5),
    "index_copy_ None dim": lambda L, x: x.index_copy_(None, -1, None),
    "index_copy_ tensor dim": lambda L, x: x.index_copy_(L.tensor([True])),
    "lerp_ tuple end": lambda L, x: x.lerp_((0,), np.uint64(2 ** 63)),
    "lerp tuple end": lambda L, x: L.lerp(x, (0,), np.uint64(2 ** 63)),
    "renorm_ tensor dim": lambda L, x: x.renorm_(3, L.tensor([True])),
    "lstsq method missing": lambda L, x: x.lstsq(),
    "lstsq method too many": lambda L, x: x.lstsq(x, None),
    "repeat negative": lambda L, x: L.ones(4).repeat(2 ** 63 - 1),
    "repeat 2**62": lambda L, x: L.ones(0, 3).repeat(3, 1, 2 ** 62),
    "repeat overflow": lambda L, x: L.ones(3).repeat(2 ** 62, 2, 2 ** 63 - 1),
}


@pytest.mark.parametrize("case", MORE_ORDER)
def test_more_parser_orders(case: str) -> None:
    _quiet(lambda L: MORE_ORDER[case](L, L.ones(2, 2)))


@pytest.mark.parametrize("template", [(), (3,), (2, 2), (0,)])
def test_resize_as_to_any_shape(template: tuple) -> None:
    def program(L: Any) -> Any:
        x = L.arange(4.)
        y = x.resize_as_(L.ones(template))
        return y.shape, y.stride(), y is x, x._version
    _quiet(program)


PROD_ORDER = {
    "dtype type before dim range": lambda L, x: L.ones((), dtype=L.int32).prod(
        -2 ** 63, dtype=np.float32),
    "keepdim str": lambda L, x: x.prod(1, "a"),
    "dim range": lambda L, x: x.prod(5, True, dtype=L.float64),
    "keepdim before overflow": lambda L, x: x.prod(2 ** 63, keepdim="a"),
    "dtype str": lambda L, x: x.prod(1, dtype="a"),
    "keepdim None": lambda L, x: x.prod(1, None),
}


@pytest.mark.parametrize("case", PROD_ORDER)
def test_prod_parser_order(case: str) -> None:
    _quiet(lambda L: PROD_ORDER[case](L, L.ones(2, 3)))


@pytest.mark.parametrize("dtypes", [("float16", "int32"), ("int32", "float16"), ("float32", "bool"),
                                    ("float16", "float16"), ("float32", "float64")])
@pytest.mark.parametrize("p", [2.0, -1.0])
def test_cdist_checks_both_dtypes(dtypes: tuple, p: float) -> None:
    _quiet(lambda L: L.cdist(L.ones(3, 2, dtype=getattr(L, dtypes[0])),
                             L.ones(2, 2, dtype=getattr(L, dtypes[1])), p))


# ------------- an in-place op's parser (an int past int64) refuses before autograd's checks

INPLACE_PARSER = {
    "triu_": lambda x: x.triu_(2 ** 63), "tril_": lambda x: x.tril_(np.uint64(2 ** 63)),
    "tril_ str": lambda x: x.tril_("a"), "squeeze_": lambda x: x.squeeze_(2 ** 63),
    "clamp_max_": lambda x: x.clamp_max_(2 ** 63), "fmod_": lambda x: x.fmod_(2 ** 64),
    "remainder_": lambda x: x.remainder_(2 ** 63),
    "nan_to_num_": lambda x: x.nan_to_num_(2 ** 1100),
    "logit_": lambda x: x.logit_(2 ** 1100), "round_": lambda x: x.round_(decimals=2 ** 63),
}


@pytest.mark.parametrize("case", INPLACE_PARSER)
@pytest.mark.parametrize("kind", ["leaf", "expanded"])
def test_inplace_parser_before_autograd(case: str, kind: str) -> None:
    def program(L: Any) -> Any:
        x = L.ones(2, 3, dtype=L.float64, requires_grad=True) if kind == "leaf" else \
            L.ones(1, 3, dtype=L.float64).expand(2, 3)
        return INPLACE_PARSER[case](x)
    _quiet(program)
