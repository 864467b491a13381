"""Which events torch 2.13's profiler records inside each op and backward node.

torch's dispatcher records an event for every aten op it enters, so one user-level call
shows as a small tree: ``x.t()`` is ``aten::t`` holding ``aten::transpose`` holding
``aten::as_strided``. minitorch does the same work in one array call; this module is the
one place that says, per event minitorch records, which events torch records inside it, so
a program printing a profile prints what torch prints.

A tree is ``(name, *children)``; a child is a tree or :data:`WORK`, the place where the
real work runs (inside the event that names it). Children before WORK are the kernel's
preparation (an ``aten::empty`` output, a ``fill_`` of a reduction's identity), those after
it its tail; with no WORK the work runs in the op's own event, after its children.

:data:`FORWARD` maps an op's event name (or an op's ``_profile_inner`` variant key) to the
children torch records in it. :data:`BACKWARD` maps a backward node's name to the aten ops
torch's formula (``derivatives.yaml``) calls, in order, for the nodes whose minitorch
formula is written differently; the node's real backward runs inside the WORK event.

>>> FORWARD["aten::t"]
(('aten::transpose', ('aten::as_strided',)),)
>>> BACKWARD["SoftmaxBackward0"]
(('aten::_softmax_backward_data', '<work>'),)
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from ..backend import element_strides, is_c_contiguous

__all__ = ["ACCUMULATE_GRAD", "ARITY", "BACKWARD", "FORWARD", "IMPLICIT_GRAD", "TO_COPY",
           "WORK", "blas_operands", "holds_work", "recorded_shapes", "variant"]

WORK = "<work>"
"""Where, among an event's children, the op's real work runs."""

_AS_STRIDED = ("aten::as_strided",)
_EMPTY = ("aten::empty",)
_FILL = ("aten::fill_",)
_RESOLVE_CONJ = ("aten::resolve_conj",)
_EMPTY_LIKE = ("aten::empty_like", ("aten::empty_strided",))
TO_COPY = ("aten::to", ("aten::_to_copy", ("aten::empty_strided",), ("aten::copy_",)))
"""A binary op's conversion of an operand to the op's dtype (a Python number's, above all)."""
_TO_COPY = TO_COPY
_ZEROS = ("aten::zeros", _EMPTY, ("aten::zero_",))
_CLONE_CONTIGUOUS = (("aten::empty_like", _EMPTY), ("aten::copy_", WORK))
_SUM_MARKED = ("aten::sum", _AS_STRIDED, _FILL)  # a sum whose work runs elsewhere
_SUM = (*_SUM_MARKED, WORK)
_DIV_BY_COUNT = ("aten::div_", _TO_COPY)  # mean's sum divided by a Python int
_VIEW = ("aten::view",)
_RESHAPE_VIEW = ("aten::reshape", _VIEW)
# max(dim)'s kernel works on keepdim outputs, then squeezes the values and the indices
_SQUEEZE_BACK = (("aten::unsqueeze_", ("aten::as_strided_",)),) * 2 + \
    (("aten::squeeze_", ("aten::as_strided_",)),) * 2

FORWARD: dict[str, tuple] = {
    # creation: an uninitialised tensor, then its filling
    "aten::zeros": (_EMPTY, ("aten::zero_", WORK)),
    "aten::ones": (_EMPTY, ("aten::fill_", WORK)),
    "aten::randn": (_EMPTY, ("aten::normal_", WORK)),
    "aten::zeros_like": (_EMPTY_LIKE, ("aten::zero_", WORK)),
    "aten::ones_like": (_EMPTY_LIKE, ("aten::fill_", WORK)),
    "aten::randn_like": (_EMPTY_LIKE, ("aten::normal_", WORK)),
    "aten::rand": (_EMPTY, ("aten::uniform_", WORK)),
    "aten::rand_like": (_EMPTY_LIKE, ("aten::uniform_", WORK)),
    "aten::full": (_EMPTY, ("aten::fill_", WORK)),
    "aten::arange": (_EMPTY, ("aten::arange", ("aten::resize_",), WORK)),
    # torch.tensor(data): no enclosing event; the data is copied in by aten::to
    "tensor": (_EMPTY, ("aten::to", WORK), ("aten::lift_fresh",),
               ("aten::detach_", ("detach_",))),
    "aten::detach": (("detach",),),
    # views: the new view is an as_strided of the input
    "aten::t": (("aten::transpose", _AS_STRIDED),),
    "aten::transpose": (_AS_STRIDED,),
    "aten::permute": (_AS_STRIDED,),
    "aten::expand": (_AS_STRIDED,),
    "aten::unsqueeze": (_AS_STRIDED,),
    "aten::squeeze": (_AS_STRIDED,),
    "aten::squeeze_": (("aten::as_strided_",),),
    "aten::slice": (_AS_STRIDED,),
    "aten::select": (_AS_STRIDED,),
    "aten::index": (_AS_STRIDED, _RESHAPE_VIEW),
    # the gradient of a view: zeros, and the gradient copied into the same view of them
    "aten::select_backward": (_ZEROS, ("aten::select", _AS_STRIDED), ("aten::copy_", WORK)),
    "aten::slice_backward": (_ZEROS, ("aten::slice", _AS_STRIDED), ("aten::copy_", WORK)),
    # copies
    "aten::clone": (("aten::empty_strided",), ("aten::copy_", WORK)),
    "aten::clone.contiguous": _CLONE_CONTIGUOUS,
    "aten::empty": (),
    "aten::_to_copy": (("aten::empty_strided",), ("aten::copy_", WORK)),
    "aten::item": (("aten::_local_scalar_dense", WORK),),
    # products: the BLAS call reads its operands through resolve_conj
    "aten::bmm": (_RESOLVE_CONJ, _RESOLVE_CONJ),
    "aten::dot": (_EMPTY, _FILL),
    "aten::mv": (_EMPTY, ("aten::addmv_", WORK)),
    # reductions: the output is made (a view of the identity-filled result), then reduced
    # (with keepdim the output needs no reshaping view)
    "aten::sum": (_AS_STRIDED, _FILL),
    "aten::sum.keepdim": (_FILL,),
    "aten::mean": (_SUM, _DIV_BY_COUNT),
    "aten::mean.keepdim": (("aten::sum", _FILL, WORK), _DIV_BY_COUNT),
    "aten::max": (_EMPTY, _FILL),
    "aten::min": (_EMPTY, _FILL),
    "aten::max.dim": _SQUEEZE_BACK,
    "aten::min.dim": _SQUEEZE_BACK,
    "aten::max.dim.keepdim": (),
    "aten::min.dim.keepdim": (),
    "aten::argmax": (_RESHAPE_VIEW, _AS_STRIDED),
    "aten::argmin": (_RESHAPE_VIEW, _AS_STRIDED),
    "aten::argmax.dim": (_AS_STRIDED,),
    "aten::argmin.dim": (_AS_STRIDED,),
    "aten::argmax.dim.keepdim": (),
    "aten::argmin.dim.keepdim": (),
    # activations and softmax: the public op calls its kernel
    "aten::relu": (("aten::clamp_min", WORK),),
    "aten::softmax": (("aten::_softmax", WORK),),
    "aten::log_softmax": (("aten::_log_softmax", WORK),),
    "aten::log_softmax.cast": (("aten::to",), ("aten::_log_softmax", WORK)),
    "aten::abs": (_EMPTY, ("aten::abs", WORK)),  # abs writes into a new tensor (abs.out)
    # losses: the unreduced loss, then its reduction
    "aten::nll_loss": (("aten::nll_loss_forward", WORK),),
    "aten::mse_loss.mean": (("aten::resize_",), _EMPTY, WORK,
                            ("aten::mean", _SUM_MARKED, _DIV_BY_COUNT)),
    "aten::mse_loss.sum": (("aten::resize_",), _EMPTY, WORK, _SUM_MARKED),
    "aten::mse_loss.none": (),
}

_ITEM = ("aten::item", ("aten::_local_scalar_dense",))
# max()/min() of all elements: the gradient shared evenly among the tied extremes
_EVENLY_DISTRIBUTE = (
    ("aten::isnan", ("aten::ne",)), _ITEM, ("aten::eq",),
    ("aten::new_zeros", ("aten::new_empty", _EMPTY), ("aten::zero_",)),
    ("aten::sum", _AS_STRIDED, _TO_COPY, _FILL), ("aten::div", _TO_COPY),
    ("aten::masked_fill_", _ITEM, WORK))
# max(dim)/min(dim): the gradient scattered to the selected indices
_VALUE_SELECTING = (("aten::value_selecting_reduction_backward",
                     ("aten::unsqueeze", _AS_STRIDED), ("aten::unsqueeze", _AS_STRIDED),
                     _ZEROS, ("aten::scatter_", ("aten::to",), WORK)),)

# The BLAS call behind mm/addmm resolves the conjugate of its result, then reads mat2 and
# mat1 as they lie: row-major (resolve_conj), as a transpose (x.t(): nothing), or neither
# (an expanded gradient: a contiguous clone). Keys: aten::mm.<mat1 layout>.<mat2 layout>.
_BLAS_READ = {"row": (_RESOLVE_CONJ,), "transposed": (),
              "copied": (("aten::clone", *_CLONE_CONTIGUOUS),)}
for _m1, _read1 in _BLAS_READ.items():
    for _m2, _read2 in _BLAS_READ.items():
        FORWARD[f"aten::mm.{_m1}.{_m2}"] = (_RESOLVE_CONJ, *_read2, *_read1)
        # addmm first broadcasts the bias into the result (blas_operands adds ".expand")
        FORWARD[f"aten::addmm.{_m1}.{_m2}"] = (("aten::copy_",), _RESOLVE_CONJ, *_read2,
                                               *_read1)
        FORWARD[f"aten::addmm.{_m1}.{_m2}.expand"] = (("aten::expand", _AS_STRIDED),
                                                      *FORWARD[f"aten::addmm.{_m1}.{_m2}"])

IMPLICIT_GRAD = ("aten::ones_like", _EMPTY_LIKE, _FILL)
"""``backward()``'s implicit gradient of a scalar."""

ACCUMULATE_GRAD = {
    "first": (("aten::detach", ("detach",)),),  # kept as the leaf's .grad
    "copied": (("aten::new_empty_strided", ("aten::empty_strided",)), ("aten::copy_",)),
    "added": (("aten::add_",),),
}
"""AccumulateGrad's events: a first gradient kept, or copied (its layout is not the leaf's),
or a later gradient added."""

BACKWARD: dict[str, tuple] = {
    "SoftmaxBackward0": (("aten::_softmax_backward_data", WORK),),
    "LogSoftmaxBackward0": (("aten::_log_softmax_backward_data", WORK),),
    "MaxBackward1": _EVENLY_DISTRIBUTE,
    "MinBackward1": _EVENLY_DISTRIBUTE,
    "MaxBackward0": _VALUE_SELECTING,
    "MinBackward0": _VALUE_SELECTING,
    "NllLossBackward0": (("aten::nll_loss_backward", ("aten::zero_",), WORK),),
    "MseLossBackward0": (("aten::mse_loss_backward",
                          ("aten::zeros_like", ("aten::empty_like", _EMPTY), ("aten::zero_",)),
                          ("aten::mse_loss_backward", WORK)),),
}


ARITY: dict[str, int] = {
    # creation
    "aten::empty": 6, "aten::empty_like": 6, "aten::empty_strided": 6, "aten::zeros": 5,
    "aten::ones": 5, "aten::randn": 5, "aten::rand": 5, "aten::full": 6, "aten::zeros_like": 6,
    "aten::ones_like": 6, "aten::randn_like": 6, "aten::rand_like": 6, "aten::new_empty": 6,
    "aten::new_zeros": 6, "aten::new_empty_strided": 7, "aten::lift_fresh": 1,
    "aten::normal_": 4, "aten::uniform_": 4, "aten::zero_": 1, "aten::fill_": 2,
    "aten::resize_": 3,
    # conversions and copies
    "aten::to": 5, "aten::_to_copy": 7, "aten::copy_": 3, "aten::clone": 2,
    "aten::contiguous": 2, "aten::detach": 1, "detach": 1, "aten::detach_": 1, "detach_": 1,
    "aten::item": 1, "aten::_local_scalar_dense": 1, "aten::result_type": 2,
    # pointwise
    "aten::add": 3, "aten::add_": 3, "aten::sub": 3, "aten::sub_": 3, "aten::rsub": 3,
    "aten::mul": 2, "aten::mul_": 2, "aten::div": 2, "aten::div_": 2, "aten::neg": 1,
    "aten::pow": 2, "aten::exp": 1, "aten::log": 1, "aten::sqrt": 1, "aten::abs": 1,
    "aten::sigmoid": 1, "aten::tanh": 1, "aten::relu": 1, "aten::clamp_min": 2,
    "aten::eq": 2, "aten::ne": 2, "aten::isnan": 1, "aten::masked_fill_": 3,
    "aten::sigmoid_backward": 2, "aten::tanh_backward": 2, "aten::threshold_backward": 3,
    # products
    "aten::matmul": 2, "aten::mm": 2, "aten::bmm": 2, "aten::dot": 2, "aten::mv": 2,
    "aten::addmm": 5, "aten::addmv_": 5, "aten::linear": 3, "aten::resolve_conj": 1,
    # views
    "aten::view": 2, "aten::reshape": 2, "aten::_reshape_alias": 3, "aten::_unsafe_view": 2,
    "aten::t": 1, "aten::transpose": 3, "aten::permute": 2, "aten::expand": 3,
    "aten::squeeze": 2, "aten::squeeze_": 2, "aten::unsqueeze": 2, "aten::unsqueeze_": 2,
    "aten::slice": 5, "aten::select": 3, "aten::as_strided": 4, "aten::as_strided_": 4,
    "aten::flatten": 3, "aten::index": 2, "aten::select_backward": 4,
    "aten::slice_backward": 6,
    # reductions (".dim": the overload that takes dims)
    "aten::sum": 2, "aten::sum.dim": 4, "aten::mean": 2, "aten::mean.dim": 4,
    "aten::max": 1, "aten::max.dim": 3, "aten::min": 1, "aten::min.dim": 3,
    "aten::argmax": 3, "aten::argmin": 3,
    # softmax and losses
    "aten::softmax": 3, "aten::_softmax": 3, "aten::log_softmax": 3, "aten::_log_softmax": 3,
    "aten::_softmax_backward_data": 4, "aten::_log_softmax_backward_data": 4,
    "aten::cross_entropy_loss": 6, "aten::nll_loss_nd": 5, "aten::nll_loss": 5,
    "aten::nll_loss_forward": 5, "aten::nll_loss_backward": 7, "aten::mse_loss": 3,
    "aten::broadcast_tensors": 1, "aten::scatter_": 4,
    "aten::value_selecting_reduction_backward": 5,
}
"""How many arguments torch's schema of each event has: with ``record_shapes`` torch lists
one shape per argument, ``[]`` for one that is not a tensor."""


def recorded_shapes(name: str, shapes: list) -> list:
    """``shapes`` (of the arguments minitorch has, in order) padded with ``()`` to the
    arguments of torch's schema ``name`` (an op with a ``dim`` overload is ``name.dim``).

    >>> recorded_shapes("aten::add", [(2, 3), (2, 3)])
    [(2, 3), (2, 3), ()]
    """
    arity = ARITY.get(name)
    if arity is None or len(shapes) >= arity:
        return shapes
    return [*shapes, *[()] * (arity - len(shapes))]


def holds_work(tree: tuple) -> bool:
    """Whether the real work runs inside ``tree`` (at any depth).

    >>> holds_work(("aten::copy_", WORK)), holds_work(("aten::as_strided",))
    (True, False)
    """
    return any(child is WORK or (isinstance(child, tuple) and holds_work(child))
               for child in tree[1:])


def variant(name: str, flag: str) -> Callable[[tuple, dict], str]:
    """An op's ``_profile_inner``: the key of :data:`FORWARD` for a call, ``name`` or, when
    the call's keyword argument ``flag`` is true, ``name.flag``.

    >>> variant("aten::sum", "keepdim")((), {"keepdim": True})
    'aten::sum.keepdim'
    """

    def key(args: tuple, kwargs: dict) -> str:
        return f"{name}.{flag}" if kwargs.get(flag) else name

    return key


def blas_operands(args: tuple, kwargs: dict) -> str:
    """The key of an ``aten::mm`` call ``(mat1, mat2)`` or ``aten::addmm`` call ``(bias,
    mat1, mat2)``: how its BLAS call reads each matrix (see ``_BLAS_READ``).

    >>> import minitorch
    >>> a = minitorch.ones(2, 2)
    >>> blas_operands((a, a.t()), {}), blas_operands((a[0], a, a), {})
    ('aten::mm.row.transposed', 'aten::addmm.row.row.expand')
    """
    if len(args) == 2:
        return f"aten::mm.{_layout(args[0]._data)}.{_layout(args[1]._data)}"
    bias, mat1, mat2 = args[:3]
    expand = ".expand" if bias._data.shape != (mat1.shape[0], mat2.shape[1]) else ""
    return f"aten::addmm.{_layout(mat1._data)}.{_layout(mat2._data)}{expand}"


def _layout(matrix: Any) -> str:
    """``row`` (row-major), ``transposed`` (column-major) or ``copied`` (neither), as torch's
    BLAS reads a matrix."""
    strides = None if is_c_contiguous(matrix) else element_strides(matrix)
    if strides is None:
        return "row"
    rows, cols = matrix.shape
    if strides[1] == 1 and strides[0] >= max(1, cols):
        return "row"
    if strides[0] == 1 and strides[1] >= max(1, rows):
        return "transposed"
    return "copied"
