"""Refusals worded as torch words them, checked in torch's order: embedding_bag's kernel
checks, weight_norm's dim, the BCE losses' weight checks, split's Python form, addcmul's and
addcdiv's unknown keywords, and a method given its own tensor by keyword."""

import pytest
import torch

import minitorch as mt
from tests.oracle import assert_same_error, raised_by


def _same_refusal(fn):
    want = raised_by(fn, torch)
    assert want is not None, "torch accepts the call"
    assert_same_error(raised_by(fn, mt), want)


def _F(L):
    return L.nn.functional


@pytest.mark.parametrize("padding_idx", [3, -4, 5, 1.5, True, 2 ** 70, "a"])
@pytest.mark.parametrize("offsets", [None, [1], [0, 2, 1]])
def test_embedding_bag_padding_idx_is_checked_by_its_kernel(padding_idx, offsets):
    def call(L):
        if offsets is None:
            return _F(L).embedding_bag(L.tensor([[0, 7]]), L.ones(3, 2), padding_idx=padding_idx)
        return _F(L).embedding_bag(L.tensor([0., 1.]), L.ones(3, 2), L.tensor(offsets),
                                   padding_idx=padding_idx)
    _same_refusal(call)


def test_embedding_bag_padding_idx_of_no_rows():
    _same_refusal(lambda L: _F(L).embedding_bag(L.tensor([0, 1]), L.ones(0, 2), L.tensor([0]),
                                                padding_idx=-1))


@pytest.mark.parametrize("flat,offsets,last", [
    ([0, 1, 5, 2], [0, 1, 3], True), ([5, 1, 2, 5], [0, 1, 3], True),
    ([0, 5, 2, 5], [0, 1, 3], True), ([0, 1, 2, 5], [0, 4], True),
    ([0, 1, 2, 5], [0, 2, 4], True), ([0, 0, 0, 1, 1, 5], [0, 1, 2], False),
    ([0, 0, 0, 1, 5, 1], [0, 1, 2], False)])
@pytest.mark.parametrize("mode", ["sum", "mean"])
def test_embedding_bag_float32_index_report(flat, offsets, last, mode):
    threads = torch.get_num_threads()
    torch.set_num_threads(mt.ops.embedding_bag._threads())  # torch's report depends on them
    try:
        _same_refusal(lambda L: _F(L).embedding_bag(L.tensor(flat), L.ones(3, 2),
                                                    L.tensor(offsets),
                                                    mode=mode, include_last_offset=last))
    finally:
        torch.set_num_threads(threads)


@pytest.mark.parametrize("mode", ["sum", "mean"])
def test_embedding_bag_never_reads_past_the_last_offset(mode):
    def call(L):
        return _F(L).embedding_bag(L.tensor([0, 5, 1, 2]), L.ones(3, 2), L.tensor([0, 1]),
                                   mode=mode, include_last_offset=True)
    assert call(mt).tolist() == call(torch).tolist()


@pytest.mark.filterwarnings("ignore::FutureWarning")
@pytest.mark.parametrize("form", ["old", "new"])
def test_weight_norm_float_dim_is_norm_except_dims_third_argument(form):
    def call(L):
        m = L.nn.Linear(3, 2)
        if form == "old":
            return L.nn.utils.weight_norm(m, dim=1.0)
        return L.nn.utils.parametrizations.weight_norm(m, dim=1.0)
    _same_refusal(call)


_WEIGHTS = {"w_shape": lambda L: {"weight": L.ones(5)},
            "w_int": lambda L: {"weight": L.ones(3, dtype=L.int64)},
            "pw_shape": lambda L: {"pos_weight": L.ones(5)},
            "pw_wide": lambda L: {"pos_weight": L.ones(2, 2, 3)},
            "w_list": lambda L: {"weight": [1.0]}}
_TARGETS = {"int": lambda L: L.ones(2, 3, dtype=L.int64), "bool": lambda L: L.ones(2, 3) > 0,
            "f64": lambda L: L.ones(2, 3, dtype=L.float64), "wide": lambda L: L.ones(2, 3) * 2}


@pytest.mark.parametrize("weights", [["w_shape", "pw_shape"], ["pw_shape"], ["w_int", "pw_shape"],
                                     ["pw_wide"], ["w_shape"], ["w_list"]])
@pytest.mark.parametrize("target", list(_TARGETS))
@pytest.mark.parametrize("logits", [True, False])
def test_bce_checks_weights_before_the_targets_dtype(weights, target, logits):
    def call(L):
        kw = {}
        for w in weights:
            kw.update(_WEIGHTS[w](L))
        if logits:
            return _F(L).binary_cross_entropy_with_logits(L.zeros(2, 3), _TARGETS[target](L), **kw)
        kw.pop("pos_weight", None)
        return _F(L).binary_cross_entropy(L.zeros(2, 3), _TARGETS[target](L), **kw)
    if raised_by(call, torch) is None:
        pytest.skip("torch accepts it")
    _same_refusal(call)


@pytest.mark.parametrize("dim", [1.0, True])
@pytest.mark.parametrize("form", ["method", "function"])
def test_split_keeps_the_positional_call_torchs_python_makes(dim, form):
    def call(L):
        x = L.ones(2, 3)
        return x.split(1, dim=dim) if form == "method" else L.split(x, 1, dim=dim)
    _same_refusal(call)


@pytest.mark.parametrize("op", ["addcmul", "addcdiv"])
@pytest.mark.parametrize("form", ["function", "method", "inplace"])
@pytest.mark.parametrize("kwargs", [{"foo": 1}, {"value": 2, "foo": 1}, {"input": 0}])
def test_addc_unknown_keywords(op, form, kwargs):
    def call(L):
        x = L.ones(2, 3)
        kw = {k: (x if k == "input" else v) for k, v in kwargs.items()}
        if form == "function":
            return getattr(L, op)(x, x, x, **kw)
        return getattr(x, op + ("_" if form == "inplace" else ""))(x, x, **kw)
    _same_refusal(call)


@pytest.mark.parametrize("op,count", [("add", 1), ("sub", 1), ("mul", 1), ("matmul", 1),
                                      ("add_", 1), ("addcmul_", 2), ("masked_fill", 0)])
@pytest.mark.parametrize("keyword", ["input", "self"])
def test_a_method_has_no_keyword_for_its_tensor(op, count, keyword):
    def call(L):
        return getattr(L.ones(2, 2), op)(*[L.ones(2, 2)] * count, **{keyword: L.ones(2)})
    _same_refusal(call)


def _scaled_operands(L, op):
    x, v, b = L.ones(2, 2), L.ones(2), L.ones(1, 2, 2)
    return {"add": [x, x], "sub": [x, x], "addmv": [v, x, v], "addr": [x, v, v],
            "addbmm": [x, b, b], "addmm": [x, x, x], "baddbmm": [b, b, b], "mm": [x, x],
            "bmm": [b, b],
            "masked_fill": [x, x > 0, 1.0]}[op]


@pytest.mark.parametrize("op", ["add", "sub", "addmv", "addr", "addbmm", "addmm", "baddbmm",
                                "mm", "bmm", "masked_fill"])
@pytest.mark.parametrize("form", ["function", "method", "inplace"])
@pytest.mark.parametrize("kwargs", [{"foo": 1}, {"alpha": 2, "foo": 1}, {"beta": None},
                                    {"alpha": 2, "beta": 2, "foo": 1}, {"foo": 1, "bar": 2}])
@pytest.mark.parametrize("drop_last", [False, True])
def test_unknown_keywords_past_hidden_overloads(op, form, kwargs, drop_last):
    def call(L):
        args = _scaled_operands(L, op)[:-1] if drop_last else _scaled_operands(L, op)
        if form == "function":
            return getattr(L, op)(*args, **kwargs)
        name = op + ("_" if form == "inplace" else "")
        return getattr(args[0], name)(*args[1:], **kwargs)
    if form == "inplace" and op in ("mm", "bmm"):
        pytest.skip("torch has no such in-place method")
    if raised_by(call, torch) is None:
        pytest.skip("torch accepts it")
    _same_refusal(call)


@pytest.mark.parametrize("ctor", ["Tensor", "FloatTensor", "BoolTensor", "LongTensor"])
@pytest.mark.parametrize("kwargs", [{"size": (2,)}, {"size": [2, 3]}, {"size": ()}, {"size": 2},
                                    {"size": (2,), "device": "cpu"}, {"size": (2, 1.5)},
                                    {"size": (-1,)}, {"data": [1.0]}, {"size": (2,), "foo": 1},
                                    {"size": (2,), "data": [1]}, {"size": (2,), "device": 1.5}])
def test_legacy_constructor_by_keyword(ctor, kwargs):
    def call(L):
        return getattr(L, ctor)(**kwargs).shape
    want = raised_by(call, torch)
    if want is None:
        assert call(mt) == call(torch)
    else:
        assert_same_error(raised_by(call, mt), want)


_BIG = [2 ** 63, -2 ** 63 - 1, 2 ** 64, -2 ** 63]


@pytest.mark.parametrize("value", _BIG)
@pytest.mark.parametrize("dtype", ["bool", "int64", "uint8"])
@pytest.mark.parametrize("op", ["__ior__", "__iand__", "__iadd__", "__imul__", "__isub__",
                                "__ipow__", "add_", "mul_", "sub", "pow_", "__pow__"])
def test_an_int_past_int64_is_torchs_uint64(value, dtype, op):
    def call(L):
        return getattr(L.ones(2, dtype=getattr(L, dtype)), op)(value)
    want = raised_by(call, torch)
    if want is None:
        assert call(mt).tolist() == call(torch).tolist()
    else:
        assert_same_error(raised_by(call, mt), want)


@pytest.mark.parametrize("dtype", ["int64", "float32"])
def test_where_checks_its_condition_before_two_uint64_numbers(dtype):
    _same_refusal(lambda L: L.where(L.ones(2, dtype=getattr(L, dtype)), 2 ** 63, 2 ** 63))


def test_where_of_two_uint64_numbers_is_refused_for_want_of_uint64():
    with pytest.raises(TypeError, match="not uint64"):
        mt.where(mt.ones(2) > 0, 2 ** 63, 2 ** 63)


@pytest.mark.parametrize("target", [[0, 1], [[1.0, 0.0, 0.0], [0.0, 1.0, 0.0]]])
def test_cross_entropy_weight_is_checked_by_its_parser(target):
    _same_refusal(lambda L: _F(L).cross_entropy(L.zeros(2, 3), L.tensor(target),
                                                weight=[1.0, 1.0, 1.0]))


@pytest.mark.parametrize("call", [
    lambda L, x: L.unique(x, sorted=1.0), lambda L, x: L.unique(x, return_counts=None),
    lambda L, x: L.unique(x, return_inverse=1.0, dim=1), lambda L, x: x.unique(1.0),
    lambda L, x: L.unique(x, sorted=1, dim=1.5), lambda L, x: x.unique_consecutive(1.0),
    lambda L, x: L.unique_consecutive(x, return_counts=1.0, dim=0),
    lambda L, x: x.unflatten(1.0, (2, 2))])
def test_python_functions_keep_the_keywords_they_pass(call):
    _same_refusal(lambda L: call(L, L.ones(2, 4)))


@pytest.mark.parametrize("args", [["t", "t", 3], ["t"], ["t", "a"], ["t", "t"], ["t", 2]])
@pytest.mark.parametrize("kwargs", [{}, {"alpha": "a"}, {"foo": 1}, {"other": 1},
                                    {"alpha": 2, "foo": 1}])
def test_rsub_is_refused_by_its_two_signatures(args, kwargs):
    def call(L):
        return L.rsub(*[L.ones(2, 2) if a == "t" else a for a in args], **kwargs)
    if raised_by(call, torch) is None:
        pytest.skip("torch accepts it")
    _same_refusal(call)
