"""``torch.overrides``' dispatch for tensor-like types: an object whose class defines
``__torch_function__`` (and is not a Tensor) handles the public functions it is passed to.

minitorch's public ``minitorch.*`` and ``nn.functional`` functions hand over to such an object
when they are called with one (see "Extending torch with a Tensor-like type" in torch's notes).
A Tensor subclass is dispatched to as well, for its methods, operators and properties too
("Subclassing torch.Tensor"): ``Tensor.__torch_function__`` runs the function and gives its
tensors back as the subclass, unless the subclass turns it off with
``_disabled_torch_function_impl`` (as ``nn.Parameter`` does).

The plain tensor pays nothing for this: the subclass gets its own dispatching methods when it
is defined, and the functions look for subclasses only once one that dispatches exists.

>>> import minitorch
>>> class Two:
...     @classmethod
...     def __torch_function__(cls, func, types, args=(), kwargs=None):
...         return f"{func.__name__} of Two"
>>> minitorch.mean(Two())
'mean of Two'
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any

__all__ = ["TorchFunctionMode", "get_default_nowrap_functions", "handle_torch_function",
           "has_torch_function", "has_torch_function_unary", "has_torch_function_variadic",
           "is_tensor_like"]


class _State:
    """Whether a dispatching Tensor subclass or a mode was ever used (the functions then look
    for one), how deep runs code that turned subclasses' dispatch off, and the modes active
    (innermost last)."""

    subclassed = False
    disabled = 0
    modes: tuple = ()


_state = _State()


def _disabled_torch_function_impl(func: Callable, types: Any, args: tuple = (),
                                  kwargs: dict | None = None) -> Any:
    """A Tensor subclass's ``__torch_function__`` that turns dispatch off for it (its methods
    are the Tensor's, its results plain tensors), as ``torch._C._disabled_torch_function_impl``.

    >>> import minitorch
    >>> class Plain(minitorch.Tensor):
    ...     __torch_function__ = _disabled_torch_function_impl
    >>> type(minitorch.ones(1).as_subclass(Plain) + 1).__name__
    'Tensor'
    """
    with DisableTorchFunctionSubclass():
        return func(*args, **(kwargs or {}))


class DisableTorchFunctionSubclass:
    """Context manager: Tensor subclasses' ``__torch_function__`` is not called inside (tensor-
    like objects that are no Tensor still are), as ``torch._C.DisableTorchFunctionSubclass``.

    >>> with DisableTorchFunctionSubclass():
    ...     _state.disabled
    1
    """

    def __enter__(self) -> None:
        _state.disabled += 1

    def __exit__(self, *exc: Any) -> None:
        _state.disabled -= 1


def _is_tensor_like(kind: type) -> bool:
    from ._tensor import Tensor

    handler = getattr(kind, "__torch_function__", None)
    if handler is None or kind is Tensor or handler is _disabled_torch_function_impl:
        return False
    return not (_state.disabled and issubclass(kind, Tensor))


def is_tensor_like(inp: Any) -> bool:
    """Whether ``inp`` is a Tensor or an object whose class defines ``__torch_function__``.

    >>> import minitorch
    >>> is_tensor_like(minitorch.ones(1)), is_tensor_like(1.0)
    (True, False)
    """
    from ._tensor import Tensor

    return type(inp) is Tensor or hasattr(inp, "__torch_function__")


def get_default_nowrap_functions() -> set:
    """The functions whose results ``Tensor.__torch_function__`` gives back as they are, not
    converted to the subclass: the getters of ``grad`` and ``_base``.

    >>> import minitorch
    >>> minitorch.Tensor.grad.__get__ in get_default_nowrap_functions()
    True
    """
    from ._tensor import Tensor

    return {Tensor._base.__get__, Tensor.grad.__get__}


def _flat(values: Iterable) -> Iterable:
    """The arguments torch's parser looks at: each value, and the items of a list or tuple."""
    for value in values:
        if isinstance(value, (list, tuple)):
            yield from value
        else:
            yield value


def _overloaded(relevant_args: Iterable) -> list:
    """One argument per tensor-like type, a subclass before its base classes (the order in
    which torch asks them)."""
    found: list = []
    for arg in _flat(relevant_args):
        kind = type(arg)
        if not _is_tensor_like(kind) or any(type(o) is kind for o in found):
            continue
        at = next((i for i, o in enumerate(found) if issubclass(kind, type(o))), len(found))
        found.insert(at, arg)
    return found


def has_torch_function(relevant_args: Iterable) -> bool:
    """Whether any of ``relevant_args`` is of a tensor-like type (its class defines
    ``__torch_function__``).

    >>> import minitorch
    >>> has_torch_function((minitorch.ones(1), 2.0))
    False
    """
    return bool(_overloaded(relevant_args))


def has_torch_function_unary(arg: Any) -> bool:
    """:func:`has_torch_function` of one argument.

    >>> import minitorch
    >>> has_torch_function_unary(minitorch.ones(1))
    False
    """
    return _is_tensor_like(type(arg))


def has_torch_function_variadic(*args: Any) -> bool:
    """:func:`has_torch_function` of the arguments given.

    >>> has_torch_function_variadic(1, 2.0)
    False
    """
    return any(_is_tensor_like(type(arg)) for arg in args)


def handle_torch_function(public_api: Callable, relevant_args: Iterable, *args: Any,
                          **kwargs: Any) -> Any:
    """Call ``public_api(*args, **kwargs)`` through the ``__torch_function__`` of the
    tensor-like types among ``relevant_args``: the first answer that is not NotImplemented.

    >>> class Loud:
    ...     @classmethod
    ...     def __torch_function__(cls, func, types, args=(), kwargs=None):
    ...         return func.__name__, len(args), kwargs
    >>> def scale(x, by=2): pass
    >>> handle_torch_function(scale, (Loud(),), Loud(), by=3)
    ('scale', 1, {'by': 3})
    """
    overloaded = _overloaded(relevant_args)
    types = tuple(type(arg) for arg in overloaded)
    if _state.modes and (result := _mode_answer(public_api, types or (_tensor_type(),), args,
                                                kwargs)) is not NotImplemented:
        return result
    for arg in overloaded:
        result = type(arg).__torch_function__(public_api, types, args, kwargs)
        if result is not NotImplemented:
            return result
    name = f"{public_api.__module__}.{public_api.__name__}".replace("minitorch.", "torch.", 1)
    raise TypeError(f"no implementation found for '{name}' on types that implement "
                    f"__torch_function__: {list(types)}")


def _dispatch(public_api: Callable, name: str, relevant_args: Iterable, args: tuple,
              kwargs: dict | None) -> Any:
    overloaded = _overloaded(relevant_args)
    types = tuple(type(arg) for arg in overloaded)
    if _state.modes and (result := _mode_answer(public_api, types, args, kwargs)) \
            is not NotImplemented:
        return result
    for arg in overloaded:
        result = type(arg).__torch_function__(public_api, types, args, kwargs)
        if result is not NotImplemented:
            return result
    listed = "".join(f"  - tensor subclass {kind}\n" for kind in types)
    raise TypeError(f"Multiple dispatch failed for '{name}'; all __torch_function__ handlers "
                    f"returned NotImplemented:\n\n{listed}\nFor more information, try "
                    "re-running with TORCH_LOGS=not_implemented")


def dispatch_public(public_api: Callable, name: str, args: tuple, kwargs: dict) -> Any:
    """How a public minitorch function called with a tensor-like argument answers (torch's
    C functions: ``kwargs`` None when none were given); NotImplemented when there is none."""
    if not _overloaded((*args, *kwargs.values())):
        return NotImplemented
    return _dispatch(public_api, name, (*args, *kwargs.values()), args, kwargs or None)


# ---------------------------------------------------------------------------- Tensor subclasses


def tensor_torch_function(cls: type, func: Callable, types: tuple, args: tuple = (),
                          kwargs: dict | None = None) -> Any:
    """``Tensor.__torch_function__``: run ``func`` with subclasses' dispatch turned off and
    give its tensors back as ``cls`` (not the results of :func:`get_default_nowrap_functions`);
    NotImplemented where ``cls`` is not a subclass of every one of ``types``."""
    if not all(issubclass(cls, kind) for kind in types):
        return NotImplemented
    with DisableTorchFunctionSubclass():
        result = func(*args, **(kwargs or {}))
        if func in get_default_nowrap_functions():
            return result
        return _convert(result, cls)


def _convert(result: Any, cls: type) -> Any:
    """``result``'s tensors (also in a tuple or list) as ``cls``."""
    from ._tensor import Tensor

    if cls is Tensor:
        return result
    if isinstance(result, Tensor) and not isinstance(result, cls):
        return result.as_subclass(cls)
    if isinstance(result, (tuple, list)):
        items = [_convert(item, cls) for item in result]
        return type(result)._make(items) if hasattr(type(result), "_fields") else \
            type(result)(items)
    return result


# the operators torch dispatches under the name of the method they run (``x * y`` as mul)
_OPERATOR_METHODS = {
    "__add__": "add", "__radd__": "add", "__sub__": "sub", "__mul__": "mul", "__rmul__": "mul",
    "__truediv__": "div", "__pow__": "pow", "__mod__": "remainder", "__matmul__": "matmul",
    "__lt__": "lt", "__le__": "le", "__gt__": "gt", "__ge__": "ge", "__ne__": "ne",
    "__rand__": "bitwise_and", "__ror__": "bitwise_or", "__rxor__": "bitwise_xor",
    "__iadd__": "add_", "__isub__": "sub_", "__imul__": "mul_", "__itruediv__": "div_",
    "__ipow__": "pow_", "__ifloordiv__": "floor_divide_", "__imod__": "remainder_",
    "__neg__": "neg", "__abs__": "abs", "__pos__": "positive"}
# a reflected operator reached with a Tensor on the left (Python asks the subclass on the right
# first) is that Tensor's own operator, as torch, whose subclasses inherit them, runs it
_REFLECTED = {"__radd__": "__add__", "__rsub__": "__sub__", "__rmul__": "__mul__",
              "__rtruediv__": "__truediv__", "__rpow__": "__pow__", "__rmod__": "__mod__",
              "__rfloordiv__": "__floordiv__", "__rmatmul__": "__matmul__",
              "__rand__": "__and__", "__ror__": "__or__", "__rxor__": "__xor__",
              "__rlshift__": "__lshift__", "__rrshift__": "__rshift__"}
# Tensor's attributes a subclass does not dispatch (the class machinery, and hash: torch's too)
_UNDISPATCHED = frozenset({
    "__init__", "__new__", "__init_subclass__", "__torch_function__", "__dict__", "__weakref__",
    "__slots__", "__module__", "__doc__", "__qualname__", "__hash__", "__array_priority__",
    "__annotations__", "__getattribute__", "__getattr__", "__setattr__", "__delattr__",
    "__class__", "__reduce__", "__sizeof__", "__dir__", "__subclasshook__", "as_subclass"})


def _method_dispatcher(name: str, func: Callable) -> Callable:
    """A subclass's ``name``: ``func`` (Tensor's) through the ``__torch_function__`` of the
    tensor-like arguments, reported as torch names it."""
    from ._tensor import Tensor

    reported = getattr(Tensor, _OPERATOR_METHODS.get(name, name))
    forward = _REFLECTED.get(name)

    def dispatching(*args: Any, **kwargs: Any) -> Any:
        if not _state.modes and (_state.disabled or
                                 not _overloaded((*args, *kwargs.values()))):
            return func(*args, **kwargs)
        if forward is not None and len(args) == 2 and isinstance(args[1], Tensor):
            called = getattr(Tensor, _OPERATOR_METHODS.get(forward, forward))
            args = (args[1], args[0])
        else:
            called = reported
        return _dispatch(called, f"Tensor.{called.__name__}", (*args, *kwargs.values()), args,
                         kwargs or None)

    dispatching.__name__ = name
    dispatching.__doc__ = func.__doc__
    return dispatching


def operand_refused(operator: Callable, self: Any, other: Any) -> Any:
    """What Tensor's ``operator`` (a dunder) answers for an ``other`` it does not take: the
    answer of ``other``'s ``__torch_function__`` where it has one (reported as the method torch
    runs, ``Tensor.mul`` for ``*``), else NotImplemented (Python tries ``other``'s side)."""
    from ._tensor import Tensor

    name = operator.__name__
    called = getattr(Tensor, {"__eq__": "eq"}.get(name, _OPERATOR_METHODS.get(name, name)), None)
    if called is None or not _is_tensor_like(type(other)):
        return NotImplemented
    return _dispatch(called, f"torch.Tensor.{called.__name__}", (self, other), (self, other),
                     None)


def _property_dispatcher(prop: property) -> property:
    """A subclass's property: its getter and setter through ``__torch_function__`` (torch
    reports ``Tensor.grad.__get__`` and ``__set__``)."""

    def get(self: Any) -> Any:
        if not _state.modes and (_state.disabled or not _is_tensor_like(type(self))):
            return prop.__get__(self)
        return _dispatch(prop.__get__, "__get__", (self,), (self,), None)

    def set(self: Any, value: Any) -> None:
        if not _state.modes and (_state.disabled or not _is_tensor_like(type(self))):
            return prop.__set__(self, value)
        return _dispatch(prop.__set__, "__set__", (self, value), (self, value), None)

    return property(get, set, prop.fdel, prop.__doc__)


def subclassed(cls: type) -> None:
    """Give the Tensor subclass ``cls`` methods and properties that dispatch to the
    ``__torch_function__`` of their tensor-like arguments (unless it turns dispatch off),
    where neither it nor a class between it and Tensor defines them."""
    from ._tensor import Tensor

    _PLAIN.add(Tensor)
    if getattr(cls, "__torch_function__", None) is _disabled_torch_function_impl:
        _PLAIN.add(cls)
        return
    _state.subclassed = True
    for name, attribute in vars(Tensor).items():
        if name in _UNDISPATCHED or (name[0] == "_" and name[:2] != "__"):
            continue
        owner = next(k for k in cls.__mro__ if name in vars(k))
        if owner is not Tensor:  # the subclass's own, or dispatching already
            continue
        if isinstance(attribute, property):
            setattr(cls, name, _property_dispatcher(attribute))
        elif callable(attribute):
            setattr(cls, name, _method_dispatcher(name, attribute))


def dispatch_subclassed(public_api: Callable, name: str, args: tuple, kwargs: dict) -> Any:
    """How a public function or a plain Tensor's method called with a dispatching Tensor
    subclass among its arguments answers; NotImplemented when there is none (or dispatch is
    off)."""
    if not _state.modes and (_state.disabled or _plain(args, kwargs) or
                             not _overloaded((*args, *kwargs.values()))):
        return NotImplemented
    return _dispatch(public_api, name, (*args, *kwargs.values()), args, kwargs or None)


def dispatched(fn: Callable) -> Callable:
    """Decorator: the Python function ``fn`` (an ``nn.functional`` one) hands over to the
    ``__torch_function__`` of a tensor-like argument, as torch's ``handle_torch_function``.

    >>> class Two:
    ...     @classmethod
    ...     def __torch_function__(cls, func, types, args=(), kwargs=None):
    ...         return func.__name__
    >>> dispatched(lambda input: input + 1)(Two())
    '<lambda>'
    """
    import functools

    from ._tensor import Tensor

    _PLAIN.add(Tensor)

    @functools.wraps(fn)
    def handled(*args: Any, **kwargs: Any) -> Any:
        if _state.modes or (not _plain(args, kwargs) and
                            _overloaded((*args, *kwargs.values()))):
            return handle_torch_function(handled, (*args, *kwargs.values()), *args, **kwargs)
        try:
            return fn(*args, **kwargs)
        except TypeError as error:
            if error.__traceback__.tb_next is None:  # the call did not bind: the caller's
                from ._call_form import python_named  # mistake, as torch reports it

                error.args = (python_named(str(error), fn, args, kwargs),)
                raise error.with_traceback(None) from None
            raise

    return handled


# the types no argument of which has a __torch_function__ to call (Tensor, and the subclasses
# that turn theirs off, join them)
_PLAIN = {int, float, bool, complex, str, type(None)}


def _plain(args: tuple, kwargs: dict) -> bool:
    """Whether every argument is of a :data:`_PLAIN` type (the common call, checked fast)."""
    for value in args:
        if type(value) not in _PLAIN:
            return False
    return not kwargs or all(type(value) in _PLAIN for value in kwargs.values())


# ---------------------------------------------------------------------------- modes


class TorchFunctionMode:
    """A context manager whose ``__torch_function__`` sees every call of minitorch's public
    functions, Tensor methods, operators and properties made inside it (as
    ``torch.overrides.TorchFunctionMode``); it runs with itself popped, so calling ``func``
    there runs the function (or the next mode out).

    >>> import minitorch
    >>> class Names(TorchFunctionMode):
    ...     def __init__(self):
    ...         super().__init__()
    ...         self.seen = []
    ...     def __torch_function__(self, func, types, args=(), kwargs=None):
    ...         self.seen.append(func.__name__)
    ...         return func(*args, **(kwargs or {}))
    >>> with Names() as mode:
    ...     y = minitorch.ones(2) * 3
    >>> mode.seen
    ['ones', 'mul']
    """

    def __init__(self) -> None:
        pass

    def __torch_function__(self, func: Callable, types: tuple, args: tuple = (),
                           kwargs: dict | None = None) -> Any:
        raise NotImplementedError()

    def __enter__(self) -> TorchFunctionMode:
        if not _state.modes:
            _install_mode_dispatch()
        _state.modes = (*_state.modes, self)
        _state.subclassed = True
        return self

    def __exit__(self, *exc: Any) -> None:
        _state.modes = tuple(m for m in _state.modes if m is not self)
        if not _state.modes:
            _remove_mode_dispatch()


def _mode_answer(func: Callable, types: tuple, args: tuple, kwargs: dict | None) -> Any:
    """The innermost mode's answer, given with that mode popped."""
    active = _state.modes
    _state.modes = active[:-1]
    try:
        return active[-1].__torch_function__(func, types, args, kwargs)
    finally:
        _state.modes = active


def _tensor_type() -> type:
    from ._tensor import Tensor

    return Tensor


# Tensor's own attributes that a mode needs to see and that do not dispatch themselves (the
# operators, properties and the class's plain methods), replaced while a mode is active
_swapped: dict = {}


def _install_mode_dispatch() -> None:
    from ._tensor import Tensor

    for name, attribute in list(vars(Tensor).items()):
        if name in _UNDISPATCHED or (name[0] == "_" and name[:2] != "__") or \
                hasattr(attribute, "op"):  # a parser entry: it dispatches itself
            continue
        if isinstance(attribute, property) or callable(attribute):
            _swapped[name] = attribute
    dispatchers = {name: _property_dispatcher(a) if isinstance(a, property) else
                   _method_dispatcher(name, a) for name, a in _swapped.items()}
    for name, dispatcher in dispatchers.items():
        setattr(Tensor, name, dispatcher)


def _remove_mode_dispatch() -> None:
    from ._tensor import Tensor

    for name, attribute in _swapped.items():
        setattr(Tensor, name, attribute)
    _swapped.clear()
