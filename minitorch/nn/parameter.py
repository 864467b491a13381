"""``Parameter``: a tensor that a :class:`~minitorch.nn.Module` registers as learnable.

Assigning a Parameter to a module attribute adds it to ``module.parameters()``. It is a
leaf that requires grad and shares its values with the tensor it was made from.

>>> import minitorch
>>> from minitorch import nn
>>> nn.Parameter(minitorch.ones(2))
Parameter containing:
tensor([1., 1.], requires_grad=True)
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from .. import _args, _creation
from .._tensor import Size, Tensor
from ..overrides import _disabled_torch_function_impl

__all__ = ["Buffer", "Parameter", "UninitializedBuffer", "UninitializedParameter"]


class Parameter(Tensor):
    """A leaf tensor that modules collect as a learnable weight.

    >>> p = nn.Parameter(minitorch.zeros(3))
    >>> p.is_leaf, p.requires_grad
    (True, True)
    """

    __slots__ = ()
    __torch_function__ = _disabled_torch_function_impl  # its results are plain tensors

    def __new__(cls, data: Tensor | None = None, requires_grad: bool = True) -> Parameter:
        if data is None:
            data = _creation.empty(0)
        _args.python_attribute(data, "detach")  # torch's Parameter detaches its data first
        self = cls._make(data._data)
        self._version_counter = data._version_counter  # in-place updates show in both
        self._inference = data._inference  # so requiring grad outside inference mode fails
        if requires_grad and not self.dtype.is_floating_point:
            raise RuntimeError(
                "Only Tensors of floating point and complex dtype can require gradients")
        self._set_requires_grad(_args.flag("_make_subclass", requires_grad, "require_grad", 3))
        return self

    def __repr__(self) -> str:
        return "Parameter containing:\n" + super().__repr__()

    def __deepcopy__(self, memo: dict) -> Parameter:
        # A fresh leaf: the copy must not share the original's gradient accumulator.
        copy = Parameter(self.detach().clone(), self._requires_grad)
        memo[id(self)] = copy
        return copy

    def __reduce_ex__(self, protocol: Any) -> tuple:
        return Parameter, (self.detach(), self._requires_grad)


class _BufferMeta(type):
    """``isinstance(t, Buffer)``: a tensor that ``Buffer`` marked (it stays a plain Tensor)."""

    def __instancecheck__(cls, instance: Any) -> bool:
        return isinstance(instance, Tensor) and getattr(instance, "_is_buffer", False)


class Buffer(metaclass=_BufferMeta):
    """A tensor marked as a module's state: assigned to a module attribute, it is registered
    as a buffer (``persistent`` ones go into ``state_dict``). ``Buffer(t)`` is ``t.detach()``,
    marked; no class of its own.

    >>> m = nn.Module(); m.steps = nn.Buffer(minitorch.zeros(1), persistent=False)
    >>> list(m.buffers()), list(m.state_dict())
    ([tensor([0.])], [])
    """

    def __new__(cls, data: Tensor | None = None, *, persistent: bool = True) -> Any:
        if data is None:
            data = _creation.empty(0)
        t = data.detach().requires_grad_(data.requires_grad)
        t.persistent = persistent
        t._is_buffer = True
        return t


def zero_grad_(params: Iterable[Tensor], set_to_none: bool = True) -> None:
    """Reset the ``.grad`` of each tensor: drop it (None) or fill it with zeros.

    >>> from minitorch.nn.parameter import zero_grad_
    >>> p = nn.Parameter(minitorch.ones(1)); p.sum().backward()
    >>> zero_grad_([p]); p.grad is None
    True
    """
    for p in params:
        grad = p._grad
        if grad is None:
            continue
        if set_to_none:
            p._grad = None
            continue
        if grad._grad_fn is not None:
            grad.detach_()
        else:
            grad.requires_grad_(False)
        grad.zero_()


# what torch lets an uninitialized parameter do (its __torch_function__'s allowed methods)
_ALLOWED = frozenset({"size", "copy_", "is_complex", "is_floating_point", "half", "float",
                      "double", "long", "int", "to", "cpu", "cuda", "get_device"})
# the conversions an uninitialized buffer answers with an uninitialized buffer
_CONVERSIONS = frozenset({"half", "float", "double", "long", "int", "to", "cpu", "cuda"})
# operators, by the name of torch's method that refuses them (__rsub__ is a Python function)
_OPERATORS = {"__add__": "add", "__radd__": "add", "__sub__": "sub", "__mul__": "mul",
              "__rmul__": "mul", "__truediv__": "div", "__matmul__": "matmul", "__pow__": "pow",
              "__neg__": "neg"}


def _uninitialized(what: str) -> ValueError:
    return ValueError(
        f"Attempted to use an uninitialized parameter in {what}. This error happens when you "
        "are using a `LazyModule` or explicitly manipulating "
        "`torch.nn.parameter.UninitializedParameter` objects. When using LazyModules Call "
        "`forward` with a dummy batch to initialize the parameters before calling torch "
        "functions")


def _refuse(name: str, what: str) -> Any:
    def refuse(self: Any, *args: Any, **kwargs: Any) -> Any:
        raise _uninitialized(what)

    refuse.__name__ = name
    return refuse


class _Uninitialized:
    """What uninitialized parameters and buffers share (torch's UninitializedTensorMixin): a
    stand-in of no shape that refuses to be used until :meth:`materialize` gives it one and
    makes it a ``cls_to_become``."""

    __slots__ = ()
    cls_to_become: type
    __torch_function__ = _disabled_torch_function_impl  # refusing is done by __getattribute__

    def __getattribute__(self, name: str) -> Any:
        if name == "shape":
            raise RuntimeError(
                "Can't access the shape of an uninitialized parameter or buffer. This error "
                "usually happens in `load_state_dict` when trying to load an uninitialized "
                "parameter into an initialized one. Call `forward` to initialize the "
                "parameters before accessing their attributes.")
        if name[0] != "_" and name not in _ALLOWED and callable(getattr(Tensor, name, None)):
            return _refuse(name, f"<method '{name}' of 'torch._C.TensorBase' "
                                 "objects>").__get__(self)
        return super().__getattribute__(name)

    def __repr__(self) -> str:
        return f"<{type(self).__name__}>"

    def size(self, dim: int | None = None) -> Any:
        """The size of the empty stand-in, ``torch.Size([0])`` (torch allows ``size``)."""
        shape = Size(self._data.shape)  # type: ignore[attr-defined]
        return shape if dim is None else shape[dim]

    def materialize(self, shape: Any, device: Any = None, dtype: Any = None) -> None:
        """Become a ``cls_to_become`` of ``shape`` (uninitialized values, as ``empty``)."""
        data = _creation.empty(tuple(shape) if isinstance(shape, (tuple, list)) else shape,
                               device=self.device if device is None else device,  # type: ignore[attr-defined]
                               dtype=dtype or self.dtype)  # type: ignore[attr-defined]
        self._data = data._data
        self.__class__ = self.cls_to_become


class UninitializedParameter(_Uninitialized, Parameter):
    """A parameter whose shape is not known yet: a lazy module (``nn.LazyLinear``)
    :meth:`materialize`\\ s it on its first forward, when the input tells the shape. Until
    then using it is refused, as in torch.

    >>> p = nn.UninitializedParameter()
    >>> p
    <UninitializedParameter>
    >>> p.materialize((2,)); type(p).__name__, p.shape
    ('Parameter', torch.Size([2]))
    """

    __slots__ = ()
    cls_to_become = Parameter

    def __new__(cls, requires_grad: bool = True, device: Any = None, dtype: Any = None
                ) -> UninitializedParameter:
        p = Parameter(_creation.empty(0, device=device, dtype=dtype), requires_grad)
        p.__class__ = cls
        return p  # type: ignore[return-value]

    def __init__(self, requires_grad: bool = True, device: Any = None,
                 dtype: Any = None) -> None:
        """Made whole by ``__new__``."""


class UninitializedBuffer(_Uninitialized, Tensor):
    """A buffer whose shape is not known yet (a lazy batch norm's running statistics).

    >>> b = nn.UninitializedBuffer()
    >>> b.materialize((3,)); type(b).__name__, b.requires_grad
    ('Tensor', False)
    """

    __slots__ = ()
    cls_to_become = Tensor

    def __getattribute__(self, name: str) -> Any:
        attribute = super().__getattribute__(name)
        if name not in _CONVERSIONS:
            return attribute

        def converted(*args: Any, **kwargs: Any) -> Any:  # (torch's mixin hands back its own
            out = attribute(*args, **kwargs)  # class: a lazy module's .double() keeps it lazy)
            out.__class__ = type(self)
            return out

        return converted

    def __new__(cls, requires_grad: bool = False, device: Any = None, dtype: Any = None
                ) -> UninitializedBuffer:
        t = _creation.empty(0, device=device, dtype=dtype, requires_grad=requires_grad)
        t.__class__ = cls
        return t  # type: ignore[return-value]

    def __init__(self, requires_grad: bool = False, device: Any = None,
                 dtype: Any = None) -> None:
        """Made whole by ``__new__``."""


for _name, _method in _OPERATORS.items():
    setattr(_Uninitialized, _name,
            _refuse(_name, f"<method '{_method}' of 'torch._C.TensorBase' objects>"))
_Uninitialized.__rsub__ = _refuse(  # type: ignore[method-assign]
    "__rsub__", f"<function Tensor.__rsub__ at {id(Tensor.__rsub__):#x}>")
_Uninitialized.__getitem__ = _refuse(  # type: ignore[method-assign]
    "__getitem__", "<slot wrapper '__getitem__' of 'torch._C.TensorBase' objects>")
