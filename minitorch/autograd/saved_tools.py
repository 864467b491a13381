"""Tools built on saved-tensor hooks and tensor hooks, reached as ``autograd.graph.<name>``:
``save_on_cpu``, ``disable_saved_tensors_hooks``, ``allow_mutation_on_saved_tensors`` and
``register_multi_grad_hook``.

>>> import minitorch
>>> from minitorch.autograd.graph import save_on_cpu
>>> x = minitorch.ones(2, requires_grad=True)
>>> with save_on_cpu():
...     y = (x * x.exp()).sum()
>>> y.backward(); x.grad
tensor([5.4366, 5.4366])
"""

from __future__ import annotations

import contextlib
from collections.abc import Callable, Iterator, Sequence
from typing import TYPE_CHECKING, Any

from . import engine, graph

if TYPE_CHECKING:
    from .._tensor import Tensor

__all__ = ["allow_mutation_on_saved_tensors", "disable_saved_tensors_hooks",
           "register_multi_grad_hook", "save_on_cpu"]


class save_on_cpu(graph.saved_tensors_hooks):
    """Keep the tensors saved for backward in CPU memory; backward moves each back to the
    device it came from (on a CPU-only machine nothing moves).

    >>> with save_on_cpu(pin_memory=False):
    ...     z = (minitorch.ones(1, requires_grad=True) * 2).sum()
    """

    def __init__(self, pin_memory: bool = False, device_type: str = "cuda") -> None:
        def pack_to_cpu(tensor: Tensor) -> tuple:
            return tensor.device, tensor.cpu()

        def unpack_from_cpu(packed: tuple) -> Tensor:
            device, tensor = packed
            return tensor.to(device)

        super().__init__(pack_to_cpu, unpack_from_cpu)


@contextlib.contextmanager
def disable_saved_tensors_hooks(error_message: str) -> Iterator[None]:
    """Refuse saved-tensor hooks inside the block: entering one (or entering this block while
    one is active) raises ``RuntimeError(error_message)``.

    >>> with disable_saved_tensors_hooks("not here"):
    ...     with graph.saved_tensors_hooks(lambda t: t, lambda t: t):
    ...         pass
    Traceback (most recent call last):
    RuntimeError: not here
    """
    if not isinstance(error_message, (str, bytes)):  # torch's binding's refusal (pybind's str)
        raise TypeError("_saved_tensors_hooks_disable(): incompatible function arguments. The "
                        "following argument types are supported:\n    1. (error_message: str, "
                        "fail_if_non_empty: bool = True) -> None\n\nInvoked with: "
                        f"{error_message!r}")
    state = graph._hook_state
    if state.stack:
        raise RuntimeError(error_message)
    before = state.disabled
    state.disabled = error_message
    try:
        yield
    finally:
        state.disabled = before


class allow_mutation_on_saved_tensors(graph.saved_tensors_hooks):
    """Inside the block, a tensor saved for backward may be modified in place afterwards:
    what backward needs is a copy taken when it was saved.

    >>> a = minitorch.tensor([1., 2.], requires_grad=True)
    >>> with allow_mutation_on_saved_tensors():
    ...     b = a.clone()
    ...     out = (b * b).sum()
    ...     _ = b.sin_()
    ...     out.backward()
    >>> a.grad
    tensor([2., 4.])
    """

    _active = False  # torch's blocks cannot be nested

    def __init__(self) -> None:
        super().__init__(lambda tensor: tensor.detach().clone(), lambda copy: copy)

    def __enter__(self) -> None:
        if allow_mutation_on_saved_tensors._active:
            raise RuntimeError("allow_mutation_on_saved_tensors contexts cannot be nested")
        super().__enter__()
        allow_mutation_on_saved_tensors._active = True

    def __exit__(self, *exc: object) -> None:
        allow_mutation_on_saved_tensors._active = False
        super().__exit__(*exc)


class _MultiHandle:
    """The handle of ``register_multi_grad_hook``: ``remove()`` removes every hook."""

    def __init__(self, handles: list) -> None:
        self.handles = handles

    def remove(self) -> None:
        for handle in self.handles:
            handle.remove()

    def __enter__(self) -> _MultiHandle:
        return self

    def __exit__(self, *exc: object) -> None:
        self.remove()


def register_multi_grad_hook(tensors: Sequence[Tensor], fn: Callable[[Any], None], *,
                             mode: str = "all") -> _MultiHandle:
    """Call ``fn`` once per backward pass with the gradients of ``tensors``: with
    ``mode="all"`` a list of them after the pass (None for those it did not compute), with
    ``mode="any"`` the first one computed.

    >>> a = minitorch.tensor(1., requires_grad=True); b = minitorch.tensor(2., requires_grad=True)
    >>> handle = register_multi_grad_hook((a, b), print)
    >>> (a * b).backward()
    [tensor(2.), tensor(1.)]
    >>> (a * 2).backward()
    [tensor(2.), None]
    >>> handle.remove()
    """
    if mode not in ("all", "any"):
        raise ValueError(f"Expects mode to be one of ('all', 'any') but got {mode}")
    if mode == "all":  # torch finds each tensor's node first: one without is refused
        for t in tensors:
            if not t.requires_grad:
                raise AssertionError("Expected gradient function to be set")
    else:  # a tensor that does not require grad is left out
        tensors = [t for t in tensors if t.requires_grad]
    grads: list = [None] * len(tensors)
    pass_open = [False]

    def finish() -> None:
        pass_open[0] = False
        if mode == "all":
            fn(list(grads))
        grads[:] = [None] * len(tensors)

    def hook_for(i: int) -> Callable[[Tensor], None]:
        def hook(grad: Tensor) -> None:
            first = not pass_open[0]
            if first:
                pass_open[0] = True
                engine.queue_callback(finish)
            grads[i] = grad
            if mode == "any" and first:
                fn(grad)

        return hook

    return _MultiHandle([t.register_hook(hook_for(i)) for i, t in enumerate(tensors)])
