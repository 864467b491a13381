"""``RNN``: the Elman recurrent network, ``h_t = tanh(x_t W_ihᵀ + b_ih + h_(t-1) W_hhᵀ + b_hh)``
(or relu), over layers and optionally both directions, as torch's CPU implementation runs it.

torch's CPU kernel (ATen's RNN.cpp) projects every time step's input at once
(``linear(input, W_ih, b_ih)``), then steps through time with ``linear(h, W_hh, b_hh)``
plus that step's projection; a layer's outputs are stacked, the reverse direction's are
concatenated after the forward's, and dropout (in training) falls between layers. minitorch
takes the same steps with the same ops, so values, gradients and node names are torch's
(``StackBackward0``, ``CatBackward0``, ``TransposeBackward1``, ``SqueezeBackward1``).

>>> import minitorch
>>> from minitorch import nn
>>> rnn = nn.RNN(4, 3)
>>> output, h_n = rnn(minitorch.ones(5, 2, 4))
>>> output.shape, h_n.shape
(torch.Size([5, 2, 3]), torch.Size([1, 2, 3]))
"""

from __future__ import annotations

import math
import numbers
import warnings
from typing import Any

from .. import _creation
from .._tensor import Tensor
from ..ops import shape
from ..ops.shape import cat, stack
from . import functional as F
from . import init
from .module import Module
from .parameter import Parameter

__all__ = ["RNN"]


class _TransposeInplace(shape.Transpose):
    """torch's ``output.transpose_(0, 1)`` for ``batch_first``: the node of the in-place form."""

    node_name = "TransposeBackward1"


def _nonlinearity(name: str, x: Tensor) -> Tensor:
    return x.tanh() if name == "tanh" else x.relu()


def _check_options(input_size: Any, hidden_size: Any, num_layers: Any, bias: Any,
                   batch_first: Any) -> None:
    """torch's checks of an RNN's options at construction (not at the first forward)."""
    for name, value in (("bias", bias), ("batch_first", batch_first)):
        if not isinstance(value, bool):
            raise TypeError(f"{name} should be of type bool, got: {type(value).__name__}")
    for name, value in (("input_size", input_size), ("hidden_size", hidden_size)):
        if not isinstance(value, int):
            raise TypeError(f"{name} should be of type int, got: {type(value).__name__}")
        if value <= 0:
            raise ValueError(f"{name} must be greater than zero")
    if num_layers <= 0:
        raise ValueError("num_layers must be greater than zero")


class RNN(Module):
    """A multi-layer Elman RNN with tanh or relu.

    Input ``(L, N, input_size)`` (``(N, L, input_size)`` with ``batch_first``, or
    ``(L, input_size)`` unbatched) and an optional first hidden state ``h_0`` of shape
    ``(num_layers * num_directions, N, hidden_size)``; returns ``(output, h_n)``: every
    step's last-layer hidden state and every layer's last hidden state. Weights start
    uniform in ±1/sqrt(hidden_size), drawn in torch's order (the same numbers after the same
    seed).

    >>> nn.RNN(10, 20, num_layers=2, batch_first=True)
    RNN(10, 20, num_layers=2, batch_first=True)
    """

    def __init__(self, input_size: int, hidden_size: int, num_layers: int = 1,
                 nonlinearity: str = "tanh", bias: bool = True, batch_first: bool = False,
                 dropout: float = 0.0, bidirectional: bool = False, device: Any = None,
                 dtype: Any = None) -> None:
        super().__init__()
        if nonlinearity not in ("tanh", "relu"):
            raise ValueError(f"Unknown nonlinearity '{nonlinearity}'. Select from 'tanh' or "
                             "'relu'.")
        dropout_p = float(dropout)  # torch converts first (Python's errors are its errors)
        if (not isinstance(dropout, numbers.Number) or isinstance(dropout, bool)
                or not 0 <= dropout <= 1):
            raise ValueError("dropout should be a number in range [0, 1] representing the "
                             "probability of an element being zeroed")
        if dropout > 0 and num_layers == 1:
            warnings.warn("dropout option adds dropout after all but last recurrent layer, so "
                          "non-zero dropout expects num_layers greater than 1, but got "
                          f"dropout={dropout} and num_layers={num_layers}", stacklevel=2)
        _check_options(input_size, hidden_size, num_layers, bias, batch_first)
        self.mode = "RNN_TANH" if nonlinearity == "tanh" else "RNN_RELU"
        self.input_size, self.hidden_size, self.num_layers = input_size, hidden_size, num_layers
        self.nonlinearity, self.bias, self.batch_first = nonlinearity, bias, batch_first
        self.dropout, self.bidirectional = dropout_p, bidirectional
        self.proj_size = 0
        directions = 2 if bidirectional else 1
        for layer in range(num_layers):
            fan_in = input_size if layer == 0 else hidden_size * directions
            for suffix in ("", "_reverse")[:directions]:
                shapes = {"weight_ih": (hidden_size, fan_in),
                          "weight_hh": (hidden_size, hidden_size)}
                if bias:
                    shapes.update(bias_ih=(hidden_size,), bias_hh=(hidden_size,))
                for name, size in shapes.items():
                    setattr(self, f"{name}_l{layer}{suffix}",
                            Parameter(_creation.empty(size, device=device, dtype=dtype)))
        self.reset_parameters()

    def reset_parameters(self) -> None:
        """Every weight and bias uniform in ±1/sqrt(hidden_size), in registration order."""
        stdv = 1.0 / math.sqrt(self.hidden_size) if self.hidden_size > 0 else 0
        for weight in self.parameters():
            init.uniform_(weight, -stdv, stdv)

    def _weights(self, layer: int, suffix: str) -> tuple:
        names = ("weight_ih", "weight_hh", "bias_ih", "bias_hh")
        return tuple(getattr(self, f"{n}_l{layer}{suffix}", None) for n in names)

    @property
    def all_weights(self) -> list[list[Parameter]]:
        """The parameters of each layer and direction: ``[w_ih, w_hh(, b_ih, b_hh)]``.

        >>> [len(w) for w in nn.RNN(2, 3, num_layers=2, bias=False).all_weights]
        [2, 2]
        """
        directions = ("", "_reverse") if self.bidirectional else ("",)
        return [[w for w in self._weights(layer, suffix) if w is not None]
                for layer in range(self.num_layers) for suffix in directions]

    def flatten_parameters(self) -> None:
        """Nothing to do: torch packs the weights for cuDNN here, which minitorch has not."""

    def _check(self, input: Tensor, hx: Tensor | None) -> None:
        if input.dim() not in (2, 3):
            raise ValueError(f"RNN: Expected input to be 2D or 3D, got {input.dim()}D tensor "
                             "instead")
        if hx is not None and hx.dim() != input.dim():
            kind = "unbatched 2-D" if input.dim() == 2 else "batched 3-D"
            raise RuntimeError(f"For {kind} input, hx should also be {input.dim()}-D but got "
                               f"{hx.dim()}-D tensor")
        weight = self.weight_ih_l0
        if input.dtype != weight.dtype:
            raise ValueError(f"RNN input dtype ({input.dtype}) does not match weight dtype "
                             f"({weight.dtype}). Convert input: input.to({weight.dtype}), or "
                             f"convert model: model.to({input.dtype})")
        if input.shape[-1] != self.input_size:
            raise RuntimeError(f"input.size(-1) must be equal to input_size. Expected "
                               f"{self.input_size}, got {input.shape[-1]}")

    def forward(self, input: Tensor, hx: Tensor | None = None) -> tuple[Tensor, Tensor]:
        self._check(input, hx)
        batched = input.dim() == 3
        if not batched:  # one sequence: a batch of one, squeezed out at the end
            input = input.unsqueeze(1)
            hx = hx.unsqueeze(1) if hx is not None else None
        elif self.batch_first:
            input = input.transpose(0, 1)
        directions = 2 if self.bidirectional else 1
        expected = (self.num_layers * directions, input.shape[1], self.hidden_size)
        if hx is None:
            hx = _creation.zeros(expected, dtype=input.dtype, device=input.device)
        elif tuple(hx.shape) != expected:
            raise RuntimeError(f"Expected hidden size {expected}, got {list(hx.shape)}")
        if input.shape[0] == 0:
            raise RuntimeError("Expected sequence length to be larger than 0 in RNN")
        output, finals = input, []
        for layer in range(self.num_layers):
            if layer > 0 and self.dropout > 0:
                output = F.dropout(output, self.dropout, self.training)
            runs = [self._direction(output, hx[layer * directions + d], layer, d)
                    for d in range(directions)]
            finals += [h for _, h in runs]
            outputs = [o for o, _ in runs]
            output = outputs[0] if directions == 1 else cat(outputs, output.dim() - 1)
        h_n = stack(finals, 0)
        if not batched:
            return output.squeeze(1), h_n.squeeze(1)
        if self.batch_first:
            output = _TransposeInplace.apply(output, dims=(1, 0, 2))
        return output, h_n

    def _direction(self, input: Tensor, h: Tensor, layer: int, direction: int
                   ) -> tuple[Tensor, Tensor]:
        """One layer in one direction: every step's hidden state (stacked in time order)
        and the last one."""
        w_ih, w_hh, b_ih, b_hh = self._weights(layer, "_reverse" if direction else "")
        projected = F.linear(input, w_ih, b_ih).unbind(0)
        steps = reversed(projected) if direction else projected
        outputs = []
        for x in steps:
            h = _nonlinearity(self.nonlinearity, F.linear(h, w_hh, b_hh) + x)
            outputs.append(h)
        if direction:
            outputs.reverse()
        return stack(outputs, 0), h

    def extra_repr(self) -> str:
        s = f"{self.input_size}, {self.hidden_size}"
        defaults = (("num_layers", 1), ("bias", True),
                    ("batch_first", False), ("dropout", 0.0), ("bidirectional", False))
        for name, default in defaults:
            value = getattr(self, name)
            if value != default:
                s += f", {name}={value}"
        return s
