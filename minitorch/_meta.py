"""The ``meta`` device: tensors with a shape and a dtype but no values.

A meta tensor's array is a :class:`MetaArray`, whose namespace (:data:`namespace`) is the
backend seam's way of saying where it lives. It serves what programs do with meta tensors
while they hold no data: create them (``empty``/``zeros``/... with ``device="meta"``,
``Tensor.to("meta")``, ``Module.to("meta")``), print them, read their shape and dtype, and
swap them out (``functional_call``, ``Module.to_empty``), and write into them, which changes
nothing (so a module's in-place initialization runs on the meta device, drawing no random
numbers, as torch's). An op on one, which torch would
answer with a meta result of the right shape, is refused with a NotImplementedError, as is
reading values (torch's errors).

>>> import minitorch
>>> minitorch.empty(2, 3, device="meta")
tensor(..., device='meta', size=(2, 3))
"""

from __future__ import annotations

from typing import Any

import numpy as np

__all__ = ["MetaArray", "is_meta", "namespace"]

_NO_DATA = "Cannot copy out of meta tensor; no data!"


def _refused(what: str) -> NotImplementedError:
    return NotImplementedError(
        f"minitorch's meta tensors carry only a shape and a dtype: {what} on them is not "
        "supported (only creating them, moving modules to 'meta', printing them and swapping "
        "them out with functional_call or Module.to_empty are)")


class MetaArray:
    """The array of a meta tensor: a shape and a numpy dtype, no memory.

    >>> a = MetaArray((2, 3), np.float32)
    >>> a.shape, a.ndim, a.size, a.dtype
    ((2, 3), 2, 6, dtype('float32'))
    """

    __slots__ = ("dtype", "shape")

    def __init__(self, shape: tuple, dtype: Any) -> None:
        self.shape = tuple(int(n) for n in shape)
        self.dtype = np.dtype(dtype)

    ndim = property(lambda self: len(self.shape))
    size = property(lambda self: int(np.prod(self.shape, dtype=np.int64)))
    nbytes = property(lambda self: 0)
    itemsize = property(lambda self: self.dtype.itemsize)

    def __array_namespace__(self, api_version: Any = None) -> Any:
        return namespace

    def __array__(self, *args: Any, **kwargs: Any) -> Any:
        raise NotImplementedError(_NO_DATA)

    def __getattr__(self, name: str) -> Any:
        # an AttributeError, so that probes (hasattr, getattr with a default) answer no
        raise AttributeError(_refused(f"the array attribute {name!r}").args[0])

    def __getitem__(self, key: Any) -> Any:
        raise _refused("indexing")

    def __setitem__(self, key: Any, value: Any) -> None:
        """A write has nothing to change (torch's meta kernels write nothing either), so
        in-place initialization of a module built on the meta device goes through."""

    def __len__(self) -> int:
        if not self.shape:
            raise TypeError("len() of unsized object")
        return self.shape[0]


def _operator(name: str) -> Any:
    def refuse(self: MetaArray, *args: Any) -> Any:
        raise _refused(f"the operator {name}")
    return refuse


for _name in ("add", "sub", "mul", "truediv", "floordiv", "mod", "pow", "matmul", "and", "or",
              "xor", "lshift", "rshift", "lt", "le", "gt", "ge", "eq", "ne"):
    for _form in (f"__{_name}__", f"__r{_name}__", f"__i{_name}__"):
        setattr(MetaArray, _form, _operator(_form))
for _name in ("__neg__", "__pos__", "__abs__", "__invert__", "__bool__", "__float__",
              "__int__", "__index__", "__iter__"):
    setattr(MetaArray, _name, _operator(_name))
MetaArray.__hash__ = object.__hash__  # type: ignore[method-assign]


class _Namespace:
    """The meta device's array namespace: creation and dtype casts give meta arrays; any
    other function is refused."""

    __name__ = "minitorch.meta"

    def __getattr__(self, name: str) -> Any:
        if name.startswith("_"):  # a probe (doctest's __wrapped__, copy's __deepcopy__ ...)
            raise AttributeError(name)
        if hasattr(np, name) and isinstance(getattr(np, name), type) and \
                issubclass(getattr(np, name), np.generic):
            return getattr(np, name)  # a dtype: float32, int64, bool_ ...
        raise _refused(f"{name!r}")

    bool = np.bool_

    @staticmethod
    def asarray(values: Any, dtype: Any = None, copy: Any = None, **kwargs: Any) -> MetaArray:
        if isinstance(values, MetaArray):
            return values if dtype is None else MetaArray(values.shape, dtype)
        values = np.asarray(values, dtype=dtype)
        return MetaArray(values.shape, values.dtype)

    @staticmethod
    def astype(array: MetaArray, dtype: Any, **kwargs: Any) -> MetaArray:
        return MetaArray(array.shape, dtype)

    @staticmethod
    def full(shape: Any, fill_value: Any, dtype: Any = None, **kwargs: Any) -> MetaArray:
        return MetaArray(_shape(shape), np.asarray(fill_value, dtype=dtype).dtype)

    @staticmethod
    def empty(shape: Any, dtype: Any = float, **kwargs: Any) -> MetaArray:
        return MetaArray(_shape(shape), dtype)

    zeros = ones = empty

    @staticmethod
    def empty_like(array: Any, dtype: Any = None, **kwargs: Any) -> MetaArray:
        return MetaArray(array.shape, array.dtype if dtype is None else dtype)

    zeros_like = ones_like = empty_like


def _shape(shape: Any) -> tuple:
    return (shape,) if isinstance(shape, (int, np.integer)) else tuple(shape)


namespace = _Namespace()


def is_meta(array: Any) -> bool:
    """Whether ``array`` is a meta tensor's.

    >>> is_meta(MetaArray((1,), np.float32)), is_meta(np.ones(1))
    (True, False)
    """
    return type(array) is MetaArray
