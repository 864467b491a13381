"""An input plus a scaled product, in one op each as torch (``beta * input + alpha * ...``):
``addr`` (an outer product, ``AddrBackward0``), ``addmv`` (a matrix times a vector),
``addbmm`` (the sum of a batch of matrix products) and ``baddbmm`` (a batch of them), each
with its in-place twin. As torch, ``beta = 0`` ignores the input (its nans too).

>>> import minitorch
>>> minitorch.addr(minitorch.zeros(2, 2), minitorch.tensor([1., 2.]), minitorch.tensor([3., 4.]))
tensor([[3., 4.],
        [6., 8.]])
"""

from __future__ import annotations

import inspect
from typing import Any

from .. import _args, _call_form
from .._tensor import Tensor, check_inplace_allowed, expanded_shape
from ..autograd import grad_mode
from ._base import Op, kept, sum_to, wrap
from ._out import warn_resized
from .linalg import batched_product, scaled_bias, scaled_grad, unrun_product, with_out_dtype

__all__ = [
    "METHODS",
    "Addbmm",
    "Addmv",
    "Addr",
    "Baddbmm",
    "addbmm",
    "addmv",
    "addmv_",
    "addr",
    "baddbmm",
]


def _scaled_sum(xp: Any, bias: Any, prod: Any, beta: Any, alpha: Any) -> Any:
    """``beta * bias + alpha * prod``, ``bias`` left out where ``beta`` is 0, ``prod`` (its
    nans too) where ``alpha`` is (None)."""
    if alpha is None:
        prod, alpha = xp.zeros_like(prod), 1
    scaled = prod if alpha == 1 else prod * alpha
    if beta == 0:
        return xp.asarray(xp.broadcast_to(scaled, prod.shape), copy=True)
    return scaled + (bias if beta == 1 else bias * beta)


class _Scaled(Op):
    """``beta * bias + alpha * product(a, b)``: a subclass gives the ``product`` of the
    arrays and the gradients of ``a`` and ``b`` (``grads``, each a function, called only
    where the gradient is needed). Its kernel reads ``beta`` and ``alpha`` as the result's
    dtype (float16 as float where ``opmath``, as torch's batched kernels): what that dtype
    cannot hold is refused, a float truncated for an integer result. Where ``blas`` (a
    kernel calling BLAS's gemv or gemm for float32 and float64), an ``alpha`` of 0 leaves the
    product out, its nans too. Where the kernel does not run (``unrun``), neither its dtype
    checks (``kernel_checks``) nor its reading of the scales happen."""

    opmath = False
    blas = False
    # torch's node shows beta and alpha as given; each operand is saved for the other's
    # gradient only
    saved_values = {"alpha": kept("scales", lambda scales: scales[1]),
                    "beta": kept("scales", lambda scales: scales[0])}

    @classmethod
    def forward(cls, ctx: Any, bias: Tensor, a: Tensor, b: Tensor, *, beta: Any,
                alpha: Any) -> Tensor:
        ctx.scales = beta, alpha
        done = cls.unrun(bias, a, b, beta)
        if done is None:
            beta, alpha = cls.kernel_read(bias, a, b, beta, alpha)
        ctx.bias_shape, ctx.beta, ctx.alpha = tuple(bias.shape), beta, alpha
        ctx.shapes = a.shape, b.shape
        _, need_a, need_b = ctx.needs_input_grad
        ctx.save_for_backward(a if need_b else None, b if need_a else None)
        return wrap(cls.combined(bias, a, b, beta, alpha) if done is None else done)

    @classmethod
    def unrun(cls, bias: Tensor, a: Tensor, b: Tensor, beta: Any) -> Any:
        """The result where torch's kernel does not run (see :func:`unrun_product`), else
        None."""
        return None

    @classmethod
    def kernel_read(cls, bias: Tensor, a: Tensor, b: Tensor, beta: Any, alpha: Any) -> tuple:
        """``beta`` and ``alpha`` as the kernel reads them, where it runs (after its refusal
        of a dtype it lacks, in a subclass)."""
        return tuple(_args.kernel_scalar(v, bias.dtype, cls.opmath) for v in (beta, alpha))

    @classmethod
    def combined(cls, bias: Tensor, a: Tensor, b: Tensor, beta: Any, alpha: Any) -> Any:
        """The forward's array: ``beta * bias + alpha * product(a, b)``."""
        xp = a._xp
        gemm = cls.blas and bias.dtype.is_floating_point and bias.dtype.itemsize >= 4
        kept = None if gemm and alpha == 0 else alpha
        return _scaled_sum(xp, bias._data, cls.product(xp, a, b), beta, kept)

    @classmethod
    def backward(cls, ctx: Any, g: Tensor) -> tuple:
        a, b = ctx.saved_tensors
        need_bias, need_a, need_b = ctx.needs_input_grad
        grad_bias = sum_to(scaled_grad(g, ctx.beta), ctx.bias_shape) if need_bias else None
        scaled = [scaled_grad(grad(), ctx.alpha) if need else None
                  for need, grad in zip((need_a, need_b), cls.grads(g, a, b))]
        return (grad_bias, *scaled)


class Addr(_Scaled):
    node_name = "AddrBackward0"
    saved_names = ("vec1", "vec2")
    _profile_name = "aten::addr"

    @staticmethod
    def product(xp: Any, v1: Tensor, v2: Tensor) -> Any:
        return xp.reshape(v1._data, (-1, 1)) * xp.reshape(v2._data, (1, -1))

    @staticmethod
    def grads(g: Tensor, v1: Tensor, v2: Tensor) -> tuple:
        return lambda: g.mv(v2), lambda: g.t().mv(v1)

    @classmethod
    def forward(cls, ctx: Any, bias: Tensor, a: Tensor, b: Tensor, *, beta: Any, alpha: Any,
                given: tuple = ()) -> Tensor:
        ctx.given = given  # (the vectors' own dtypes, before they were promoted)
        return super().forward(ctx, bias, a, b, beta=beta, alpha=alpha)

    @classmethod
    def backward(cls, ctx: Any, g: Tensor) -> tuple:
        """torch's formulas multiply the gradient by each vector as it was given (``mv``):
        one of another dtype than the result's is refused as addmv refuses it."""
        for need, other in zip(ctx.needs_input_grad[1:], reversed(ctx.given)):
            if need and other is not g.dtype:
                raise RuntimeError(f"addmv input tensors must have the same dtype, but got "
                                   f"{_args.legacy(other)}, {_args.legacy(g.dtype)}, and "
                                   f"{_args.legacy(other)}")
        return super().backward(ctx, g)


class Addmv(_Scaled):
    node_name = "AddmvBackward0"
    saved_names = ("mat", "vec")
    _profile_name = "aten::addmv"
    blas = True

    @staticmethod
    def product(xp: Any, m: Tensor, v: Tensor) -> Any:
        return xp.matmul(m._data, v._data)

    @classmethod
    def unrun(cls, bias: Tensor, m: Tensor, v: Tensor, beta: Any) -> Any:
        """torch's short cut for an empty matrix (``alpha`` left unread): zeros where
        ``beta`` is 0, else ``beta`` read as the input's dtype times the input in its own
        shape (not broadcast to the rows: the result it had made resized to it,
        :func:`addmv` warns)."""
        if m.numel():
            return None
        beta = _args.kernel_scalar(beta, bias.dtype)
        if beta == 0:
            return m.new_zeros(m.shape[:1])._data
        return bias._xp.asarray(bias._data if beta == 1 else bias._data * beta, copy=True)

    @staticmethod
    def grads(g: Tensor, m: Tensor, v: Tensor) -> tuple:
        return lambda: g.outer(v), lambda: m.t().mv(g)


class Addbmm(_Scaled):
    node_name = "AddbmmBackward0"
    saved_names = ("batch1", "batch2")
    saved_values = {**_Scaled.saved_values,  # the sizes its gradients take
                    "batch1_sym_argsize_0": kept("shapes", lambda shapes: shapes[0][0]),
                    "batch1_sym_argsize_1": kept("shapes", lambda shapes: shapes[0][1]),
                    "batch2_sym_argsize_2": kept("shapes", lambda shapes: shapes[1][2])}
    _profile_name = "aten::addbmm"
    blas = True
    opmath = True

    @classmethod
    def unrun(cls, bias: Tensor, b1: Tensor, b2: Tensor, beta: Any) -> Any:
        """With no batches torch scales its input (broadcast to the result, empty or not) by
        ``beta``; with some, each batch's ``addmm_`` takes its short cuts, the later ones
        scaling by an int 1 (which a bool result refuses)."""
        shape = (b1.shape[1], b2.shape[2])
        if not b1.shape[0]:
            return scaled_bias(b1, shape, b1.dtype, bias, beta)
        done = unrun_product(b1, shape, b1.shape[2], b1.dtype, bias, beta)
        if done is not None and b1.shape[0] > 1 and 0 not in shape:
            return scaled_bias(b1, shape, b1.dtype, wrap(done), 1)
        return done

    @classmethod
    def kernel_read(cls, bias: Tensor, a: Tensor, b: Tensor, beta: Any, alpha: Any) -> tuple:
        if bias.dtype.name == "bool":
            raise _args.not_implemented("addmm_impl_cpu_", bias.dtype)
        return super().kernel_read(bias, a, b, beta, alpha)

    @staticmethod
    def product(xp: Any, b1: Tensor, b2: Tensor) -> Any:
        if not b1.shape[0]:
            return xp.zeros((b1.shape[1], b2.shape[2]), dtype=b1._data.dtype)
        # in the batches' dtype: numpy's sum widens the small integer types
        return xp.sum(batched_product(b1._data, b2._data), axis=0, dtype=b1._data.dtype)

    @staticmethod
    def grads(g: Tensor, b1: Tensor | None, b2: Tensor | None) -> tuple:
        # (each batch is saved only for the other's gradient: the one read has the count)
        def spread(batches: Tensor) -> Tensor:
            return g.unsqueeze(0).expand(batches.shape[0], *g.shape)

        return (lambda: spread(b2).bmm(b2.transpose(1, 2)),
                lambda: b1.transpose(1, 2).bmm(spread(b1)))


class Baddbmm(_Scaled):
    node_name = "BaddbmmBackward0"
    saved_names = ("batch1", "batch2")
    _profile_name = "aten::baddbmm"
    opmath = True

    @classmethod
    def unrun(cls, bias: Tensor, b1: Tensor, b2: Tensor, beta: Any) -> Any:
        """torch's short cuts (the result in batch2's dtype, which only the kernel checks)."""
        return unrun_product(b1, (b1.shape[0], b1.shape[1], b2.shape[2]), b1.shape[2],
                             b2.dtype, bias, beta)

    @classmethod
    def kernel_read(cls, bias: Tensor, a: Tensor, b: Tensor, beta: Any, alpha: Any) -> tuple:
        """The kernel's dtype (none for bool), its scales, then batch2's dtype against it."""
        if bias.dtype.name == "bool":
            raise _args.not_implemented("baddbmm", bias.dtype)
        scales = super().kernel_read(bias, a, b, beta, alpha)
        if b.dtype is not bias.dtype:
            raise RuntimeError(f"expected scalar type {_args.legacy(bias.dtype)} but found "
                               f"{_args.legacy(b.dtype)}")
        return scales

    @staticmethod
    def product(xp: Any, b1: Tensor, b2: Tensor) -> Any:
        return batched_product(b1._data, b2._data)

    @staticmethod
    def grads(g: Tensor, b1: Tensor, b2: Tensor) -> tuple:
        return lambda: g.bmm(b2.transpose(1, 2)), lambda: b1.transpose(1, 2).bmm(g)


def _scales(fn: str, input: Tensor, beta: Any, alpha: Any, *operands: Tensor) -> tuple:
    """``beta`` and ``alpha`` read as numbers, each checked against the result (of ``input``
    with the product's ``operands``) as torch's ``check_addr_scalar``: a bool refused unless
    the result is bool, a float or complex one where it is
    integral (torch asks for an integral scalar)."""
    from .._dtype import bool as bool_
    from .._dtype import result_type

    beta, alpha = _args.numbers(fn, (beta, "beta", None), (alpha, "alpha", None))
    result = result_type(input, *operands)
    for name, value in (("beta", beta), ("alpha", alpha)):
        if isinstance(value, bool) and result is not bool_:
            raise RuntimeError(f"Boolean {name} only supported for Boolean results.")
        if isinstance(value, (float, complex)) and not result.is_floating_point:
            raise RuntimeError(f"For integral input tensors, argument {name} must not be a "
                               "floating point number.")
    return beta, alpha


def _leaf_check(fn: str, input: Tensor) -> None:
    """An in-place form's refusal of a leaf that requires grad: torch's autograd checks it
    after the parser, before the kernel's checks."""
    if fn.endswith("_"):
        check_inplace_allowed(input)


def _fits(bias: Tensor, shape: tuple) -> None:
    """torch's refusal of an input that does not broadcast to the product's shape."""
    expanded_shape(tuple(bias.shape), shape, _args.type_string(bias.dtype))


def _holds(fn: str, input: Tensor, shape: tuple) -> None:
    """The input's fit to the product's ``shape``: an in-place form's input must have that
    shape itself (torch's structured kernel checks its output as it sets it, after the
    meta checks), the function's broadcasts to it."""
    if not fn.endswith("_"):
        _fits(input, shape)
    elif tuple(input.shape) != tuple(shape):
        raise RuntimeError(f"Bad in-place call: input tensor size {list(input.shape)} and "
                           f"output tensor size {list(shape)} should match")


def _addr_checked(fn: str, input: Any, vec1: Any, vec2: Any, beta: Any, alpha: Any) -> tuple:
    _args.tensor_args(fn, (input, "input", 1), (vec1, "vec1", 2), (vec2, "vec2", 3))
    _args.numbers(fn, (beta, "beta", None), (alpha, "alpha", None))  # the parser's types,
    _leaf_check(fn, input)  # autograd's refusal, then the kernel's checks:
    for name, v in (("vec1", vec1), ("vec2", vec2)):  # the vectors, the input's shape, and
        if v.dim() != 1:  # last the scalars against the result's dtype
            raise RuntimeError(f"addr: Expected 1-D argument {name}, but got {v.dim()}-D")
    if fn.endswith("_"):  # torch's addr_ reads the input as the 2-D result, sizes and all
        if input.dim() != 2:
            raise RuntimeError(f"2D tensor expected, got {input.dim()}D tensor for input")
        if tuple(input.shape) != (vec1.shape[0], vec2.shape[0]):
            raise RuntimeError(f"size mismatch, input: {list(input.shape)}, v1: "
                               f"{list(vec1.shape)}, v2: {list(vec2.shape)}")
    _fits(input, (vec1.shape[0], vec2.shape[0]))
    return _scales(fn, input, beta, alpha, vec1, vec2)


def _scaled(operands: str) -> str:
    """torch's one listed signature of a product scaled by beta and alpha (its deprecated
    ones, the scales first, hidden)."""
    return f"{operands}, *, Number beta = 1, Number alpha = 1, Tensor out = None"


@_call_form.overloads(_scaled("Tensor input, Tensor vec1, Tensor vec2"), hidden=True)
def addr(input: Tensor, vec1: Tensor, vec2: Tensor, *, beta: Any = 1, alpha: Any = 1
         ) -> Tensor:
    """``beta * input + alpha * outer(vec1, vec2)``.

    >>> minitorch.addr(minitorch.ones(2, 2), minitorch.ones(2), minitorch.ones(2), beta=2)
    tensor([[3., 3.],
            [3., 3.]])
    """
    beta, alpha = _addr_checked("addr", input, vec1, vec2, beta, alpha)
    return Addr.apply(*_common(input, vec1, vec2), beta=beta, alpha=alpha,
                      given=(vec1.dtype, vec2.dtype))


def _common(*tensors: Tensor) -> tuple:
    """The tensors in their common dtype (torch's addr promotes)."""
    from .._dtype import result_type

    dt = result_type(*tensors)
    return tuple(t if t.dtype is dt else t.to(dt) for t in tensors)


def _addmv_checked(fn: str, input: Any, mat: Any, vec: Any, beta: Any, alpha: Any) -> tuple:
    _args.tensor_args(fn, (input, "input", 1), (mat, "mat", 2), (vec, "vec", 3))
    beta, alpha = _args.numbers(fn, (beta, "beta", None), (alpha, "alpha", None))
    _leaf_check(fn, input)
    if mat.dim() != 2 or vec.dim() != 1 or input.dim() > 1:
        raise RuntimeError(f"vector + matrix @ vector expected, got {input.dim()}, {mat.dim()}, "
                           f"{vec.dim()}")
    if mat.shape[1] != vec.shape[0] or (input.numel() != 1 and input.shape[0] != mat.shape[0]):
        shown = "x".join(map(str, mat.shape))  # (the message reads input.size(0))
        raise RuntimeError(f"size mismatch, got input ({input.size(0)}), mat ({shown}), vec "
                           f"({vec.shape[0]})")
    if not (input.dtype is mat.dtype is vec.dtype):
        raise RuntimeError(f"addmv input tensors must have the same dtype, but got "
                           f"{_args.legacy(input.dtype)}, {_args.legacy(mat.dtype)}, and "
                           f"{_args.legacy(vec.dtype)}")
    if fn.endswith("_"):
        _holds(fn, input, (mat.shape[0],))
    if input.dtype.name == "bool" and mat.numel():  # (an empty one's short cut has no kernel)
        raise _args.not_implemented("addmv_impl_cpu", input.dtype)
    return beta, alpha


@_call_form.overloads(_scaled("Tensor input, Tensor mat, Tensor vec"), hidden=True)
def addmv(input: Tensor, mat: Tensor, vec: Tensor, *, beta: Any = 1, alpha: Any = 1) -> Tensor:
    """``beta * input + alpha * (mat @ vec)``.

    >>> minitorch.addmv(minitorch.ones(2), minitorch.eye(2), minitorch.tensor([3., 4.]))
    tensor([4., 5.])
    """
    beta, alpha = _addmv_checked("addmv", input, mat, vec, beta, alpha)
    if not mat.numel() and beta != 0 and mat.shape[0] and tuple(input.shape) != mat.shape[:1]:
        warn_resized(mat.shape[:1], tuple(input.shape), stacklevel=5)  # (Addmv.combined)
    return Addmv.apply(input, mat, vec, beta=beta, alpha=alpha)


def _batches_checked(fn: str, input: Any, batch1: Any, batch2: Any, beta: Any,
                     alpha: Any) -> tuple:
    _args.tensor_args(fn, (input, "input", 1), (batch1, "batch1", 2), (batch2, "batch2", 3))
    beta, alpha = _args.numbers(fn, (beta, "beta", None), (alpha, "alpha", None))
    _leaf_check(fn, input)
    # torch reads the sizes it needs (baddbmm the batch count too, and addbmm's autograd,
    # which saves it for the backward), expands the input to them, then checks the dims
    if grad_mode._state.grad_enabled and any(t.requires_grad for t in (input, batch1, batch2)):
        batch1.size(0)
    sizes = tuple(t.size(dim) for t, dim in ((batch1, 0), (batch1, 1), (batch2, 2))[
        fn.startswith("addbmm"):])
    _fits(input, sizes)
    if not fn.startswith("addbmm") and input.dtype is not batch1.dtype:
        _baddbmm_dtypes(fn, input, batch1, batch2)  # (its first check comes before the dims')
    for t, name in ((batch1, "batch1"), (batch2, "batch2")):
        if t.dim() != 3:
            raise RuntimeError(f"{name} must be a 3D tensor")
    if fn.startswith("addbmm"):
        if batch1.shape[0] != batch2.shape[0]:
            raise RuntimeError(f"batch1 and batch2 must have same number of batches, got "
                               f"{batch1.shape[0]} and {batch2.shape[0]}")
        if batch1.shape[2] != batch2.shape[1]:
            raise RuntimeError(f"Incompatible matrix sizes for bmm ({batch1.shape[1]}x"
                               f"{batch1.shape[2]} and {batch2.shape[1]}x{batch2.shape[2]})")
        shape = (batch1.shape[1], batch2.shape[2])
    else:
        if batch2.shape[:2] != (batch1.shape[0], batch1.shape[2]):
            raise RuntimeError(f"Expected size for first two dimensions of batch2 tensor to be: "
                               f"[{batch1.shape[0]}, {batch1.shape[2]}] but got: "
                               f"[{batch2.shape[0]}, {batch2.shape[1]}].")
        shape = (batch1.shape[0], batch1.shape[1], batch2.shape[2])
    if not fn.startswith("addbmm"):
        _baddbmm_dtypes(fn, input, batch1, batch2)
    elif batch1.shape[0]:  # (each batch's addmm_ checks them: no batch, no check)
        _addbmm_dtypes(input, batch1, batch2)
    # (torch's addbmm_ writes its input as an out= tensor: no in-place size check)
    if fn.startswith("addbmm"):
        _fits(input, shape)
    else:
        _holds(fn, input, shape)
    return beta, alpha


def _baddbmm_dtypes(fn: str, input: Tensor, batch1: Tensor, batch2: Tensor) -> None:
    """torch's checks of baddbmm's dtypes before its kernel: the input's and batch1's, then
    an in-place input's against batch2's (which gives the result's)."""
    if input.dtype is not batch1.dtype:
        raise RuntimeError(f"Input dtypes must be the same, got: input {_args.c_name(input.dtype)}"
                           f", batch1: {_args.c_name(batch1.dtype)}, batch2: "
                           f"{_args.c_name(batch2.dtype)}")
    if batch2.dtype is not input.dtype and fn.endswith("_"):
        raise RuntimeError(f"Bad in-place call: input tensor dtype {_args.c_name(input.dtype)} "
                           f"and output tensor dtype {_args.c_name(batch2.dtype)} should match")


def _addbmm_dtypes(input: Tensor, batch1: Tensor, batch2: Tensor) -> None:
    """torch's checks of addbmm's dtypes (its addmm's): the input's and batch2's, then
    batch1's and batch2's."""
    for (first, a), (second, b) in ((("self", input), ("mat2", batch2)),
                                    (("mat1", batch1), ("mat2", batch2))):
        if a.dtype is not b.dtype:
            raise RuntimeError(f"{first} and {second} must have the same dtype, but got "
                               f"{_args.legacy(a.dtype)} and {_args.legacy(b.dtype)}")


@_call_form.overloads(_scaled("Tensor input, Tensor batch1, Tensor batch2"), hidden=True)
def addbmm(input: Tensor, batch1: Tensor, batch2: Tensor, *, beta: Any = 1,
           alpha: Any = 1) -> Tensor:
    """``beta * input + alpha * sum(batch1[i] @ batch2[i])``.

    >>> minitorch.addbmm(minitorch.zeros(1, 1), minitorch.ones(3, 1, 2), minitorch.ones(3, 2, 1))
    tensor([[6.]])
    """
    beta, alpha = _batches_checked("addbmm", input, batch1, batch2, beta, alpha)
    return Addbmm.apply(input, batch1, batch2, beta=beta, alpha=alpha)


@_call_form.overloads(*with_out_dtype("Tensor input, Tensor batch1, Tensor batch2",
                                      "Number beta = 1, Number alpha = 1"), hidden=True)
def baddbmm(input: Tensor, batch1: Tensor, batch2: Tensor, *, beta: Any = 1,
            alpha: Any = 1) -> Tensor:
    """``beta * input + alpha * (batch1 @ batch2)``, a batch of matrix products.

    >>> minitorch.baddbmm(minitorch.zeros(1), minitorch.ones(2, 1, 3), minitorch.ones(2, 3, 1))
    tensor([[[3.]],
    <BLANKLINE>
            [[3.]]])
    """
    beta, alpha = _batches_checked("baddbmm", input, batch1, batch2, beta, alpha)
    return Baddbmm.apply(input, batch1, batch2, beta=beta, alpha=alpha)


def _written(name: str, input: Tensor, a: Tensor, b: Tensor, beta: Any, alpha: Any) -> Tensor:
    """``x.<name>_(a, b)``: the op written into ``x`` (``input``), after its checks (torch's
    ``x`` must have the result's shape; the checks word the function form, which the method's
    entry renumbers)."""
    checked, op = _IN_PLACE[name]
    scales = checked(f"{name}_", input, a, b, beta, alpha)
    if name == "addbmm" and tuple(input.shape) != (a.shape[1], b.shape[2]) and \
            not input.requires_grad:
        _grown(input, (a.shape[1], b.shape[2]))
    return input._inplace(lambda t, a, b: op.apply(t, a, b, beta=scales[0], alpha=scales[1]),
                          a, b, overlap=False)  # (a, b among its operands: recorded by theirs)


def _grown(input: Tensor, shape: tuple) -> None:
    """torch's ``addbmm_`` writes into its input as into an ``out=`` tensor: an input that
    only broadcasts to the result is resized to it, then its broadcast copied in from the
    memory being written (an ``(n, 1)`` column reads its first element back everywhere)."""
    column = input.dim() == 2 and input.shape[1] == 1
    values = (input.reshape(-1)[:1] if column else input).expand(shape).detach().clone()
    input.resize_(shape)
    input.copy_(values)


# torch's keyword names, one in-place form each
@_call_form.overloads(_scaled("Tensor input, Tensor mat, Tensor vec"), hidden=True)
def addmv_(input: Tensor, mat: Tensor, vec: Tensor, *, beta: Any = 1, alpha: Any = 1) -> Tensor:
    """In-place ``addmv`` (torch has it as a function too).

    >>> minitorch.zeros(2).addmv_(minitorch.eye(2), minitorch.ones(2))
    tensor([1., 1.])
    """
    return _written("addmv", input, mat, vec, beta, alpha)


@_call_form.overloads(_scaled("Tensor input, Tensor vec1, Tensor vec2"), hidden=True)
def addr_(input: Tensor, vec1: Tensor, vec2: Tensor, *, beta: Any = 1, alpha: Any = 1) -> Tensor:
    """In-place ``addr``.

    >>> minitorch.zeros(1, 1).addr_(minitorch.ones(1), minitorch.ones(1))
    tensor([[1.]])
    """
    return _written("addr", input, vec1, vec2, beta, alpha)


@_call_form.overloads(_scaled("Tensor input, Tensor batch1, Tensor batch2"), hidden=True)
def addbmm_(input: Tensor, batch1: Tensor, batch2: Tensor, *, beta: Any = 1,
            alpha: Any = 1) -> Tensor:
    """In-place ``addbmm``.

    >>> minitorch.zeros(1, 1).addbmm_(minitorch.ones(2, 1, 1), minitorch.ones(2, 1, 1))
    tensor([[2.]])
    """
    return _written("addbmm", input, batch1, batch2, beta, alpha)


@_call_form.overloads(_scaled("Tensor input, Tensor batch1, Tensor batch2"), hidden=True)
def baddbmm_(input: Tensor, batch1: Tensor, batch2: Tensor, *, beta: Any = 1,
             alpha: Any = 1) -> Tensor:
    """In-place ``baddbmm``.

    >>> minitorch.zeros(1, 1, 1).baddbmm_(minitorch.ones(1, 1, 1), minitorch.ones(1, 1, 1))
    tensor([[[1.]]])
    """
    return _written("baddbmm", input, batch1, batch2, beta, alpha)


_IN_PLACE = {"addmv": (_addmv_checked, Addmv), "addr": (_addr_checked, Addr),
             "addbmm": (_batches_checked, Addbmm), "baddbmm": (_batches_checked, Baddbmm)}
for _method in (addmv_, addr_, addbmm_, baddbmm_):  # torch's one signature: a refused call
    _first, _second = list(inspect.signature(_method).parameters)[1:3]  # names it whole
    _method.torch_signatures = (  # type: ignore[attr-defined]
        f"Tensor input, Tensor {_first}, Tensor {_second}, *, Number beta = 1, Number alpha = 1",)

METHODS = {"addr": addr, "addmv": addmv, "addbmm": addbmm, "baddbmm": baddbmm,
           "addr_": addr_, "addmv_": addmv_, "addbmm_": addbmm_, "baddbmm_": baddbmm_}
