"""``torch.utils.checkpoint``: trade compute for memory. The checkpointed function's
intermediate values are not kept for backward; backward runs the function again to get them.

- ``use_reentrant=True``: the whole call is one node (``CheckpointFunctionBackward``) whose
  backward reruns the function with grad on and backpropagates through that new graph.
- ``use_reentrant=False``: the call records its own ops, but what they save is dropped
  (``saved_tensors_hooks``); the first unpack reruns the function and takes its saved tensors.

Either way the random state of the first run is restored for the rerun (dropout agrees).

>>> from minitorch.utils.checkpoint import checkpoint
>>> x = minitorch.ones(2, requires_grad=True)
>>> checkpoint(lambda t: t.sin() * 2, x, use_reentrant=False).sum().backward()
>>> x.grad
tensor([1.0806, 1.0806])
"""

from __future__ import annotations

import contextlib
import warnings
from collections.abc import Callable
from typing import Any

from .. import _random, autograd
from .. import _tensor as T
from ..autograd import engine, function, grad_mode
from ..autograd.graph import refuse_changed, saved_tensors_hooks

__all__ = ["checkpoint", "checkpoint_sequential", "noop_context_fn"]

_NO_REENTRANT_GIVEN = (
    "torch.utils.checkpoint: the use_reentrant parameter should be passed explicitly. Starting "
    "in PyTorch 2.9, calling checkpoint without use_reentrant will raise an exception. "
    "use_reentrant=False is recommended, but if you need to preserve the current default "
    "behavior, you can pass use_reentrant=True. Refer to docs for more details on the "
    "differences between the two variants.")


def noop_context_fn() -> tuple[Any, Any]:
    """The default ``context_fn``: no context around the forward nor around its rerun.

    >>> noop_context_fn()[0].__class__.__name__
    'nullcontext'
    """
    return contextlib.nullcontext(), contextlib.nullcontext()


def checkpoint(function: Callable[..., Any], *args: Any, use_reentrant: bool | None = None,
               context_fn: Callable[[], tuple[Any, Any]] = noop_context_fn,
               determinism_check: str = "default", debug: bool = False,
               early_stop: bool = True, **kwargs: Any) -> Any:
    """``function(*args, **kwargs)``, its intermediate values recomputed in backward.

    Without ``use_reentrant`` it warns as torch 2.13 does and takes ``True``. The
    non-reentrant form runs the call under ``context_fn()[0]`` and its rerun under
    ``context_fn()[1]``; ``debug`` and ``early_stop`` change nothing observable here.

    >>> y = checkpoint(lambda t: t * 3, minitorch.ones(1, requires_grad=True), use_reentrant=True)
    >>> y.grad_fn.name()
    'CheckpointFunctionBackward'
    """
    if use_reentrant is None:
        warnings.warn(_NO_REENTRANT_GIVEN, stacklevel=2)
        use_reentrant = True
    preserve = kwargs.pop("preserve_rng_state", True)
    if use_reentrant:
        if kwargs:
            raise ValueError("Unexpected keyword arguments: " + ",".join(kwargs))
        if context_fn is not noop_context_fn or debug is not False:
            raise ValueError("Passing `context_fn` or `debug` is only supported when "
                             "use_reentrant=False.")
        return CheckpointFunction.apply(function, preserve, *args)
    if debug and context_fn is not noop_context_fn:
        raise ValueError("debug=True is incompatible with non-default context_fn")
    if determinism_check not in _DETERMINISM_CHECKS:
        raise ValueError(f"determinism_check should be one of {list(_DETERMINISM_CHECKS)}, "
                         f"but got {determinism_check}")
    return _Recomputed(function, args, kwargs, preserve).run(*context_fn())


_DETERMINISM_CHECKS = ("default", "none")


def checkpoint_sequential(functions: Any, segments: int, input: Any,
                          use_reentrant: bool | None = None, **kwargs: Any) -> Any:
    """Run ``functions`` (a list, or a Sequential's children) one after another, split into
    ``segments`` chunks; each chunk but the last is checkpointed.

    >>> model = minitorch.nn.Sequential(minitorch.nn.Linear(2, 2), minitorch.nn.Tanh())
    >>> checkpoint_sequential(model, 2, minitorch.ones(1, 2), use_reentrant=False).shape
    torch.Size([1, 2])
    """
    if use_reentrant is None:
        warnings.warn(_NO_REENTRANT_GIVEN, stacklevel=2)
        use_reentrant = True
    preserve = kwargs.pop("preserve_rng_state", True)
    if kwargs:
        raise ValueError("Unexpected keyword arguments: " + ",".join(kwargs))
    from ..nn import Sequential

    if isinstance(functions, Sequential):
        functions = list(functions.children())
    size = len(functions) // segments
    end = -1
    for start in range(0, size * (segments - 1), size):
        end = start + size - 1
        input = checkpoint(_chain(functions[start:end + 1]), input,
                           use_reentrant=use_reentrant, preserve_rng_state=preserve)
    return _chain(functions[end + 1:])(input)


def _chain(functions: list) -> Callable[[Any], Any]:
    def forward(value: Any) -> Any:
        for fn in functions:
            value = fn(value)
        return value
    return forward


class CheckpointFunction(function.Function):
    """The reentrant checkpoint: one node; its backward reruns ``run_function``."""

    @staticmethod
    def forward(ctx: Any, run_function: Callable[..., Any], preserve_rng_state: bool,
                *args: Any) -> Any:
        if not any(a.requires_grad for a in args if isinstance(a, T.Tensor)):
            warnings.warn("None of the inputs have requires_grad=True. Gradients will be None",
                          stacklevel=2)
        ctx.run_function = run_function
        ctx.rng_state = _random.get_rng_state() if preserve_rng_state else None
        ctx.args = args
        ctx.save_for_backward(*[a for a in args if isinstance(a, T.Tensor)])
        with grad_mode.no_grad():
            return run_function(*args)

    @staticmethod
    def backward(ctx: Any, *grads: Any) -> tuple:
        if not engine.is_checkpoint_valid():
            raise RuntimeError(
                "When use_reentrant=True, torch.utils.checkpoint is incompatible with .grad() "
                "or passing an `inputs` parameter to .backward(). To resolve this error, you "
                "can either set use_reentrant=False, or call .backward() without passing the "
                "`inputs` argument.")
        saved = iter(ctx.saved_tensors)
        inputs = [_detached(next(saved)) if isinstance(a, T.Tensor) else a for a in ctx.args]
        with _random_state(ctx.rng_state), grad_mode.enable_grad():
            outputs = ctx.run_function(*inputs)
        outputs = outputs if isinstance(outputs, tuple) else (outputs,)
        pairs = [(o, g) for o, g in zip(outputs, grads)
                 if isinstance(o, T.Tensor) and o.requires_grad]
        if not pairs:
            raise RuntimeError("none of output has requires_grad=True, this checkpoint() is "
                               "not necessary")
        pairs = [(o, g) for o, g in pairs if g is not None]
        if pairs:
            autograd.backward([o for o, _ in pairs], [g for _, g in pairs])
        return (None, None, *[i.grad if isinstance(i, T.Tensor) else None for i in inputs])


def _detached(t: T.Tensor) -> T.Tensor:
    return t.detach()._set_requires_grad(t.requires_grad)


class _random_state:
    """Within: the random state ``state`` (None: untouched); after: the state before."""

    def __init__(self, state: Any) -> None:
        self.state, self.before = state, None

    def __enter__(self) -> None:
        if self.state is not None:
            self.before = _random.get_rng_state()
            _random.set_rng_state(self.state)

    def __exit__(self, *exc: Any) -> None:
        if self.before is not None:
            _random.set_rng_state(self.before)


class _Recomputed:
    """The non-reentrant checkpoint: what the call saves is an index; the first unpack reruns
    the call with grad on and keeps, in the same order, what the rerun saves."""

    def __init__(self, function: Callable[..., Any], args: tuple, kwargs: dict,
                 preserve_rng_state: bool) -> None:
        self.function, self.args, self.kwargs = function, args, kwargs
        self.rng_state = _random.get_rng_state() if preserve_rng_state else None
        self.count = 0
        # torch saves the call's tensor arguments for backward: changed in place before the
        # rerun, they are refused (the rerun would differentiate other values)
        self.versions = [(a, a._version) for a in args if isinstance(a, T.Tensor)]
        self.tensors: list | None = None
        self.recompute_context: Any = None

    def run(self, forward_context: Any, recompute_context: Any) -> Any:
        """The call under ``forward_context``; its rerun will be under ``recompute_context``."""
        self.recompute_context = recompute_context
        with saved_tensors_hooks(self._pack, self._unpack), forward_context:
            return self.function(*self.args, **self.kwargs)
        raise RuntimeError(  # reached only when forward_context swallowed the call's error
            "torch.utils.checkpoint: the forward context provided by context_fn suppressed an "
            "exception raised during the checkpointed forward. This is not supported because "
            "checkpoint cannot return a value for a failed forward.")

    def _pack(self, _tensor: T.Tensor) -> int:
        self.count += 1
        return self.count - 1

    def _unpack(self, index: int) -> T.Tensor:
        if self.tensors is None:
            for tensor, version in self.versions:
                refuse_changed(tensor, version)
            self.tensors = []
            with saved_tensors_hooks(self._keep, lambda t: t), _random_state(self.rng_state), \
                    grad_mode.enable_grad(), self.recompute_context:
                self.function(*self.args, **self.kwargs)
        return self.tensors[index]

    def _keep(self, tensor: T.Tensor) -> T.Tensor:
        self.tensors.append(tensor)
        return tensor
