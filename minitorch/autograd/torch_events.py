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

__all__ = ["BACKWARD", "FORWARD", "WORK", "holds_work"]

WORK = "<work>"
"""Where, among an event's children, the op's real work runs."""

Tree = tuple

_AS_STRIDED = ("aten::as_strided",)
_EMPTY = ("aten::empty",)
_FILL = ("aten::fill_",)
_RESOLVE_CONJ = ("aten::resolve_conj",)
_EMPTY_LIKE = ("aten::empty_like", ("aten::empty_strided",))
_TO_COPY = ("aten::to", ("aten::_to_copy", ("aten::empty_strided",), ("aten::copy_",)))
_SUM = ("aten::sum", _AS_STRIDED, _FILL, WORK)
_DIV_BY_COUNT = ("aten::div_", _TO_COPY)  # mean's sum divided by a Python int
_VIEW = ("aten::view",)
_RESHAPE_VIEW = ("aten::reshape", _VIEW)

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
    "aten::slice": (_AS_STRIDED,),
    "aten::select": (_AS_STRIDED,),
    "aten::index": (_AS_STRIDED, _RESHAPE_VIEW),
    # copies
    "aten::clone": (("aten::empty_strided",), ("aten::copy_", WORK)),
    "aten::clone.contiguous": (("aten::empty_like", _EMPTY), ("aten::copy_", WORK)),
    "aten::_to_copy": (("aten::empty_strided",), ("aten::copy_", WORK)),
    "aten::item": (("aten::_local_scalar_dense", WORK),),
    # products: the BLAS call reads its operands through resolve_conj
    "aten::mm": (_RESOLVE_CONJ, _RESOLVE_CONJ, _RESOLVE_CONJ),
    "aten::bmm": (_RESOLVE_CONJ, _RESOLVE_CONJ),
    "aten::dot": (_EMPTY, _FILL),
    "aten::mv": (_EMPTY, ("aten::addmv_", WORK)),
    # reductions: the output is made (a view of the identity-filled result), then reduced
    "aten::sum": (_AS_STRIDED, _FILL),
    "aten::mean": (_SUM, _DIV_BY_COUNT),
    "aten::max": (_EMPTY, _FILL),
    "aten::min": (_EMPTY, _FILL),
    "aten::argmax": (_RESHAPE_VIEW, _AS_STRIDED),
    "aten::argmax.dim": (_AS_STRIDED,),
    # activations and softmax: the public op calls its kernel
    "aten::relu": (("aten::clamp_min", WORK),),
    "aten::softmax": (("aten::_softmax", WORK),),
    "aten::log_softmax": (("aten::_log_softmax", WORK),),
}

BACKWARD: dict[str, tuple] = {
    "SoftmaxBackward0": (("aten::_softmax_backward_data", WORK),),
    "LogSoftmaxBackward0": (("aten::_log_softmax_backward_data", WORK),),
}


def holds_work(tree: tuple) -> bool:
    """Whether the real work runs inside ``tree`` (at any depth).

    >>> holds_work(("aten::copy_", WORK)), holds_work(("aten::as_strided",))
    (True, False)
    """
    return any(child is WORK or (isinstance(child, tuple) and holds_work(child))
               for child in tree[1:])
