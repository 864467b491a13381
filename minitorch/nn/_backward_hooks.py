"""A module's full backward hooks, as torch runs them: the module's tensor inputs and its
outputs each pass through an identity node (``BackwardHookFunctionBackward``); the node of the
outputs sees the gradients w.r.t. the outputs (the pre-hooks run there), the node of the
inputs the gradients w.r.t. the inputs (the hooks run there).

>>> import minitorch
>>> lin = minitorch.nn.Linear(2, 1)
>>> _ = lin.register_full_backward_hook(lambda m, gi, go: print(gi[0].shape, go[0].shape))
>>> lin(minitorch.ones(3, 2, requires_grad=True)).sum().backward()
torch.Size([3, 2]) torch.Size([3, 1])
"""

from __future__ import annotations

import warnings
from typing import Any

from .._tensor import Tensor
from ..autograd.function import Function
from ..autograd.grad_mode import is_grad_enabled


class BackwardHookFunction(Function):
    """Identity on tensors; its node is where a module's backward hooks run."""

    @staticmethod
    def forward(ctx: Any, *tensors: Tensor) -> tuple:
        return tuple(t.view_as(t) for t in tensors)

    @staticmethod
    def backward(ctx: Any, *grads: Tensor | None) -> tuple:
        return grads


def call(module: Any, args: tuple, run: Any) -> Any:
    """``run(args)`` (the module's forward with its forward hooks) with the module's backward
    hooks set on the graph it builds."""
    if not is_grad_enabled():
        return run(args)
    state: dict[str, Any] = {
        "tensor_positions": [i for i, a in enumerate(args) if isinstance(a, Tensor)]}
    args = _setup_inputs(module, args, state)
    return _setup_outputs(module, run(args), state)


def _setup_inputs(module: Any, args: tuple, state: dict) -> tuple:
    tracked = [i for i, a in enumerate(args) if isinstance(a, Tensor) and a.requires_grad]
    state["tracked"] = tracked
    if not tracked or not module._backward_hooks:
        return args
    wrapped = BackwardHookFunction.apply(*(args[i] for i in tracked))
    wrapped = wrapped if isinstance(wrapped, tuple) else (wrapped,)

    def hook(grad_input: tuple, _: tuple) -> tuple:  # torch's name, seen in its errors
        return _input_hook(module, grad_input, state)

    wrapped[0].grad_fn.register_hook(hook)
    new = list(args)
    for i, t in zip(tracked, wrapped):
        new[i] = t
    return tuple(new)


def _input_hook(module: Any, grads: tuple, state: dict) -> tuple:
    """The hooks get one gradient per tensor input (None where it needs none); none runs
    where no gradient came through the module's outputs (a dict of outputs, whose tensors
    torch's hook does not track, or a double backward), as torch's."""
    if "grad_output" not in state:
        return grads
    by_position = dict(zip(state["tracked"], grads))
    tensor_positions = state["tensor_positions"]
    grad_input = tuple(by_position.get(i) for i in tensor_positions)
    for hook in list(module._backward_hooks.values()):
        result = hook(module, grad_input, state["grad_output"])
        if result is not None:
            _check_count(result, grad_input, "Backward hook", "grad_input")
            grad_input = tuple(result)
    return tuple(grad_input[tensor_positions.index(i)] for i in state["tracked"])


def _setup_outputs(module: Any, out: Any, state: dict) -> Any:
    if not isinstance(out, (Tensor, tuple)):  # (a list or a dict: its tensors untracked)
        warnings.warn("For backward hooks to be called, module output should be a Tensor or "
                      f"a tuple of Tensors but received {type(out)}", stacklevel=5)
    outputs = out if isinstance(out, tuple) else (out,)
    tracked = [i for i, o in enumerate(outputs) if isinstance(o, Tensor) and o.requires_grad]
    if not tracked:
        return out
    wrapped = BackwardHookFunction.apply(*(outputs[i] for i in tracked))
    wrapped = wrapped if isinstance(wrapped, tuple) else (wrapped,)

    def hook(grad_output: tuple) -> tuple:
        return _output_hook(module, grad_output, state)

    wrapped[0].grad_fn.register_prehook(hook)
    new = list(outputs)
    for i, t in zip(tracked, wrapped):
        new[i] = t
    return tuple(new) if isinstance(out, tuple) else new[0]


def _output_hook(module: Any, grad_output: tuple, state: dict) -> tuple:
    for hook in list(module._backward_pre_hooks.values()):
        result = hook(module, grad_output)
        if result is not None:
            _check_count(result, grad_output, "Backward pre hook", "grad_output")
            grad_output = tuple(result)
    state["grad_output"] = grad_output
    if module._backward_hooks and not state["tracked"]:
        warnings.warn("Full backward hook is firing when gradients are computed with respect "
                      "to module outputs since no inputs require gradients. See "
                      "https://docs.pytorch.org/docs/main/generated/torch.nn.Module.html"
                      "#torch.nn.Module.register_full_backward_hook for more details.",
                      stacklevel=2)
        grad_input = (None,) * len(state["tensor_positions"])
        for hook in list(module._backward_hooks.values()):
            result = hook(module, grad_input, grad_output)
            if result is not None and not (isinstance(result, tuple)
                                           and all(g is None for g in result)):
                raise RuntimeError("Backward hook for Modules where no input requires gradient "
                                   "should always return None or None for all gradients.")
    return grad_output


def _check_count(result: Any, old: tuple, kind: str, what: str) -> None:
    if len(result) != len(old):
        raise RuntimeError(f"{kind} returned an invalid number of {what}, got {len(result)}, "
                           f"but expected {len(old)}")


BOTH_KINDS = ("Cannot use both regular backward hooks and full backward hooks on a single "
              "Module. Please use only one of them.")


def set_non_full(module: Any, args: tuple, result: Any) -> None:
    """The deprecated hooks: each runs on the node that made the (first) output, with that
    node's gradients, after torch's warnings about what such a hook misses."""
    out = result
    while not isinstance(out, Tensor):
        out = next(v for v in out.values() if isinstance(v, Tensor)) \
            if isinstance(out, dict) else out[0]
    node = out.grad_fn
    if node is None:
        return
    for hook in list(module._non_full_backward_hooks.values()):
        node.register_hook(lambda grad_input, grad_output, hook=hook:
                           hook(module, grad_input, grad_output))
    _warn_non_full(args, result, node)


def _warn_non_full(inputs: tuple, result: Any, node: Any) -> None:
    """torch's ``_maybe_warn_non_full_backward_hook``."""
    outputs = (result,) if isinstance(result, Tensor) else result
    if not (isinstance(outputs, tuple) and all(isinstance(r, Tensor) for r in outputs)):
        return _deprecated("Using non-full backward hooks on a Module that does not return a "
                           "single Tensor or a tuple of Tensors is deprecated and will be "
                           "removed in future versions. This hook will be missing some of the "
                           "grad_output. Please use register_full_backward_hook to get the "
                           "documented behavior.")
    if not all(isinstance(i, Tensor) for i in inputs):
        return _deprecated("Using non-full backward hooks on a Module that does not take as "
                           "input a single Tensor or a tuple of Tensors is deprecated and will "
                           "be removed in future versions. This hook will be missing some of "
                           "the grad_input. Please use register_full_backward_hook to get the "
                           "documented behavior.")
    out_nodes = {r.grad_fn for r in outputs if r.grad_fn is not None}
    if not out_nodes or (len(out_nodes) == 1 and node not in out_nodes):
        return _deprecated("Using a non-full backward hook when outputs are nested in python "
                           "data structure is deprecated and will be removed in future "
                           "versions. This hook will be missing some grad_output.")
    if len(out_nodes) > 1:
        return _deprecated("Using a non-full backward hook when outputs are generated by "
                           "different autograd Nodes is deprecated and will be removed in "
                           "future versions. This hook will be missing some grad_output. "
                           "Please use register_full_backward_hook to get the documented "
                           "behavior.")
    if {i.grad_fn for i in inputs if i.grad_fn is not None} != \
            {n for n, _ in node.next_functions}:
        _deprecated("Using a non-full backward hook when the forward contains multiple "
                    "autograd Nodes is deprecated and will be removed in future versions. "
                    "This hook will be missing some grad_input. Please use "
                    "register_full_backward_hook to get the documented behavior.")
    return None


def _deprecated(message: str) -> None:
    warnings.warn(message, FutureWarning, stacklevel=5)
