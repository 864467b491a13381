"""``Tensor``: an array of values plus the autograd bookkeeping around it.

A tensor holds its values in ``_data`` (an array of its backend), and for autograd:
``requires_grad`` on leaves, ``grad_fn`` and ``_output_nr`` on results of recorded ops,
``.grad`` on leaves, and a version counter shared with its views, bumped by every in-place
operation so saved tensors can tell when they went stale.

>>> import minitorch
>>> a = minitorch.tensor(2., requires_grad=True)
>>> f = (a * 0.5).exp() + 1
>>> f
tensor(3.7183, grad_fn=<AddBackward0>)
"""

from __future__ import annotations

import contextlib
import warnings
import weakref
from collections.abc import Callable, Iterator, Sequence
from typing import Any

from . import _args, _batched_function, _call_form, _layout, autograd, backend
from . import _dtype as D
from ._meta import is_meta
from ._tensor_str import meta_repr, tensor_repr
from ._warn_once import torch_warn, warn_once
from .autograd import forward_ad, grad_mode
from .autograd.graph import AccumulateGrad, add_hook, exposed, saved_as_written
from .backend import HOST_SCALARS, namespace, to_numpy
from .ops._cascade_sum import torch_sum

__all__ = ["Size", "Tensor"]


class Size(tuple, metaclass=_args.TorchCType):
    """A tensor's shape: a tuple that prints as ``torch.Size([2, 3])``, as torch's does.

    >>> minitorch.ones(2, 3).shape
    torch.Size([2, 3])
    """

    __slots__ = ()

    def __new__(cls, sizes: Any = ()) -> Size:
        """Each size an int (or what torch reads as one), refused with torch's message.

        >>> minitorch.Size("a")
        Traceback (most recent call last):
        TypeError: torch.Size() takes an iterable of 'int' (item 0 is 'str')
        """
        return tuple.__new__(cls, [_size_item(i, n) for i, n in enumerate(sizes)])

    def __repr__(self) -> str:
        return f"torch.Size({list(self)})"

    def __getitem__(self, index: Any) -> Any:
        item = tuple.__getitem__(self, index)
        return tuple.__new__(Size, item) if isinstance(index, slice) else item

    def __add__(self, other: Any) -> Size:
        """A Size joined with a tuple is a Size (each item checked as ``Size()`` does).

        >>> minitorch.Size([2]) + (3,)
        torch.Size([2, 3])
        """
        if not isinstance(other, tuple):
            raise TypeError(f"can only concatenate tuple (not {type(other).__name__}) to "
                            "torch.Size")
        return Size(tuple.__add__(self, other))

    def __radd__(self, other: Any) -> Size:
        return Size(tuple.__add__(other, self)) if isinstance(other, tuple) else NotImplemented

    def __mul__(self, times: Any) -> Size:
        """The sizes repeated ``times`` times, a Size.

        >>> minitorch.Size([2]) * 2
        torch.Size([2, 2])
        """
        if not hasattr(type(times), "__index__"):
            raise TypeError(f"can't multiply sequence by non-int of type "
                            f"'{type(times).__name__}'")
        return tuple.__new__(Size, tuple.__mul__(self, times))

    __rmul__ = __mul__

    def numel(self) -> int:
        """The number of elements of a tensor of this shape."""
        n = 1
        for s in self:
            n *= s
        return n


class VersionCounter:
    """How many in-place changes a tensor's memory has seen (shared by views).

    Every tensor makes one, so making one runs no Python: ``value`` reads 0 from the class
    until the first in-place change sets it.

    >>> c = VersionCounter(); c.value += 1; c.value
    1
    """

    value = 0
    traced = False  # made while linearize traces: torch's tracer cannot read its values


# transforms inside which torch's tensors do not require grad (at the innermost level)
_UNTRACKED = ("forward", "vmap")


class _TracedCounter(VersionCounter):
    """The counter of a tensor made while ``linearize`` traces its function."""

    traced = True


_UNTRACED = VersionCounter  # (the name VersionCounter is swapped while tracing)


def mark_traced(t: Tensor, traced: bool = True) -> None:
    """Count ``t`` among the traced tensors (a dual the trace made of a primal, whose
    counter it shared) or, with ``traced`` False, not (a literal, which torch's trace
    keeps as a constant)."""
    counter = (_TracedCounter if traced else _UNTRACED)()
    counter.value = t._version_counter.value
    t._version_counter = counter


@contextlib.contextmanager
def traced_creation() -> Iterator[None]:
    """Tensors made inside refuse ``item()`` (and bool, int, float of them), as the tensors
    torch's ``make_fx`` traces do; those made before read as ever. Swapping the class every
    new tensor's counter is made from costs the hot path nothing.

    >>> with traced_creation():
    ...     t = minitorch.ones(1)
    >>> t._version_counter.traced, minitorch.ones(1)._version_counter.traced
    (True, False)
    """
    global VersionCounter
    previous, VersionCounter = VersionCounter, _TracedCounter
    try:
        yield
    finally:
        VersionCounter = previous


class _TensorType(type):
    """Tensor's metaclass: ``type(x)`` prints torch's class names (``<class 'torch.Tensor'>``)."""

    def __repr__(cls) -> str:
        if cls.__module__ == __name__:
            return f"<class 'torch.{cls.__qualname__}'>"
        return f"<class '{cls.__module__.replace('minitorch.', 'torch.', 1)}.{cls.__qualname__}'>"



class Tensor(metaclass=_TensorType):
    """A multi-dimensional array that records the operations applied to it.

    Create tensors with ``minitorch.tensor``, ``zeros``, ``randn`` and friends.

    >>> x = minitorch.tensor([1., 2.], requires_grad=True)
    >>> (x * x).sum().backward(); x.grad
    tensor([2., 4.])
    """

    # Every tensor sets these five slots. What only leaves, views or hooked tensors have reads
    # a class default until it is set (in the instance dict): most tensors are the short-lived
    # results of ops, and each attribute fewer makes every op cheaper.
    __slots__ = ("__dict__", "__weakref__", "_data", "_grad_fn", "_output_nr", "_requires_grad",
                 "_version_counter")
    __hash__ = object.__hash__
    __array_priority__ = 1000  # numpy scalars defer to our reflected operators, as torch's
    _grad: Tensor | None = None
    # A view's (root tensor, the shared version counter's value when the view last took its
    # grad_fn): torch regenerates the grad_fn when the counter has moved since (``_rebased``)
    _view_of: tuple | None = None
    # The tensor whose memory a tensor outside its graph reads (detach, view(dtype)): its
    # storage, as a view's is its base's.
    _memory: Tensor | None = None
    _hooks: dict | None = None
    _post_acc_hooks: dict | None = None
    _accumulator: Any = None  # a weak reference to the leaf's AccumulateGrad node
    _inference = False
    # An inference tensor from .data or .detach(): torch gives it a version counter of its own,
    # so it may be written in place outside inference mode (a view of it may not).
    _counted = False
    # How a view was made, when torch forbids an in-place op through it and the regeneration
    # of its grad_fn (torch's CreationMeta): "no_grad", "inference" (made in that mode, or a
    # view of such a view) or "multi_output" (one of several views of one op: unbind, split)
    _view_creation: str | None = None
    # A gradient only the engine holds, whose array is its own: the leaf it is bound for may
    # take it as its .grad without a copy (autograd/function.py sets it, graph.py takes it).
    _fresh = False
    # The torch.func transform (grad/jvp kind) this tensor was made in, 0 for none: an
    # in-place write inside a later one is refused (_batched_function.refuse_captured).
    _level = 0

    def __new__(cls, *data: Any, **keywords: Any) -> Tensor:
        """torch's legacy constructor: ``Tensor(2, 3)`` is a zero-filled 2x3 tensor and
        ``Tensor([1, 2])`` converts data, both of the default dtype; ``Tensor(t)`` is an alias
        of t (a view, in t's graph); ``device=`` is its one keyword.

        >>> minitorch.Tensor(2, 3).shape
        torch.Size([2, 3])
        """
        from ._factories import legacy_tensor

        return legacy_tensor(cls, data, None, keywords)

    def __init__(self, *data: Any, **keywords: Any) -> None:
        """Nothing: ``__new__`` built the tensor (an alias is no new one to fill)."""

    def _init(self, array: Any) -> None:
        if isinstance(array, HOST_SCALARS):  # numpy reductions return scalars, not 0-d arrays
            array = namespace(array).asarray(array)
        elif not array.size and array.ndim and not any(getattr(array, "strides", None) or (1,)):
            array = backend.restrided(array, backend.contiguous_strides(array.shape))
        self._data = array
        self._requires_grad = False
        self._grad_fn = None
        self._output_nr = 0
        self._version_counter = VersionCounter()
        if grad_mode._state.inference:
            self._inference = True
        if _batched_function._state.level:
            self._level = _batched_function._state.level

    def __init_subclass__(cls, **kwargs: Any) -> None:
        """A subclass dispatches its methods to ``__torch_function__`` (see overrides)."""
        super().__init_subclass__(**kwargs)
        from . import overrides

        overrides.subclassed(cls)

    @classmethod
    def __torch_function__(cls, func: Callable, types: tuple, args: tuple = (),
                           kwargs: dict | None = None) -> Any:
        """Run ``func`` and give its tensors back as ``cls`` (torch's default for subclasses).

        >>> class Mine(minitorch.Tensor): pass
        >>> type(minitorch.ones(2).as_subclass(Mine).sum()).__name__
        'Mine'
        """
        from .overrides import tensor_torch_function

        return tensor_torch_function(cls, func, types, args, kwargs)

    def as_subclass(self, cls: type) -> Tensor:
        """This tensor as an instance of the Tensor subclass ``cls``: the same memory, still in
        the graph (an alias, AliasBackward0 where it requires grad).

        >>> class Mine(minitorch.Tensor): pass
        >>> type(minitorch.ones(1).as_subclass(Mine)).__name__
        'Mine'
        """
        from .ops.shape import Alias

        if not isinstance(cls, type):
            raise TypeError(f"cls must be a type (got {_args.type_name(cls)})")
        if not issubclass(cls, Tensor):
            raise TypeError("Creating a Tensor subclass from a class that does not inherit from "
                            "Tensor is not possible. Make sure your class inherits from Tensor.")
        alias = Alias.apply(self) if self.requires_grad else self._alias()
        out = object.__new__(cls)
        for slot in Tensor.__slots__[2:]:
            object.__setattr__(out, slot, object.__getattribute__(alias, slot))
        out.__dict__.update(alias.__dict__)
        return out

    @classmethod
    def _make(cls, array: Any) -> Tensor:
        """Wrap an array without copying or checking (internal fast path)."""
        t = object.__new__(cls)
        t._init(array)
        return t

    @classmethod
    def _over(cls, array: Any) -> Tensor:
        """``_make`` for an array over memory another tensor has: its strides kept, all zeros
        too (an expanded empty view's; a new array's, numpy's for no elements, get
        contiguous ones)."""
        t = cls._make(array)
        t._data = array
        return t

    # ---- basic properties -------------------------------------------------------------
    @property
    def _xp(self) -> Any:
        return namespace(self._data)

    @property
    def dtype(self) -> D.dtype:
        """The element type, e.g. ``minitorch.float32``."""
        # (from_array_dtype's table read here first: every op reads a dtype two or three times)
        known = D._BY_NUMPY_DTYPE_CLASS.get(type(self._data.dtype))
        return known if known is not None else D.from_array_dtype(self._data.dtype)

    @property
    def shape(self) -> Size:
        """The size of each dimension."""
        return tuple.__new__(Size, self._data.shape)  # numpy's sizes are ints: no checks

    def size(self, dim: int | None = None) -> Any:
        """The shape, or the size of one dimension."""
        if dim is None:
            return self.shape
        _check_no_dims(self, "size", dim)
        return self._data.shape[_args.dim("size", dim, self.dim())]

    def stride(self, dim: int | None = None) -> Any:
        """The step in elements between neighbours along each dimension, or along ``dim``.

        >>> t = minitorch.ones(2, 3)
        >>> t.stride(), t.t().stride(), t.stride(-1)
        ((3, 1), (1, 3), 1)
        """
        strides = backend.element_strides(self._data)
        if strides is None:  # a library without strides: torch's contiguous ones
            strides = backend.contiguous_strides(self._data.shape)
        if dim is None:
            return strides
        _check_no_dims(self, "stride", dim)
        return strides[_args.dim("stride", dim, self.dim())]

    def data_ptr(self) -> int:
        """The address of the first element (0 for an empty tensor): views, ``detach()`` and
        ``.data`` share memory, so their addresses tell where they lie in it.

        >>> t = minitorch.zeros(3)
        >>> t[1:].data_ptr() - t.data_ptr(), t.detach().data_ptr() == t.data_ptr()
        (4, True)
        """
        if self._data.size == 0:
            return 0
        address = backend.address(self._data)
        if address is None:
            raise RuntimeError("data_ptr(): this array library does not expose its memory "
                               "addresses; compare values instead")
        return address

    @property
    def ndim(self) -> int:
        """The number of dimensions."""
        return self._data.ndim

    def dim(self) -> int:
        """The number of dimensions."""
        return self._data.ndim

    def numel(self) -> int:
        """The number of elements."""
        return self.shape.numel()

    def element_size(self) -> int:
        """Bytes per element."""
        return self.dtype.itemsize

    @property
    def device(self) -> backend.device:
        """Where the values live: ``device(type='cpu')`` or ``device(type='cuda', index=0)``.

        >>> minitorch.ones(1).device
        device(type='cpu')
        """
        return backend.device_of(self._data)

    @property
    def is_cuda(self) -> bool:
        """True for tensors on a CUDA GPU."""
        return self.device.type == "cuda"

    @property
    def is_meta(self) -> bool:
        """True for tensors on the meta device (a shape and a dtype, no values).

        >>> minitorch.empty(2, device="meta").is_meta, minitorch.ones(1).is_meta
        (True, False)
        """
        return is_meta(self._data)

    @property
    def grad_fn(self) -> Any:
        """The node of the recorded op that produced this tensor, or None (read-only).

        A view whose memory was written in place since it took its grad_fn (through its
        base, itself or another view, recorded or not) takes a new one first, as torch's:

        >>> a = minitorch.ones(3, requires_grad=True)
        >>> x = a.view(3)
        >>> with minitorch.no_grad():
        ...     x[0] = 5.
        >>> x.grad_fn.name()
        'AsStridedBackward0'
        """
        if forward_ad.is_internal_leaf(self):  # grad/vjp's input: a leaf of its level in torch
            return None
        return exposed(self._current_grad_fn())

    def _current_grad_fn(self) -> Any:
        """``grad_fn`` for minitorch's own reads: the node, regenerated for a view written
        through, without marking it as handed to user code (see ``graph.exposed``)."""
        if self._view_of is not None:
            self._rebased()
        return self._grad_fn

    @property
    def is_leaf(self) -> bool:
        """True for tensors not produced by a recorded operation (and for a transform's own
        input, a leaf of its level in torch)."""
        return self._current_grad_fn() is None or forward_ad.is_internal_leaf(self)

    @property
    def _base(self) -> Tensor | None:
        """The tensor whose memory this view shares (the first one, for a view of a view);
        None for a tensor that is not a view, and for a view of an inference tensor.

        >>> a = minitorch.ones(2, 3)
        >>> a[0][1:]._base is a, a._base
        (True, None)
        """
        if forward_ad.is_internal_leaf(self):  # (a transform's input: no view in torch)
            return None
        return None if self._view_of is None or self._inference else self._view_of[0]

    def _is_view(self) -> bool:
        """Whether this tensor is a view with a ``_base`` (torch's private test of it).

        >>> minitorch.ones(2)[1:]._is_view(), minitorch.ones(2)._is_view()
        (True, False)
        """
        return self._base is not None

    def is_floating_point(self) -> bool:
        """True for float32 and float64 tensors."""
        return self.dtype.is_floating_point

    def is_inference(self) -> bool:
        """True for tensors created inside ``inference_mode``."""
        return self._inference

    def is_contiguous(self, *, memory_format: Any = _layout.contiguous_format) -> bool:
        """True if the values lie in memory in row-major order, without gaps (torch's rule:
        sizes of one and empty tensors do not count); with ``memory_format`` channels_last
        (channels_last_3d), whether a 4-d (5-d) tensor lies in that order instead.

        >>> x = minitorch.ones(2, 3)
        >>> x.is_contiguous(), x.t().is_contiguous()
        (True, False)
        """
        order = _layout.dims_order("is_contiguous", memory_format, self.dim())
        strides = backend.element_strides(self._data)
        if strides is None:
            return order is None
        if order is None:
            return strides_contiguous(self._data.shape, strides)
        return _layout.dense_in_order(self._data.shape, strides, order)

    def contiguous(self, *, memory_format: Any = None) -> Tensor:
        """The tensor itself when contiguous, else a contiguous copy (``CloneBackward0``).

        >>> minitorch.ones(2, 3).t().contiguous().view(-1).shape
        torch.Size([6])
        """
        given = _layout.contiguous_format if memory_format is None else \
            _layout.checked("contiguous", memory_format, self.ndim)
        if self.is_contiguous(memory_format=given):  # (preserve's: row-major, before torch's
            return self  # refusal of it)
        if given is _layout.preserve_format:
            raise RuntimeError("preserve memory format is unsupported by the contiguous "
                               "operator")
        from .ops.shape import Clone

        with autograd.profiler.op_event("aten::contiguous", (self,)):
            if given is _layout.contiguous_format:
                return Clone.apply(self, contiguous=True)
            return Clone.apply(self, memory_format=given)

    # ---- autograd attributes ------------------------------------------------------------
    @property
    def requires_grad(self) -> bool:
        """Whether gradients flow to (leaf) or through (non-leaf) this tensor; a view
        requires grad when its base does, even one taken in no_grad mode (as torch's).

        >>> a = minitorch.ones(2, requires_grad=True)
        >>> with minitorch.no_grad():
        ...     v = a[:1]
        >>> v.requires_grad, v.is_leaf
        (True, True)
        """
        return self._requires_grad or self._grad_fn is not None or (
            self._view_of is not None and not self._inference and self._view_of[0].requires_grad)

    @requires_grad.setter
    def requires_grad(self, value: bool) -> None:
        if not isinstance(value, bool):
            raise RuntimeError("requires_grad must be a bool")
        if value and self._grad_fn is None and not self.dtype.is_floating_point:
            raise RuntimeError(
                "only Tensors of floating point and complex dtype can require gradients")
        if value and self._grad_fn is not None:  # (where requires_grad_(True) is a no-op)
            raise RuntimeError("you can only change requires_grad flags of leaf variables.")
        self._set_requires_grad(value)

    def requires_grad_(self, requires_grad: bool = True) -> Tensor:
        """Set ``requires_grad`` on a leaf, in place; returns the tensor."""
        requires_grad = _args.flag("requires_grad_", requires_grad, "requires_grad", 1)
        if _batched_function.functorch():
            raise RuntimeError(
                "You are attempting to call Tensor.requires_grad_() (or perhaps using "
                "torch.autograd.functional.* APIs) inside of a function being transformed by a "
                "functorch transform. This is unsupported, please attempt to use the functorch "
                "transforms (e.g. grad, vjp, jacrev, jacfwd, hessian) or call requires_grad_() "
                "outside of a function being transformed instead.")
        return self._set_requires_grad(requires_grad)

    def _set_requires_grad(self, requires_grad: bool) -> Tensor:
        """``requires_grad_`` for factories, the setter and the transforms themselves, which
        torch allows inside a transform: a leaf made there is the transform's own."""
        if self._grad_fn is not None:
            if requires_grad:  # it already requires grad: torch's method changes nothing
                return self
            raise RuntimeError(
                "you can only change requires_grad flags of leaf variables. If you want to use "
                "a computed variable in a subgraph that doesn't require differentiation use "
                "var_no_grad = var.detach()."
            )
        if requires_grad and not self.dtype.is_floating_point:
            raise RuntimeError("only Tensors of floating point dtype can require gradients")
        if requires_grad and self._inference and not grad_mode._state.inference:
            raise RuntimeError("Setting requires_grad=True on inference tensor outside "
                               "InferenceMode is not allowed.")
        self._requires_grad = bool(requires_grad)
        if requires_grad and _batched_function.differentiating():
            forward_ad.internal_leaf(self)
        return self

    @property
    def grad(self) -> Tensor | None:
        """The accumulated gradient of a leaf (None until backward reaches it)."""
        if self._grad is None and not self.is_leaf and not self.retains_grad:
            warnings.warn(  # (torch stays quiet once a .grad was set by hand)
                "The .grad attribute of a Tensor that is not a leaf Tensor is being accessed. "
                "Its .grad attribute won't be populated during autograd.backward(). If you "
                "indeed want the .grad field to be populated for a non-leaf Tensor, use "
                ".retain_grad() on the non-leaf Tensor. If you access the non-leaf Tensor by "
                "mistake, make sure you access the leaf Tensor instead. See "
                "github.com/pytorch/pytorch/pull/30531 for more information.", UserWarning,
                stacklevel=2,
            )
        return self._grad

    @grad.deleter
    def grad(self) -> None:  # as torch: ``del x.grad`` is ``x.grad = None``
        self.grad = None

    @grad.setter
    def grad(self, value: Tensor | None) -> None:
        if value is not None:
            if not isinstance(value, Tensor):
                raise TypeError(f"assigned grad expected to be a Tensor or None but got grad "
                                f"of type {_args.type_name(value)}")
            if type(value._data) is not type(self._data) and value.device != self.device:
                raise RuntimeError(
                    f"attempting to assign a gradient with device type '{value.device.type}' "
                    f"to a tensor with device type '{self.device.type}'. Please ensure that "
                    "the gradient and the tensor are on the same device")
            if value is self:
                raise RuntimeError("can't assign Variable as its own grad")
            if value.dtype is not self.dtype:
                raise RuntimeError(
                    f"attempting to assign a gradient with dtype '{value.dtype.c_type}' "
                    f"to a tensor with grad_dtype '{_args.legacy(self.dtype)}'. The gradient "
                    "must match the tensor's grad_dtype (defaults to the tensor's dtype). You "
                    "can set the tensor's grad_dtype attribute with a specific dtype, or None to "
                    "allow any dtype. Set grad_dtype with caution. Diverging the dtypes of a "
                    "tensor and its gradient may break downstream systems that assume they "
                    "match.")
            if value.shape != self.shape:
                raise RuntimeError(
                    f"attempting to assign a gradient of size '{list(value.shape)}' to a tensor "
                    f"of size '{list(self.shape)}'. Please ensure that the gradient and the "
                    "tensor are the same size")
        self._grad = value

    @property
    def data(self) -> Tensor:
        """The same values as a tensor outside autograd (its own version counter).

        In-place changes through ``.data`` are invisible to the saved-tensor check.
        """
        return _counted(_inheriting_inference(Tensor._make(self._data), self))

    @data.setter
    def data(self, value: Tensor) -> None:
        if not _args.is_tensor(value):
            raise TypeError(f"Variable data has to be a tensor, but got {_args.type_name(value)}")
        if self.requires_grad and not value.dtype.is_floating_point:  # a non-leaf too
            raise RuntimeError("data set to a tensor that requires gradients must be floating "
                               "point or complex dtype")
        self._data = value._data

    @property
    def _version(self) -> int:
        if self._inference and not self._counted:
            raise RuntimeError("Inference tensors do not track version counter.")
        return self._version_counter.value

    @property
    def retains_grad(self) -> bool:
        """True for a non-leaf after ``retain_grad()``."""
        node = self._grad_fn
        return bool(node is not None and node._retain_grad_hooks
                    and self._output_nr in node._retain_grad_hooks)

    def retain_grad(self) -> None:
        """Keep ``.grad`` on this non-leaf tensor during backward."""
        kind = _batched_function.innermost()
        if kind == "reverse":
            raise RuntimeError(
                "You are attempting to call Tensor.retain_grad() inside of a function being "
                "transformed by a functorch transform. This is unsupported, please attempt to "
                "use the functorch transforms (e.g. grad, vjp, jacrev, jacfwd, hessian) or call "
                "retain_grad() outside of a function being transformed instead.")
        if not self.requires_grad or kind in _UNTRACKED:
            raise RuntimeError("can't retain_grad on Tensor that has requires_grad=False")
        node = self._current_grad_fn()
        if node is None:
            return
        if node._retain_grad_hooks is None:
            node._retain_grad_hooks = {}
        node._retain_grad_hooks[self._output_nr] = weakref.ref(self)

    def register_hook(self, hook: Callable[[Tensor], Tensor | None]) -> Any:
        """Call ``hook(grad)`` when this tensor's gradient is computed; a returned tensor
        replaces the gradient. Returns a handle with ``.remove()``."""
        if not self.requires_grad or _batched_function.innermost() in _UNTRACKED:
            raise RuntimeError(
                "cannot register a hook on a tensor that doesn't require gradient")
        if self._current_grad_fn() is not None:
            return self._grad_fn._register_tensor_hook(self._output_nr, hook)
        if self._hooks is None:
            self._hooks = {}
        return add_hook(self._hooks, hook)

    def register_post_accumulate_grad_hook(self, hook: Callable[[Tensor], None]) -> Any:
        """Call ``hook(tensor)`` on a leaf after its ``.grad`` has been updated."""
        if self._grad_fn is not None:
            raise RuntimeError(
                "post accumulate grad hooks cannot be registered on non-leaf tensors")
        if not self.requires_grad:
            raise RuntimeError(
                "cannot register a hook on a tensor that doesn't require gradient")
        if self._post_acc_hooks is None:
            self._post_acc_hooks = {}
        return add_hook(self._post_acc_hooks, hook)

    def backward(self, gradient: Tensor | None = None, retain_graph: bool | None = None,
                 create_graph: bool = False, inputs: Any = None) -> None:
        """Accumulate the gradient of this tensor into the leaves' ``.grad``."""
        autograd.backward(self, gradient, retain_graph, create_graph, inputs=inputs)

    @autograd.profiler.records("aten::detach")
    def detach(self) -> Tensor:
        """A tensor with the same values (and version counter) outside the graph."""
        return _counted(self._sharing(self._data))

    def _sharing(self, array: Any) -> Tensor:
        """A tensor over ``array``, this one's memory (perhaps read as another dtype), outside
        the graph: same storage and version counter."""
        t = Tensor._over(array)
        t._version_counter = self._version_counter
        t._memory = self._memory_root()
        return _inheriting_inference(t, self)

    def _memory_root(self) -> Tensor:
        """The tensor whose memory is this one's storage (itself where it owns it); a view's
        base's, which is a tensor outside the graph over another's memory for a view of
        ``detach()``."""
        if self._memory is not None:  # (a view given another storage: set_, resize_)
            return self._memory
        if self._view_of is not None:
            return self._view_of[0]._memory_root()  # (a base is no view: one step)
        return self

    def storage_offset(self) -> int:
        """Where this tensor's first element lies in its storage, in elements.

        >>> minitorch.zeros(3, 4)[1:, 2:].storage_offset()
        6
        """
        start = backend.address(self._data)
        root = backend.address(self._memory_root()._data)
        if start is None or root is None:
            raise RuntimeError("minitorch cannot locate a tensor in its storage with this array "
                               "library (it exposes no addresses)")
        return (start - root) // self.element_size()

    def detach_(self) -> Tensor:
        """Make this tensor a leaf that does not require grad."""
        if self._view_of is not None:
            raise RuntimeError(
                "Can't detach views in-place. Use detach() instead. If you are using "
                "DistributedDataParallel (DDP) for training, and gradient_as_bucket_view is set "
                "as True, gradients are views of DDP buckets, and hence detach_() cannot be "
                "called on these gradients. To fix this error, please refer to the "
                "Optimizer.zero_grad() function in torch/optim/optimizer.py as the solution.")
        self._grad_fn = None
        self._requires_grad = False
        return self

    # ---- graph plumbing (used by Function and the engine) --------------------------------
    def _edge(self) -> tuple[Any, int]:
        if self._view_of is not None:
            self._rebased()
        if self._grad_fn is not None:
            return self._grad_fn, self._output_nr
        if self._requires_grad:
            return self._grad_accumulator(), 0
        return None, 0

    def _rebased(self) -> None:
        """If this view's memory was written in place since it took its grad_fn (through its
        base, itself or another view; recorded or not: the version counter they share has
        moved), regenerate it as torch does: its elements taken from the base as it is now
        (AsStridedBackward0). torch refuses it for a view made in no_grad or inference mode
        or by an op that returns several views, and skips a view that never required grad
        (or of an inference tensor: those have no version counter)."""
        from .ops.shape import AsStridedView

        root, version = self._view_of
        if self._version_counter.value == version or self._inference or (
                self._grad_fn is None and not root.requires_grad):
            return
        if self._view_creation is not None:
            raise view_refusal(self, indirect=True)
        alias = Tensor._make(root._data)
        alias._grad_fn, alias._output_nr = root._grad_fn, root._output_nr
        alias._requires_grad, alias._accumulator = root._requires_grad, root._accumulator
        with grad_mode._recording(True):
            view = AsStridedView.apply(alias, key=backend.view_key(root._data, self._data))
        self._take_grad_fn(view._grad_fn, view._output_nr)
        self._view_of = (root, self._version_counter.value)

    def _grad_accumulator(self) -> Any:
        acc = self._accumulator() if self._accumulator is not None else None
        if acc is None:
            acc = AccumulateGrad(self)
            self._accumulator = weakref.ref(acc)
        return acc

    def _set_grad_fn(self, node: Any, output_nr: int) -> None:
        self._grad_fn = node
        self._output_nr = output_nr
        self._requires_grad = False

    def _take_grad_fn(self, node: Any, output_nr: int) -> None:
        """An in-place op gives this tensor a new grad_fn: as torch, its ``retain_grad`` moves
        to the new node, its other hooks stay with the old one (which no longer runs)."""
        old, old_nr = self._grad_fn, self._output_nr
        hooks = old._retain_grad_hooks if old is not None else None
        retained = hooks is not None and old_nr in hooks and hooks[old_nr]() is self
        if retained:
            del hooks[old_nr]
        self._set_grad_fn(node, output_nr)
        if retained:
            self.retain_grad()

    def _view(self, array: Any) -> Tensor:
        """A tensor over (part of) this tensor's memory: it shares the version counter."""
        t = Tensor._over(array)
        t._version_counter = self._version_counter
        root = self._view_of[0] if self._view_of is not None else self
        if self._view_of is not None:  # (a view given another storage: its)
            t._memory = self._memory
        t._view_of = (root, self._version_counter.value)
        state, parent = grad_mode._state, self._view_creation
        # torch's CreationMeta: the mode's, unless the parent view's says more
        created = ("inference" if state.inference else None if state.grad_enabled
                   else "no_grad")
        if parent is not None and (created is None or parent == "inference"):
            created = parent
        if created is not None:
            t._view_creation = created
        return _inheriting_inference(t, self)

    def _alias(self) -> Tensor:
        return self._view(self._data)

    def _output_alias(self) -> Tensor:
        t = Tensor._make(self._data)
        t._version_counter = self._version_counter
        return t

    def _rewrap_output(self, node: Any, output_nr: int) -> Tensor:
        t = self._output_alias()
        t._set_grad_fn(node, output_nr)
        if "_fw_tangents" in self.__dict__:  # forward-over-reverse: see forward_ad.give
            t.__dict__["_fw_tangents"] = self.__dict__["_fw_tangents"]
        return t

    def _detached_copy(self) -> Tensor:
        return Tensor._make(self._xp.asarray(self._data, copy=True))

    def _accumulate_(self, grad: Tensor) -> None:
        """``self += grad`` for AccumulateGrad: checked and counted as any in-place write, so
        that a graph that saved this ``.grad`` refuses the changed value; ``grad`` broadcasts
        to ``self`` (its shape differs after a ``.data`` of another shape)."""
        self._check_write(self._xp.broadcast_to(grad._data, broadcast_pair(self, grad)))
        self._data += grad._data
        self._version_counter.value += 1

    def _has_nan(self) -> bool:
        xp = self._xp
        return bool(xp.any(xp.isnan(self._data))) if self.dtype.is_floating_point else False

    def __deepcopy__(self, memo: dict) -> Tensor:
        if self._grad_fn is not None:
            raise RuntimeError("Only Tensors created explicitly by the user (graph leaves) "
                               "support the deepcopy protocol at the moment.  If you were "
                               "attempting to deepcopy a module, this may be because of a "
                               "torch.nn.utils.weight_norm usage, see "
                               "https://github.com/pytorch/pytorch/pull/103001")
        new = type(self)._make(self._xp.asarray(self._data, copy=True))
        new._requires_grad = self._requires_grad
        if self._grad is not None:
            new._grad = self._grad.__deepcopy__(memo)
        memo[id(self)] = new
        return new

    def __reduce_ex__(self, protocol: int) -> tuple:
        return _rebuild, (to_numpy(self._data), self._requires_grad, str(self.device))

    # ---- conversion --------------------------------------------------------------------
    def __repr__(self) -> str:
        try:
            node = self._current_grad_fn()
        except RuntimeError:  # torch's form for a view whose regeneration it refuses
            suffixes = ["grad_fn=<Invalid>"]
        else:
            suffixes = ([f"grad_fn=<{_printed_node_name(node)}>"] if node is not None else
                        ["requires_grad=True"] if self.requires_grad else [])
        if forward_ad.levels:
            suffixes += forward_ad.tangent_suffix(self)
        prefix = "tensor(" if type(self) is Tensor or _is_parameter_class(type(self)) else \
            f"{type(self).__name__}("  # torch names a subclass
        if is_meta(self._data):
            return meta_repr(self._data.shape, self.dtype.name, suffixes, prefix=prefix)
        dev = self.device
        return tensor_repr(to_numpy(self._data), self.dtype.name, suffixes,
                           device=str(dev) if dev.type != "cpu" else "", prefix=prefix)

    @autograd.profiler.records("aten::item")
    def item(self) -> Any:
        """The value of a one-element tensor as a Python number (its element count checked
        first, on meta tensors too)."""
        n = self.numel()
        if n != 1:
            raise RuntimeError(f"a Tensor with {n} elements cannot be converted to Scalar")
        if is_meta(self._data):
            raise RuntimeError("Tensor.item() cannot be called on meta tensors")
        if self._version_counter.traced:
            raise RuntimeError(
                "It appears that you're trying to get value out of a tracing tensor with "
                "aten._local_scalar_dense.default - erroring out! It's likely that this is "
                "caused by data-dependent control flow or similar.  It may be possible to trace "
                "this with dynamic shapes; try setting tracing_mode='symbolic' in your make_fx "
                "call.")
        return to_numpy(self._data).reshape(()).item()

    def tolist(self) -> Any:
        """The values as (nested) Python lists."""
        return to_numpy(self._data).tolist()

    def numpy(self, *, force: bool = False) -> Any:
        """The values as a numpy array sharing memory with the (CPU) tensor; with ``force``,
        a copy of any tensor's values (detached, moved to the CPU).

        >>> minitorch.ones(2, requires_grad=True).numpy(force=True)
        array([1., 1.], dtype=float32)
        """
        transform = _batched_function.innermost()
        if transform == "reverse" and force is False and self.requires_grad and \
                grad_mode._state.grad_enabled:  # (grad's wrapper requires grad: that first)
            raise RuntimeError(
                "Can't call numpy() on Tensor that requires grad. Use tensor.detach().numpy() "
                "instead.")
        if transform in ("reverse", "forward"):  # a wrapper, no array
            raise RuntimeError("Cannot access data pointer of Tensor that doesn't have storage")
        if force is not False:
            if not isinstance(force, bool):
                raise TypeError(f"numpy(): argument 'force' must be bool, not "
                                f"{_args.type_name(force)}")
            return to_numpy(self.detach()._data)  # shares a CPU tensor's memory, as torch's
        dev = self.device
        if dev.type != "cpu":
            raise TypeError(f"can't convert {dev} device type tensor to numpy. Use Tensor.cpu() "
                            "to copy the tensor to host memory first.")
        if self.requires_grad and grad_mode._state.grad_enabled:  # torch allows it in no_grad
            raise RuntimeError(
                "Can't call numpy() on Tensor that requires grad. Use tensor.detach().numpy() "
                "instead.")
        return to_numpy(self._data)

    def __array__(self, dtype: Any = None, copy: Any = None) -> Any:
        values = to_numpy(self.numpy())
        return values if dtype is None else values.astype(dtype, copy=False)

    def __array_wrap__(self, array: Any, context: Any = None, return_scalar: bool = False
                       ) -> Tensor:
        """numpy's result of ``tensor <op> ndarray`` back as a tensor (a 0-d one too), as
        torch: numpy computed it, with numpy's promotion; a bool result comes back as uint8,
        torch's (old) workaround there."""
        from ._creation import from_numpy

        array = array if array.ndim else array.reshape(())
        return from_numpy(array.astype("uint8") if array.dtype.kind == "b" else array)

    def __bool__(self) -> bool:
        if self.numel() != 1:
            many = "more than one value" if self.numel() else "no values"
            raise RuntimeError(f"Boolean value of Tensor with {many} is ambiguous")
        return bool(self.item())

    def __float__(self) -> float:
        return float(self._scalar_of_graph())

    def __complex__(self) -> complex:
        return complex(self._scalar_of_graph())

    def _scalar_of_graph(self) -> Any:
        """The value for ``float(t)`` or ``complex(t)``, with torch's warning (its C++'s,
        once) where ``t`` requires grad."""
        if self.requires_grad and grad_mode.is_grad_enabled():
            warn_once("Converting a tensor with requires_grad=True to a scalar may lead to "
                      "unexpected behavior.\nConsider using tensor.detach() first.",
                      stacklevel=4)  # the line that converts
        return self._one_element()

    def __int__(self) -> int:
        return int(self._one_element())

    __long__ = __int__  # Python 2's names, which torch's Tensor still answers to
    __nonzero__ = __bool__

    def _one_element(self) -> Any:
        """The value for ``int(t)`` or ``float(t)``, which refuse other sizes as torch's."""
        if self.numel() != 1:
            raise ValueError("only one element tensors can be converted to Python scalars")
        return self.item()

    def __index__(self) -> int:
        if self.dtype.is_floating_point or self.numel() != 1:
            raise TypeError("only integer tensors of a single element can be converted to an "
                            "index")
        return int(self.item())

    def __len__(self) -> int:
        if self.dim() == 0:
            raise TypeError("len() of a 0-d tensor")
        return self._data.shape[0]

    def __iter__(self) -> Iterator[Tensor]:
        if self.dim() == 0:
            raise TypeError("iteration over a 0-d tensor")
        return iter(self.unbind(0))

    def to(self, *args: Any, **kwargs: Any) -> Tensor:
        """This tensor converted to a dtype and/or moved to a device (itself when nothing
        changes); gradients flow back through the copy.

        >>> minitorch.ones(1).to(minitorch.float64)
        tensor([1.], dtype=torch.float64)
        >>> minitorch.ones(1).to("cpu").device
        device(type='cpu')
        """
        dtype, dev, copy = _to_arguments(args, kwargs)
        moves = dev is not None and dev != self.device
        if moves:  # (torch reaches the device before the layout is checked)
            backend.factory_namespace(dev)
        given = _layout.checked("to", kwargs.get("memory_format"), self.ndim)
        kept = given is _layout.preserve_format or given is _layout.suggested_format(
            tuple(self.shape), self.stride())  # (torch's test: a transpose stays as it is)
        if not moves and (dtype is None or dtype is self.dtype) and not copy and kept:
            if autograd.profiler._active is not None:  # torch records a to() that copies nothing
                autograd.profiler._mark("aten::to")
            return self
        from .ops.shape import ToCopy

        with autograd.profiler.op_event("aten::to", (self,)):
            return ToCopy.apply(self, dtype=dtype or self.dtype, device=dev if moves else None,
                                memory_format=None if given is _layout.preserve_format
                                else given)

    def cpu(self, *, memory_format: Any = None) -> Tensor:
        """This tensor on the CPU (itself when it is there already).

        >>> minitorch.ones(1).cpu().device
        device(type='cpu')
        """
        _layout.typed("cpu", memory_format)
        kwargs = {} if memory_format is None else {"memory_format": memory_format}
        return self.to(backend.CPU, **kwargs)

    def cuda(self, device: Any = None, non_blocking: bool = False,
             memory_format: Any = None) -> Tensor:
        """This tensor on a CUDA GPU (needs CuPy; see ``minitorch.cuda.is_available()``).

        >>> x = minitorch.ones(1)
        >>> (x.cuda() if minitorch.cuda.is_available() else x).sum().item()
        1.0
        """
        target = accelerator_target("cuda", device, non_blocking, memory_format,
                                    backend.cuda_device_count())
        kwargs = {} if memory_format is None else {"memory_format": memory_format}
        return self.to(target, non_blocking=non_blocking, **kwargs)

    def clone(self, *, memory_format: Any = None) -> Tensor:
        """A copy with its own memory (laid out as this one, or contiguous with
        ``memory_format=minitorch.contiguous_format``); gradients flow back to the original."""
        from .ops.shape import Clone

        given = _layout.checked("clone", memory_format, self.ndim)
        if given is _layout.contiguous_format:
            return Clone.apply(self, contiguous=True)
        if given is _layout.preserve_format:
            return Clone.apply(self)
        return Clone.apply(self, memory_format=given)

    @_args.tensors("equal", other="other")
    def equal(self, other: Tensor) -> bool:
        """True if both tensors have the same shape and values."""
        if self.shape != other.shape:
            return False
        return bool(self._xp.all(self._data == other._data))

    @_args.tensors("allclose", other="other")
    def allclose(self, other: Tensor, rtol: float = 1e-05, atol: float = 1e-08,
                 equal_nan: bool = False) -> bool:
        """True if ``|self - other| <= atol + rtol * |other|`` everywhere."""
        rtol, atol = _args.reals("allclose", (rtol, "rtol", 3), (atol, "atol", 4))
        equal_nan = _args.flag("allclose", equal_nan, "equal_nan", 5)
        if other.dtype is not self.dtype:
            raise RuntimeError(f"{_args.legacy(self.dtype)} did not match "
                               f"{_args.legacy(other.dtype)}")
        _args.tolerances(rtol, atol)
        broadcast_pair(self, other)
        xp = self._xp
        a, b = self._data, other._data
        if not (self.is_floating_point() and other.is_floating_point()):
            a, b = xp.astype(a, xp.float64), xp.astype(b, xp.float64)
        close = xp.abs(a - b) <= atol + rtol * xp.abs(b)
        close = close | (a == b)  # equal infinities
        if equal_nan:
            close = close | (xp.isnan(a) & xp.isnan(b))
        return bool(xp.all(close))

    # ---- in-place operations ------------------------------------------------------------
    def _inplace(self, op: Callable[..., Tensor], *others: Any, ufunc: str | None = None,
                 overlap: bool = True, fills: bool | str = False, **kwargs: Any) -> Tensor:
        """Run ``op(self, *others)`` and write the result into this tensor's memory.

        When the op is recorded, this tensor's grad_fn becomes the op's node; the op sees a
        copy of the old values so what it saved for backward stays valid. Unrecorded, an op
        that is one ``ufunc`` of this tensor and ``others[0]`` writes in place, with no
        temporary (an optimizer's update of a large weight is two passes over memory, not four).
        ``overlap`` False: the caller checked the written region's overlap with ``others``.
        ``fills``: torch's op writes only the places it names, so it may write into a tensor
        whose elements share memory (an expand): a fill, an index write; ``"adds"``, each named
        element adds into its place (index_put_'s accumulate). So do the ops whose class
        ``fills``.
        """
        check_inplace_allowed(self, *others, overlap=overlap)
        records = grad_mode._state.grad_enabled and (
            self.requires_grad or any(isinstance(o, Tensor) and o.requires_grad for o in others))
        fills = fills or getattr(getattr(op, "__self__", None), "fills", False)
        if not fills:  # (written into an expanded tensor too)
            check_internal_overlap(self)  # torch's TensorIterator's first check
        if others and (type(others[0]) is int or isinstance(others[0], complex)) and \
                hasattr(op, "__name__") and (typed := _call_form.types_first(
                    op, op.__name__, (self, *others), kwargs, False)):
            raise TypeError(typed)  # (the parser refuses a number by its type, before it
            # reads it)
        if others and type(others[0]) is int:  # a Python int as torch reads it for this dtype
            D.check_unsigned(self, others[0])
            others = (_args.scalar_for(others[0], self.dtype), *others[1:])
        elif others and isinstance(others[0], complex):  # (numpy's complex128 too)
            raise RuntimeError(f"result type {_args.complex_name(self.dtype)} can't be cast to "
                               f"the desired output type {_args.legacy(self.dtype)}")
        if forward_ad.levels and forward_ad.has_tangents((self, *others)):
            return forward_ad.inplace(self, op, others, kwargs, ufunc)
        if not records:
            if ufunc is not None and backend.ufunc_into(
                    ufunc, self._data, others[0]._data if isinstance(others[0], Tensor)
                    else others[0]):
                self._version_counter.value += 1
                return self
            with grad_mode._recording(False):
                out = op(self, *others, **kwargs)
            self._write(out._data, fills)
            return self
        with self._writing():
            if self._view_of is not None:
                return self._inplace_on_view(op, others, kwargs, fills)
            old = self._detached_copy()
            old._grad_fn, old._output_nr, old._requires_grad = (
                self._grad_fn, self._output_nr, self._requires_grad)
            old._accumulator = self._accumulator
            out = op(old, *others, **kwargs)
            autograd.function.refuse_saved_integer(out._grad_fn, old)
        self._write(out._data, fills)
        if out._grad_fn is not None or self.dtype.is_floating_point:  # (copy_ records no
            self._take_grad_fn(out._grad_fn, out._output_nr)  # write into an integer one)
        saved_as_written(out._grad_fn, self)
        return self

    def _writing(self) -> contextlib.AbstractContextManager:
        """The context of a recorded write into this tensor: an integer or bool one records
        its ops' outputs (see ``function.writing_in_place``)."""
        if self.dtype.is_floating_point:
            return contextlib.nullcontext()
        return autograd.function.writing_in_place()

    def _inplace_on_view(self, op: Callable[..., Tensor], others: tuple, kwargs: dict,
                         fills: bool | str = False) -> Tensor:
        """A recorded in-place op on a view rewrites its base's history, as torch's CopySlices.

        The base's new grad_fn is ``CopySlices``: the old base with the view's elements
        replaced by ``op(old view)``. Its backward sends the gradient of the view's elements
        through the op's node and passes the rest of the base's gradient through unchanged.
        The view's new grad_fn is ``AsStridedBackward0``: its elements taken from the new
        base. The view's geometry is kept as the base's (C-order) positions of its elements.
        """
        from .ops.inplace import CopySlices
        from .ops.shape import AsStridedView

        self._rebased()
        root = self._view_of[0]
        key = backend.view_key(root._data, self._data)
        old_root = root._history_alias()  # CopySlices copies it before the write below
        old_view = AsStridedView.apply(old_root, key=key)
        out = op(old_view, *others, **kwargs)
        autograd.function.refuse_saved_integer(out._grad_fn, old_view)
        if backend.overlaps_itself(self._data) and not expanded(self):
            raise _unwritable_error()  # (CopySlices would send a place's gradient twice)
        self._check_write(out._data, fills)  # before CopySlices writes it into the base
        new_root = CopySlices.apply(old_root, out, key=key, overlapping=bool(fills) and (
            expanded(self)))
        self._write(out._data, fills)
        self._rebase_view(new_root, key)
        saved_as_written(out._grad_fn, self)
        return self

    def _rebase_view(self, new_root: Tensor, key: Any) -> None:
        """After a recorded write into this view: its base's grad_fn becomes ``new_root``'s
        (CopySlices), the view's its elements taken from the new base (AsStridedBackward0)."""
        from .ops.shape import AsStridedView

        root = self._view_of[0]
        root._take_grad_fn(new_root._grad_fn, new_root._output_nr)
        new_view = AsStridedView.apply(root._history_alias(), key=key)
        self._take_grad_fn(new_view._grad_fn, new_view._output_nr)
        self._view_of = (root, self._version_counter.value)

    def _history_alias(self) -> Tensor:
        """A new tensor over this one's memory with its place in the graph."""
        alias = Tensor._make(self._data)
        alias._grad_fn, alias._output_nr = self._grad_fn, self._output_nr
        alias._requires_grad, alias._accumulator = self._requires_grad, self._accumulator
        return alias

    def _write(self, array: Any, fills: bool | str = False) -> None:
        """``array`` written into this tensor's memory; ``fills`` (see :meth:`_inplace`): an
        expanded tensor's places are written by the elements the op changed."""
        aliased = self._check_write(array, fills)
        if aliased:
            backend.write_aliased(self._data, array, adds=fills == "adds")
        elif self._data.size:  # (an empty one's memory may be read-only: nothing is written)
            self._data[...] = array
        self._version_counter.value += 1

    def _check_write(self, array: Any, fills: bool | str = False) -> bool:
        """torch's refusals of writing ``array`` into this tensor's memory (where numpy's view
        of it is read-only only for coming from a broadcast, the tensor takes a writeable
        one); ``fills``: an expanded tensor is written too. Whether its elements share
        memory."""
        shape = tuple(self._data.shape)
        check_output_shape(shape, tuple(array.shape))
        src = D.from_array_dtype(array.dtype)
        if src._category > self.dtype._category:
            raise _args.cast_error(src, self.dtype)
        aliased = bool(fills) and backend.overlaps_itself(self._data)
        if not aliased:
            check_internal_overlap(self)
        writable = backend.writable(self._data, aliased) if backend.read_only(self._data) \
            else self._data
        if writable is None and self._data.size:  # (an empty one has nothing to write)
            raise _unwritable_error(not aliased and backend.overlaps_itself(self._data))
        self._data = self._data if writable is None else writable
        return aliased

    @_args.sizes_by_keyword("size")
    def sum_to_size(self, *shape: Any) -> Tensor:
        """Sum broadcast dimensions away until the shape is ``shape``."""
        shape = _args.sizes("sum_to_size", shape, check_negative=False)
        if not expandable_to(tuple(shape), self._data.shape):
            raise RuntimeError(f"size {{{list(shape)}}} is not expandable to size "
                               f"{{{list(self.shape)}}}.")
        if not shape:  # torch's sum_to sums all to no shape, a 0-d tensor too
            return self.sum()
        return sum_to(self, tuple(shape))



def _converter(dt: D.dtype) -> Callable[..., Tensor]:
    def convert(self: Tensor, *, memory_format: Any = None) -> Tensor:
        _layout.checked(_CONVERTERS[dt.name], memory_format, self.ndim)
        return self.to(dt, memory_format=memory_format)

    convert.__doc__ = f"""This tensor as {dt.name}: ``self.to(torch.{dt.name})``.

    >>> minitorch.ones(1).{_CONVERTERS[dt.name]}().dtype
    torch.{dt.name}
    """
    return convert


_CONVERTERS = {"float32": "float", "float64": "double", "float16": "half", "int64": "long",
               "int32": "int", "int16": "short", "int8": "char", "uint8": "byte", "bool": "bool"}
for _name, _method in _CONVERTERS.items():
    setattr(Tensor, _method, _converter(getattr(D, _name)))

def _is_parameter_class(kind: type) -> bool:
    """Whether ``kind`` is nn.Parameter itself, which prints as a plain tensor."""
    from .nn.parameter import Parameter

    return kind is Parameter


def _rebuild(array: Any, requires_grad: bool, device: str = "cpu") -> Tensor:
    """Unpickle a tensor (a leaf with its values, requires_grad and device)."""
    t = Tensor._make(backend.from_numpy(array, backend.as_device(device)))
    t._requires_grad = requires_grad
    return t


_TO_SIGNATURES = tuple(
    f"{first}bool non_blocking = False, bool copy = False, *, torch.memory_format memory_format "
    "= None" for first in ("torch.device device = None, torch.dtype dtype = None, ",
                           "torch.dtype dtype, ", "Tensor tensor, "))


def _to_arguments(args: tuple, kwargs: dict) -> tuple[D.dtype | None, backend.device | None,
                                                      bool | None]:
    """The dtype, device and copy flag (None where the call gives none, by position or by
    name) of a ``to(...)`` call, bound to one of torch's three
    signatures as its parser does: ``to(device=None, dtype=None, non_blocking, copy)``,
    ``to(dtype, non_blocking, copy)``, ``to(tensor, non_blocking, copy)``; any other
    combination (two dtypes, a dtype then a keyword dtype or device, ...) is its TypeError."""
    if len(args) > 4:
        raise TypeError(f"to() takes from 0 to 4 positional arguments but {len(args)} were "
                        "given")
    given, first = args, args[0] if args else None
    # torch reads a numpy scalar as Python's number, an integer as a device index, and a
    # bool or a float as a tensor, whose dtype is its type's (minitorch has no complex one)
    if _args.is_array(first) and type(first).__name__ != "ndarray" and \
            not isinstance(first, type):
        first = int(first) if first.dtype.kind in "iu" else _args.numpy_scalar(first)
        args = (first, *args[1:])
    if isinstance(first, (bool, float)):
        args = (type(first), *args[1:])
        first = args[0]
    leading = 1 if _dtype_like(first) or isinstance(first, Tensor) else 2
    lead, flags = args[:leading], args[leading:]
    named = [k for k in ("device", "dtype")[len(lead) if leading == 2 else 0:] if k in kwargs]
    dtype = kwargs.get("dtype", lead[1] if leading == 2 and len(lead) > 1 else None)
    dev = kwargs.get("device", lead[0] if leading == 2 and lead else None)
    values = (*flags, kwargs.get("non_blocking", False), kwargs.get("copy", False))
    if (leading == 1 and ({"dtype", "device"} & kwargs.keys())) or len(flags) > 2 or \
            len(named) != len({"dtype", "device"} & kwargs.keys()) or \
            any(not isinstance(v, bool) for v in values) or \
            (dtype is not None and not _dtype_like(dtype)) or \
            not isinstance(dev, (str, int, backend.device, type(None))) or \
            not isinstance(kwargs.get("memory_format"), (_layout.memory_format, type(None))) or \
            kwargs.keys() - {"dtype", "device", "non_blocking", "copy", "memory_format"}:
        raise _args.invalid_combination("to", given, *_TO_SIGNATURES, keywords=kwargs)
    if isinstance(first, Tensor):
        dtype, dev = first.dtype, first.device
    elif leading == 1:
        dtype = first
    given_copy = (*flags[1:], *((kwargs["copy"],) if "copy" in kwargs else ()))
    copy = any(given_copy) if given_copy else None
    return (None if dtype is None else _args.dtype("to", dtype)), backend.as_device(dev), copy


def _dtype_like(value: Any) -> bool:
    """A dtype, or a Python type that torch's parser reads as one (numpy's types are none)."""
    return isinstance(value, D.dtype) or any(value is t for t in (bool, int, float, complex))


def accelerator_target(kind: str, device: Any, non_blocking: Any, memory_format: Any,
                       count: int = 0) -> Any:
    """The target of a tensor's ``cuda``/``xpu``/``ipu``/``mtia(device, non_blocking,
    memory_format)``: torch's parser reads the types first (the device's, then the others'),
    then the device's value (:func:`accelerator_device`).

    >>> accelerator_target("cuda", None, 1, None)
    Traceback (most recent call last):
    TypeError: cuda(): argument 'non_blocking' (position 2) must be bool, not int
    """
    if device is None or isinstance(device, (int, str, backend.device)):  # (else the device's
        _args.parsed(kind, ("bool", non_blocking, "non_blocking", 2))  # refusal first)
        _layout.typed(kind, memory_format)
    return accelerator_device(kind, device, count)


def accelerator_device(kind: str, device: Any, count: int = 0) -> Any:
    """The target of a tensor's ``cuda``/``xpu``/``ipu``/``mtia(device)``, checked as torch:
    a device of that ``kind`` (its current one for None) or an index among the ``count``
    there are.

    >>> accelerator_device("xpu", "cpu")
    Traceback (most recent call last):
    RuntimeError: Invalid device, must be xpu device
    """
    if device is None:
        return kind
    if isinstance(device, bool) or not isinstance(device, (int, str, backend.device)):
        raise TypeError(f"{kind}(): argument 'device' (position 1) must be torch.device, not "
                        f"{_args.type_name(device)}")
    if isinstance(device, int):
        if device >= 0 and not count:
            raise RuntimeError("Cannot access accelerator device when none is available.")
        return backend.device(kind, device)
    named = backend.device_type(device) if isinstance(device, str) and kind != "cuda" else \
        backend.device(device).type  # (minitorch makes no device of the types it has not)
    if named != kind:
        raise RuntimeError(f"Invalid device, must be {'MTIA' if kind == 'mtia' else kind} device")
    return device


_REFUSAL_ADVICE = {
    "multi_output": " This view is the output of a function that returns multiple views. Such "
                    "functions do not allow the output views to be modified inplace. You should "
                    "replace the inplace operation by an out-of-place one.",
    "no_grad": " Given that this use case is ambiguous and error-prone, it is forbidden. You "
               "can clarify your code by moving both the view and the inplace either both "
               "inside the no_grad block (if you don't want the inplace to be tracked) or both "
               "outside (if you want the inplace to be tracked).",
    "inference": " Given that this use case is ambiguous and error-prone, it is forbidden. You "
                 "can clarify your code by moving both the view and the inplace either both "
                 "inside the inference_mode block (if you don't want the inplace to be tracked) "
                 "or both outside (if you want the inplace to be tracked).",
    "custom_function": " This view was created inside a custom Function (or because an input "
                       "was returned as-is) and the autograd logic to handle view+inplace would "
                       "override the custom backward associated with the custom Function, "
                       "leading to incorrect gradients. This behavior is forbidden. You can fix "
                       "this by cloning the output of the custom Function.",
}


def view_refusal(view: Tensor, indirect: bool, made_by: str | None = None) -> RuntimeError:
    """torch's error for a view made in no_grad or inference mode, by an op that returns
    several views or by a custom Function, written in place with grad mode on
    (``indirect``: through its base or another view, found when its grad_fn would be
    regenerated). Its own grad_fn, when it has one, names the op: "Output 0 of Slice"; or
    ``made_by``, the op of the view of it that ``view[key] = value`` writes into."""
    created, node = view._view_creation, view._grad_fn
    what = "its base or another view of its base has been" if indirect else "is being"
    op = f"Output 0 of {made_by}" if made_by else \
        None if node is None else f"Output {view._output_nr} of {_op_name(node)}"
    if created in ("multi_output", "custom_function") and op is not None:
        message = f"{op} is a view and {what} modified inplace."
    else:
        prefix = "A view" if op is None else f"{op} is a view of a view which"
        message = (f"{prefix} was created in inference mode and {what} modified inplace in "
                   "normal mode." if created == "inference" else
                   f"{prefix} was created in no_grad mode and {what} modified inplace with grad "
                   "mode enabled.")
    return RuntimeError(message + _REFUSAL_ADVICE[created])


def _op_name(node: Any) -> str:
    """The op a node's name is for, as torch's messages give it ("Unbind", not
    "UnbindBackward0")."""
    return node.name().rstrip("0123456789").removesuffix("Backward")


def mark_multi_output(views: tuple) -> tuple:
    """The views of an op that returns several (unbind, split): in grad mode torch refuses an
    in-place op through any of them (and a view of a view made in inference mode stays so)."""
    if grad_mode._state.grad_enabled:
        for view in views:
            if view._view_creation != "inference":
                view._view_creation = "multi_output"
    return views


def _inheriting_inference(view: Tensor, base: Tensor) -> Tensor:
    """A view is an inference tensor exactly when its base is, in or out of inference mode
    (torch's rule; other results follow the mode they are made in). It belongs to the
    torch.func transform its base belongs to (a view of a captured tensor is captured)."""
    if view._inference is not base._inference:
        view._inference = base._inference
    if view._level != base._level:
        view._level = base._level
    return view


def _printed_node_name(node: Any) -> str:
    """How a tensor prints its grad_fn, as torch: the node's class name, or for a node torch
    builds in C++ with no Python class of its own (``CppFunction``) its C++ name's last part."""
    name = type(node).__name__
    return node.name().rsplit("::", 1)[-1] if name == "CppFunction" else name


def _counted(alias: Tensor) -> Tensor:
    """``.data`` or ``.detach()``: of an inference tensor, one with a version counter."""
    if alias._inference:
        alias._counted = True
    return alias


def check_no_overlap(written: Tensor, source: Tensor) -> None:
    """torch's refusal to write ``source`` into ``written`` (index_put_, index_copy_) where
    their memory overlaps; as torch, only densely laid-out tensors are compared (others are
    'too hard' for its check and pass).

    >>> x = minitorch.zeros(3)
    >>> x.index_put_((minitorch.tensor([0]),), x[1])  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    RuntimeError: unsupported operation: some elements of the input tensor and the written-to...
    """
    if _dense_overlap(written._data, source._data):
        raise overlap_error()


def _dense_overlap(a: Any, b: Any) -> bool | None:
    """Whether the arrays ``a`` and ``b`` share bytes: False where either is empty, None
    where either does not lie densely (torch's "too hard to tell")."""
    if not (a.size and b.size):
        return False
    spans = _byte_span(a), _byte_span(b)
    if None in spans:
        return None
    (a0, a1), (b0, b1) = spans
    return a0 < b1 and b0 < a1


def shares_memory(a: Tensor, b: Tensor) -> bool:
    """Whether ``a`` and ``b`` (neither empty) share memory: their bytes intersect where both
    lie densely, else where they view the same tensor's memory.

    >>> x = minitorch.zeros(2, 3)
    >>> shares_memory(x, x.t()), shares_memory(x[0], x[1]), shares_memory(x, x.clone())
    (True, False, False)
    """
    overlap = _dense_overlap(a._data, b._data)
    return a._memory_root() is b._memory_root() if overlap is None else overlap


def overlap_error() -> RuntimeError:
    """torch's refusal of a write whose source shares memory with its destination."""
    return RuntimeError("unsupported operation: some elements of the input tensor and the "
                        "written-to tensor refer to a single memory location. Please clone() "
                        "the tensor before performing the operation.")


def check_inplace_allowed(t: Tensor, *others: Any, overlap: bool = True) -> None:
    """torch's rules for modifying ``t`` in place (with ``others`` as the op's other operands)
    under the current grad mode, in torch's order: autograd's checks, the version counter's
    bump (which an inference tensor has not), then (unless not ``overlap``: a write into a
    part of ``t``, or a value read as a number) ``t`` partly sharing memory with another."""
    if grad_mode._state.grad_enabled and (
            t.requires_grad or any(isinstance(o, Tensor) and o.requires_grad for o in others)):
        if forward_ad.is_internal_leaf(t):  # grad/vjp's input: a leaf of its level in torch
            raise RuntimeError(
                "a leaf Variable that requires grad is being used in an in-place operation.")
        if t._view_of is not None and not t._inference:  # no view of an inference tensor is
            if t._view_creation is not None:  # one to autograd
                raise view_refusal(t, indirect=False)
            if t.requires_grad and t._view_of[0].is_leaf:
                raise RuntimeError(
                    "a view of a leaf Variable that requires grad is being used in an in-place "
                    "operation.")
        if t.requires_grad and t.is_leaf:
            raise RuntimeError(
                "a leaf Variable that requires grad is being used in an in-place operation.")
    if t._inference and not t._counted and not grad_mode._state.inference:
        raise RuntimeError(
            "Inplace update to inference tensor outside InferenceMode is not allowed.You can "
            "make a clone to get a normal tensor before doing inplace update.See "
            "https://github.com/pytorch/rfcs/pull/17 for more details.")
    for other in others if overlap else ():
        check_partial_overlap(t._data, other)


def check_partial_overlap(written: Any, other: Any) -> None:
    """torch's refusal to write the array ``written`` from a tensor ``other`` that partly
    shares its memory (the same memory wholly, or none, is allowed).

    >>> x = minitorch.arange(4.)
    >>> check_partial_overlap(x._data[1:], x[:-1])
    Traceback (most recent call last):
    RuntimeError: unsupported operation: some elements of the input tensor and the written-to \
tensor refer to a single memory location. Please clone() the tensor before performing the \
operation.
    """
    if isinstance(other, Tensor) and _partly_overlapping(written, other._data):
        raise overlap_error()


def _byte_span(array: Any) -> tuple[int, int] | None:
    """The bytes ``array`` covers as [begin, end), where it lies densely (a step backwards
    along a dim of more than one element is not dense), else None: torch's "too hard to tell",
    which it lets pass."""
    begin, strides = backend.address(array), backend.element_strides(array)
    if begin is None or strides is None or not backend.is_dense(tuple(array.shape), strides):
        return None
    return begin, begin + array.size * array.itemsize


def _partly_overlapping(out: Any, source: Any) -> bool:
    """torch's partial overlap of an in-place op's output and an input: both dense, sharing
    some bytes but not laid out alike over the same ones (a shifted or transposed view).

    >>> import numpy as np; a = np.arange(4.)
    >>> _partly_overlapping(a[1:], a[:-1]), _partly_overlapping(a, a.T)
    (True, False)
    >>> _partly_overlapping(a[:2], a[2:])
    False
    """
    if out is source or not out.size or not source.size:
        return False
    a, b = _byte_span(out), _byte_span(source)
    if a is None or b is None or a[1] <= b[0] or b[1] <= a[0]:
        return False
    return a != b or _steps(out) != _steps(source)


def _steps(array: Any) -> tuple:
    """An array's sizes and byte strides over its dims of more than one element (a dim of one
    is never stepped, whatever its stride)."""
    return tuple((n, s) for n, s in zip(array.shape, array.strides) if n != 1)


def check_can_save(t: Tensor) -> None:
    """Inference tensors cannot be saved for backward."""
    if t._inference:
        raise RuntimeError(
            "Inference tensors cannot be saved for backward. Please do not use Tensors created "
            "in inference mode in computation tracked by autograd. To work around this, you can "
            "make a clone to get a normal tensor and use it in autograd, or use "
            "`torch.no_grad()` instead of `torch.inference_mode()`.")


def check_output_shape(shape: tuple, result: tuple) -> None:
    """torch's refusal of an in-place result whose (broadcast) shape is not the tensor's.

    >>> check_output_shape((), (1,))
    Traceback (most recent call last):
    RuntimeError: output with shape [] doesn't match the broadcast shape [1]
    """
    if result != shape:
        raise RuntimeError(f"output with shape {list(shape)} doesn't match the broadcast shape "
                           f"{list(result)}")


def check_inplace_operands(t: Tensor, other: Any) -> None:
    """torch's checks of ``t.op_(other)`` before the op's dtype checks: autograd's, then
    its TensorIterator's (the operands broadcast, to ``t``'s own shape).

    >>> check_inplace_operands(minitorch.ones(1), minitorch.ones(2))
    Traceback (most recent call last):
    RuntimeError: output with shape [1] doesn't match the broadcast shape [2]
    """
    check_inplace_allowed(t, other)
    check_internal_overlap(t)
    if isinstance(other, Tensor):
        check_output_shape(tuple(t.shape), broadcast_pair(t, other))


def _unwritable_error(overlapping: bool = True) -> RuntimeError:
    """minitorch's refusal of a write it cannot make as torch makes it: into elements that
    overlap in memory, or into memory lent read-only.

    >>> _unwritable_error(overlapping=False)  # doctest: +ELLIPSIS
    RuntimeError('minitorch cannot write in place into this tensor: its memory is read-only...')
    """
    if not overlapping:
        return RuntimeError(
            "minitorch cannot write in place into this tensor: its memory is read-only (a numpy "
            "array with flags.writeable False, shared by from_numpy, as_tensor or asarray; torch "
            "warns when it shares one and then writes into it anyway, undefined behavior). Make "
            "the array writable (array.flags.writeable = True) or copy it before converting it, "
            "or clone() the tensor before performing the operation.")
    return RuntimeError(
        "minitorch cannot write in place into this tensor: its elements overlap in memory (a "
        "view from unfold with a step smaller than its size, or from as_strided with strides "
        "that reach a place twice, where torch writes such a place once per element showing "
        "it, in its kernel's order; minitorch writes only a fill into it, outside autograd). "
        "Please clone() the tensor before performing the operation.")


def check_internal_overlap(t: Tensor) -> None:
    """torch's refusal of a write into a tensor whose elements share memory (an expanded
    one), which its TensorIterator makes before it looks at shapes and dtypes.

    >>> check_internal_overlap(minitorch.zeros(1).expand(2))  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    RuntimeError: unsupported operation: more than one element of the written-to tensor ...
    """
    if expanded(t):
        raise internal_overlap_error()


def check_iterator_out(out: Tensor, operands: Any) -> None:
    """TensorIterator's checks of ``out`` before dtypes: no internal overlap, then none
    partly shared with any tensor among ``operands`` (the same memory laid out alike, as an
    operand given as out, is allowed), then an operand given as out has the operands'
    broadcast shape (it is not resized).

    >>> x = minitorch.zeros(2, 2)
    >>> check_iterator_out(x, [x])
    >>> check_iterator_out(x.t(), [x])  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    RuntimeError: unsupported operation: some elements of the input tensor and the written-to...
    """
    check_internal_overlap(out)
    for operand in operands:
        check_partial_overlap(out._data, operand)
    tensors = [t for t in operands if isinstance(t, Tensor)]
    if any(t is out for t in tensors):  # an operand given as out is not resized
        check_output_shape(out.shape, broadcast_shapes(*(t.shape for t in tensors)))


def same_data(a: Tensor, b: Any) -> bool:
    """Whether ``b`` is a tensor showing ``a``'s memory in ``a``'s layout and dtype: torch's
    copy_ then has nothing to write, and checks nothing (not even an expanded ``a``).

    >>> x = minitorch.zeros(1)
    >>> same_data(x.expand(2), x.expand(2)), same_data(x, x.clone())
    (True, False)
    """
    return isinstance(b, Tensor) and a.dtype is b.dtype and a._data.shape == b._data.shape \
        and backend.address(a._data) == backend.address(b._data) \
        and backend.element_strides(a._data) == backend.element_strides(b._data)


def expanded(t: Tensor) -> bool:
    """Whether elements of ``t`` share memory, as an expanded tensor's do (torch's
    ``has_internal_overlap`` answering Yes).

    >>> expanded(minitorch.zeros(1).expand(2)), expanded(minitorch.zeros(2))
    (True, False)
    """
    shape = t._data.shape
    strides = backend.element_strides(t._data)
    return bool(strides) and 0 not in shape and any(  # an empty array's strides may be 0
        st == 0 and n > 1 for st, n in zip(strides, shape))


def warn_expanded(t: Tensor, name: str, example: str = "tensor[mask] = scalar") -> None:
    """torch's warning of a fill (``name``) into a tensor whose elements share memory."""
    if expanded(t):
        torch_warn(f"Use of {name} on expanded tensors is deprecated. Please clone() the "
                   "tensor before performing this operation. This also applies to advanced "
                   f"indexing e.g. {example}")


def internal_overlap_error() -> RuntimeError:
    """torch's refusal of a write into a tensor whose elements share memory."""
    return RuntimeError(
        "unsupported operation: more than one element of the written-to tensor refers "
        "to a single memory location. Please clone() the tensor before performing the "
        "operation.")


def broadcast_shapes(*shapes: tuple) -> tuple:
    """The shape that all ``shapes`` broadcast to (torch's message when none exists: each
    shape met in turn, its dims from the last, as torch's ``infer_size``).

    >>> broadcast_shapes((2, 3, 4), (3, 3, 0))
    Traceback (most recent call last):
    RuntimeError: The size of tensor a (4) must match the size of tensor b (0) at non-singleton \
dimension 2
    """
    ndim = max(len(s) for s in shapes)
    out = [1] * ndim
    for s in shapes:
        for i, size in reversed(list(enumerate(s, ndim - len(s)))):
            if size != 1 and out[i] != 1 and size != out[i]:
                raise RuntimeError(
                    f"The size of tensor a ({out[i]}) must match the size of tensor b ({size}) "
                    f"at non-singleton dimension {i}")
            if size != 1:
                out[i] = size
    return tuple(out)


def checked_broadcast_shapes(shapes: tuple) -> tuple:
    """``minitorch.broadcast_shapes``: torch's Python algorithm (``torch._refs``'
    ``_broadcast_shapes``) step by step, so that odd sizes fail where and as torch's do: None
    is no shape, an int a 1-D one, anything else must be a sequence; its items are compared
    as they are and converted to ints last, as ``torch.Size`` does."""
    given = [(s,) if isinstance(s, int) else s for s in shapes if s is not None]
    for shape in given:
        if not isinstance(shape, Sequence):
            raise RuntimeError("Input shapes should be of type ints, a tuple of ints, or a list "
                               f"of ints, got {shape}")
    out = [1] * max((len(shape) for shape in given), default=0)
    for index, shape in enumerate(given):
        for i in range(-1, -len(shape) - 1, -1):
            n = shape[i]
            if _bool(n == out[i]):
                continue
            if _bool(out[i] == 1):
                if n < 0:
                    raise ValueError("Attempting to broadcast a dimension with negative length!")
                out[i] = n
            if not _bool(n == 1) and out[i] != n:
                raise RuntimeError(
                    f"Attempting to broadcast a dimension of length {n} at {i}! Mismatching "
                    f"argument at index {index} had {shape}; but expected shape should be "
                    f"broadcastable to {out}")
    return tuple(_size_item(i, n) for i, n in enumerate(out))


def _bool(value: Any) -> bool:
    """A comparison's result, which torch's shape guard requires to be a Python bool (a
    tensor's or numpy's is not)."""
    if not isinstance(value, bool):
        raise AssertionError(f"Expected bool, got {type(value)}")
    return value


def _size_item(i: int, n: Any) -> int:
    """Item ``i`` of a new shape as ``torch.Size`` reads it (bools and ``__index__`` too)."""
    value = int(n) if isinstance(n, bool) else _args.as_int(n)
    if value is None:
        raise TypeError(f"torch.Size() takes an iterable of 'int' (item {i} is "
                        f"'{_args.type_name(n)}')")
    if not _args.INT64_MIN <= value <= _args.INT64_MAX:
        raise ValueError("Overflow when unpacking long long")
    return value


def broadcast_pair(a: Any, b: Any) -> tuple:
    """The shape tensors (or shapes) ``a`` and ``b`` broadcast to, or torch's error for the
    two (which names the last dim where they differ).

    >>> broadcast_pair(minitorch.ones(2, 1), minitorch.ones(3))
    (2, 3)
    """
    sa, sb = _shape_of(a), _shape_of(b)
    n = max(len(sa), len(sb))
    out = []
    for x, y in zip((1,) * (n - len(sa)) + sa, (1,) * (n - len(sb)) + sb):
        if x != y and x != 1 and y != 1:
            raise broadcast_error(a, b)
        out.append(y if x == 1 else x)
    return tuple(out)


def _shape_of(a: Any) -> tuple:
    """The shape of a tensor or array, a shape itself, or a number's ``()``."""
    return a if isinstance(a, tuple) else tuple(getattr(a, "shape", ()))


def broadcast_error(a: Any, b: Any) -> RuntimeError:
    """The error torch gives when two operands do not broadcast."""
    sa, sb = _shape_of(a), _shape_of(b)
    ndim = max(len(sa), len(sb))
    pa, pb = (1,) * (ndim - len(sa)) + sa, (1,) * (ndim - len(sb)) + sb
    for i in range(ndim - 1, -1, -1):
        if pa[i] != pb[i] and pa[i] != 1 and pb[i] != 1:
            return RuntimeError(
                f"The size of tensor a ({pa[i]}) must match the size of tensor b ({pb[i]}) at "
                f"non-singleton dimension {i}")
    return RuntimeError(f"shapes {list(sa)} and {list(sb)} cannot be broadcast")


def expanded_shape(shape: tuple, target: tuple, kind: str = "torch.FloatTensor") -> tuple:
    """The shape ``expand(*target)`` gives a tensor of ``shape`` (-1 keeps a size), or torch's
    error if it cannot (``kind``: the tensor's type as torch's messages name it).

    >>> expanded_shape((3, 1), (2, -1, 4))
    (2, 3, 4)
    """
    lead = len(target) - len(shape)
    if lead < 0:
        raise RuntimeError(
            f"expand({kind}{{{list(shape)}}}, size={list(target)}): the number "
            f"of sizes provided ({len(target)}) must be greater or equal to the number of "
            f"dimensions in the tensor ({len(shape)})")
    full = tuple(shape[i - lead] if s == -1 and i >= lead else s for i, s in enumerate(target))
    for i, s in reversed(list(enumerate(shape))):  # torch reports the last mismatch
        if s != 1 and s != full[lead + i]:
            raise RuntimeError(
                f"The expanded size of the tensor ({full[lead + i]}) must match the existing "
                f"size ({s}) at non-singleton dimension {lead + i}.  Target sizes: "
                f"{list(target)}.  Tensor sizes: {list(shape)}")
    for i, s in reversed(list(enumerate(target[:lead] if shape else ()))):  # from the back
        if s == -1:
            raise RuntimeError(f"The expanded size of the tensor ({s}) isn't allowed in a "
                               f"leading, non-existing dimension {i}")
    return full


def _check_no_dims(t: Tensor, fn: str, dim: Any) -> None:
    """torch's refusal of an int ``dim`` of ``fn`` (size or stride) of a 0-d tensor (what
    its parser does not read as an int, a tensor of one dim, and an int past int64 are
    refused first, by :func:`_args.dim`)."""
    i = _args.as_param_int(dim, "dim", fn)
    if t._data.ndim == 0 and i is not None and _args.INT64_MIN <= i <= _args.INT64_MAX:
        raise IndexError(f"Dimension specified as {i} but tensor has no dimensions")


def strides_contiguous(shape: tuple, strides: tuple) -> bool:
    """torch's contiguity test on element strides.

    >>> strides_contiguous((2, 3), (3, 1)), strides_contiguous((3, 2), (1, 3))
    (True, False)
    """
    if 0 in shape:
        return True
    expected = 1
    for size, stride in zip(reversed(shape), reversed(strides)):
        if size != 1:
            if stride != expected:
                return False
            expected *= size
    return True


def view_strides(shape: tuple, strides: tuple, target: tuple) -> tuple | None:
    """torch's strides (its computeStride) of a tensor of ``shape`` and element ``strides``
    viewed as ``target``, or None where no view is possible (a run of target dims must fit
    in one contiguous chunk of the original dims); a dim of size one takes the stride of
    the chunk it falls in, which numpy's reshape may choose otherwise.

    >>> view_strides((2, 3), (3, 1), (6,)), view_strides((3, 2), (1, 3), (6,))
    ((1,), None)
    >>> view_strides((3, 5, 1), (1, 3, 15), (3, 1, 5, 1))
    (1, 15, 3, 15)
    """
    if not shape:
        return (1,) * len(target)
    if 0 in shape:
        return strides if shape == target else backend.contiguous_strides(target)
    out = [0] * len(target)
    view_d = len(target) - 1
    chunk_stride = strides[-1]
    tensor_numel = view_numel = 1
    for d in range(len(shape) - 1, -1, -1):
        tensor_numel *= shape[d]
        if d == 0 or (shape[d - 1] != 1 and strides[d - 1] != tensor_numel * chunk_stride):
            while view_d >= 0 and (view_numel < tensor_numel or target[view_d] == 1):
                out[view_d] = view_numel * chunk_stride
                view_numel *= target[view_d]
                view_d -= 1
            if view_numel != tensor_numel:
                return None
            if d > 0:
                chunk_stride = strides[d - 1]
                tensor_numel = view_numel = 1
    return tuple(out) if view_d == -1 else None


def expandable_to(shape: tuple, target: tuple) -> bool:
    """True if ``shape`` broadcasts to ``target``."""
    if len(shape) > len(target):
        return False
    return all(s in (1, t) for s, t in zip(reversed(shape), reversed(target)))


def sum_to(t: Tensor, shape: tuple) -> Tensor:
    """Sum ``t`` over the dimensions that broadcasting added to ``shape``."""
    shape, have = tuple(shape), t._data.shape
    if have == shape or len(have) < len(shape):  # (a smaller gradient already broadcasts)
        return t
    if not grad_mode._state.grad_enabled:  # unrecorded: on arrays
        return Tensor._make(sum_to_array(t._xp, t._data, shape))
    return sum_to_as_torch(t, shape)


def sum_to_as_torch(t: Tensor, shape: tuple) -> Tensor:
    """``sum_to`` in torch's ops, recorded: a sum that keeps dims, then a view (torch's
    double-backward graph, and its profile where a formula calls ``at::sum_to``).

    >>> sum_to_as_torch(minitorch.ones(2, 3), (3,))
    tensor([2., 2., 2.])
    """
    have = t._data.shape
    if have == shape or len(have) < len(shape):
        return t
    if not shape:  # torch's sum_to of a 0-d shape is the whole sum (SumBackward0)
        return t.sum()
    out = t.sum(_broadcast_dims(have, shape), keepdim=True)
    return out.view(shape) if out._data.shape != shape else out


def sum_to_array(xp: Any, array: Any, shape: tuple) -> Any:
    """``array`` summed over the dimensions that broadcasting added to ``shape``.

    >>> import numpy as np
    >>> sum_to_array(np, np.ones((2, 3, 4)), (3, 1)).tolist()
    [[8.0], [8.0], [8.0]]
    """
    have = array.shape
    if have == shape or len(have) < len(shape):
        return array
    dims = _broadcast_dims(have, shape)
    if len(dims) == len(have) - len(shape):  # leading dims only: the sum has the shape
        return torch_sum(xp, array, dims)
    return xp.reshape(torch_sum(xp, array, dims, keepdim=True), shape)


def _broadcast_dims(have: tuple, shape: tuple) -> tuple:
    """The dims of an array of shape ``have`` (as long as ``shape`` or longer) that
    broadcasting added to ``shape``: the leading ones, and those where ``shape`` has 1."""
    lead = len(have) - len(shape)
    return tuple(range(lead)) + tuple(
        lead + i for i, s in enumerate(shape) if s == 1 and have[lead + i] != 1)


def meta_of(value: Any) -> Any:
    """What is needed to make a zero gradient like ``value``: its array's shape, dtype and
    type (no module object, so a graph's nodes keep nothing the garbage collector must visit).

    >>> meta_of(minitorch.ones(2))
    ((2,), dtype('float32'), <class 'numpy.ndarray'>)
    """
    if isinstance(value, Tensor):
        data = value._data
        return (data.shape, data.dtype, type(data))
    return None


def zeros_of_meta(meta: Any) -> Tensor | None:
    """Zeros shaped like a recorded output (for materialized gradients)."""
    if meta is None:
        return None
    shape, dt, kind = meta
    return Tensor._make(backend.namespace_of_type(kind).zeros(shape, dtype=dt))

