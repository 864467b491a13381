"""A bad-input fuzzer with live torch as the oracle.

Each *call* of the catalogue is a public minitorch function with argument slots; each slot
draws from a pool of bad and edge values of its kind (sizes, dims, flags, numbers, dtypes,
data, indices, tensors). The same drawn call runs on torch and on minitorch, and the pair of
outcomes is classified:

- ``same``: both raise the same exception type with the same message (normalised), or both
  return equal results;
- ``message``: the same exception type, another message;
- ``silent``: torch refuses, minitorch returns;
- ``internal``: minitorch's exception comes from inside numpy or from a minitorch line that
  is not a ``raise`` statement (a raw Python error reaching the user);
- ``different``: both return, with different results (or different exception types);
- ``refused``: torch returns, minitorch refuses (deliberately).

Run it by hand for the numbers::

    python tests/badinput.py --seed 1 --calls 3000

>>> counts, _ = fuzz(seed=0, calls=20)
>>> sum(counts.values())
20
"""

from __future__ import annotations

import argparse
import math
import random
import re
import traceback
import warnings
from collections import Counter
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np
import torch

import minitorch as mt

MINITORCH_DIR = str(Path(mt.__file__).resolve().parent)
PYTHON_SIGNATURE = re.compile(r"\(\) (got an unexpected keyword argument|missing \d+ required|"
                              r"takes \d+ positional argument|got multiple values for)")
OUTCOMES = ("same", "message", "silent", "internal", "different", "refused")


# ---------------------------------------------------------------------------- value pools
# A value is a function of the library, so tensors and dtypes are built for each side.

def _const(v: Any) -> Callable[[Any], Any]:
    return lambda L: v


def _tensor(shape: tuple, dtype: str = "float32", transposed: bool = False,
            requires_grad: bool = False) -> Callable[[Any], Any]:
    def make(L: Any) -> Any:
        n = math.prod(shape)
        values = (np.arange(n) % 5 - 2).reshape(shape)
        t = L.tensor(values.tolist() if shape else values.item(), dtype=getattr(L, dtype))
        if transposed and t.dim() >= 2:
            t = t.transpose(0, 1)
        return t.requires_grad_() if requires_grad else t

    make.__name__ = f"tensor{shape}{dtype}{'T' if transposed else ''}"
    return make


SIZE_ITEMS = [0, 1, 2, 3, -1, -2, True, False, 2.0, 2.5, None, "a", np.int64(2), 2 ** 63]
SIZES = ([_const(()), _const((2, 3)), _const([2, 3]), _const((2.5,)), _const((True, 2)),
          _const((2, -1)), _const([2, [3]]), _const((3, 2)), _const((-1, 3)), _const((6,)),
          _const((1, -1)), _const((0, -1)), _const((-1, -1)), _const((2, 0))]
         + [_const((s,)) for s in SIZE_ITEMS]
         + [lambda L: (L.tensor(2),), lambda L: (L.tensor(2.0),)])
INTS = [_const(v) for v in (0, 1, 2, 3, 5, -1, -3, True, 2.5, None, "a", np.int64(2), 2 ** 63)]
DIMS = [_const(v) for v in (0, 1, -1, 2, -2, 3, -3, 5, True, 1.5, None, "a", (0, 1), [0, -1],
                            (0, 0), (), (0, 1.5), np.int64(1))] + [lambda L: L.tensor(1)]
FLAGS = [_const(v) for v in (True, False, 1, 0, "yes", None, 1.5, np.bool_(True))]
NUMBERS = [_const(v) for v in (0, 1, -1, 2.5, -0.5, math.nan, math.inf, -math.inf, 2 ** 63,
                               2 ** 64, -(2 ** 63) - 1, 2 ** 1100, True, 1e308, 1j, "a", None)]
DTYPES = [lambda L: L.float32, lambda L: L.float64, lambda L: L.int64, lambda L: L.bool,
          _const(None), _const("float32"), _const(float), _const(int)]
DATA = [_const(v) for v in (
    [1, 2], [1.0, 2.5], [[1, 2], [3]], [1, [2]], [[1, 2], 3], [], [[], []], [[], [1]],
    [True, 2], "abc", b"1", None, {}, [None], 1j, [1j], 2 ** 63, [1, 2 ** 64], math.nan,
    [math.inf], 1e308, -(2 ** 63) - 1, 2 ** 1100, [1e30], 3, -1.5, True, ((1, 2), (3, 4)),
    np.array([1.5, math.nan]), np.int32(4))]
TENSORS = [_tensor(s, d, tr) for s, d, tr in (
    ((), "float32", False), ((0,), "float32", False), ((3,), "float32", False),
    ((2, 3), "float32", False), ((2, 3), "float32", True), ((0, 3), "float32", False),
    ((2, 1, 3), "float32", False), ((3,), "int64", False), ((2, 3), "int64", False),
    ((3,), "bool", False), ((2, 3), "float64", False), ((4, 2, 3), "float32", False),
    ((1, 3), "float32", False), ((3, 2), "float32", True))]
INDICES = ([_const(v) for v in (0, 1, -1, 2, 5, -4, 1.5, True, False, None, Ellipsis, "a",
                                slice(None), slice(0, 2), slice(None, None, 2),
                                slice(None, None, 0), slice(None, None, -1), slice(0, 1.5),
                                (0, 0), (0, 0, 0), (None, 1.5), (Ellipsis, None), (True, 0),
                                [0, 1], [1.5], [True, False], [5], np.int64(1), 2 ** 63,
                                np.float64(1.0), {})]
           + [lambda L: L.tensor([0, 1]), lambda L: L.tensor([1.0]), lambda L: L.tensor(1),
              lambda L: L.tensor([True, False]), lambda L: L.tensor([5])])


# ---------------------------------------------------------------------------- the catalogue
def _hooked(kind: str) -> Callable[..., Any]:
    """A backward through a hook that returns ``result(grad)``."""
    results: dict[str, Callable[[Any], Any]] = {
        "double": lambda g: g.double(), "long": lambda g: g.long(), "int": lambda g: 3,
        "shape": lambda g: g[:1], "none": lambda g: None, "same": lambda g: g * 2,
    }

    def call(L: Any, leaf: bool) -> Any:
        x = L.ones(2, requires_grad=True)
        y = x * 2
        (x if leaf else y).register_hook(results[kind])
        y.sum().backward()
        return x.grad

    return call


def _node_hook(L: Any, kind: str) -> Any:
    x = L.ones(2, requires_grad=True)
    y = x * 2
    results = {"int": lambda gi, go: 3, "short": lambda gi, go: (), "none": lambda gi, go: None}
    y.grad_fn.register_hook(results[kind])
    y.sum().backward()
    return x.grad


def _post_hook(L: Any, returns: bool) -> Any:
    x = L.ones(2, requires_grad=True)
    x.register_post_accumulate_grad_hook(lambda t: t * 2 if returns else None)
    (x * 2).sum().backward()
    return x.grad


def _dirty(L: Any, returned: bool) -> Any:
    class F(L.autograd.Function):
        @staticmethod
        def forward(ctx: Any, a: Any, b: Any) -> Any:
            b.add_(1)
            ctx.mark_dirty(b)
            return (a.clone(), b) if returned else a.clone()

        @staticmethod
        def backward(ctx: Any, *g: Any) -> Any:
            return g[0], None

    return F.apply(L.ones(2, requires_grad=True), L.ones(2))


def _backward(L: Any, retain: Any, create: Any) -> Any:
    x = L.ones(2, requires_grad=True)
    (x * x).sum().backward(retain_graph=retain, create_graph=create)
    return x.grad


def _grad(L: Any, inputs: str, flag: Any) -> Any:
    x = L.ones(2, requires_grad=True)
    y = (x * x).sum()
    chosen = {"none": [], "tuple": (), "int": [3], "x": [x], "detached": [L.ones(2)]}[inputs]
    return L.autograd.grad(y, chosen, allow_unused=flag)


def _in_inference_mode(L: Any, flag: Any) -> Any:
    with L.inference_mode(flag):
        return (L.ones(2) * 2).is_inference()


def _setitem(L: Any, t: Any, index: Any, value: Any) -> Any:
    t = t.clone()
    t[index] = value
    return t


def _view_write(L: Any, t: Any, shape: Any) -> Any:
    """A write through ``view`` reaches the base: the aliasing torch promises."""
    base = t.clone()
    v = base.view(shape)
    v.zero_()
    return base


CALLS: dict[str, tuple[Callable[..., Any], list[list[Callable[[Any], Any]]]]] = {
    "zeros(size)": (lambda L, s: L.zeros(*s), [SIZES]),
    "zeros(n)": (lambda L, n: L.zeros(n), [INTS]),
    "ones(size, dtype, requires_grad)": (
        lambda L, s, d, r: L.ones(s, dtype=d, requires_grad=r), [SIZES, DTYPES, FLAGS]),
    "empty(size)": (lambda L, s: L.empty(*s).shape, [SIZES]),
    "rand(size)": (lambda L, s: L.rand(*s).shape, [SIZES]),
    "randn(n, dtype)": (lambda L, n, d: L.randn(n, dtype=d).shape, [INTS, DTYPES]),
    "full(size, fill, dtype)": (lambda L, s, v, d: L.full(s, v, dtype=d),
                                [SIZES, NUMBERS, DTYPES]),
    "full(n, fill)": (lambda L, n, v: L.full(n, v), [INTS, NUMBERS]),
    "arange(end)": (lambda L, e: L.arange(e), [NUMBERS]),
    "arange(start, end, step, dtype)": (lambda L, a, b, c, d: L.arange(a, b, c, dtype=d),
                                        [NUMBERS, NUMBERS, NUMBERS, DTYPES]),
    "arange(int, int, number)": (lambda L, a, b, c: L.arange(a, b, c), [INTS, INTS, NUMBERS]),
    "eye(n, m)": (lambda L, n, m: L.eye(n, m), [INTS, INTS]),
    "eye(n)": (lambda L, n: L.eye(n), [INTS]),
    "tensor(data, dtype)": (lambda L, x, d: L.tensor(x, dtype=d), [DATA, DTYPES]),
    "tensor(data)": (lambda L, x: L.tensor(x), [DATA]),
    "tensor(number, dtype)": (lambda L, x, d: L.tensor(x, dtype=d), [NUMBERS, DTYPES]),
    "x.view(size)": (lambda L, t, s: t.view(s), [TENSORS, SIZES]),
    "x.view(*size)": (lambda L, t, s: t.view(*s), [TENSORS, SIZES]),
    "x.reshape(size)": (lambda L, t, s: t.reshape(s), [TENSORS, SIZES]),
    "x.view(n) write": (_view_write, [TENSORS, INTS]),
    "x.expand(size)": (lambda L, t, s: t.expand(*s), [TENSORS, SIZES]),
    "x.size(dim)": (lambda L, t, d: t.size(d), [TENSORS, DIMS]),
    "x.sum(dim, keepdim)": (lambda L, t, d, k: t.sum(d, keepdim=k), [TENSORS, DIMS, FLAGS]),
    "x.sum(dim)": (lambda L, t, d: t.sum(d), [TENSORS, DIMS]),
    "x.mean(dim)": (lambda L, t, d: t.mean(d), [TENSORS, DIMS]),
    "x.max(dim)": (lambda L, t, d: tuple(t.max(d)), [TENSORS, DIMS]),
    "x.min(dim, keepdim)": (lambda L, t, d, k: tuple(t.min(d, keepdim=k)),
                            [TENSORS, DIMS, FLAGS]),
    "x.max()": (lambda L, t: t.max(), [TENSORS]),
    "x.argmax(dim)": (lambda L, t, d: t.argmax(d), [TENSORS, DIMS]),
    "x.argmax()": (lambda L, t: t.argmax(), [TENSORS]),
    "x.softmax(dim)": (lambda L, t, d: t.softmax(d), [TENSORS, DIMS]),
    "x.log_softmax(dim)": (lambda L, t, d: t.log_softmax(d), [TENSORS, DIMS]),
    "x.unsqueeze(dim)": (lambda L, t, d: t.unsqueeze(d), [TENSORS, DIMS]),
    "x.squeeze(dim)": (lambda L, t, d: t.squeeze(d), [TENSORS, DIMS]),
    "x.transpose(dim, dim)": (lambda L, t, a, b: t.transpose(a, b), [TENSORS, DIMS, DIMS]),
    "x.permute(dims)": (lambda L, t, d: t.permute(d), [TENSORS, DIMS]),
    "x.flatten(dim, dim)": (lambda L, t, a, b: t.flatten(a, b), [TENSORS, DIMS, DIMS]),
    "x.unbind(dim)": (lambda L, t, d: t.unbind(d), [TENSORS, DIMS]),
    "x.narrow(dim, start, length)": (lambda L, t, d, s, n: t.narrow(d, s, n),
                                     [TENSORS, DIMS, INTS, INTS]),
    "x[index]": (lambda L, t, i: t[i], [TENSORS, INDICES]),
    "x[index] = number": (_setitem, [TENSORS, INDICES, NUMBERS]),
    "x * number": (lambda L, t, v: t * v, [TENSORS, NUMBERS]),
    "x + number": (lambda L, t, v: t + v, [TENSORS, NUMBERS]),
    "number - x": (lambda L, t, v: v - t, [TENSORS, NUMBERS]),
    "x / number": (lambda L, t, v: t / v, [TENSORS, NUMBERS]),
    "x < number": (lambda L, t, v: t < v, [TENSORS, NUMBERS]),
    "x + y": (lambda L, a, b: a + b, [TENSORS, TENSORS]),
    "cat([x, y], dim)": (lambda L, a, b, d: L.cat([a, b], d), [TENSORS, TENSORS, DIMS]),
    "stack([x, y], dim)": (lambda L, a, b, d: L.stack([a, b], d), [TENSORS, TENSORS, DIMS]),
    "cat(x)": (lambda L, a: L.cat(a), [TENSORS]),
    "bmm(x, y)": (lambda L, a, b: L.bmm(a, b), [TENSORS, TENSORS]),
    "mv(x, y)": (lambda L, a, b: L.mv(a, b), [TENSORS, TENSORS]),
    "mm(x, y)": (lambda L, a, b: L.mm(a, b), [TENSORS, TENSORS]),
    "x @ y": (lambda L, a, b: a @ b, [TENSORS, TENSORS]),
    "x.contiguous().view(-1)": (lambda L, t: t.contiguous().view(-1), [TENSORS]),
    "x.is_contiguous()": (lambda L, t: t.is_contiguous(), [TENSORS]),
    "x.requires_grad_(flag)": (lambda L, t, f: t.requires_grad_(f).requires_grad,
                               [TENSORS, FLAGS]),
    "set_grad_enabled(flag)": (lambda L, f: L.set_grad_enabled(f).__exit__(None, None, None),
                               [FLAGS]),
    "backward(retain, create)": (_backward, [FLAGS, FLAGS]),
    "grad(y, inputs, allow_unused)": (_grad, [[_const(k) for k in ("none", "tuple", "int", "x",
                                                                  "detached")], FLAGS]),
    "tensor hook result": (lambda L, k, leaf: _hooked(k)(L, leaf),
                           [[_const(k) for k in ("double", "long", "int", "shape", "none",
                                                 "same")], [_const(True), _const(False)]]),
    "node hook result": (_node_hook, [[_const(k) for k in ("int", "short", "none")]]),
    "post-accumulate hook result": (_post_hook, [[_const(True), _const(False)]]),
    "mark_dirty(input)": (_dirty, [[_const(True), _const(False)]]),
    "nn.Linear(n, m)": (lambda L, n, m: tuple(L.nn.Linear(n, m).weight.shape), [INTS, INTS]),
    "nn.Linear(2, 3, bias)": (lambda L, b: L.nn.Linear(2, 3, bias=b).bias is None, [FLAGS]),
    "x.clamp(min, max)": (lambda L, t, a, b: t.clamp(a, b), [TENSORS, NUMBERS, NUMBERS]),
    "x ** number": (lambda L, t, v: t ** v, [TENSORS, NUMBERS]),
    "number ** x": (lambda L, t, v: v ** t, [TENSORS, NUMBERS]),
    "x.exp()": (lambda L, t: t.exp(), [TENSORS]),
    "x.log()": (lambda L, t: t.log(), [TENSORS]),
    "x.sqrt()": (lambda L, t: t.sqrt(), [TENSORS]),
    "x.sigmoid()": (lambda L, t: t.sigmoid(), [TENSORS]),
    "x.relu()": (lambda L, t: t.relu(), [TENSORS]),
    "x.abs()": (lambda L, t: t.abs(), [TENSORS]),
    "-x": (lambda L, t: -t, [TENSORS]),
    "~x": (lambda L, t: ~t, [TENSORS]),
    "x & y": (lambda L, a, b: a & b, [TENSORS, TENSORS]),
    "maximum(x, y)": (lambda L, a, b: L.maximum(a, b), [TENSORS, TENSORS]),
    "x.var(dim)": (lambda L, t, d: t.var(d), [TENSORS, DIMS]),
    "x.std()": (lambda L, t: t.std(), [TENSORS]),
    "x.item()": (lambda L, t: t.item(), [TENSORS]),
    "x.tolist()": (lambda L, t: t.tolist(), [TENSORS]),
    "x.T": (lambda L, t: t.T, [TENSORS]),
    "x.to(dtype)": (lambda L, t, d: t.to(d), [TENSORS, DTYPES]),
    "x.fill_(number)": (lambda L, t, v: t.clone().fill_(v), [TENSORS, NUMBERS]),
    "x.add_(y)": (lambda L, a, b: a.clone().add_(b), [TENSORS, TENSORS]),
    "x.mul_(number)": (lambda L, t, v: t.clone().mul_(v), [TENSORS, NUMBERS]),
    "x.copy_(y)": (lambda L, a, b: a.clone().copy_(b), [TENSORS, TENSORS]),
    "x.zero_()": (lambda L, t: t.clone().zero_(), [TENSORS]),
    "x.requires_grad = flag": (lambda L, t, f: setattr(t, "requires_grad", f), [TENSORS, FLAGS]),
    "x.register_hook (no grad)": (lambda L, t: t.register_hook(lambda g: g), [TENSORS]),
    "x.retain_grad() (no grad)": (lambda L, t: t.retain_grad(), [TENSORS]),
    "F.relu(x)": (lambda L, t: L.nn.functional.relu(t), [TENSORS]),
    "F.mse_loss(x, y)": (lambda L, a, b: L.nn.functional.mse_loss(a, b), [TENSORS, TENSORS]),
    "F.cross_entropy(x, y)": (lambda L, a, b: L.nn.functional.cross_entropy(a, b),
                              [TENSORS, TENSORS]),
    "F.softmax(x, dim)": (lambda L, t, d: L.nn.functional.softmax(t, d), [TENSORS, DIMS]),
    "F.dropout(x, p)": (lambda L, t, p: L.nn.functional.dropout(t, p, training=False),
                        [TENSORS, NUMBERS]),
    "optim.SGD(lr)": (lambda L, lr: type(L.optim.SGD([L.ones(1, requires_grad=True)],
                                                     lr=lr)).__name__,
                      [NUMBERS]),
    "inference_mode(flag)": (_in_inference_mode, [FLAGS]),
    "x.detach()": (lambda L, t: t.detach(), [TENSORS]),
    "ones_like(x, dtype)": (lambda L, t, d: L.ones_like(t, dtype=d), [TENSORS, DTYPES]),
    "zeros_like(x)": (lambda L, t: L.zeros_like(t), [TENSORS]),
    "stack(list)": (lambda L, n: L.stack([L.ones(2)] * n if isinstance(n, int) else n),
                    [INTS]),
}


# ---------------------------------------------------------------------------- running a call
def _run(fn: Callable[..., Any], lib: Any, slots: list[Callable[[Any], Any]]) -> tuple:
    """(result, exception) of ``fn(lib, *args)`` with the slots' values built for ``lib``."""
    try:
        args = [make(lib) for make in slots]
    except Exception as error:
        return None, error, True
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        try:
            return fn(lib, *args), None, False
        except Exception as error:
            return None, error, False


def same_message(torch_message: str, message: str) -> bool:
    """True if minitorch's message is torch's, with torch's unavoidable differences taken
    out: C++ frames are dropped (from both: minitorch's copy of their header too), and where
    torch lists the
    overloads of its C++ signature (which minitorch does not have), only the function named
    at the start must agree.

    >>> same_message("sum() received an invalid combination of arguments - got (str), ...",
    ...              "sum(): argument 'dim' must be int, not str")
    True
    """
    want, message = (re.sub(r"\nException raised from .*?(?=\"|$)", "", text, flags=re.S)
                     for text in (torch_message, message))  # (minitorch's header of it too)
    if " received an invalid combination of arguments" in want:
        return message.startswith(want.split(" received")[0])
    return want.strip() == message.strip()


def is_deliberate(error: BaseException) -> bool:
    """True if ``error`` was raised by a ``raise`` statement of minitorch (or of the caller's
    own code, such as a hook), not inside numpy or by a Python builtin misused."""
    frames = traceback.extract_tb(error.__traceback__)
    if isinstance(error, TypeError) and PYTHON_SIGNATURE.search(str(error)):
        return True  # Python refused the call's arguments: a clear message, as in torch
    if not frames:
        return False
    last = frames[-1]
    filename = str(Path(last.filename).resolve())
    if not filename.startswith(MINITORCH_DIR):
        return Path(filename).parent == Path(__file__).resolve().parent  # the caller's code
    return (last.line or "").lstrip().startswith("raise")


def _same_value(a: Any, b: Any) -> bool:
    if isinstance(b, torch.Tensor):
        if not isinstance(a, mt.Tensor) or tuple(a.shape) != tuple(b.shape):
            return False
        if a.dtype.name != str(b.dtype).replace("torch.", ""):
            return False
        x, y = a.detach().numpy(), b.detach().numpy()
        return bool(np.array_equal(x, y, equal_nan=x.dtype.kind == "f")) or (
            x.dtype.kind == "f" and np.allclose(x, y, rtol=1e-6, equal_nan=True))
    if isinstance(b, tuple | list):  # torch.Size and minitorch.Size are tuples
        return isinstance(a, tuple | list) and len(a) == len(b) and all(
            _same_value(x, y) for x, y in zip(a, b))
    if isinstance(b, float) and math.isnan(b):
        return isinstance(a, float) and math.isnan(a)
    if isinstance(a, mt.Tensor):
        return False
    if isinstance(b, torch.dtype):
        return isinstance(a, mt.dtype) and a.name == str(b).replace("torch.", "")
    if callable(b) and not isinstance(b, type):  # a decorated function, a hook handle's method
        return callable(a)
    return type(a) is type(b) and a == b


def classify(fn: Callable[..., Any], slots: list[Callable[[Any], Any]]) -> tuple[str, str]:
    """The outcome class of one call, and a line saying what each side did."""
    want, t_err, skip = _run(fn, torch, slots)
    if skip:
        return "skip", ""
    got, m_err, skip = _run(fn, mt, slots)
    if skip:
        return "internal", f"building the arguments failed: {m_err!r}"
    try:
        said = (f"torch: {type(t_err).__name__}: {str(t_err)[:150]!r}" if t_err else
                f"torch: {want!r:.150}") + " | "
    except Exception:  # torch's own result fails to print (an overflowing float16 repr)
        return "skip", ""
    try:
        said += (f"minitorch: {type(m_err).__name__}: {str(m_err)[:150]!r}" if m_err else
                 f"minitorch: {got!r:.150}")
    except Exception as error:  # a result that cannot even print itself is broken
        return "internal", f"{said}minitorch's result fails to print: {error!r}"
    if m_err is not None and not is_deliberate(m_err) and not (
            type(t_err) is type(m_err) and same_message(str(t_err), str(m_err))):
        frame = traceback.extract_tb(m_err.__traceback__)[-1]
        return "internal", f"{said} at {frame.filename}:{frame.lineno}"
    if t_err is not None and m_err is None:
        return "silent", said
    if t_err is None and m_err is not None:
        return "refused", said
    if t_err is not None:
        if type(t_err) is not type(m_err):
            return "different", said
        return ("same" if same_message(str(t_err), str(m_err)) else "message"), said
    return ("same" if _same_value(got, want) else "different"), said


def fuzz(seed: int, calls: int, catalogue: dict | None = None
         ) -> tuple[Counter, dict[str, list[str]]]:
    """Run ``calls`` random calls of ``catalogue`` (default :data:`CALLS`) drawn with
    ``seed``; the counts per outcome and the details of every call whose outcome is not
    ``same``."""
    catalogue = CALLS if catalogue is None else catalogue
    rng = random.Random(seed)
    names = sorted(catalogue)
    counts: Counter = Counter()
    details: dict[str, list[str]] = {k: [] for k in OUTCOMES}
    done = 0
    while done < calls:
        name = rng.choice(names)
        fn, pools = catalogue[name]
        picks = [rng.choice(pool) for pool in pools]
        outcome, said = classify(fn, picks)
        if outcome == "skip":
            continue
        done += 1
        counts[outcome] += 1
        if outcome != "same":
            args = ", ".join(getattr(p, "__name__", "?") if p.__name__ != "<lambda>" else
                             _describe(p) for p in picks)
            details[outcome].append(f"{name} [{args}]: {said}")
    return counts, details


def _describe(make: Callable[[Any], Any]) -> str:
    try:
        return repr(make(None))[:40]
    except Exception:
        return "<built>"


def catalogues() -> dict[str, dict]:
    """The catalogues by name: this module's, the wider one of ``badinput_wide``, both."""
    from badinput_wide import WIDE_CALLS

    return {"base": CALLS, "wide": WIDE_CALLS, "all": {**CALLS, **WIDE_CALLS}}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--calls", type=int, default=3000)
    parser.add_argument("--show", default="silent,internal,different,refused,message")
    parser.add_argument("--catalogue", choices=("base", "wide", "all"), default="base",
                        help="base: CALLS here; wide: badinput_wide.WIDE_CALLS; all: both")
    args = parser.parse_args()
    counts, details = fuzz(args.seed, args.calls, catalogues()[args.catalogue])
    for kind in args.show.split(","):
        for line in sorted(set(details.get(kind, []))):
            print(f"{kind}: {line}")
    print(", ".join(f"{k} {counts[k]}" for k in OUTCOMES), f"of {args.calls} calls")


if __name__ == "__main__":
    main()
