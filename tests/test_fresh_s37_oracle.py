"""Fresh fuzz seeds of session 37 (the black-box creation fuzzer on a new seed, and what its
findings opened): memory formats (channels_last laid out, not refused; preserve_format's
strides), numpy scalars and read-only arrays, ``arange(end=)``. Each case runs under torch
and minitorch (``L``) and must raise torch's exception with torch's message, or give torch's
result, strides included."""

from __future__ import annotations

import warnings
from collections.abc import Callable
from typing import Any

import numpy as np
import pytest
import torch

import minitorch as mt
from tests.oracle import assert_as_torch

LAYOUTS: dict[str, Callable[[Any], Any]] = {
    "contiguous 4-d": lambda L: L.arange(120.).reshape(2, 3, 4, 5),
    "channels-last 4-d": lambda L: L.arange(120.).reshape(2, 4, 5, 3).permute(0, 3, 1, 2),
    "transposed 4-d": lambda L: L.arange(120.).reshape(2, 3, 5, 4).transpose(2, 3),
    "N111": lambda L: L.arange(4.).reshape(4, 1, 1, 1),
    "1C1W transposed": lambda L: L.arange(6.).reshape(1, 3, 1, 2).transpose(1, 3),
    "sliced 4-d": lambda L: L.arange(240.).reshape(2, 3, 4, 10)[..., ::2],
    "empty 4-d": lambda L: L.zeros(2, 0, 3, 3),
    "expanded 4-d": lambda L: L.zeros(1, 3, 1, 1).expand(2, 3, 4, 4),
    "contiguous 5-d": lambda L: L.arange(240.).reshape(2, 3, 4, 5, 2),
    "channels-last 5-d": lambda L: L.arange(240.).reshape(2, 4, 5, 2, 3).permute(0, 4, 1, 2, 3),
    "transposed 2-d": lambda L: L.arange(6.).reshape(2, 3).t(),
    "size-1 transposed": lambda L: L.arange(4.).reshape(1, 4).t(),
    "sliced size-1": lambda L: L.arange(2.)[::2],
    "sliced transposed": lambda L: L.zeros(3, 4)[:, ::2].t(),
    "0-d": lambda L: L.tensor(1.),
}

FORMATS = [None, "preserve_format", "contiguous_format", "channels_last", "channels_last_3d"]

COPIES: dict[str, Callable[[Any, Any, dict], Any]] = {
    "contiguous": lambda L, x, kw: x.contiguous(**kw),
    "clone": lambda L, x, kw: x.clone(**kw),
    "to": lambda L, x, kw: x.to(**kw),
    "to float64": lambda L, x, kw: x.to(L.float64, **kw),
    "to copy": lambda L, x, kw: x.to(L.float32, copy=True, **kw),
    "double": lambda L, x, kw: x.double(**kw),
    "float": lambda L, x, kw: x.float(**kw),
    "zeros_like": lambda L, x, kw: L.zeros_like(x, **kw),
    "ones_like": lambda L, x, kw: L.ones_like(x, **kw),
    "full_like": lambda L, x, kw: L.full_like(x, 2., **kw),
}

LIKE_DRAWS: dict[str, Callable[[Any, Any, dict], Any]] = {
    "empty_like": lambda L, x, kw: L.empty_like(x, **kw),
    "rand_like": lambda L, x, kw: L.rand_like(x, **kw),
    "randn_like": lambda L, x, kw: L.randn_like(x, **kw),
    "randint_like": lambda L, x, kw: L.randint_like(x, 5, **kw),
}


def _format(L: Any, name: str | None) -> dict:
    return {} if name is None else {"memory_format": getattr(L, name)}


@pytest.mark.parametrize("fmt", FORMATS)
@pytest.mark.parametrize("layout", LAYOUTS)
@pytest.mark.parametrize("copy", COPIES)
def test_a_copy_in_a_memory_format_is_laid_out_as_torch_lays_it_out(copy: str, layout: str,
                                                                     fmt: str | None) -> None:
    """channels_last copies (before: refused as NotImplementedError), preserve_format's
    strides of a dense input's size-1 dims and of a non-dense input (``to`` and the
    ``*_like`` factories laid those out contiguously), ``to``'s test of whether it may
    return the tensor itself."""
    def program(L: Any) -> Any:
        x = LAYOUTS[layout](L)
        r = COPIES[copy](L, x, _format(L, fmt))
        return r, r.stride(), r is x
    assert_as_torch(program)


@pytest.mark.parametrize("fmt", FORMATS)
@pytest.mark.parametrize("layout", LAYOUTS)
@pytest.mark.parametrize("like", LIKE_DRAWS)
def test_a_like_factory_in_a_memory_format_has_torchs_strides(like: str, layout: str,
                                                              fmt: str | None) -> None:
    """The factories whose values differ (uninitialised, random): shape, dtype, strides."""
    def program(L: Any) -> Any:
        r = LIKE_DRAWS[like](L, LAYOUTS[layout](L), _format(L, fmt))
        return tuple(r.shape), str(r.dtype), r.stride()
    assert_as_torch(program)


@pytest.mark.parametrize("fmt", FORMATS)
@pytest.mark.parametrize("shape", [(2, 3), (2, -1), (2, 3, 4, 5), (2, 0, 3, 3), (1, 2, 1, 3),
                                   (2, 3, 0, 1, 2), (2, 3, 4, 5, 6)])
def test_empty_takes_a_memory_format(shape: tuple, fmt: str | None) -> None:
    """``empty(..., memory_format=)`` (before: an unexpected keyword): channels_last strides
    (sizes of zero counted as torch counts them), the rank check, preserve_format refused."""
    assert_as_torch(lambda L: (L.empty(shape, **_format(L, fmt)).stride(),))


@pytest.mark.parametrize("program", [
    lambda L: L.empty((2, 3), memory_format="channels_last"),
    lambda L: L.empty((2, -1, 3, 3), memory_format=L.preserve_format),
    lambda L: L.empty(2, 3, 4, 5, memory_format=L.channels_last, dtype=L.float64,
                      requires_grad=True).stride(),
    lambda L: L.empty(2, 3, 4, 5, memory_format=L.channels_last).contiguous().stride(),
], ids=["format's type", "negative size first", "with dtype and requires_grad",
        "made contiguous"])
def test_empty_memory_format_checks_in_torchs_order(program: Callable[[Any], Any]) -> None:
    assert_as_torch(program)


RESIZES: dict[str, Callable[[Any], Any]] = {
    "channels_last": lambda L: L.arange(120.).resize_(2, 3, 4, 5,
                                                      memory_format=L.channels_last),
    "same shape restrided": lambda L: L.arange(6.).view(2, 3).t().resize_(
        3, 2, memory_format=L.contiguous_format),
    "same shape kept": lambda L: L.arange(6.).view(2, 3).t().resize_(3, 2),
    "preserve refused": lambda L: L.arange(6.).resize_(3, 2, memory_format=L.preserve_format),
    "rank": lambda L: L.arange(6.).resize_(3, 2, memory_format=L.channels_last),
    "type": lambda L: L.arange(6.).resize_(3, 2, memory_format="channels_last"),
    "requires grad first": lambda L: L.arange(6., requires_grad=True).resize_(
        3, 2, memory_format=L.preserve_format),
    "view from its offset": lambda L: L.arange(6.)[1:].resize_(1, 1, 1, 5,
                                                                memory_format=L.channels_last),
    "as template, channels_last": lambda L: L.arange(6.).resize_as_(
        L.zeros(1, 2, 1, 3), memory_format=L.channels_last),
    "as template, preserve of contiguous": lambda L: L.arange(6.).resize_as_(
        L.zeros(1, 2, 1, 3), memory_format=L.preserve_format),
    "as template, preserve of channels_last": lambda L: L.arange(6.).resize_as_(
        L.zeros(1, 2, 1, 3).contiguous(memory_format=L.channels_last),
        memory_format=L.preserve_format),
    "as template, preserve of a transpose": lambda L: L.arange(6.).resize_as_(
        L.zeros(2, 3).t(), memory_format=L.preserve_format),
}


@pytest.mark.parametrize("resize", RESIZES)
def test_resize_lays_its_shape_out_in_a_memory_format(resize: str) -> None:
    """``resize_(..., memory_format=)`` (before: an unexpected keyword) and ``resize_as_``'s
    (before: channels_last refused, preserve_format ignored): torch restrides the memory, the
    values of the storage read in the new order."""
    def program(L: Any) -> Any:
        r = RESIZES[resize](L)
        return r, r.stride(), r.storage_offset()
    assert_as_torch(program)


@pytest.mark.parametrize("fmt", ["channels_last", "contiguous_format", "channels_last_3d"])
@pytest.mark.parametrize("module", ["conv2d", "conv3d", "linear", "batchnorm"])
def test_a_module_to_a_memory_format_lays_out_its_image_tensors(module: str, fmt: str) -> None:
    """``Module.to(memory_format=)`` converts its 4-d and 5-d parameters (torch's rule), the
    Parameters staying Parameters."""
    def program(L: Any) -> Any:
        L.manual_seed(0)
        m = {"conv2d": lambda: L.nn.Conv2d(3, 4, 3), "conv3d": lambda: L.nn.Conv3d(2, 3, 2),
             "linear": lambda: L.nn.Linear(2, 3),
             "batchnorm": lambda: L.nn.BatchNorm2d(3)}[module]()
        m.to(memory_format=getattr(L, fmt))
        return [(name, p.stride(), type(p).__name__) for name, p in m.named_parameters()]
    assert_as_torch(program)


def test_contiguous_of_preserve_format_returns_a_contiguous_tensor_itself() -> None:
    """torch returns a contiguous tensor before it refuses preserve_format (fuzzer s37 case
    1889: an expanded 1-element tensor)."""
    for make in (lambda L: L.tensor([6]).expand((1,)), lambda L: L.ones(2, 3),
                 lambda L: L.ones(2, 3).t()):
        assert_as_torch(lambda L, make=make: (
            (x := make(L)).contiguous(memory_format=L.preserve_format) is x,))


NUMPY_SCALARS: dict[str, Callable[[], Any]] = {
    "0-d float32 array": lambda: np.zeros((), np.float32),
    "0-d int8 array": lambda: np.arange(1).reshape(()).astype(np.int8),
    "0-d bool array": lambda: np.zeros((), np.bool_),
    "float32 scalar": lambda: np.float32(2.5),
    "1-d array": lambda: np.zeros(2, np.float32),
}


@pytest.mark.parametrize("copy", [None, True, False])
@pytest.mark.parametrize("dtype", [None, "float32", "int32"])
@pytest.mark.parametrize("obj", NUMPY_SCALARS)
def test_asarray_copies_a_numpy_scalar_or_0d_array(obj: str, dtype: str | None,
                                                   copy: bool | None) -> None:
    """numpy's ``PyArray_CheckScalar`` takes a 0-d array for a scalar: torch's asarray
    copies it always (before: shared, fuzzer s37 case 2318), and with ``copy`` given checks
    that copy as an alias (a dtype it would change is refused, copy=True too)."""
    def program(L: Any) -> Any:
        a = NUMPY_SCALARS[obj]()
        kw = {} if dtype is None else {"dtype": getattr(L, dtype)}
        t = L.asarray(a, copy=copy, **kw)
        if isinstance(a, np.ndarray):
            a[...] = 7
        return t
    assert_as_torch(program)


def _warnings_of(L: Any, convert: Callable[[Any, np.ndarray], Any]) -> list[str]:
    a = np.zeros(2, np.float32)
    a.flags.writeable = False
    with warnings.catch_warnings(record=True) as seen:
        warnings.simplefilter("always")
        was = L.is_warn_always_enabled()
        L.set_warn_always(True)  # (a once-per-program warning, given each time)
        try:
            convert(L, a)
        finally:
            L.set_warn_always(was)
    return [str(w.message).split(" (Triggered")[0] for w in seen]


@pytest.mark.parametrize("convert", ["from_numpy", "as_tensor", "asarray", "tensor"])
def test_a_read_only_numpy_array_warns_as_torch_warns(convert: str) -> None:
    """torch warns where a tensor keeps a read-only array's memory (before: silence); the
    warning points at the user's line."""
    call = lambda L, a: getattr(L, convert)(a)  # noqa: E731
    assert _warnings_of(mt, call) == _warnings_of(torch, call)


def test_a_write_into_read_only_memory_says_so() -> None:
    """minitorch refuses the write torch makes with undefined behaviour, and says why in
    words about the array, not about overlapping elements."""
    a = np.zeros(2, np.float32)
    a.flags.writeable = False
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        t = mt.from_numpy(a)
    with pytest.raises(RuntimeError, match=r"memory is read-only.*flags\.writeable = True"):
        t.add_(1)
    assert a.tolist() == [0.0, 0.0]


@pytest.mark.parametrize("program", [
    lambda L: L.arange(end=3, dtype=L.float64),
    lambda L: L.arange(end=L.tensor(1.5), dtype=L.int32),
    lambda L: L.arange(end=-2, dtype=L.float64),
    lambda L: L.arange(end=5, step=2),
    lambda L: L.arange(),
    lambda L: L.arange(dtype=L.float32),
    lambda L: L.arange(start=1),
    lambda L: L.arange(start=1, end=4),
    lambda L: L.arange(3, end=5),
    lambda L: L.arange(end="a"),
], ids=["end=", "end= a tensor", "end= negative", "with step=", "nothing", "only dtype",
        "only start=", "start= end=", "start end=", "end= a string"])
def test_arange_takes_its_end_by_name(program: Callable[[Any], Any]) -> None:
    """``arange(end=3)`` is torch's first form (before: "invalid combination")."""
    assert_as_torch(program)


EMPTY_TARGETS: dict[str, Callable[[Any], Any]] = {
    "expanded": lambda L: L.zeros(1, 2, 1).expand(1, 2, 0),
    "own empty": lambda L: L.zeros(1, 2, 0),
    "expanded slice": lambda L: L.zeros(4, 2, 1)[2:].expand(2, 2, 0),
    "expanded at an offset": lambda L: L.zeros(3, 1)[2:].expand(1, 0),
    "sliced at the end": lambda L: L.zeros(3, 2)[2:, :0],
    "sliced inside": lambda L: L.zeros(3, 2)[1:, :0],
    "empty both ways": lambda L: L.zeros(0, 2)[:, :1].expand(0, 0),
    "viewed slice expanded": lambda L: L.zeros(5)[3:].view(2, 1).expand(2, 0),
    "own columns": lambda L: L.zeros(2, 3)[:, :0],
    "transposed rows": lambda L: L.zeros(2, 3, dtype=L.int64).t()[:0],
}

INDEX_WRITES: dict[str, Callable[[Any, Any], Any]] = {
    "index_fill_": lambda L, x: x.index_fill_(-1, L.tensor([0, 0, 0]), 1.5),
    "index_fill": lambda L, x: x.index_fill(-1, L.tensor([0]), 1.5),
    "index_fill_ tensor": lambda L, x: x.index_fill_(-1, L.tensor([-2]), L.tensor(2.)),
    "index_fill no index": lambda L, x: x.index_fill(-1, L.tensor([], dtype=L.long),
                                                     L.tensor(2.)),
    "index_fill_ dim 0": lambda L, x: x.index_fill_(0, L.tensor([0]), 1.5),
    "index_copy_": lambda L, x: x.index_copy_(-1, L.tensor([0, 0]), L.ones(*x.shape[:-1], 2)),
    "index_copy_ one": lambda L, x: x.index_copy_(-1, L.tensor([3]), L.ones(*x.shape[:-1], 1)),
    "index_copy": lambda L, x: x.index_copy(-1, L.tensor([0, 0]), L.ones(*x.shape[:-1], 2)),
    "index_reduce_ prod": lambda L, x: x.index_reduce_(-1, L.tensor([0, 1]),
                                                       L.ones(*x.shape[:-1], 2), "prod"),
    "index_reduce_ amax": lambda L, x: x.index_reduce_(-1, L.tensor([0, 1]),
                                                       L.ones(*x.shape[:-1], 2), "amax",
                                                       include_self=False),
    "index_reduce mean": lambda L, x: x.index_reduce(-1, L.tensor([-1, 1]),
                                                     L.ones(*x.shape[:-1], 2), "mean",
                                                     include_self=False),
    "index_add_": lambda L, x: x.index_add_(-1, L.tensor([0, 0]), L.ones(*x.shape[:-1], 2)),
    "index_add": lambda L, x: x.index_add(-1, L.tensor([0, 0]), L.ones(*x.shape[:-1], 2)),
}


@pytest.mark.filterwarnings("ignore:index_reduce\\(\\) is in beta")
@pytest.mark.parametrize("write", INDEX_WRITES)
@pytest.mark.parametrize("target", EMPTY_TARGETS)
def test_an_index_write_into_an_empty_dim_restrides_as_torchs_kernel(target: str,
                                                                     write: str) -> None:
    """torch's index kernels restride the written tensor to the indices along an empty dim
    with stride 0: an expanded or sliced tensor in place still lies in memory enough for
    that, so its kernel then reads the indices and refuses them (before: minitorch checked
    against an empty storage, or returned, or failed inside numpy's reshape: fuzzer s37
    case 1835); out of place, index_fill's clone keeps the strides, index_copy's and
    index_reduce's new result is row-major."""
    def program(L: Any) -> Any:
        x = EMPTY_TARGETS[target](L)
        r = INDEX_WRITES[write](L, x)
        return r, r.stride()
    assert_as_torch(program)


@pytest.mark.parametrize("program", [
    lambda L: L.tensor([[1e38]]).expand((1, 0)).requires_grad_().__setitem__(
        L.tensor([9], dtype=L.int32), -1),
    lambda L: L.tensor([[1.]]).expand((1, 2)).requires_grad_().__setitem__(L.tensor([0]), -1),
    lambda L: L.tensor([[1.]])[:, :1].requires_grad_().__setitem__(L.tensor([0]), -1),
    lambda L: L.tensor([[1.]]).t().requires_grad_().__setitem__(L.tensor([[True]]), -1),
    lambda L: L.tensor([[1.]]).requires_grad_().__setitem__(L.tensor([0]), -1),
    lambda L: L.tensor([[1.]]).requires_grad_().__setitem__(0, -1),
    lambda L: L.ones(2, 2, requires_grad=True)[0].__setitem__(L.tensor([0]), -1),
], ids=["expanded, int32 index", "expanded", "sliced", "transposed, mask", "leaf itself",
        "leaf's row", "view of a leaf"])
def test_an_indexed_write_into_a_view_that_is_a_leaf_names_the_view(
        program: Callable[[Any], Any]) -> None:
    """A view made from a tensor without grad, then given requires_grad, is a leaf and a
    view: torch's check names "a view of a leaf Variable" for an index tensor's write too
    (before: "a leaf Variable", fuzzer s37 case 2806)."""
    assert_as_torch(program)


@pytest.mark.parametrize("program", [
    lambda L: L.randint_like(L.zeros(2, 2, dtype=L.int8), 10.5, dtype=L.int16,
                             memory_format=L.channels_last),
    lambda L: L.randint_like(L.zeros(2, 2, dtype=L.int8), 10, dtype=L.int16,
                             memory_format=L.channels_last),
    lambda L: L.full_like(L.zeros(2, 2), "a", memory_format=L.channels_last),
    lambda L: L.zeros_like(L.zeros(2, 2), dtype="a", memory_format=L.channels_last),
    lambda L: L.empty_like(L.zeros(2, 2), device="xyz", memory_format=L.channels_last),
    lambda L: L.rand_like(L.zeros(2, 2, dtype=L.int64), memory_format=L.channels_last),
    lambda L: L.rand_like(L.zeros(2, 2, 2, 2, dtype=L.int64),
                          memory_format=L.channels_last),
    lambda L: L.ones_like(L.zeros(2, 2), memory_format="channels_last"),
], ids=["a float high first", "then the rank", "fill value's type", "dtype's type",
        "device string", "rank before the dtype", "dtype of a 4-d", "format's type"])
def test_a_like_factory_parses_its_arguments_before_the_formats_rank(
        program: Callable[[Any], Any]) -> None:
    """torch's parser reads every argument's type first; the channels-last rank is its
    kernel's check (before: minitorch checked the rank first, fuzzer s37 case 1018)."""
    assert_as_torch(program)


@pytest.mark.parametrize("program", [
    lambda L: 2 - L.int16,
    lambda L: L.float32 * L.ones(1),
    lambda L: L.ones(1, dtype=L.float16) + L.float64,
    lambda L: L.Size([2, 3]).shape,
    lambda L: L.preserve_format + 1,
    lambda L: L.Generator().foo,
    lambda L: L.finfo().foo,
    lambda L: L.device("cpu").foo,
    lambda L: L.dtype(),
    lambda L: L.layout(),
    lambda L: (type(L.Size([2]) + L.Size([3])).__name__, type(L.float32).__name__,
               type(L.device("cpu")).__name__, type(L.Generator()).__name__,
               type(L.preserve_format).__name__, type(L.finfo()).__name__),
    lambda L: (repr(L.finfo()), repr(L.iinfo(L.int8))),
    lambda L: (L.typename(L.float32), L.typename(L.Size([1])), L.typename(L.device("cpu"))),
    lambda L: L.ones(1).add(L.float32),
], ids=["int - dtype", "dtype * tensor", "tensor + dtype", "Size.shape", "memory_format + 1",
        "Generator attribute", "finfo attribute", "device attribute", "dtype()", "layout()",
        "__name__s", "finfo repr", "typename", "parser's type name"])
def test_pythons_own_messages_name_torchs_types_as_torch(program: Callable[[Any], Any]) -> None:
    """Python's messages name a type by its C name: torch.dtype, torch.Size, ...; its
    ``__name__`` stays the short one (before: 'dtype' and 'Size' in those messages; math
    fuzzer s37 cases 65, 970, 1131, 2668, creation fuzzer s37 case 1721)."""
    assert_as_torch(program)


@pytest.mark.parametrize("program", [
    lambda L: pow(L.ones(2), L.ones(2), 2),
    lambda L: pow(L.ones(2, dtype=L.int64), 2, 3),
    lambda L: pow(2, L.ones(2), 3),
    lambda L: L.ones(2).__pow__(2, 3),
    lambda L: pow(L.ones(2), 2, None),
    lambda L: pow(L.nn.Parameter(L.ones(2)), 2, 3),
], ids=["tensors", "int tensor", "number base", "the method", "modulo None", "Parameter"])
def test_three_argument_pow_is_refused_in_pythons_words(program: Callable[[Any], Any]) -> None:
    """torch's ``__pow__`` takes no modulo and answers NotImplemented (math fuzzer s37 cases
    1004, 1933; before: "takes 2 positional arguments")."""
    assert_as_torch(program)


@pytest.mark.parametrize("program", [
    lambda L: L.tensor([[False]]).expand(4, 3).pow_(-1),
    lambda L: L.tensor([[1]]).expand(4, 3).pow_(-1),
    lambda L: L.tensor([[1]]).expand(4, 3).pow_(2),
    lambda L: L.tensor([[1]]).expand(4, 3).pow_(-2 ** 63 - 1),
    lambda L: L.pow(L.tensor([1]), -1, out=L.tensor([[1]]).expand(2, 1)),
    lambda L: L.sub(2, L.tensor([True]), out=L.tensor([[1]]).expand(2, 1)),
    lambda L: L.pow(3, L.tensor([1, 2]), out=L.tensor([[1]]).expand(2, 2)),
    lambda L: L.pow(2.5, L.tensor([1.5]), out=L.zeros(1, dtype=L.float64).expand(3)),
    lambda L: L.square(L.ones(2, 1), out=L.ones(1, 2).expand(3, 2)),
], ids=["bool", "int", "positive exponent", "past int64", "out=", "sub's check",
        "number base resizes out", "number base, float", "square"])
def test_pows_meta_checks_come_before_the_iterators(program: Callable[[Any], Any]) -> None:
    """pow's refusal of an integer to a negative power comes before TensorIterator's check of
    an overlapping output (math fuzzer s37 case 1194); a number base's meta resizes out to
    the exponent's shape first, so an expanded out is no overlap there."""
    assert_as_torch(program)


def _softmax_out(fn: str, x_grad: bool, out_grad: bool, size: int) -> Callable[[Any], Any]:
    def program(L: Any) -> Any:
        x = L.arange(4.).view(2, 2).requires_grad_(x_grad)
        o = L.zeros(size).requires_grad_(out_grad)
        r = getattr(L, fn)(x, 0, out=o)
        return r, r.requires_grad, type(r.grad_fn).__name__, r is o
    return program


@pytest.mark.parametrize("fn", ["softmax", "log_softmax"])
@pytest.mark.parametrize("grads", [(True, False), (False, True), (False, False)])
def test_softmax_out_records_torchs_not_implemented_derivative(fn: str, grads: tuple) -> None:
    """torch leaves softmax's and log_softmax's out= derivative not implemented: an input
    that requires grad gets a NotImplemented node, an out that does is refused in the aten
    op's name (nn fuzzer s37 cases 439, 1392, 1730; before: refused either way, without
    "aten::")."""
    assert_as_torch(_softmax_out(fn, *grads, 4))


@pytest.mark.parametrize("program", [
    lambda L: L.feature_dropout(L.ones(5, 2, 4), "0.5", "x"),
    lambda L: L.feature_dropout(L.ones(5, 2, 4), None, "x"),
    lambda L: L.dropout(L.ones(5, 2, 4), None, "x"),
    lambda L: L.alpha_dropout(L.ones(5, 2, 4), 0.5, "x"),
    lambda L: L.feature_alpha_dropout_(L.ones(5, 2, 4), "a", 1),
], ids=["feature_dropout p str", "feature_dropout p None", "dropout", "train after p",
        "in place"])
def test_the_dropouts_parse_p_before_train(program: Callable[[Any], Any]) -> None:
    """nn fuzzer s37 cases 1607, 2304."""
    assert_as_torch(program)


@pytest.mark.parametrize("program", [
    lambda L: L.nn.Embedding(1, 0, padding_idx=0)(L.zeros(0, dtype=L.long)),
    lambda L: L.nn.Embedding(3, 0)(L.tensor([1, 2])),
    lambda L: L.nn.Embedding(3, 0, scale_grad_by_freq=True)(L.tensor([[1, 2]])),
    lambda L: L.nn.Embedding(3, 2, padding_idx=1)(L.tensor([[1, 2], [0, 1]])),
], ids=["no index, no column", "no column", "no column, scaled", "padding"])
def test_an_embedding_of_no_columns_has_a_gradient(program: Callable[[Any], Any]) -> None:
    """Its backward reshaped the gradient to (-1, 0), which no size fills (nn fuzzer s37
    case 2610)."""
    def run(L: Any) -> Any:
        L.manual_seed(0)
        out = program(L)
        (out * L.arange(out.numel(), dtype=out.dtype).view(out.shape)).sum().backward()
        leaf = out.grad_fn.next_functions[0][0].variable
        return out, leaf.grad
    assert_as_torch(run)
