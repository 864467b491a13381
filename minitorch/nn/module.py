"""``Module``: the base class of layers and models.

A module owns parameters, buffers (tensors saved with the model but not learned, such as
running statistics) and child modules. Assigning one of them to an attribute registers it,
in order, so ``parameters()``, ``state_dict()`` and ``repr`` see the model's structure.
Registered values also live in the instance ``__dict__``, so ``self.fc1`` is a plain
attribute read.

>>> import minitorch
>>> from minitorch import nn
>>> class MLP(nn.Module):
...     def __init__(self):
...         super().__init__()
...         self.fc1 = nn.Linear(10, 5)
...         self.relu = nn.ReLU()
...     def forward(self, x):
...         return self.relu(self.fc1(x))
>>> [name for name, _ in MLP().named_parameters()]
['fc1.weight', 'fc1.bias']
"""

from __future__ import annotations

import functools
import itertools
import types
import warnings
from collections import OrderedDict
from collections.abc import Callable, Iterator, Mapping
from typing import Any, NamedTuple, TypeVar

from .. import _args, backend
from .._dtype import float16, float32, float64
from .._tensor import Tensor, _to_arguments, accelerator_device
from ..autograd import grad_mode
from ..autograd.graph import RemovableHandle, add_hook
from . import _backward_hooks
from .parameter import Buffer, Parameter, UninitializedParameter, zero_grad_

__all__ = ["Module", "register_module_forward_hook", "register_module_forward_pre_hook",
           "typename"]

# hooks every module runs before its own (torch's ``_global_forward_*`` dicts)
_global_forward_pre_hooks: dict[int, Callable[..., Any]] = {}
_global_forward_hooks: dict[int, Callable[..., Any]] = {}
_global_forward_hooks_with_kwargs: dict[int, bool] = {}
_global_forward_hooks_always_called: dict[int, bool] = {}


def register_module_forward_pre_hook(hook: Callable[..., Any]) -> RemovableHandle:
    """A forward pre-hook ``hook(module, args)`` of every module, run before the module's own.

    >>> from minitorch.nn.modules.module import register_module_forward_pre_hook
    >>> h = register_module_forward_pre_hook(lambda m, args: print(type(m).__name__))
    >>> _ = minitorch.nn.ReLU()(minitorch.zeros(1))
    ReLU
    >>> h.remove()
    """
    return add_hook(_global_forward_pre_hooks, hook)


def register_module_forward_hook(hook: Callable[..., Any], *, with_kwargs: bool = False,
                                 always_call: bool = False) -> RemovableHandle:
    """A forward hook ``hook(module, args, output)`` of every module (``hook(module, args,
    kwargs, output)`` ``with_kwargs``), run before the module's own.

    >>> from minitorch.nn.modules.module import register_module_forward_hook
    >>> h = register_module_forward_hook(lambda m, args, out: out + 1)
    >>> minitorch.nn.ReLU()(minitorch.zeros(1))
    tensor([1.])
    >>> h.remove()
    """
    handle = add_hook(_global_forward_hooks, hook)
    if with_kwargs:
        _global_forward_hooks_with_kwargs[handle._key] = True
    if always_call:
        _global_forward_hooks_always_called[handle._key] = True
    return handle


def class_repr(value: Any) -> str:
    """``repr(type(value))`` as torch prints it, its nn classes under torch's paths.

    >>> from minitorch.nn.module import class_repr
    >>> class_repr(nn.ReLU()), class_repr(2)
    ("<class 'torch.nn.modules.activation.ReLU'>", "<class 'int'>")
    """
    return f"<class '{typename(type(value))}'>"


def typename(value: Any) -> str:
    """A value's type as torch names it in error messages.

    >>> from minitorch.nn.module import typename
    >>> typename(minitorch.ones(1)), typename(3)
    ('torch.FloatTensor', 'int')
    """
    if isinstance(value, Tensor):
        return f"torch.{value.dtype.legacy}Tensor"
    if not isinstance(value, type) and hasattr(value, "__qualname__"):  # a function: its
        module = getattr(value, "__module__", "") or ""  # own name, under its module
        package = __package__.partition(".")[0]
        if module.partition(".")[0] == package:  # (ours under torch's name)
            module = "torch" + module[len(package):]
        return value.__qualname__ if module in ("", "builtins") else \
            f"{module}.{value.__qualname__}"
    cls = value if isinstance(value, type) else type(value)  # a class is named by itself
    if cls.__module__ == "builtins":
        return cls.__qualname__
    from .modules import torch_path  # the package is built from nn, after this module
    return torch_path(cls) or f"{cls.__module__}.{cls.__qualname__}"


class _IncompatibleKeys(NamedTuple):
    """What ``load_state_dict`` found missing or unexpected."""

    missing_keys: list[str]
    unexpected_keys: list[str]

    def __repr__(self) -> str:
        if not self.missing_keys and not self.unexpected_keys:
            return "<All keys matched successfully>"
        return (f"_IncompatibleKeys(missing_keys={self.missing_keys}, "
                f"unexpected_keys={self.unexpected_keys})")


_REGISTRIES = ("_parameters", "_buffers", "_modules")  # (each entry also an attribute)

# torch's bases whose constructor its subclasses share: Python's refusals name them
_TORCH_BASES = frozenset({"_AdaptiveAvgPoolNd", "_AdaptiveMaxPoolNd", "_BatchNorm", "_DropoutNd",
                          "_InstanceNorm", "_LazyNormBase", "_Loss", "_LPPoolNd", "_MaxPoolNd",
                          "_WeightedLoss"})


def _renamed(fn: Callable, qualname: str) -> Callable:
    """A copy of the function ``fn`` (the same code, defaults and closure, so ``super()``
    still means its class's) under ``qualname``."""
    copy = types.FunctionType(fn.__code__, fn.__globals__, fn.__name__, fn.__defaults__,
                              fn.__closure__)
    functools.update_wrapper(copy, fn)
    copy.__kwdefaults__ = fn.__kwdefaults__
    copy.__qualname__ = qualname
    return copy


_EXTRA_STATE_KEY = "_extra_state"


def _has_extra_state(module: Module) -> bool:
    """Whether ``module``'s class defines ``get_extra_state`` (torch saves it then)."""
    return type(module).get_extra_state is not Module.get_extra_state


def _forward_unimplemented(self: Any, *input: Any) -> None:
    """The computation of the module; every subclass defines it (torch's placeholder, whose
    name its refusals say: it takes no keyword argument).

    >>> nn.Module()()
    Traceback (most recent call last):
    NotImplementedError: Module [Module] is missing the required "forward" function
    """
    raise NotImplementedError(
        f'Module [{type(self).__name__}] is missing the required "forward" function')


T_destination = TypeVar("T_destination", bound=dict[str, Any])  # state_dict's destination


class Module:
    """Base class for all layers and models: subclass it and define ``forward``.

    >>> nn.Sequential(nn.Linear(2, 1), nn.Sigmoid())(minitorch.ones(3, 2)).shape
    torch.Size([3, 1])
    """

    training: bool
    dump_patches: bool = False  # torch's class attributes (its loader's old switches)
    call_super_init: bool = False
    T_destination = T_destination

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        if kwargs:  # torch's words, for the class that inherits this constructor
            raise TypeError(f"{type(self).__name__}.__init__() got an unexpected keyword "
                            f"argument '{next(iter(kwargs))}'")
        if args:
            raise TypeError(f"{type(self).__name__}.__init__() takes 1 positional argument "
                            f"but {len(args) + 1} were given")
        set_ = object.__setattr__
        set_(self, "training", True)
        set_(self, "_parameters", {})
        set_(self, "_buffers", {})
        set_(self, "_non_persistent_buffers", set())
        set_(self, "_modules", {})
        set_(self, "_forward_pre_hooks", {})
        set_(self, "_forward_pre_hooks_with_kwargs", {})
        set_(self, "_forward_hooks", {})
        set_(self, "_forward_hooks_with_kwargs", {})
        set_(self, "_forward_hooks_always_called", {})
        set_(self, "_state_dict_pre_hooks", {})
        set_(self, "_state_dict_hooks", {})
        set_(self, "_load_state_dict_pre_hooks", {})
        set_(self, "_load_state_dict_post_hooks", {})
        set_(self, "_backward_pre_hooks", {})
        set_(self, "_backward_hooks", {})
        set_(self, "_non_full_backward_hooks", {})
        set_(self, "_is_full_backward_hook", None)  # which kind was registered first

    def __init_subclass__(cls, **kwargs: Any) -> None:
        """A layer of minitorch's that inherits its constructor from a base torch does not
        name (``_ConvNd``, ``Softmax`` for ``LogSoftmax``) gets it under its own name, as
        torch's class defines its own: Python's refusals of its arguments say
        ``Conv2d.__init__()``, as torch's."""
        super().__init_subclass__(**kwargs)
        init = cls.__init__
        owner = init.__qualname__.split(".")[0]
        if getattr(cls, "__module__", "").startswith("minitorch.") and \
                not cls.__name__.startswith("_") and \
                "__init__" not in vars(cls) and init is not Module.__init__ and \
                owner not in _TORCH_BASES:
            cls.__init__ = _renamed(init, f"{cls.__name__}.__init__")

    # ---- running -----------------------------------------------------------------------
    forward: Callable[..., Any] = _forward_unimplemented

    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        if self._backward_hooks or self._backward_pre_hooks or self._forward_pre_hooks \
                or self._forward_hooks or self._non_full_backward_hooks \
                or _global_forward_pre_hooks or _global_forward_hooks:
            return self._call_with_hooks(args, kwargs)
        return self.forward(*args, **kwargs)

    def _call_with_hooks(self, args: tuple, kwargs: dict) -> Any:
        """torch's ``_call_impl``: pre-hooks, the backward hooks' input nodes, ``forward``,
        the forward hooks, the output nodes; if anything raises, the ``always_call`` forward
        hooks not yet run are run (their own errors only warned) before the error goes on."""
        call = {"args": args, "kwargs": kwargs, "result": None, "called": set()}
        try:
            call["args"], call["kwargs"] = self._run_pre_hooks(args, kwargs)
            if self._backward_hooks or self._backward_pre_hooks:
                # as torch: the forward pre-hooks' inputs are the ones the backward hooks watch
                return _backward_hooks.call(self, call["args"],
                                            lambda a: self._run_forward(a, call))
            return self._run_forward(call["args"], call)
        except Exception:
            self._run_always_called(call)
            raise

    def _run_pre_hooks(self, args: tuple, kwargs: dict) -> tuple[tuple, dict]:
        for key, hook in (*_global_forward_pre_hooks.items(), *self._forward_pre_hooks.items()):
            if key in self._forward_pre_hooks_with_kwargs:
                result = hook(self, args, kwargs)
                if result is not None:
                    if not (isinstance(result, tuple) and len(result) == 2):
                        raise RuntimeError("forward pre-hook must return None or a tuple of "
                                           f"(new_args, new_kwargs), but got {result}.")
                    args, kwargs = result
            else:
                result = hook(self, args)
                if result is not None:
                    args = result if isinstance(result, tuple) else (result,)
        return args, kwargs

    def _run_forward(self, args: tuple, call: dict) -> Any:
        """``forward``, then the forward hooks (a returned value replaces the output)."""
        call["args"] = args
        call["result"] = self.forward(*args, **call["kwargs"])
        for key, hook in self._all_forward_hooks():
            if self._always_called(key):
                call["called"].add(key)
            self._run_forward_hook(key, hook, call)
        if self._non_full_backward_hooks:
            _backward_hooks.set_non_full(self, call["args"], call["result"])
        return call["result"]

    def _run_forward_hook(self, key: int, hook: Callable[..., Any], call: dict) -> None:
        with_kwargs = key in self._forward_hooks_with_kwargs \
            or key in _global_forward_hooks_with_kwargs
        result = hook(self, call["args"], call["kwargs"], call["result"]) if with_kwargs \
            else hook(self, call["args"], call["result"])
        if result is not None:
            call["result"] = result

    def _all_forward_hooks(self) -> tuple:
        """The global forward hooks, then the module's own, as torch runs them."""
        return (*_global_forward_hooks.items(), *self._forward_hooks.items())

    def _always_called(self, key: int) -> bool:
        return key in self._forward_hooks_always_called \
            or key in _global_forward_hooks_always_called

    def _run_always_called(self, call: dict) -> None:
        for key, hook in self._all_forward_hooks():
            if self._always_called(key) and key not in call["called"]:
                try:
                    self._run_forward_hook(key, hook, call)
                except Exception as error:  # torch warns and goes on to the first error
                    warnings.warn("module forward hook with ``always_call=True`` raised an "
                                  "exception that was silenced as another error was raised in "
                                  f"forward: {error}", stacklevel=4)

    def register_forward_pre_hook(self, hook: Callable[..., Any], *, prepend: bool = False,
                                  with_kwargs: bool = False) -> RemovableHandle:
        """Call ``hook(module, args)`` before ``forward``; a returned value replaces args.
        With ``with_kwargs``, ``hook(module, args, kwargs)`` may return ``(args, kwargs)``;
        with ``prepend`` it runs before the hooks already there.

        >>> lin = nn.Linear(2, 1)
        >>> _ = lin.register_forward_pre_hook(lambda m, a, k: ((a[0] * 0,), k),
        ...                                   with_kwargs=True)
        >>> lin(minitorch.ones(1, 2)) == lin.bias
        tensor([[True]])
        """
        handle = add_hook(self._forward_pre_hooks, hook, prepend)
        if with_kwargs:
            self._forward_pre_hooks_with_kwargs[handle._key] = True
        return handle

    def register_forward_hook(self, hook: Callable[..., Any], *, prepend: bool = False,
                              with_kwargs: bool = False,
                              always_call: bool = False) -> RemovableHandle:
        """Call ``hook(module, args, output)`` after ``forward`` (with ``with_kwargs``,
        ``hook(module, args, kwargs, output)``); a returned value replaces the output. With
        ``prepend`` it runs first; with ``always_call`` it runs even when ``forward`` raises.

        >>> lin = nn.Linear(2, 1)
        >>> _ = lin.register_forward_hook(lambda m, a, out: out.shape)
        >>> lin(minitorch.ones(1, 2))
        torch.Size([1, 1])
        """
        handle = add_hook(self._forward_hooks, hook, prepend)
        if with_kwargs:
            self._forward_hooks_with_kwargs[handle._key] = True
        if always_call:
            self._forward_hooks_always_called[handle._key] = True
        return handle

    def register_full_backward_hook(self, hook: Callable[..., Any],
                                    prepend: bool = False) -> RemovableHandle:
        """Call ``hook(module, grad_input, grad_output)`` once the gradients w.r.t. the
        module's tensor inputs are computed; a returned tuple replaces ``grad_input``. With
        ``prepend`` it runs before the hooks already there.

        >>> lin = minitorch.nn.Linear(2, 1)
        >>> _ = lin.register_full_backward_hook(lambda m, gi, go: print(go[0]))
        >>> lin(minitorch.ones(1, 2, requires_grad=True)).sum().backward()
        tensor([[1.]])
        """
        if self._is_full_backward_hook is False:
            raise RuntimeError(_backward_hooks.BOTH_KINDS)
        object.__setattr__(self, "_is_full_backward_hook", True)
        return add_hook(self._backward_hooks, hook, prepend)

    def register_backward_hook(self, hook: Callable[..., Any]) -> RemovableHandle:
        """The deprecated backward hook: ``hook(module, grad_input, grad_output)`` on the
        node that made the output (so ``grad_input`` is that node's, not the module's
        inputs', with torch's FutureWarning when they differ); use
        :meth:`register_full_backward_hook`.

        >>> lin = minitorch.nn.Linear(2, 1)
        >>> _ = lin.register_backward_hook(lambda m, gi, go: print(len(gi), go[0]))
        >>> import warnings
        >>> with warnings.catch_warnings(action="ignore"):  # torch's FutureWarning
        ...     out = lin(minitorch.ones(1, 2))
        >>> out.sum().backward()
        3 tensor([[1.]])
        """
        if self._is_full_backward_hook is True:
            raise RuntimeError(_backward_hooks.BOTH_KINDS)
        object.__setattr__(self, "_is_full_backward_hook", False)
        return add_hook(self._non_full_backward_hooks, hook)

    def register_full_backward_pre_hook(self, hook: Callable[..., Any],
                                        prepend: bool = False) -> RemovableHandle:
        """Call ``hook(module, grad_output)`` when the gradients w.r.t. the module's outputs
        arrive; a returned tuple replaces them (``prepend``: before the hooks already there).

        >>> lin = minitorch.nn.Linear(2, 1)
        >>> _ = lin.register_full_backward_pre_hook(lambda m, go: (go[0] * 0,))
        >>> x = minitorch.ones(1, 2, requires_grad=True)
        >>> lin(x).sum().backward(); x.grad
        tensor([[0., 0.]])
        """
        return add_hook(self._backward_pre_hooks, hook, prepend)

    # ---- registration ------------------------------------------------------------------
    def __setattr__(self, name: str, value: Any) -> None:
        params = self.__dict__.get("_parameters")
        if isinstance(value, Parameter):
            if params is None:
                raise AttributeError("cannot assign parameters before Module.__init__() call")
            self._forget(name, keep=self._parameters)
            self.register_parameter(name, value)
        elif params is not None and name in params:
            if value is not None:
                raise TypeError(f"cannot assign '{typename(value)}' as parameter '{name}' "
                                "(torch.nn.Parameter or None expected)")
            self.register_parameter(name, None)
        elif isinstance(value, Module):
            if params is None:
                raise AttributeError("cannot assign module before Module.__init__() call")
            self._forget(name, keep=self._modules)  # torch checks no name here: "x.y" is kept
            self._register(self._modules, name, value)
        elif params is not None and name in self._modules:
            if value is not None:
                raise TypeError(f"cannot assign '{typename(value)}' as child module '{name}' "
                                "(torch.nn.Module or None expected)")
            self.add_module(name, None)
        elif isinstance(value, Buffer):  # registered as a buffer, by its own persistence
            self.register_buffer(name, value, value.persistent)
        elif params is not None and name in self._buffers:
            if value is not None and not isinstance(value, Tensor):
                raise TypeError(f"cannot assign '{typename(value)}' as buffer '{name}' "
                                "(torch.nn.Buffer, torch.Tensor or None expected)")
            self._register(self._buffers, name, value)
        else:
            self._drop_registry(name)
            object.__setattr__(self, name, value)

    def __delattr__(self, name: str) -> None:
        if name in self._parameters or name in self._buffers or name in self._modules:
            self._forget(name)
        else:
            self._drop_registry(name)
            object.__delattr__(self, name)

    def __getattr__(self, name: str) -> Any:
        # reached only for a name the instance lacks: torch looks it up in each registry
        for registry in _REGISTRIES:
            if registry in self.__dict__ and name in self.__dict__[registry]:
                return self.__dict__[registry][name]
        raise AttributeError(f"'{type(self).__name__}' object has no attribute '{name}'")

    def _drop_registry(self, name: str) -> None:
        """A registry replaced or deleted: its entries (kept here as attributes too) go with
        it, as torch reads them through the registry."""
        if name in _REGISTRIES and isinstance(self.__dict__.get(name), dict):
            for key in self.__dict__[name]:
                self.__dict__.pop(key, None)

    def _forget(self, name: str, keep: dict | None = None) -> None:
        """Remove ``name`` from the registries (but ``keep``, where a replacement keeps its
        place) and from the instance dict."""
        for registry in (self._parameters, self._buffers, self._modules):
            if registry is not keep:
                registry.pop(name, None)
        self._non_persistent_buffers.discard(name)
        self.__dict__.pop(name, None)

    def _register(self, registry: dict, name: str, value: Any) -> None:
        registry[name] = value
        self.__dict__[name] = value

    def _check_new_name(self, name: Any, kind: str, registry: str) -> None:
        if f"_{kind}s" not in self.__dict__:  # gone when a parameter was named "_parameters"
            raise AttributeError(f"cannot assign {kind} before Module.__init__() call")
        if not isinstance(name, str):
            raise TypeError(f"{kind} name should be a string. Got {typename(name)}")
        if "." in name:
            got = f", got: {name}" if kind == "module" else ""  # torch's wording differs
            raise KeyError(f'{kind} name can\'t contain "."{got}')
        if name == "":
            raise KeyError(f'{kind} name can\'t be empty string ""')
        if hasattr(self, name) and name not in getattr(self, registry):
            raise KeyError(f"attribute '{name}' already exists")

    def register_parameter(self, name: str, param: Parameter | None) -> None:
        """Add a parameter (or None, a declared but absent one) under ``name``.

        >>> m = nn.Module(); m.register_parameter("w", nn.Parameter(minitorch.ones(1)))
        >>> [n for n, _ in m.named_parameters()]
        ['w']
        """
        self._check_new_name(name, "parameter", "_parameters")
        if param is not None and not isinstance(param, Parameter):
            raise TypeError(f"cannot assign '{typename(param)}' object to parameter '{name}' "
                            "(torch.nn.Parameter or None required)")
        if param is not None and param._grad_fn is not None:
            raise ValueError(
                f"Cannot assign non-leaf Tensor to parameter '{name}'. Model parameters must "
                f"be created explicitly. To express '{name}' as a function of another Tensor, "
                "compute the value in the forward() method.")
        self._register(self._parameters, name, param)

    def register_buffer(self, name: str, tensor: Tensor | None, persistent: bool = True) -> None:
        """Add a tensor that is state but not learned (saved in ``state_dict`` if persistent).

        >>> m = nn.Module(); m.register_buffer("count", minitorch.zeros(1))
        >>> list(m.state_dict())
        ['count']
        """
        self._check_new_name(name, "buffer", "_buffers")
        if tensor is not None and not isinstance(tensor, Tensor):
            raise TypeError(f"cannot assign '{typename(tensor)}' object to buffer '{name}' "
                            "(torch Tensor or None required)")
        self._register(self._buffers, name, tensor)
        if persistent:
            self._non_persistent_buffers.discard(name)
        else:
            self._non_persistent_buffers.add(name)

    def add_module(self, name: str, module: Module | None) -> None:
        """Add a child module under ``name`` (what attribute assignment does).

        >>> m = nn.Module(); m.add_module("act", nn.ReLU()); m
        Module(
          (act): ReLU()
        )
        """
        if module is not None and not isinstance(module, Module):
            raise TypeError(f"{typename(module)} is not a Module subclass")
        self._check_new_name(name, "module", "_modules")
        self._register(self._modules, name, module)

    register_module = add_module

    # ---- traversal ---------------------------------------------------------------------
    def named_modules(self, memo: set | None = None, prefix: str = "",
                      remove_duplicate: bool = True) -> Iterator[tuple[str, Module]]:
        """This module and all below it, depth first, with dotted names ('' for this one).

        >>> [n for n, _ in nn.Sequential(nn.ReLU(), nn.Tanh()).named_modules()]
        ['', '0', '1']
        """
        if memo is None:
            memo = set()
        if remove_duplicate:
            if self in memo:
                return
            memo.add(self)
        yield prefix, self
        for name, child in self._modules.items():
            if child is not None:
                child_prefix = prefix + ("." if prefix else "") + name  # torch's own expression
                yield from child.named_modules(memo, child_prefix, remove_duplicate)

    def get_parameter(self, target: str) -> Any:
        """The parameter at the dotted path ``target``, e.g. ``"0.weight"``.

        >>> nn.Sequential(nn.Linear(2, 1)).get_parameter("0.bias").shape
        torch.Size([1])
        """
        module, name = self._owner_of(target)
        value = getattr(module, name)
        if not isinstance(value, Parameter):
            raise AttributeError(f"`{name}` is not an nn.Parameter")
        return value

    def get_buffer(self, target: str) -> Any:
        """The buffer at the dotted path ``target``, e.g. ``"1.running_mean"``.

        >>> nn.Sequential(nn.BatchNorm1d(2)).get_buffer("0.running_var")
        tensor([1., 1.])
        """
        module, name = self._owner_of(target)
        if name not in module._buffers:
            raise AttributeError(f"`{name}` is not a buffer")
        return getattr(module, name)

    def _owner_of(self, target: str) -> tuple[Module, str]:
        """The submodule holding the attribute named by ``target``'s last part, and that name."""
        if not isinstance(target, (str, bytes)):  # torch's Python reads target.rpartition
            _args.python_attribute(target, "rpartition")  # (bytes' own: no str separator)
        path, _, name = target.rpartition(".")
        module = self.get_submodule(path)
        if not hasattr(module, name):
            raise AttributeError(f"{type(module).__name__} has no attribute `{name}`")
        return module, name

    def get_submodule(self, target: str) -> Module:
        """The module at the dotted path ``target`` ('' for this one).

        >>> type(nn.Sequential(nn.Linear(1, 1)).get_submodule("0")).__name__
        'Linear'
        """
        module = self
        if not isinstance(target, (str, bytes)):  # torch's Python reads target.split
            _args.python_attribute(target, "split")  # (None too; bytes' own: no str separator)
        for name in target.split(".") if target != "" else ():
            if not hasattr(module, name):
                raise AttributeError(f"{type(module).__name__} has no attribute `{name}`")
            module = getattr(module, name)
            if not isinstance(module, Module):
                raise AttributeError(f"`{name}` is not an nn.Module")
        return module

    def set_submodule(self, target: str, module: Module, strict: bool = False) -> None:
        """Put ``module`` at the dotted path ``target`` (with ``strict``, only where a
        module is already).

        >>> m = nn.Sequential(nn.ReLU()); m.set_submodule("0", nn.Tanh()); m
        Sequential(
          (0): Tanh()
        )
        """
        if target == "":
            raise ValueError("Cannot set the submodule without a target name!")
        path, name = self._split_target(target)
        if not isinstance(module, Module):
            raise ValueError(f"`module` is not an nn.Module, found {class_repr(module)}")
        parent = self.get_submodule(path) if path is not None else self
        if strict and not hasattr(parent, name):
            raise AttributeError(f"{type(parent).__name__} has no attribute `{name}`")
        if hasattr(parent, name) and not isinstance(getattr(parent, name), Module):
            raise AttributeError(f"`{name}` is not an nn.Module")
        setattr(parent, name, module)

    @staticmethod
    def _split_target(target: Any) -> tuple[str | None, Any]:
        """torch's ``target.split(".")``: the parent's path (None for this module's own
        attribute) and the last name."""
        if not isinstance(target, (str, bytes)):
            _args.python_attribute(target, "split")
        atoms = target.split(".")
        return (".".join(atoms[:-1]) if len(atoms) > 1 else None), atoms[-1]

    def modules(self) -> Iterator[Module]:
        """This module and all below it, depth first."""
        for _, module in self.named_modules():
            yield module

    def named_children(self) -> Iterator[tuple[str, Module]]:
        """The direct child modules with their names."""
        seen = set()
        for name, child in self._modules.items():
            if child is not None and child not in seen:
                seen.add(child)
                yield name, child

    def children(self) -> Iterator[Module]:
        """The direct child modules."""
        for _, child in self.named_children():
            yield child

    def _named_members(self, registry: str, prefix: str, recurse: bool,
                       remove_duplicate: bool = True) -> Iterator[tuple[str, Tensor]]:
        owners = self.named_modules(prefix=prefix, remove_duplicate=remove_duplicate) \
            if recurse else [(prefix, self)]
        seen = set()
        for owner_prefix, owner in owners:
            for name, value in getattr(owner, registry).items():
                if value is None or (remove_duplicate and value in seen):
                    continue
                seen.add(value)
                yield owner_prefix + ("." if owner_prefix else "") + name, value  # (torch's)

    def named_parameters(self, prefix: str = "", recurse: bool = True,
                         remove_duplicate: bool = True) -> Iterator[tuple[str, Parameter]]:
        """Every parameter with its dotted name (each shared parameter once).

        >>> [n for n, _ in nn.Linear(2, 1).named_parameters()]
        ['weight', 'bias']
        """
        return self._named_members("_parameters", prefix, recurse, remove_duplicate)

    def parameters(self, recurse: bool = True) -> Iterator[Parameter]:
        """Every parameter (what an optimizer updates).

        >>> sum(p.numel() for p in nn.Linear(10, 5).parameters())
        55
        """
        for _, param in self.named_parameters(recurse=recurse):
            yield param

    def named_buffers(self, prefix: str = "", recurse: bool = True,
                      remove_duplicate: bool = True) -> Iterator[tuple[str, Tensor]]:
        """Every buffer with its dotted name."""
        return self._named_members("_buffers", prefix, recurse, remove_duplicate)

    def buffers(self, recurse: bool = True) -> Iterator[Tensor]:
        """Every buffer."""
        for _, buffer in self.named_buffers(recurse=recurse):
            yield buffer

    # ---- modes and gradients -----------------------------------------------------------
    def train(self, mode: bool = True) -> Module:
        """Set training mode (``mode=False`` is evaluation mode) here and below.

        >>> nn.Dropout().eval().training
        False
        """
        if not isinstance(mode, bool):
            raise ValueError("training mode is expected to be boolean")
        for module in self.modules():
            module.training = mode
        return self

    def eval(self) -> Module:
        """Evaluation mode: ``train(False)``. It does not turn off autograd (see no_grad)."""
        return self.train(False)

    def compile(self, *args: Any, **kwargs: Any) -> None:
        """``minitorch.compile`` in place. minitorch compiles nothing: the module keeps
        running eagerly; the arguments are checked as ``minitorch.compile`` checks them."""
        from .. import _compile  # (that module builds on this one)

        _compile.compile(self, *args, **kwargs)

    def requires_grad_(self, requires_grad: bool = True) -> Module:
        """Set ``requires_grad`` on every parameter (``False`` freezes the module).

        >>> all(not p.requires_grad for p in nn.Linear(2, 2).requires_grad_(False).parameters())
        True
        """
        for p in self.parameters():
            p.requires_grad_(requires_grad)
        return self

    def zero_grad(self, set_to_none: bool = True) -> None:
        """Reset the gradients of every parameter (to None by default)."""
        zero_grad_(self.parameters(), set_to_none)

    def apply(self, fn: Callable[[Module], None]) -> Module:
        """Call ``fn`` on every submodule (children first) and on this module.

        >>> nn.Linear(2, 2).apply(lambda m: None)
        Linear(in_features=2, out_features=2, bias=True)
        """
        for child in self.children():
            child.apply(fn)
        fn(self)
        return self

    # ---- dtype conversion --------------------------------------------------------------
    def to(self, *args: Any, **kwargs: Any) -> Module:
        """Move parameters and buffers to a device and/or convert the floating-point ones to
        a dtype, in place (``Tensor.to``'s arguments); the Parameter objects stay the same.

        >>> nn.Linear(2, 1).to(minitorch.float64).weight.dtype
        torch.float64
        >>> nn.Linear(2, 1).to("cpu").weight.device
        device(type='cpu')
        """
        dtype, device, copy = _to_arguments(args, kwargs)
        if copy is not None:  # (given at all, by name or in its place)
            raise RuntimeError(".to() does not accept copy argument")
        if dtype is not None and not dtype.is_floating_point:
            raise TypeError("nn.Module.to only accepts floating point or complex dtypes, but got "
                            f"desired dtype={dtype}")
        layout = kwargs.get("memory_format")  # (only for images: 4-d and 5-d tensors)

        return self._convert(lambda t: t.to(
            device, dtype if t.is_floating_point() else None,
            **({"memory_format": layout} if layout is not None and t.dim() in (4, 5) else {})))

    def to_empty(self, *, device: Any, recurse: bool = True) -> Module:
        """Give parameters and buffers new, uninitialised memory on ``device`` (their shapes
        and dtypes kept): how a module moved to ``"meta"`` gets storage again.

        >>> nn.Linear(2, 3).to("meta").to_empty(device="cpu").weight.shape
        torch.Size([3, 2])
        """
        from .._factories import empty_like

        return self._convert(lambda t: empty_like(t, device=device), recurse)

    def _convert(self, convert: Callable[[Tensor], Tensor], recurse: bool = True) -> Module:
        """Replace each parameter's data (and gradient) and each buffer by ``convert`` of it;
        the Parameter objects stay the same unless ``minitorch.__future__`` says otherwise."""
        with grad_mode._recording(False):
            for module in self.modules() if recurse else (self,):
                for name, p in list(module._parameters.items()):
                    if p is not None:
                        module._register(module._parameters, name,
                                         _converted_parameter(p, convert))
                for name, b in module._buffers.items():
                    if b is not None:
                        module._register(module._buffers, name, convert(b))
        return self

    def cuda(self, device: Any = None) -> Module:
        """Move parameters and buffers to a CUDA GPU (needs CuPy); torch checks ``device``
        as each tensor's ``cuda`` takes it, so a module with none takes any."""
        if next(itertools.chain(self.parameters(), self.buffers()), None) is None:
            return self
        return self.to(accelerator_device("cuda", device, backend.cuda_device_count()))

    def xpu(self, device: Any = None) -> Module:
        """torch's move to an XPU, which minitorch has not: refused as by each tensor's
        ``xpu``, so a module with no tensors comes back as it is.

        >>> nn.Sequential().xpu()
        Sequential()
        """
        return self._moved("xpu", device)

    def ipu(self, device: Any = None) -> Module:
        """As :meth:`xpu`, for an IPU."""
        return self._moved("ipu", device)

    def mtia(self, device: Any = None) -> Module:
        """As :meth:`xpu`, for an MTIA device."""
        return self._moved("mtia", device)

    def _moved(self, kind: str, device: Any) -> Module:
        for t in itertools.chain(self.parameters(), self.buffers()):
            getattr(t, kind)(device)  # (raises: minitorch has no such device)
        return self

    def cpu(self) -> Module:
        """Move parameters and buffers to the CPU.

        >>> nn.Linear(2, 1).cpu().weight.device
        device(type='cpu')
        """
        return self.to("cpu")

    def double(self) -> Module:
        """Convert floating-point parameters and buffers to float64."""
        return self.to(float64)

    def float(self) -> Module:
        """Convert floating-point parameters and buffers to float32."""
        return self.to(float32)

    def half(self) -> Module:
        """Convert floating-point parameters and buffers to float16, in place (the Array API
        standard, and so its strict namespace, has no float16).

        >>> model = minitorch.nn.Sequential()
        >>> model.half() is model
        True
        """
        return self.to(float16)

    def bfloat16(self) -> Module:
        """torch's conversion to bfloat16, a dtype minitorch does not have: refused.

        >>> nn.Linear(1, 1).bfloat16()  # doctest: +ELLIPSIS
        Traceback (most recent call last):
        NotImplementedError: Module.bfloat16(): torch's bfloat16 is not supported in minitorch...
        """
        raise NotImplementedError("Module.bfloat16(): torch's bfloat16 is not supported in "
                                  "minitorch; its floating dtypes are float16, float32 and "
                                  "float64")

    def type(self, dst_type: Any) -> Module:
        """Convert every parameter and buffer (integer ones too) with ``Tensor.type``.

        >>> nn.Linear(2, 1).type(minitorch.float64).weight.dtype
        torch.float64
        """
        return self._convert(lambda t: t.type(dst_type))

    def share_memory(self) -> Module:
        """``share_memory_()`` of every parameter and buffer (minitorch's tensors live in one
        process, so only their ``is_shared()`` changes).

        >>> model = nn.Linear(2, 1)
        >>> model.share_memory() is model
        True
        """
        return self._convert(lambda t: t.share_memory_())

    # ---- state_dict --------------------------------------------------------------------
    def state_dict(self, *args: Any, destination: dict | None = None, prefix: str = "",
                   keep_vars: bool = False) -> OrderedDict:
        """Every parameter and persistent buffer by dotted name, detached unless keep_vars;
        its ``_metadata`` holds each module's ``{"version": ...}`` by prefix, as torch's.
        (``destination, prefix, keep_vars`` may still come positionally, with torch's
        FutureWarning.)

        >>> list(nn.BatchNorm1d(3).state_dict())
        ['weight', 'bias', 'running_mean', 'running_var', 'num_batches_tracked']
        >>> dict(nn.BatchNorm1d(3).state_dict()._metadata)
        {'': {'version': 2}}
        """
        if args:
            warnings.warn(
                "Positional args are being deprecated, use kwargs instead. Refer to "
                "https://pytorch.org/docs/main/generated/torch.nn.Module.html"
                "#torch.nn.Module.state_dict for details.", FutureWarning, stacklevel=2)
            destination = args[0] if destination is None else destination
            prefix = args[1] if len(args) > 1 and prefix == "" else prefix
            keep_vars = args[2] if len(args) > 2 and keep_vars is False else keep_vars
        if destination is None:
            destination = OrderedDict()
            destination._metadata = OrderedDict()  # type: ignore[attr-defined]
        local_metadata = {"version": self._version}
        if hasattr(destination, "_metadata"):
            destination._metadata[prefix[:-1]] = local_metadata
        for pre_hook in list(self._state_dict_pre_hooks.values()):
            pre_hook(self, prefix, keep_vars)
        for name, value in self._local_state():
            destination[prefix + name] = value if keep_vars else value.detach()
        if _has_extra_state(self):
            destination[prefix + _EXTRA_STATE_KEY] = self.get_extra_state()
        for name, child in self._modules.items():
            if child is not None:
                child.state_dict(destination=destination, prefix=f"{prefix}{name}.",
                                 keep_vars=keep_vars)
        for hook in list(self._state_dict_hooks.values()):
            result = hook(self, destination, prefix, local_metadata)
            if result is not None:
                if getattr(hook, "_from_public_api", False):
                    raise RuntimeError("state_dict post-hook must return None")
                destination = result
        return destination

    _version: int = 1  # saved in a state dict's _metadata; a module bumps it on a format change

    def get_extra_state(self) -> Any:
        """The state a subclass saves beyond its tensors (under ``_extra_state`` in
        ``state_dict``, given back to ``set_extra_state`` by ``load_state_dict``); the base
        has none, and refuses as torch's.

        >>> class Counter(nn.Module):
        ...     def get_extra_state(self): return {"n": 3}
        ...     def set_extra_state(self, state): self.n = state["n"]
        >>> c = Counter(); c.load_state_dict(Counter().state_dict()); c.n
        <All keys matched successfully>
        3
        """
        raise RuntimeError("Reached a code path in Module.get_extra_state() that should never "
                           "be called. Please file an issue at https://github.com/pytorch/"
                           "pytorch/issues/new?template=bug-report.yml to report this bug.")

    def set_extra_state(self, state: Any) -> None:
        """Take back what ``get_extra_state`` gave (see there); the base refuses as torch's."""
        raise RuntimeError("Reached a code path in Module.set_extra_state() that should never "
                           "be called. Please file an issue at https://github.com/pytorch/"
                           "pytorch/issues/new?template=bug-report.yml to report this bug.")

    def register_state_dict_pre_hook(self, hook: Callable[..., Any]) -> RemovableHandle:
        """Call ``hook(module, prefix, keep_vars)`` before ``state_dict`` saves the module.

        >>> lin = nn.Linear(1, 1)
        >>> _ = lin.register_state_dict_pre_hook(lambda m, prefix, keep: print("saving"))
        >>> _ = lin.state_dict()
        saving
        """
        return add_hook(self._state_dict_pre_hooks, hook)

    def register_state_dict_post_hook(self, hook: Callable[..., Any]) -> RemovableHandle:
        """Call ``hook(module, state_dict, prefix, local_metadata)`` after the module is
        saved; it may change ``state_dict`` in place, and must return None.

        >>> lin = nn.Linear(1, 1)
        >>> _ = lin.register_state_dict_post_hook(lambda m, sd, p, meta: sd.pop("bias") and None)
        >>> list(lin.state_dict())
        ['weight']
        """
        hook._from_public_api = True  # type: ignore[attr-defined]
        return add_hook(self._state_dict_hooks, hook)

    def _register_state_dict_hook(self, hook: Callable[..., Any]) -> RemovableHandle:
        """torch's older post-hook of ``state_dict``: as ``register_state_dict_post_hook``'s,
        but a returned dict replaces the state dict.

        >>> lin = nn.Linear(1, 1)
        >>> _ = lin._register_state_dict_hook(lambda m, sd, p, meta: {"w": sd["weight"]})
        >>> list(lin.state_dict())
        ['w']
        """
        if getattr(hook, "_from_public_api", False):
            raise RuntimeError("Cannot register the same function as the state dict post hook "
                               "that was previously registered via "
                               "register_state_dict_post_hook")
        return add_hook(self._state_dict_hooks, hook)

    def _local_state(self) -> Iterator[tuple[str, Tensor]]:
        for name, p in self._parameters.items():
            if p is not None:
                yield name, p
        for name, b in self._buffers.items():
            if b is not None and name not in self._non_persistent_buffers:
                yield name, b

    def load_state_dict(self, state_dict: Mapping[str, Any], strict: bool = True,
                        assign: bool = False) -> _IncompatibleKeys:
        """Copy the values of ``state_dict`` into the parameters and buffers, in place (with
        ``assign``, make its tensors the module's own, as Parameters where parameters were).

        With ``strict``, missing and unexpected keys are errors; a shape mismatch always is.

        >>> a, b = nn.Linear(2, 1), nn.Linear(2, 1)
        >>> b.load_state_dict(a.state_dict())
        <All keys matched successfully>
        """
        if not isinstance(state_dict, Mapping):
            raise TypeError(f"Expected state_dict to be dict-like, got {class_repr(state_dict)}.")
        for key in state_dict:  # torch matches keys by prefix, with str's startswith
            if not isinstance(key, str):
                raise AttributeError(f"'{type(key).__name__}' object has no attribute "
                                     "'startswith'")
        reported: tuple[list, list, list] = ([], [], [])  # what the pre-hooks add
        metadata = getattr(state_dict, "_metadata", None)
        state_dict = self._pre_hooked(state_dict, assign, reported)
        # torch loads each module's own entries, not what state_dict (and its hooks) gives
        own = {f"{prefix}.{name}" if prefix else name: value
               for prefix, module in self.named_modules(remove_duplicate=False)
               for name, value in module._local_state()}
        extra = {f"{prefix}.{_EXTRA_STATE_KEY}" if prefix else _EXTRA_STATE_KEY: module
                 for prefix, module in self.named_modules(remove_duplicate=False)
                 if _has_extra_state(module)}  # (torch's: set_extra_state loads it)
        state_dict = {**self._defaulted_state(own, metadata), **state_dict}
        missing = reported[0] + [key for key in [*own, *extra] if key not in state_dict]
        unexpected = reported[1] + [key for key in state_dict
                                    if key not in own and key not in extra]
        errors = reported[2]
        with grad_mode._recording(False):
            for key, target in own.items():
                if key in state_dict:
                    errors += self._load_one(key, target, state_dict[key], assign)
            for key, module in extra.items():
                if key in state_dict:
                    module.set_extra_state(state_dict[key])
        _run_load_post_hooks(self, _IncompatibleKeys(missing, unexpected))
        if strict and unexpected:
            errors.insert(0, f"Unexpected key(s) in state_dict: {_quoted(unexpected)}. ")
        if strict and missing:
            errors.insert(0, f"Missing key(s) in state_dict: {_quoted(missing)}. ")
        if errors:
            raise RuntimeError(f"Error(s) in loading state_dict for {type(self).__name__}:\n\t"
                               + "\n\t".join(errors))
        return _IncompatibleKeys(missing, unexpected)

    def _pre_hooked(self, state_dict: Mapping[str, Any], assign: bool,
                    reported: tuple[list, list, list]) -> Mapping[str, Any]:
        """A copy of ``state_dict`` after the load pre-hooks of each module, in torch's order
        (a module's, then its children's); a child's hooks get the entries under its prefix,
        which then stand for those in the copy, as torch loads the child from them."""
        hooked = [(prefix, m) for prefix, m in self.named_modules()
                  if m._load_state_dict_pre_hooks]
        if not hooked:
            return state_dict
        metadata = getattr(state_dict, "_metadata", None)
        state = OrderedDict(state_dict)
        for name, module in hooked:
            prefix = f"{name}." if name else ""
            local = {k: v for k, v in state.items() if k.startswith(prefix)} if name else state
            local_metadata = {} if metadata is None else dict(metadata.get(name, {}))
            if assign:
                local_metadata["assign_to_params_buffers"] = assign
            for hook in list(module._load_state_dict_pre_hooks.values()):  # torch passes True
                hook(local, prefix, local_metadata, True, *reported)
            if name:
                for key in [k for k in state if k.startswith(prefix)]:
                    del state[key]
                state.update(local)
        return state

    def register_load_state_dict_pre_hook(self, hook: Callable[..., Any]) -> RemovableHandle:
        """Call ``hook(module, state_dict, prefix, local_metadata, strict, missing_keys,
        unexpected_keys, error_msgs)`` before ``load_state_dict`` loads the module; it may
        change ``state_dict`` in place.

        >>> lin = nn.Linear(1, 1)
        >>> _ = lin.register_load_state_dict_pre_hook(lambda m, sd, *rest: sd.pop("extra"))
        >>> lin.load_state_dict({**lin.state_dict(), "extra": 0})
        <All keys matched successfully>
        """
        return self._register_load_state_dict_pre_hook(hook, with_module=True)

    def _register_load_state_dict_pre_hook(self, hook: Callable[..., Any],
                                           with_module: bool = False) -> RemovableHandle:
        """torch's load pre-hook, given the module first only ``with_module``."""
        return add_hook(self._load_state_dict_pre_hooks,
                        functools.partial(hook, self) if with_module else hook)
    def register_load_state_dict_post_hook(self, hook: Callable[..., Any]) -> RemovableHandle:
        """Call ``hook(module, incompatible_keys)`` after ``load_state_dict`` has loaded the
        module (a child's hooks before its parent's). The hook may edit
        ``incompatible_keys.missing_keys`` and ``.unexpected_keys`` in place, which decides
        what a strict load refuses; it must return None. Each hook sees the lists of the
        whole load (torch's a child's hook sees only the keys met so far).

        >>> lin = nn.Linear(1, 1)
        >>> _ = lin.register_load_state_dict_post_hook(
        ...     lambda m, keys: keys.missing_keys.clear())
        >>> lin.load_state_dict({})
        <All keys matched successfully>
        """
        return add_hook(self._load_state_dict_post_hooks, hook)

    # Buffers a state dict saved before this module's version may leave out (torch's batch
    # norms take their own num_batches_tracked from one that has none, as from before it
    # existed: a state dict whose metadata gives no version, or an older one).
    _defaulted_buffers: tuple[str, ...] = ()

    def _defaulted_state(self, own: dict[str, Any], metadata: Any) -> dict[str, Any]:
        """The entries of ``own`` that stand in where a loaded state dict (of ``metadata``,
        its modules' versions by prefix) has none."""
        return {key: own[key] for prefix, module in self.named_modules()
                if (metadata or {}).get(prefix, {}).get("version", 0) < module._version
                for key in (f"{prefix}.{b}" if prefix else b for b in module._defaulted_buffers)
                if key in own}

    def _load_one(self, key: str, target: Tensor, value: Any, assign: bool) -> list[str]:
        """Copy ``value`` into ``target`` (or, with ``assign``, put it in its place); the
        error messages of what prevented it."""
        if not isinstance(value, Tensor):
            return [f'While copying the parameter named "{key}", expected torch.Tensor or '
                    f"Tensor-like object from checkpoint but received {class_repr(value)}"]
        if isinstance(target, UninitializedParameter):  # a lazy module takes the loaded shape
            target.materialize(value.shape)
        elif not target.dim() and value.shape == (1,):  # torch reads a 0.3-era scalar (1-d)
            value = value[0]  # as its element
        if value.shape != target.shape:
            return [f"size mismatch for {key}: copying a param with shape {value.shape} from "
                    f"checkpoint, the shape in current model is {target.shape}."]
        try:
            if assign:
                self._assigned(key, target, value)
            else:
                target.copy_(value)
        except Exception as error:  # torch reports it with the others, as its args
            return [f'While copying the parameter named "{key}", whose dimensions in the model '
                    f"are {target.shape} and whose dimensions in the checkpoint are "
                    f"{value.shape}, an exception occurred : {error.args}."]
        return []

    def _assigned(self, key: str, target: Tensor, value: Tensor) -> None:
        """``value`` in the place of ``target`` (the tensor at ``key``): a Parameter with
        ``target``'s requires_grad where ``target`` is one."""
        *path, name = key.split(".")
        owner = self.get_submodule(".".join(path))
        if isinstance(target, Parameter):
            if isinstance(value, Parameter):
                value.requires_grad_(target.requires_grad)
            else:
                value = Parameter(value, requires_grad=target.requires_grad)
        setattr(owner, name, value)

    # ---- printing ----------------------------------------------------------------------
    def extra_repr(self) -> str:
        """The module's own settings, shown inside the parentheses of its repr."""
        return ""

    def _get_name(self) -> str:
        """The name its repr starts with: its class's (a subclass may say another)."""
        return type(self).__name__

    def __repr__(self) -> str:
        extra = self.extra_repr()
        lines = extra.split("\n") if extra else []
        children = [f"({name}): {_indent(repr(m))}" for name, m in self._modules.items()]
        name = self._get_name()
        if len(lines) == 1 and not children:
            return f"{name}({lines[0]})"
        body = "".join(f"\n  {line}" for line in lines + children)
        return f"{name}({body}\n)" if body else f"{name}()"


def _run_load_post_hooks(module: Module, keys: _IncompatibleKeys) -> None:
    """The load_state_dict post-hooks of ``module``'s tree, children first, as torch's
    loader calls them."""
    for child in module._modules.values():
        if child is not None:
            _run_load_post_hooks(child, keys)
    # a module unpickled from before the hooks existed has no table of them
    for hook in list(getattr(module, "_load_state_dict_post_hooks", {}).values()):
        if hook(module, keys) is not None:
            raise AssertionError("Hooks registered with ``register_load_state_dict_post_hook``"
                                 " are not expected to return new values, if "
                                 "incompatible_keys need to be modified, it should be done "
                                 "inplace.")


def _indent(text: str) -> str:
    """Indent every line but the first by two spaces (a child's repr inside its parent)."""
    return text.replace("\n", "\n  ")


def _quoted(keys: list[str]) -> str:
    return ", ".join(f'"{k}"' for k in keys)


def _converted_parameter(p: Parameter, convert: Callable[[Tensor], Tensor]) -> Parameter:
    """``p`` with its values (and gradient, the same tensor with new ``.data``) converted:
    by default the same object with new ``.data``; a new Parameter, or the same object with
    the new one swapped in, where ``minitorch.__future__``'s switches say so (torch's
    choices)."""
    from .. import __future__ as future
    from ..utils import swap_tensors

    grad = p._grad
    if grad is not None:  # the same gradient tensor with new data, as torch's grad.data = ...
        grad.data = convert(grad)
    if future.get_swap_module_params_on_conversion():
        swap_tensors(p, Parameter(convert(p), p.requires_grad))
    elif future.get_overwrite_module_params_on_conversion():
        p = Parameter(convert(p), p.requires_grad)
    else:
        p.data = convert(p)
    p._grad = grad
    return p
