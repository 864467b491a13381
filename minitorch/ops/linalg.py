"""Matrix products: dot, mv, mm, bmm, addmm, and matmul's dispatch between them.

>>> import minitorch
>>> a = minitorch.ones(2, 3, requires_grad=True)
>>> (a @ minitorch.ones(3, 4)).grad_fn.name(), (a @ minitorch.ones(3)).grad_fn.name()
('MmBackward0', 'MvBackward0')
"""

from __future__ import annotations

import math
from typing import Any

from .. import _args, _call_form, _mkl
from .._args import legacy
from .._tensor import Tensor, expanded_shape, sum_to, sum_to_array
from ..autograd import profiler, torch_events
from ..backend import element_strides, half_via_float, namespace
from ._base import Op, check_same_device, kept, like, wrap
from ._out import takes_out
from .shape import Clone, UnsafeView


def _same_dtype(a: Tensor, b: Tensor, kernel: str, runs: bool = True) -> None:
    """Both operands on one device, of one dtype that ``kernel`` has (not bool, as torch):
    the kernel's own checks only where it ``runs`` (see :func:`unrun_product`)."""
    check_same_device(a, b)
    if kernel == "bmm" and not runs:  # all of bmm's dtype checks are its kernel's
        return
    if kernel == "bmm" and a.dtype.name == "bool":  # bmm's kernel is chosen by a's dtype
        raise _args.not_implemented(kernel, a.dtype)
    if a.dtype is not b.dtype and kernel in ("dot", "addmv_impl_cpu", "bmm"):
        x, y = legacy(a.dtype), legacy(b.dtype)
        raise RuntimeError({
            "dot": f"dot : expected both vectors to have same dtype, but found {x} and {y}",
            "addmv_impl_cpu": f"addmv input tensors must have the same dtype, but got {y}, "
                              f"{x}, and {y}",
            "bmm": f"expected scalar type {x} but found {y}"}[kernel])
    same_matrix_dtypes(a, b)
    if a.dtype.name == "bool" and runs:
        raise _args.not_implemented(kernel, a.dtype)


def unrun_product(like: Tensor, shape: tuple, terms: int, dtype: Any, bias: Tensor | None = None,
                  beta: Any = 0) -> Any:
    """The result torch's CPU matrix products (``mm``, ``addmm``, ``bmm``, ``baddbmm``, ...)
    give without running their kernel, else None. Without it, no dtype is checked against
    the kernels (bool ones too), and ``alpha`` and ``beta`` are not read as the result's
    type: an empty result comes back as it is, and a product of no ``terms`` as
    :func:`scaled_bias` (zeros without a ``bias``).

    >>> import minitorch
    >>> a = minitorch.zeros(2, 0, dtype=minitorch.bool)
    >>> unrun_product(a, (2, 3), 0, minitorch.bool)
    array([[False, False, False],
           [False, False, False]])
    """
    if 0 in shape:
        return like.new_empty(shape, dtype=dtype)._data
    return None if terms else scaled_bias(like, shape, dtype, bias, beta)


def scaled_bias(like: Tensor, shape: tuple, dtype: Any, bias: Tensor | None, beta: Any) -> Any:
    """``beta * bias`` broadcast to ``shape``, as torch's matrix products write a product of
    no terms: zeros where ``beta`` is 0 (the bias's nans left out), else the bias copied into
    the result's ``dtype`` and then ``mul_(beta)``, with its rules (a complex ``beta`` of a
    real result refused, a float one of an integer result, an int one wrapping around).

    >>> import minitorch
    >>> b = minitorch.tensor([1, 2], dtype=minitorch.int8)
    >>> scaled_bias(b, (2, 2), minitorch.int8, b, 200)
    array([[ -56, -112],
           [ -56, -112]], dtype=int8)
    """
    if bias is None or beta == 0:
        return like.new_zeros(shape, dtype=dtype)._data
    out = bias.detach().expand(shape).to(dtype, copy=True)
    return out.mul_(beta)._data


def same_matrix_dtypes(a: Tensor, b: Tensor) -> None:
    """A matrix product's refusal of operands of two dtypes.

    >>> same_matrix_dtypes(minitorch.ones(1), minitorch.ones(1, dtype=minitorch.float64))
    Traceback (most recent call last):
    RuntimeError: expected m1 and m2 to have the same dtype, but got: float != double
    """
    if a.dtype is not b.dtype:
        raise RuntimeError(
            f"expected m1 and m2 to have the same dtype, but got: {_args.c_name(a.dtype)} != "
            f"{_args.c_name(b.dtype)}"
        )


def _matrices_saved(first: str) -> dict:
    """torch's ``_saved_<m>_sym_sizes`` and ``_sym_strides`` of a matrix product's two
    operands (``first``: the name of the first), read from what :func:`_keep_layouts` kept.
    """
    return {f"{name}_sym_{what}": kept(what, lambda kept_, i=i: kept_[i])
            for i, name in enumerate((first, "mat2")) for what in ("sizes", "strides")}


def _keep_layouts(ctx: Any, a: Tensor, b: Tensor, need_a: bool, need_b: bool) -> None:
    """The operands' sizes, and the strides of each one whose gradient is wanted (its
    gradient's layout follows them; torch keeps no others: ``()``)."""
    ctx.sizes = tuple(a.shape), tuple(b.shape)
    ctx.strides = a.stride() if need_a else (), b.stride() if need_b else ()


class Mm(Op):
    node_name = "MmBackward0"
    saved_names = ("mat2", "self")  # torch packs (and unpacks) mat2 first
    saved_values = _matrices_saved("self")
    _profile_name = "aten::mm"
    _profile_inner = staticmethod(torch_events.blas_operands)

    @staticmethod
    def forward(ctx: Any, a: Tensor, b: Tensor) -> Tensor:
        if a.dim() != 2 or b.dim() != 2:
            raise RuntimeError(f"{'self' if a.dim() != 2 else 'mat2'} must be a matrix")
        if a._data.shape[1] != b._data.shape[0]:
            raise RuntimeError(
                f"mat1 and mat2 shapes cannot be multiplied ({a.shape[0]}x{a.shape[1]} and "
                f"{b.shape[0]}x{b.shape[1]})"
            )
        done = unrun_product(a, (a.shape[0], b.shape[1]), a.shape[1], a.dtype)
        _same_dtype(a, b, "addmm_impl_cpu_", runs=done is None)
        need_a, need_b = ctx.needs_input_grad
        ctx.save_for_backward(b if need_a else None, a if need_b else None)
        ctx.column_major = _column_major(a._data), _column_major(b._data)
        _keep_layouts(ctx, a, b, need_a, need_b)
        return wrap(product(a._data, b._data) if done is None else done)

    @staticmethod
    def backward(ctx: Any, g: Tensor) -> tuple:
        b, a = ctx.saved_tensors
        return _mm_grad_tensors(a, b, g, ctx.column_major)

    @staticmethod
    def backward_arrays(ctx: Any, g: Any) -> Any:
        b, a = ctx.saved_tensors
        return _mm_grads(a, b, g, ctx.column_major)


class Mv(Op):
    node_name = "MvBackward0"
    saved_names = ("self", "vec")
    _profile_name = "aten::mv"

    @staticmethod
    def forward(ctx: Any, m: Tensor, v: Tensor) -> Tensor:
        if m.dim() == 0:
            raise IndexError("Dimension specified as 0 but tensor has no dimensions")
        if m.dim() != 2 or v.dim() != 1:
            raise RuntimeError(f"vector + matrix @ vector expected, got 1, {m.dim()}, "
                               f"{v.dim()}")
        if m.shape[1] != v.shape[0]:
            raise RuntimeError(
                f"size mismatch, got input ({m.shape[0]}), mat ({m.shape[0]}x{m.shape[1]}), "
                f"vec ({v.shape[0]})"
            )
        done = unrun_product(m, m.shape[:1], m.shape[1], m.dtype)
        _same_dtype(m, v, "addmv_impl_cpu", runs=done is None)
        need_m, need_v = ctx.needs_input_grad  # each saved for the other's gradient, as torch
        ctx.save_for_backward(m if need_v else None, v if need_m else None)
        if done is not None:
            return wrap(done)
        out = _mkl.gemv_product(m._data, v._data)
        return wrap(out if out is not None else m._xp.matmul(m._data, v._data))

    @staticmethod
    def backward(ctx: Any, g: Tensor) -> tuple:
        m, v = ctx.saved_tensors
        need_m, need_v = ctx.needs_input_grad
        return (g.unsqueeze(1) * v.unsqueeze(0) if need_m else None,
                m.t().mv(g) if need_v else None)


class Dot(Op):
    node_name = "DotBackward0"
    saved_names = ("self", "tensor")
    _profile_name = "aten::dot"

    @staticmethod
    def forward(ctx: Any, a: Tensor, b: Tensor) -> Tensor:
        if a.dim() != 1 or b.dim() != 1:
            raise RuntimeError(
                f"1D tensors expected, but got {a.dim()}D and {b.dim()}D tensors")
        if a.dtype is not b.dtype:  # torch: the dtypes' match, the sizes', then the kernel's
            _same_dtype(a, b, "dot")  # dtype (bool refused)
        if a.shape[0] != b.shape[0]:
            raise RuntimeError(
                f"inconsistent tensor size, expected tensor [{a.shape[0]}] and src "
                f"[{b.shape[0]}] to have the same number of elements, but got {a.shape[0]} and "
                f"{b.shape[0]} elements respectively"
            )
        _same_dtype(a, b, "dot")
        need_a, need_b = ctx.needs_input_grad  # each saved for the other's gradient, as torch
        ctx.save_for_backward(a if need_b else None, b if need_a else None)
        out = _mkl.dot_product(a._data, b._data)
        return wrap(out if out is not None else a._xp.vecdot(a._data, b._data))

    @staticmethod
    def backward(ctx: Any, g: Tensor) -> tuple:
        a, b = ctx.saved_tensors
        return None if b is None else g * b, None if a is None else g * a


class Bmm(Op):
    node_name = "BmmBackward0"
    saved_names = ("mat2", "self")  # torch's packing order
    _profile_name = "aten::bmm"

    @staticmethod
    def forward(ctx: Any, a: Tensor, b: Tensor) -> Tensor:
        for name, t in (("batch1", a), ("batch2", b)):
            if t.dim() != 3:
                raise RuntimeError(f"{name} must be a 3D tensor")
        if a.shape[0] != b.shape[0] or a.shape[2] != b.shape[1]:
            raise RuntimeError(
                f"Expected size for first two dimensions of batch2 tensor to be: "
                f"[{a.shape[0]}, {a.shape[2]}] but got: [{b.shape[0]}, {b.shape[1]}]."
            )
        # (torch's result takes batch2's dtype, which its kernel checks where it runs)
        done = unrun_product(a, (a.shape[0], a.shape[1], b.shape[2]), a.shape[2], b.dtype)
        _same_dtype(a, b, "bmm", runs=done is None)
        need_a, need_b = ctx.needs_input_grad  # each saved for the other's gradient, as torch
        ctx.save_for_backward(b if need_a else None, a if need_b else None)
        return wrap(batched_product(a._data, b._data) if done is None else done)

    @staticmethod
    def backward(ctx: Any, g: Tensor) -> tuple:
        b, a = ctx.saved_tensors
        return (None if b is None else g.bmm(b.transpose(1, 2)),
                None if a is None else a.transpose(1, 2).bmm(g))


def scaled_grad(g: Tensor, scale: Any) -> Tensor:
    """``g * scale``, a gradient through a product's ``alpha`` or ``beta``. A complex one,
    left unread where the kernel did not run (:func:`unrun_product`), makes a complex
    gradient for a real input, which torch's engine refuses.

    >>> import minitorch
    >>> scaled_grad(minitorch.ones(1), 2)
    tensor([2.])
    """
    if isinstance(scale, complex):
        raise RuntimeError(_args.check_failed(
            "isFloatingType(grad.scalar_type()) || (input_is_complex == grad_is_complex)"))
    return g if scale == 1 else g * scale


class Addmm(Op):
    node_name = "AddmmBackward0"
    saved_names = ("mat1", "mat2")
    saved_values = {"alpha": kept("scales", lambda scales: scales[1]),
                    "beta": kept("scales", lambda scales: scales[0]), **_matrices_saved("mat1")}
    _profile_name = "aten::addmm"
    _profile_inner = staticmethod(torch_events.blas_operands)

    @staticmethod
    def forward(ctx: Any, bias: Tensor, a: Tensor, b: Tensor, *, beta: float = 1,
                alpha: float = 1) -> Tensor:
        check_same_device(bias, a, b)
        n, m = _product_shape(a, b)
        # torch's error if the bias does not fit
        expanded_shape(bias._data.shape, (n, m), _args.type_string(bias.dtype))
        ctx.scales = beta, alpha  # as given, as torch's node shows them
        done = unrun_product(a, (n, m), a.shape[1], a.dtype, bias, beta)
        if done is None:
            if a.dtype.name == "bool":
                raise _args.not_implemented("addmm_impl_cpu_", a.dtype)
            beta, alpha = (_args.kernel_scalar(v, bias.dtype, opmath=True) for v in (beta, alpha))
        _, need_a, need_b = ctx.needs_input_grad
        ctx.save_for_backward(a if need_b else None, b if need_a else None)
        _keep_layouts(ctx, a, b, need_a, need_b)
        ctx.bias_shape, ctx.beta, ctx.alpha = bias._data.shape, beta, alpha
        ctx.column_major = _column_major(a._data), _column_major(b._data)
        if done is not None:
            return wrap(done)
        out = _mkl.gemm_product(a._data, b._data, bias._data, beta, alpha)
        if out is None:  # float16 in float32, rounded once (the bias added before)
            out = half_via_float(lambda xp, *arrays: _addmm(xp, *arrays, beta, alpha),
                                 a._xp, a._data, b._data, bias._data)
        return wrap(out)

    @staticmethod
    def backward(ctx: Any, g: Tensor) -> tuple:
        a, b = ctx.saved_tensors
        need_bias, need_a, need_b = ctx.needs_input_grad
        g_mm = scaled_grad(g, ctx.alpha) if need_a or need_b else g
        return (sum_to(scaled_grad(g, ctx.beta), ctx.bias_shape) if need_bias else None,
                *_mm_grad_tensors(a, b, g_mm, ctx.column_major))

    @staticmethod
    def backward_arrays(ctx: Any, g: Any) -> Any:
        if ctx.alpha != 1 or ctx.beta != 1:
            return NotImplemented
        a, b = ctx.saved_tensors
        grads = _mm_grads(a, b, g, ctx.column_major)
        if grads is NotImplemented:
            return grads
        g_bias = sum_to_array(namespace(g), g, ctx.bias_shape) if ctx.needs_input_grad[0] else None
        return (g_bias, *grads)


def _product_shape(a: Tensor, b: Tensor) -> tuple:
    """The shape of ``a @ b`` for addmm, after its kernel's checks of the matrices."""
    for name, mat in (("mat1", a), ("mat2", b)):
        if mat.dim() != 2:
            raise RuntimeError(f"{name} must be a matrix, got {mat.dim()}-D tensor")
    same_matrix_dtypes(a, b)
    (n, k), (k2, m) = a._data.shape, b._data.shape
    if k != k2:
        raise RuntimeError(f"mat1 and mat2 shapes cannot be multiplied ({n}x{k} and {k2}x{m})")
    return n, m


def _addmm(xp: Any, a: Any, b: Any, bias: Any, beta: float, alpha: float) -> Any:
    out = xp.matmul(a, b)
    if alpha != 1:
        out *= alpha
    out += bias if beta == 1 else beta * bias
    return out


def product(a: Any, b: Any) -> Any:
    """``a @ b`` for two matrices: MKL's gemm as torch calls it when MKL is installed."""
    out = _mkl.gemm_product(a, b)
    return out if out is not None else namespace(a).matmul(a, b)


def batched_product(a: Any, b: Any) -> Any:
    """``a @ b`` for two batches of matrices as torch's CPU bmm: with fewer than 400
    multiply-adds per matrix, each sum is added in turn (torch's own loop, no fused
    multiply-add); otherwise one MKL batch gemm when each matrix is stored by rows or by
    columns (:func:`minitorch._mkl.gemm_batch_product`), else a gemm a matrix.

    >>> import numpy as np
    >>> batched_product(np.ones((2, 1, 3), np.float32), np.ones((2, 3, 1), np.float32)).ravel()
    array([3., 3.], dtype=float32)
    """
    xp, (rows, inner, cols) = namespace(a), (a.shape[1], a.shape[2], b.shape[2])
    if xp.__name__ != "numpy" or a.dtype.kind != "f" or not a.size or not b.size:
        return xp.matmul(a, b)  # other libraries, and integers: their own product
    if a.dtype == xp.float16:  # torch's loop and its gemm sum float16 in float32, round once
        return half_via_float(lambda _, x, y: batched_product(x, y), xp, a, b)
    if inner * rows * cols < 400:
        total = xp.zeros((a.shape[0], rows, cols), dtype=a.dtype)
        for k in range(inner):
            total += a[:, :, k, None] * b[:, None, k, :]
        return total
    batched = _mkl.gemm_batch_product(a, b)
    if batched is not None:
        return batched
    matrices = [_mkl.gemm_product(x, y) for x, y in zip(a, b)]
    return xp.matmul(a, b) if any(m is None for m in matrices) else xp.stack(matrices)


def _column_major(matrix: Any) -> bool:
    """Whether a matrix is stored column by column; torch then gives its gradient that layout
    too, by a different product (and so a different rounding)."""
    strides = element_strides(matrix)
    return strides is not None and strides[0] == 1 and strides[1] == matrix.shape[0]


def _mm_grads(a: Tensor | None, b: Tensor | None, g: Any, column_major: tuple) -> Any:
    """The gradients of ``a @ b`` on arrays (None where the operand was not saved), by
    torch's products (``mm_mat1_backward``, ``mm_mat2_backward``): ``g @ bᵀ`` and ``aᵀ @ g``,
    or ``(b @ gᵀ)ᵀ`` and ``(gᵀ @ a)ᵀ`` for a column-major operand. A gradient of another
    dtype is left to ``backward``'s error."""
    if not like(g, *(t._data for t in (a, b) if t is not None)):
        return NotImplemented
    xp = namespace(g)

    def t(x: Any) -> Any:
        return xp.permute_dims(x, (1, 0))

    a_major, b_major = column_major
    return (None if b is None else t(product(b._data, t(g))) if a_major else product(g, t(b._data)),
            None if a is None else t(product(t(g), a._data)) if b_major else product(t(a._data), g))


def _mm_grad_tensors(a: Tensor | None, b: Tensor | None, g: Tensor, column_major: tuple) -> tuple:
    """``_mm_grads`` with recorded ops, for a backward that builds a graph: mat2's first,
    as torch's node computes them (what refuses an unpack hook's value refuses there)."""
    a_major, b_major = column_major
    for_b = None if a is None else g.t().mm(a).t() if b_major else a.t().mm(g)
    return (None if b is None else b.mm(g.t()).t() if a_major else g.mm(b.t()), for_b)


def with_out_dtype(operands: str, options: str = "") -> tuple:
    """torch's two signatures of a matrix product (one with an ``out_dtype``, a function's
    only) for its ``operands``, with its keyword ``options``.

    >>> with_out_dtype("Tensor input, Tensor mat2")[1]
    'Tensor input, Tensor mat2, torch.dtype out_dtype, *, Tensor out = None'
    """
    tail = f"*, {options + ', ' if options else ''}Tensor out = None"
    return f"{operands}, {tail}", f"{operands}, torch.dtype out_dtype, {tail}"


@_call_form.overloads(*with_out_dtype("Tensor input, Tensor mat2"))
@_args.tensors("mm", input="input", mat2="mat2")
def mm(input: Tensor, mat2: Tensor) -> Tensor:
    """Matrix product of two 2-D tensors.

    >>> minitorch.mm(minitorch.ones(1, 2), minitorch.ones(2, 1))
    tensor([[2.]])
    """
    return Mm.apply(input, mat2)


@_call_form.overloads(*with_out_dtype("Tensor input, Tensor mat1, Tensor mat2",
                                      "Number beta = 1, Number alpha = 1"), hidden=True)
@_call_form.parser_types(beta="Number", alpha="Number")
def addmm(input: Tensor, mat1: Tensor, mat2: Tensor, *, beta: float = 1,
          alpha: float = 1) -> Tensor:
    """``input + mat1 @ mat2`` in one op (what ``nn.Linear`` uses).

    >>> minitorch.addmm(minitorch.zeros(2), minitorch.ones(1, 3), minitorch.ones(3, 2))
    tensor([[3., 3.]])
    """
    beta, alpha = _addmm_checked(input, mat1, mat2, beta, alpha)
    return Addmm.apply(input, mat1, mat2, beta=beta, alpha=alpha)


def _addmm_checked(input: Any, mat1: Any, mat2: Any, beta: Any, alpha: Any) -> tuple:
    _args.tensor_args("addmm", (input, "input", 1), (mat1, "mat1", 2), (mat2, "mat2", 3))
    beta, alpha = _args.numbers("addmm", (beta, "beta", None), (alpha, "alpha", None))
    for name, t in (("self", input), ("mat1", mat1)):  # torch's meta checks, before shapes
        if t.dtype is not mat2.dtype:
            raise RuntimeError(f"{name} and mat2 must have the same dtype, but got "
                               f"{_args.legacy(t.dtype)} and {_args.legacy(mat2.dtype)}")
    return beta, alpha


def _addmm_written(input: Tensor, *args: Any, **kwargs: Any) -> None:
    """``input.addmm_(mat1, mat2)``'s checks before its kernel's: addmm's, then ``input``
    must have the product's shape itself (torch's structured kernel checks the output it
    sets: no broadcast, and before the kernel's dtype refusals). Other calls are left to
    addmm's own checks."""
    if len(args) != 2 or not set(kwargs) <= {"beta", "alpha"}:
        return
    _addmm_checked(input, *args, kwargs.get("beta", 1), kwargs.get("alpha", 1))
    shape = _product_shape(*args)
    if tuple(input.shape) != shape:
        raise RuntimeError(f"Bad in-place call: input tensor size {list(input.shape)} and "
                           f"output tensor size {list(shape)} should match")


addmm.written_check = _addmm_written  # type: ignore[attr-defined]


@takes_out
@_args.tensors("matmul", input="input", other="other")
def matmul(input: Tensor, other: Tensor) -> Tensor:
    """Matrix product with torch's rules for 1-D, 2-D and batched operands.

    >>> minitorch.matmul(minitorch.ones(3), minitorch.ones(3))
    tensor(3.)
    """
    if _args.is_vmap_example(input) or _args.is_vmap_example(other):
        return input @ other  # inside vmap: the operator's batching rule
    da, db = input.dim(), other.dim()
    if da == 0 or db == 0:
        raise RuntimeError(
            f"both arguments to matmul need to be at least 1D, but they are {da}D and {db}D")
    # torch's aten::matmul holds the events of the ops it calls (aten::mm, ...)
    return profiler.run_op("aten::matmul", "aten::matmul", lambda: _matmul(input, other, da, db),
                           (input, other))


def _matmul(a: Tensor, b: Tensor, da: int, db: int) -> Tensor:
    if da == 1 and db == 1:
        return Dot.apply(a, b)
    if da == 2 and db == 1:
        return Mv.apply(a, b)
    if da == 1 and db == 2:
        return Mm.apply(a.unsqueeze(0), b).squeeze_(0)  # torch squeezes in place: no view
    if da == 2 and db == 2:
        return Mm.apply(a, b)
    if da <= 2 and db >= 3:
        return _small_times_batch(a, b)
    if da >= 3 and db <= 2 and (b.requires_grad or not a.numel() or
                                 _batch_spans(a.shape, a.stride())):
        # the rows spelled out: -1 is ambiguous where a row has no element
        folded = a.reshape(math.prod(a.shape[:-1]), a.shape[-1])
        out = Mv.apply(folded, b) if db == 1 else Mm.apply(folded, b)
        shape = a.shape[:-1] + (() if db == 1 else (b.shape[-1],))
        return UnsafeView.apply(out, shape=shape)
    if da == db == 3 and (a.shape[0] == 1) != (b.shape[0] == 1):
        single = a if a.shape[0] == 1 else b  # a batch of one matrix, against a batch
        if single.requires_grad:  # torch squeezes it, so the other batch folds into mm
            return matmul(a.squeeze(0), b) if single is a else matmul(a, b.squeeze(0))
    return _batched(a, b)


def _small_times_batch(a: Tensor, b: Tensor) -> Tensor:
    """``a @ b`` for a vector or matrix ``a`` and a batch ``b``, with torch's graph. When
    ``a`` needs a gradient, b's batch is folded into one matrix, which spares the backward a
    batch of copies of ``a``: bᵀ·a for a vector; for a matrix (bᵀ aᵀ)ᵀ made contiguous (a
    clone, unless a size-1 dim makes the transpose contiguous already). Otherwise a batched
    product, but for a vector torch also folds an empty batch and one whose memory layout
    allows it without a copy (:func:`_folds_as_is`), which its errors show."""
    if not a.requires_grad and (a.dim() == 2 or (b.numel() and not _folds_as_is(b))):
        return _batched(a, b)
    if a.dim() == 1:
        # the rows' count, not -1: with an empty matrix, -1 would be ambiguous
        folded = b.transpose(-1, -2).reshape(_prod(b.shape[:-2]) * b.shape[-1], b.shape[-2])
        return UnsafeView.apply(Mv.apply(folded, a), shape=(*b.shape[:-2], b.shape[-1]))
    out = matmul(b.transpose(-1, -2), a.t()).transpose(-1, -2)
    n, m = out.shape[-2:]
    return Clone.apply(out) if n > 1 and m > 1 and out.numel() else out


def _folds_as_is(b: Tensor) -> bool:
    """Whether torch folds the batch of ``b``'s transpose into one matrix without a copy (its
    ``should_fold``): each batch stride spans the dims after it.

    >>> _folds_as_is(minitorch.ones(2, 1, 2)), _folds_as_is(minitorch.ones(2, 2, 2))
    (True, False)
    """
    shape, strides = list(b.shape), list(b.stride())
    shape[-2:], strides[-2:] = shape[:-3:-1], strides[:-3:-1]
    return _batch_spans(shape, strides)


def _batch_spans(shape: Any, strides: Any) -> bool:
    """Whether a tensor's batch dims fold into its rows without a copy (torch's
    ``should_fold`` for the larger operand): each batch stride spans the dims after it.

    >>> _batch_spans((2, 2, 2), (4, 2, 1)), _batch_spans((2, 2, 2), (2, 4, 1))
    (True, False)
    """
    return all(strides[i] == strides[i + 1] * shape[i + 1] for i in range(len(shape) - 2))


def _batched(a: Tensor, b: Tensor) -> Tensor:
    """Broadcast the batch dims, fold them into one, and use bmm."""
    from .._tensor import broadcast_shapes

    a2 = a.unsqueeze(0) if a.dim() == 1 else a
    b2 = b.unsqueeze(-1) if b.dim() == 1 else b
    batch = broadcast_shapes(a2.shape[:-2], b2.shape[:-2])
    n, k, m = a2.shape[-2], a2.shape[-1], b2.shape[-1]
    if b2.shape[-2] != k:
        raise RuntimeError(
            f"Expected size for first two dimensions of batch2 tensor to be: "
            f"[{_prod(batch)}, {k}] but got: [{_prod(batch)}, {b2.shape[-2]}]."
        )
    # the batch's size, not -1: with an empty matrix, -1 would be ambiguous
    lhs = a2.expand(*batch, n, k).reshape(_prod(batch), n, k)
    rhs = b2.expand(*batch, k, m).reshape(_prod(batch), k, m)
    shape = batch + ((n,) if a.dim() > 1 else ()) + ((m,) if b.dim() > 1 else ())
    return UnsafeView.apply(Bmm.apply(lhs, rhs), shape=shape)


def _prod(shape: tuple) -> int:
    n = 1
    for s in shape:
        n *= s
    return n
