"""``RNNCell``, ``LSTMCell`` and ``GRUCell``: one time step of a recurrent network, for loops
written by hand (d2l's and many tutorials' "from scratch" chapters).

A cell projects its input (``linear(x, W_ih, b_ih)``) and hands it to the same step as the
layers (``_recurrence``), so a cell and a one-layer network agree to the bit, as in torch.

>>> import minitorch
>>> from minitorch import nn
>>> cell = nn.LSTMCell(4, 3)
>>> h, c = cell(minitorch.ones(2, 4))
>>> h.shape, c.shape
(torch.Size([2, 3]), torch.Size([2, 3]))
"""

from __future__ import annotations

import math
from typing import Any

from .. import _args, _creation
from .._tensor import Tensor
from . import functional as F
from . import init
from ._recurrence import gru_step, lstm_step, rnn_step
from .module import Module
from .parameter import Parameter

__all__ = ["GRUCell", "LSTMCell", "RNNCell", "RNNCellBase"]


class RNNCellBase(Module):
    """The parameters every cell has: ``weight_ih (chunks*hidden, input)``,
    ``weight_hh (chunks*hidden, hidden)`` and, with ``bias``, ``bias_ih`` and ``bias_hh``;
    uniform in ±1/sqrt(hidden_size) in that order, as torch draws them.

    >>> nn.GRUCell(4, 3).weight_ih.shape
    torch.Size([9, 4])
    """

    def __init__(self, input_size: int, hidden_size: int, bias: bool, num_chunks: int,
                 device: Any = None, dtype: Any = None) -> None:
        super().__init__()
        self.input_size, self.hidden_size, self.bias = input_size, hidden_size, bias
        rows = _args.python_op(num_chunks, "*", hidden_size)
        kwargs = {"device": device, "dtype": dtype}
        self.weight_ih = Parameter(_creation.empty((rows, input_size), **kwargs))
        self.weight_hh = Parameter(_creation.empty((rows, hidden_size), **kwargs))
        if bias:
            self.bias_ih = Parameter(_creation.empty(rows, **kwargs))
            self.bias_hh = Parameter(_creation.empty(rows, **kwargs))
        else:
            self.register_parameter("bias_ih", None)
            self.register_parameter("bias_hh", None)
        self.reset_parameters()

    def reset_parameters(self) -> None:
        """Every weight and bias uniform in ±1/sqrt(hidden_size), in registration order."""
        stdv = 1.0 / math.sqrt(self.hidden_size) if self.hidden_size > 0 else 0
        for weight in self.parameters():
            init.uniform_(weight, -stdv, stdv)

    def extra_repr(self) -> str:
        s = f"{self.input_size}, {self.hidden_size}"
        if self.bias is not True:
            s += f", bias={self.bias}"
        if getattr(self, "nonlinearity", "tanh") != "tanh":
            s += f", nonlinearity={self.nonlinearity}"
        return s

    def _batched(self, input: Tensor, states: Any, what: str) -> tuple[Tensor, bool]:
        """torch's dim checks of the input and of each given state (``states``: the hidden
        state, or LSTM's ``hx``, iterated as torch does); the input with a batch dim."""
        name = type(self).__name__
        if input.dim() not in (1, 2):
            raise ValueError(f"{name}: Expected input to be 1D or 2D, got {input.dim()}D instead")
        for i, state in enumerate(states if what == "hx" else (states,)):
            if state is not None and state.dim() not in (1, 2):
                label = f"hx[{i}]" if what == "hx" else what
                raise ValueError(f"{name}: Expected {label} to be 1D or 2D, got {state.dim()}D "
                                 "instead")
        batched = input.dim() == 2
        return (input if batched else input.unsqueeze(0)), batched

    def _zeros(self, input: Tensor) -> Tensor:
        return _creation.zeros((input.shape[0], self.hidden_size), dtype=input.dtype,
                               device=input.device)

    def _check(self, input: Tensor, states: tuple) -> None:
        """The checks of torch's cell kernels (ATen's RNN.cpp), with its messages."""
        if input.shape[1] != self.weight_ih.shape[1]:
            raise RuntimeError(f"input has inconsistent input_size: got {input.shape[1]} "
                               f"expected {self.weight_ih.shape[1]}")
        for i, state in enumerate(states):
            if input.shape[0] != state.size(0):
                raise RuntimeError(f"Input batch size {input.shape[0]} doesn't match hidden{i} "
                                   f"batch size {state.size(0)}")
            if state.size(1) != self.weight_hh.shape[1]:
                raise RuntimeError(f"hidden{i} has inconsistent hidden_size: got "
                                   f"{state.size(1)}, expected {self.weight_hh.shape[1]}")

    def _project(self, input: Tensor) -> Tensor:
        return F.linear(input, self.weight_ih, self.bias_ih)


class RNNCell(RNNCellBase):
    """One Elman step, ``h' = tanh(x W_ihᵀ + b_ih + h W_hhᵀ + b_hh)`` (or relu).

    >>> nn.RNNCell(4, 3)(minitorch.ones(2, 4)).shape
    torch.Size([2, 3])
    """

    def __init__(self, input_size: int, hidden_size: int, bias: bool = True,
                 nonlinearity: str = "tanh", device: Any = None, dtype: Any = None) -> None:
        super().__init__(input_size, hidden_size, bias, 1, device, dtype)
        self.nonlinearity = nonlinearity

    def forward(self, input: Tensor, hx: Tensor | None = None) -> Tensor:
        input, batched = self._batched(input, hx, "hidden")
        hx = self._zeros(input) if hx is None else hx if batched else hx.unsqueeze(0)
        if self.nonlinearity not in ("tanh", "relu"):
            raise RuntimeError(f"Unknown nonlinearity: {self.nonlinearity}")
        self._check(input, (hx,))
        h = rnn_step(self._project(input), hx, self.weight_hh, self.bias_hh, self.nonlinearity)
        return h if batched else h.squeeze(0)


class LSTMCell(RNNCellBase):
    """One LSTM step: ``(h', c')`` from ``input`` and an optional ``(h, c)``.

    >>> nn.LSTMCell(4, 3)
    LSTMCell(4, 3)
    """

    def __init__(self, input_size: int, hidden_size: int, bias: bool = True,
                 device: Any = None, dtype: Any = None) -> None:
        super().__init__(input_size, hidden_size, bias, 4, device, dtype)

    def forward(self, input: Tensor, hx: tuple[Tensor, Tensor] | None = None
                ) -> tuple[Tensor, Tensor]:
        input, batched = self._batched(input, () if hx is None else hx, "hx")
        if hx is None:
            hx = (self._zeros(input),) * 2
        elif not batched:  # torch reads the first two states, whatever hx holds
            hx = (hx[0].unsqueeze(0), hx[1].unsqueeze(0))
        elif not isinstance(hx, (tuple, list)):
            raise TypeError("lstm_cell(): argument 'hx' (position 2) must be tuple of Tensors, "
                            f"not {_args.type_name(hx)}")
        if len(hx) != 2:
            raise RuntimeError("lstm_cell expects two hidden states")
        self._check(input, hx)
        h, c = lstm_step(self._project(input), tuple(hx), self.weight_hh, self.bias_hh)
        return (h, c) if batched else (h.squeeze(0), c.squeeze(0))


class GRUCell(RNNCellBase):
    """One GRU step: ``h'`` from ``input`` and an optional ``h``.

    >>> nn.GRUCell(4, 3)(minitorch.ones(4)).shape
    torch.Size([3])
    """

    def __init__(self, input_size: int, hidden_size: int, bias: bool = True,
                 device: Any = None, dtype: Any = None) -> None:
        super().__init__(input_size, hidden_size, bias, 3, device, dtype)

    def forward(self, input: Tensor, hx: Tensor | None = None) -> Tensor:
        input, batched = self._batched(input, hx, "hidden")
        hx = self._zeros(input) if hx is None else hx if batched else hx.unsqueeze(0)
        self._check(input, (hx,))
        h = gru_step(self._project(input), hx, self.weight_hh, self.bias_hh)
        return h if batched else h.squeeze(0)
