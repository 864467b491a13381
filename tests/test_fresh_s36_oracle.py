"""Fresh fuzz seeds of session 36 (four new black-box fuzzers written by helpers who did not
see minitorch's tests, and session 35's leftovers): what they found. Each case runs under
torch and minitorch (``L``) and must raise torch's exception with torch's message, or give
torch's result."""

from __future__ import annotations

import array
from collections.abc import Callable
from typing import Any

import numpy as np
import pytest

import minitorch as mt
from tests.oracle import assert_as_torch, assert_same

BUFFERS = {
    "bytes": lambda: b"abcdefgh", "bytearray": lambda: bytearray(b"abcdefgh"),
    "odd bytearray": lambda: bytearray(b"abc"), "empty": bytearray,
    "memoryview": lambda: memoryview(bytearray(range(8))),
    "2-d memoryview": lambda: memoryview(bytearray(8)).cast("B", (2, 4)),
    "float array": lambda: array.array("f", [1, 2]),
    "short array": lambda: array.array("h", [1, 2, 3])}


def _poke(buffer: Any) -> None:
    """Change the buffer's first byte (or element), so that a shared tensor sees it."""
    if isinstance(buffer, array.array):
        buffer[0] = 99
    elif isinstance(buffer, memoryview):
        buffer.obj[0] ^= 0xFF
    elif isinstance(buffer, bytearray) and buffer:
        buffer[0] ^= 0xFF


@pytest.mark.filterwarnings("ignore:The given buffer is not writable")
@pytest.mark.parametrize("buffer", BUFFERS)
@pytest.mark.parametrize("dtype", [None, "int16", "float64", "bool"])
@pytest.mark.parametrize("copy", [None, True, False])
@pytest.mark.parametrize("requires_grad", [None, True])
def test_asarray_reads_a_python_buffer_as_raw_bytes_of_the_dtype_as_torch(
        buffer: str, dtype: str | None, copy: bool | None, requires_grad: bool | None) -> None:
    """Leftover of session 35: ``asarray(bytearray(...))`` was refused as unsupported; torch
    reads a buffer's bytes as the dtype (the default dtype without one) and shares a writable
    buffer's memory unless ``copy=True``; a length that is not a multiple of the element size,
    or an empty buffer, is refused with frombuffer's message."""
    def program(L: Any) -> Any:
        kwargs: dict[str, Any] = {"copy": copy}
        if dtype is not None:
            kwargs["dtype"] = getattr(L, dtype)
        if requires_grad is not None:
            kwargs["requires_grad"] = requires_grad
        data = BUFFERS[buffer]()
        result = L.asarray(data, **kwargs)
        _poke(data)
        return result.detach().clone(), result.requires_grad
    assert_as_torch(program)


OVERLAPPING_VIEWS = {"unfold": lambda x: x.unfold(0, 2, 1),
                     "as_strided": lambda x: x.as_strided((2, 2), (1, 1)),
                     "as_strided 3x2": lambda x: x.as_strided((3, 2), (1, 2))}
FILLS = ["v.fill_(2)", "v.zero_()", "v[0] = 7", "v[:, 1] = 7", "v[v > 1] = -1",
         "v.masked_fill_(v > 1, -1)", "v.index_fill_(1, L.tensor([0]), -1)",
         "v[[0, 1]] = L.tensor([5., 6.])", "v[0].add_(1)"]


@pytest.mark.parametrize("view", OVERLAPPING_VIEWS)
@pytest.mark.parametrize("write", FILLS)
def test_a_fill_into_a_view_whose_elements_overlap_writes_as_torch(view: str, write: str
                                                                   ) -> None:
    """Leftover of session 35: ``x.as_strided((2, 2), (1, 1)).add_(1)`` computed all
    elements first and wrote them at once, where torch's kernel writes a shared place once per
    element (a silently different result); and a fill (``fill_``, ``x[0] = 7``, a masked
    fill) into an unfold's overlapping windows was refused. A fill is the same whatever the
    order: minitorch writes it as torch does, and refuses the rest (below)."""
    def program(L: Any) -> Any:
        x = L.arange(6.)
        v = OVERLAPPING_VIEWS[view](x)
        exec(write, {"v": v, "L": L})
        return x, v.clone()
    assert_as_torch(program)


@pytest.mark.parametrize("view", OVERLAPPING_VIEWS)
@pytest.mark.parametrize("write", ["v.add_(1)", "v.mul_(L.tensor([1., 2.]))", "v.exp_()",
                                   "v.copy_(L.ones(v.shape))"])
def test_arithmetic_into_overlapping_elements_is_refused_and_writes_nothing(
        view: str, write: str) -> None:
    """An op whose result depends on the order torch's kernel writes shared places in is
    refused with advice, and the tensor keeps its values."""
    x = mt.arange(6.)
    with pytest.raises(RuntimeError, match=r"overlap in memory.*clone\(\)"):
        exec(write, {"v": OVERLAPPING_VIEWS[view](x), "L": mt})
    assert x.tolist() == [0.0, 1.0, 2.0, 3.0, 4.0, 5.0]


@pytest.mark.parametrize("write", ["v.fill_(w)", "v[0] = w", "v.masked_fill_(v > 1, w)"])
def test_a_recorded_fill_into_overlapping_elements_is_refused(write: str) -> None:
    """Under autograd, CopySlices would send a shared place's gradient once per element
    showing it (torch gives it once): refused rather than a wrong gradient."""
    x = mt.arange(4., requires_grad=True) * 1
    w = mt.tensor(3., requires_grad=True)
    with pytest.raises(RuntimeError, match=r"overlap in memory.*clone\(\)"):
        exec(write, {"v": x.unfold(0, 2, 1), "w": w})


def _random_indexing(seed: int) -> tuple[Callable[[Any], Any], Callable[[Any, Any], Any]]:
    """A random tensor layout (permuted, stepped, expanded) and a random key mixing slices,
    ints, None, ``...``, integer lists and bool masks; as two functions of the library."""
    rng = np.random.default_rng(seed)
    ndim = int(rng.integers(1, 5))
    shape = [int(n) for n in rng.integers(1, 4, ndim)]
    order = [int(d) for d in rng.permutation(ndim)]
    step = int(rng.integers(1, 3))
    expand = ndim > 1 and rng.random() < 0.2

    def make(L: Any) -> Any:
        base = L.arange(float(np.prod(shape) * step)).reshape(*shape[:-1], shape[-1] * step)
        x = base[..., ::step].permute(*order)
        if expand:
            x = x[:1].expand(2, *x.shape[1:])
        return x

    sizes = [shape[d] for d in order]
    if expand:
        sizes[0] = 2
    parts: list[Any] = []
    for n in sizes:
        kind = rng.choice(["slice", "int", "list", "mask", "keep", "none"])
        if kind == "slice":
            parts.append(slice(int(rng.integers(0, n)), None, int(rng.integers(1, 3))))
        elif kind == "int":
            parts.append(int(rng.integers(-n, n)))
        elif kind == "list":
            parts.append([int(i) for i in rng.integers(-n, n, int(rng.integers(1, 4)))])
        elif kind == "mask":
            parts.append([bool(b) for b in rng.random(n) < 0.6])
        elif kind == "none":
            parts += [None, slice(None)]
        else:
            parts.append(slice(None))
    if rng.random() < 0.3 and len(parts) > 1:
        parts[int(rng.integers(0, len(parts)))] = Ellipsis

    def key(L: Any, x: Any) -> Any:
        return tuple(L.tensor(p) if isinstance(p, list) and isinstance(p[0], bool) else p
                     for p in parts)
    return make, key


@pytest.mark.parametrize("seed", range(1000))
def test_an_indexing_result_has_torchs_memory_layout(seed: int) -> None:
    """``x[:, [0, 1]].view(-1)`` raised "view size is not compatible" where torch returns: the
    result kept numpy's fancy-index layout (the indexed dim outermost in memory), where
    torch's index kernel lays its output out by the source's and the indices' strides
    (contiguous for a contiguous source); and a bool mask beside an int put its dim where
    numpy puts it (in front), not where torch does. Checked: values, shape, ``stride()``
    (of a result with elements: an empty one's size-1 dims' strides are left), and whether
    ``view(-1)`` succeeds, over random layouts and keys."""
    make, key = _random_indexing(seed)

    def program(L: Any) -> Any:
        x = make(L)
        y = x[key(L, x)]
        flat = y.view(-1) if y.is_contiguous() or y.dim() < 2 else None
        return y, tuple(y.stride()) if y.numel() else None, y.is_contiguous(), flat
    assert_as_torch(program)


OUT_CALLS = {
    "add": lambda L, a, b, out: L.add(a, b, out=out),
    "mul": lambda L, a, b, out: L.mul(a, 2, out=out),
    "exp": lambda L, a, b, out: L.exp(a, out=out),
    "atan2": lambda L, a, b, out: L.atan2(a, b, out=out),
    "maximum": lambda L, a, b, out: L.maximum(a, b, out=out),
    "clamp": lambda L, a, b, out: L.clamp(a, 0, out=out),
    "clamp_min": lambda L, a, b, out: L.clamp_min(a, 2, out=out),
    "clamp tensor": lambda L, a, b, out: L.clamp(a, b, out=out),
    "addcmul": lambda L, a, b, out: L.addcmul(a, b, a, out=out),
    "lerp": lambda L, a, b, out: L.lerp(a, b, 0.5, out=out),
    "logaddexp": lambda L, a, b, out: L.logaddexp(a, b, out=out),
    "where": lambda L, a, b, out: L.where(a > 2, a, b, out=out),
}
# (a, b, out) as views of one 4x4 tensor x: out is a, b, shifted by one, transposed, ...
OUT_RELATIONS = {
    "out is a": "a = x[:3, :3]; b = x[1:, 1:].clone(); out = a",
    "out shifted over a": "a = x.view(-1)[:12]; b = a.clone(); out = x.view(-1)[4:]",
    "out a's transpose": "a = x; b = x.clone(); out = x.t()",
    "out shifted over b": "a = x[:3].clone(); b = x[:3]; out = x[1:]",
    "out disjoint": "a = x[:2]; b = x[2:]; out = L.empty(2, 4)",
    "out interleaved": "a = x.view(-1)[::2]; b = a.clone(); out = x.view(-1)[1::2]",
    "out b, broadcast": "a = x; b = x[:1].clone(); out = b",
}


@pytest.mark.parametrize("call", OUT_CALLS)
@pytest.mark.parametrize("relation", OUT_RELATIONS)
def test_out_sharing_memory_with_an_operand_is_checked_as_torchs_tensor_iterator(
        call: str, relation: str) -> None:
    """Math fuzz: ``clamp(x, 0, out=x.t())`` and ``where(c, x, y, out=y)`` of a smaller y
    returned; torch's TensorIterator refuses an out that shares some bytes with an operand
    without being laid out alike over them ("some elements of the input tensor and the
    written-to tensor refer to a single memory location"), and an out that is an operand but
    would have to be resized."""
    def program(L: Any) -> Any:
        scope = {"L": L, "x": L.arange(16.).view(4, 4)}
        exec(OUT_RELATIONS[relation], scope)
        result = OUT_CALLS[call](L, scope["a"], scope["b"], scope["out"])
        return result, scope["x"]
    assert_as_torch(program, assert_same)


PRODUCTS = {
    "addmm": lambda L, c, z, beta: c.addmm(z(2, 0), z(0, 2), beta=beta),
    "addbmm": lambda L, c, z, beta: c.addbmm(z(3, 2, 0), z(3, 0, 2), beta=beta),
    "addbmm of no batch": lambda L, c, z, beta: c.addbmm(z(0, 2, 1), z(0, 1, 2), beta=beta),
    "baddbmm": lambda L, c, z, beta: c.expand(1, 2, 2).baddbmm(z(1, 2, 0), z(1, 0, 2),
                                                               beta=beta),
    "addmm of int": lambda L, c, z, beta: c.long().addmm(z(2, 0).long(), z(0, 2).long(),
                                                         beta=beta)}


@pytest.mark.parametrize("product", PRODUCTS)
@pytest.mark.parametrize("beta", [1, 0, 3])
@pytest.mark.parametrize("dtype", ["float32", "float16", "float64"])
def test_a_product_adding_up_nothing_is_beta_times_the_bias_as_torch(
        product: str, beta: int, dtype: str) -> None:
    """Math fuzz: ``c.addmm(zeros(2, 0), zeros(0, 2))`` printed ``0.0`` where ``c`` held
    ``-0.0``: torch's kernel copies the bias (times beta) when the product adds up no terms;
    numpy's ``bias + 0`` turns -0.0 into 0.0."""
    def program(L: Any) -> Any:
        c = L.tensor([[-0.0, -1.5]], dtype=getattr(L, dtype))
        result = PRODUCTS[product](L, c, lambda *size: L.zeros(*size, dtype=c.dtype), beta)
        return result, L.signbit(result)  # (-0.0 equals 0.0)
    assert_as_torch(program)
