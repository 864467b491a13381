"""``RNN``, ``LSTM`` and ``GRU``: recurrent networks over layers and optionally both
directions, as torch's CPU implementation runs them (the Elman RNN is
``h_t = tanh(x_t W_ihᵀ + b_ih + h_(t-1) W_hhᵀ + b_hh)``, or relu).

torch's CPU kernel (ATen's RNN.cpp) projects every time step's input at once
(``linear(input, W_ih, b_ih)``), then steps through time with ``linear(h, W_hh, b_hh)``
plus that step's projection (``_recurrence`` holds each cell's gate math); a layer's
outputs are stacked, the reverse direction's are concatenated after the forward's, and
dropout (in training) falls between layers. minitorch takes the same steps with the same
ops, so values, gradients and node names are torch's (``StackBackward0``, ``CatBackward0``,
``TransposeBackward1``, ``SqueezeBackward1``); float32 LSTM is the exception noted at
``_OneDnnLayer``.

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
from functools import partial
from itertools import accumulate
from typing import Any

from .. import _args, _creation
from .._tensor import Tensor
from ..ops import shape
from ..ops.inplace_views import TransposeInplace
from ..ops.shape import cat, stack
from . import functional as F
from . import init
from ._recurrence import gru_step, lstm_step, rnn_step
from .module import Module
from .parameter import Parameter
from .utils.rnn import PackedSequence

__all__ = ["GRU", "LSTM", "RNN", "RNNBase"]

_GATES = {"RNN_TANH": 1, "RNN_RELU": 1, "LSTM": 4, "GRU": 3}


class _OneDnnLayer(shape.Clone):
    """The node torch's float32 CPU LSTM gives each layer's output: it runs oneDNN's fused
    LSTM kernel there (``mkldnn_rnn_layer``), whose values minitorch's composition matches
    only to a float32 rounding (it is torch's own composition to the bit, which torch uses
    when ``torch.backends.mkldnn`` is off, for float64 and with ``proj_size``)."""

    node_name = "MkldnnRnnLayerBackward0"
    _profile_name = "aten::mkldnn_rnn_layer"


def _check_sizes(input_size: Any, hidden_size: Any, num_layers: int, bias: Any,
                 batch_first: Any, dropout: Any, proj_size: int) -> None:
    """torch's constructor checks, in its order."""
    if (not isinstance(dropout, numbers.Number) or isinstance(dropout, bool)
            or not 0 <= dropout <= 1):
        raise ValueError("dropout should be a number in range [0, 1] representing the "
                         "probability of an element being zeroed")
    if dropout > 0 and num_layers == 1:
        warnings.warn("dropout option adds dropout after all but last recurrent layer, so "
                      "non-zero dropout expects num_layers greater than 1, but got "
                      f"dropout={dropout} and num_layers={num_layers}", stacklevel=4)
    for name, value in (("bias", bias), ("batch_first", batch_first)):
        if not isinstance(value, bool):
            raise TypeError(f"{name} should be of type bool, got: {type(value).__name__}")
    for name, value in (("input_size", input_size), ("hidden_size", hidden_size)):
        if not isinstance(value, int):
            raise TypeError(f"{name} should be of type int, got: {type(value).__name__}")
        if value <= 0:
            raise ValueError(f"{name} must be greater than zero")
    if _args.python_op(num_layers, "<=", 0):
        raise ValueError("num_layers must be greater than zero")
    if _args.python_op(proj_size, "<", 0):
        raise ValueError("proj_size should be a positive integer or zero to disable projections")
    if proj_size >= hidden_size:
        raise ValueError("proj_size has to be smaller than hidden_size")


class RNNBase(Module):
    """What ``RNN``, ``LSTM`` and ``GRU`` share: torch's parameters (``weight_ih_l0``,
    ``weight_hh_l0``, ``bias_ih_l0``, ``bias_hh_l0``, ``..._reverse``; LSTM's ``weight_hr_l0``
    with ``proj_size``), their init, the checks and the loop over layers and directions.

    >>> nn.LSTM(10, 20, num_layers=2).weight_ih_l1.shape
    torch.Size([80, 20])
    """

    def __init__(self, mode: str, input_size: int, hidden_size: int, num_layers: int = 1,
                 bias: bool = True, batch_first: bool = False, dropout: float = 0.0,
                 bidirectional: bool = False, proj_size: int = 0, device: Any = None,
                 dtype: Any = None) -> None:
        super().__init__()
        self.mode = mode
        self.input_size, self.hidden_size, self.num_layers = input_size, hidden_size, num_layers
        self.bias, self.batch_first = bias, batch_first
        self.dropout = _args.python_float(dropout)
        self.bidirectional, self.proj_size = bidirectional, proj_size
        _check_sizes(input_size, hidden_size, num_layers, bias, batch_first, dropout, proj_size)
        # (torch's plain RNN takes hidden_size itself: a bool stays one, for empty to refuse)
        gate_size = _GATES[mode] * hidden_size if _GATES[mode] > 1 else hidden_size
        real_hidden = proj_size or hidden_size
        directions = 2 if bidirectional else 1
        # torch's names of the parameters, flat and per layer and direction (d2l's
        # initialisation walks _flat_weights_names)
        self._flat_weights_names: list[str] = []
        self._all_weights: list[list[str]] = []
        for layer in range(_args.python_index(num_layers)):
            fan_in = input_size if layer == 0 else real_hidden * directions
            for suffix in ("", "_reverse")[:directions]:
                shapes = {"weight_ih": (gate_size, fan_in), "weight_hh": (gate_size, real_hidden)}
                if bias:
                    shapes.update(bias_ih=(gate_size,), bias_hh=(gate_size,))
                if proj_size:
                    shapes.update(weight_hr=(proj_size, hidden_size))
                names = [f"{name}_l{layer}{suffix}" for name in shapes]
                for name, size in zip(names, shapes.values()):
                    setattr(self, name, Parameter(_creation.empty(size, device=device,
                                                                  dtype=dtype)))
                self._flat_weights_names.extend(names)
                self._all_weights.append(names)
        self.reset_parameters()

    def reset_parameters(self) -> None:
        """Every weight and bias uniform in ±1/sqrt(hidden_size), in registration order."""
        stdv = 1.0 / math.sqrt(self.hidden_size) if self.hidden_size > 0 else 0
        for weight in self.parameters():
            init.uniform_(weight, -stdv, stdv)

    def _weights(self, layer: int, suffix: str) -> tuple:
        names = ("weight_ih", "weight_hh", "bias_ih", "bias_hh", "weight_hr")
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

    @property
    def _flat_weights(self) -> list[Parameter]:
        """The parameters named by ``_flat_weights_names``, in that order."""
        return [getattr(self, name) for name in self._flat_weights_names]

    def flatten_parameters(self) -> None:
        """Nothing to do: torch packs the weights for cuDNN here, which minitorch has not."""

    def _check_kernel_dtype(self, input: Tensor) -> None:
        """The LSTM kernel's refusal of input and weights of two dtypes (oneDNN takes a
        float32 input, and then refuses other weights)."""
        weight = self.weight_ih_l0
        if input.dtype == weight.dtype:
            return
        if input.dtype.name == "float32":
            raise RuntimeError("get_mkldnn_dtype: unsupported data type")
        raise RuntimeError("mat1 and mat2 must have the same dtype, but got "
                           f"{_args.legacy(input.dtype)} and {_args.legacy(weight.dtype)}")

    def _check_input(self, input: Tensor, dims: int | None = None) -> None:
        """torch's check_input: the dtype, the rank (``dims``, where asked), the size."""
        weight = self.weight_ih_l0
        if input.dtype != weight.dtype:
            raise ValueError(f"RNN input dtype ({input.dtype}) does not match weight dtype "
                             f"({weight.dtype}). Convert input: input.to({weight.dtype}), or "
                             f"convert model: model.to({input.dtype})")
        if dims is not None and input.dim() != dims:
            raise RuntimeError(f"input must have {dims} dimensions, got {input.dim()}")
        if input.shape[-1] != self.input_size:
            raise RuntimeError(f"input.size(-1) must be equal to input_size. Expected "
                               f"{self.input_size}, got {input.shape[-1]}")

    def _state_size(self, input: Tensor, width: int) -> tuple[int, int, int]:
        directions = 2 if self.bidirectional else 1
        return (self.num_layers * directions, input.shape[1], width)

    def _zeros(self, input: Tensor, width: int) -> Tensor:
        return _creation.zeros(self._state_size(input, width), dtype=input.dtype,
                               device=input.device)

    def _check_state(self, state: Tensor, input: Tensor, width: int,
                     what: str = "hidden") -> None:
        expected = self._state_size(input, width)
        if tuple(state.shape) != expected:
            raise RuntimeError(f"Expected {what} size {expected}, got {list(state.shape)}")

    def _layout(self, input: Tensor) -> tuple[Tensor, bool]:
        """``input`` as ``(L, N, features)`` and whether it came batched; torch's dim check."""
        if input.dim() not in (2, 3):
            tensor = " tensor" if self.mode.startswith("RNN") else ""
            raise ValueError(f"{type(self).__name__}: Expected input to be 2D or 3D, got "
                             f"{input.dim()}D{tensor} instead")
        if input.dim() == 2:
            return input.unsqueeze(1), False
        return (input.transpose(0, 1) if self.batch_first else input), True

    def _run(self, input: Tensor, states: tuple, batched: bool,
             batch_sizes: list[int] | None = None) -> tuple[Tensor, tuple]:
        """Every layer and direction from the first states (one or two stacked tensors);
        returns the last layer's output and the stacked last states, laid out as the input.
        With ``batch_sizes``, ``input`` is a PackedSequence's data, stepped as torch's
        ``PackedLayer``."""
        self._check_kernel_args(input, states, batch_sizes)
        if input.shape[0] == 0:
            raise RuntimeError("Expected sequence length to be larger than 0 in RNN")
        if batch_sizes is not None and sum(batch_sizes) > input.shape[0]:
            # data packed from lengths past its input's steps is short: torch's narrow of
            # each step's rows refuses the first step past its end
            offsets = accumulate(batch_sizes, initial=0)
            for offset, size in zip(offsets, batch_sizes):
                input.narrow(0, offset, size)
        directions = 2 if self.bidirectional else 1
        output, finals = input, []
        for layer in range(self.num_layers):
            if layer > 0 and self.dropout > 0:
                output = F.dropout(output, self.dropout, self.training)
            direction = self._direction if batch_sizes is None else partial(
                self._packed_direction, batch_sizes=batch_sizes)
            runs = [direction(output, tuple(s[layer * directions + d] for s in states), layer, d)
                    for d in range(directions)]
            finals += [last for _, last in runs]
            outputs = [o for o, _ in runs]
            output = outputs[0] if directions == 1 else cat(outputs, output.dim() - 1)
        last = tuple(stack([f[k] for f in finals], 0) for k in range(len(states)))
        if not batched:
            return output.squeeze(1), tuple(s.squeeze(1) for s in last)
        if self.batch_first and batch_sizes is None:
            # LSTM transposes out of place, RNN and GRU in place: two node names
            transpose = shape.Transpose if self.mode == "LSTM" else TransposeInplace
            output = transpose.apply(output, dims=(1, 0, 2), given=(0, 1))
        return output, last

    def _check_kernel_args(self, input: Tensor, states: tuple,
                           batch_sizes: list[int] | None) -> None:
        """The parse of torch's kernel call (``_VF.lstm``...): a ``num_layers`` that Python
        takes for an int (a bool) is no int to its parser, so no overload matches."""
        if _args.as_int(self.num_layers) is not None:
            return
        lstm = self.mode == "LSTM"
        hx = "tuple of Tensors hx" if lstm else "Tensor hx"
        settings = ("tuple of Tensors params, bool has_biases, int num_layers, float dropout, "
                    "bool train, bool bidirectional")
        given = (tuple(states) if lstm else states[0], self._flat_weights, self.bias,
                 self.num_layers, float(self.dropout), self.training, self.bidirectional)
        values = (input, *given, self.batch_first) if batch_sizes is None else \
            (input, _creation.tensor(batch_sizes), *given)
        raise _args.invalid_combination(
            self.mode.lower(), values,
            f"Tensor data, Tensor batch_sizes, {hx}, {settings}",
            f"Tensor input, {hx}, {settings}, bool batch_first")

    def _direction(self, input: Tensor, state: tuple, layer: int, direction: int
                   ) -> tuple[Tensor, tuple]:
        """One layer in one direction: every step's hidden state (stacked in time order)
        and the last state."""
        w_ih, w_hh, b_ih, b_hh, w_hr = self._weights(layer, "_reverse" if direction else "")
        projected = F.linear(input, w_ih, b_ih).unbind(0)
        steps = reversed(projected) if direction else projected
        outputs = []
        for x in steps:
            state = self._step(x, state, w_hh, b_hh, w_hr)
            outputs.append(state[0])
        if direction:
            outputs.reverse()
        output = stack(outputs, 0)
        if self.mode == "LSTM" and not self.proj_size and input.dtype.name == "float32":
            output = _OneDnnLayer.apply(output)
        return output, state

    def _packed_direction(self, data: Tensor, state: tuple, layer: int, direction: int, *,
                          batch_sizes: list[int]) -> tuple[Tensor, tuple]:
        """One layer in one direction over packed data: step ``t`` runs the first
        ``batch_sizes[t]`` sequences. Forward, a sequence's last state is set aside as the
        batch shrinks; backward, each sequence's first state joins as the batch grows."""
        w_ih, w_hh, b_ih, b_hh, w_hr = self._weights(layer, "_reverse" if direction else "")
        projected = F.linear(data, w_ih, b_ih)
        offsets = list(accumulate(batch_sizes, initial=0))
        outputs = []
        if direction:
            first = state
            state = tuple(s[:batch_sizes[-1]] for s in first)
            for t in reversed(range(len(batch_sizes))):
                size, running = batch_sizes[t], state[0].shape[0]
                if size > running:
                    state = tuple(cat([s, f[running:size]], 0) for s, f in zip(state, first))
                state = self._step(projected[offsets[t]:offsets[t + 1]], state, w_hh, b_hh, w_hr)
                outputs.append(state[0])
            outputs.reverse()
            return cat(outputs, 0), state
        finished = []
        for t, size in enumerate(batch_sizes):
            if size < state[0].shape[0]:
                finished.append(tuple(s[size:] for s in state))
                state = tuple(s[:size] for s in state)
            state = self._step(projected[offsets[t]:offsets[t + 1]], state, w_hh, b_hh, w_hr)
            outputs.append(state[0])
        finished.append(state)
        finished.reverse()
        return cat(outputs, 0), tuple(cat(parts, 0) for parts in zip(*finished))

    def _forward_packed(self, input: PackedSequence, hx: Tensor | tuple | None
                        ) -> tuple[PackedSequence, Any]:
        """torch's RNNBase.forward for a PackedSequence: states ordered as the packed batch
        (``sorted_indices``) going in and back in the caller's order coming out."""
        data, batch_sizes, sorted_indices, unsorted_indices = input
        sizes = batch_sizes.tolist()
        lstm = self.mode == "LSTM"
        widths = ((self.proj_size or self.hidden_size, self.hidden_size) if lstm
                  else (self.hidden_size,))
        if lstm and hx is None:  # torch's LSTM checks nothing here: its kernel refuses
            self._check_kernel_dtype(data)
        self._check_input(data, dims=2)
        shapes = [(self.num_layers * (2 if self.bidirectional else 1), sizes[0], w)
                  for w in widths]
        if hx is None:
            states = tuple(_creation.zeros(size, dtype=data.dtype, device=data.device)
                           for size in shapes)
        else:
            states = (tuple(hx) if lstm else (hx,))
            if sorted_indices is not None:
                states = tuple(s.index_select(1, sorted_indices) for s in states)
            if not lstm and tuple(hx.shape) != shapes[0]:  # torch's LSTM checks nothing here
                raise RuntimeError(f"Expected hidden size {shapes[0]}, got {list(hx.shape)}")
        output, last = self._run(data, states, True, sizes)
        if unsorted_indices is not None:
            last = tuple(s.index_select(1, unsorted_indices) for s in last)
        packed = PackedSequence(output, batch_sizes, sorted_indices, unsorted_indices)
        return packed, (last if lstm else last[0])

    def _step(self, x: Tensor, state: tuple, w_hh: Tensor, b_hh: Tensor | None,
              w_hr: Tensor | None) -> tuple:
        if self.mode == "LSTM":
            h, c = lstm_step(x, state, w_hh, b_hh)
            return (h if w_hr is None else h.matmul(w_hr.t()), c)
        if self.mode == "GRU":
            return (gru_step(x, state[0], w_hh, b_hh),)
        return (rnn_step(x, state[0], w_hh, b_hh, self.mode[4:].lower()),)

    def _one_state(self, input: Tensor, hx: Tensor | None) -> tuple[Tensor, Tensor]:
        """RNN's and GRU's forward: one hidden state."""
        if isinstance(input, PackedSequence):
            return self._forward_packed(input, hx)
        batched = input.dim() == 3
        if hx is not None and input.dim() in (2, 3) and hx.dim() != input.dim():
            kind = "unbatched 2-D" if input.dim() == 2 else "batched 3-D"
            raise RuntimeError(f"For {kind} input, hx should also be {input.dim()}-D but got "
                               f"{hx.dim()}-D tensor")
        input, batched = self._layout(input)
        self._check_input(input)
        if hx is None:
            hx = self._zeros(input, self.hidden_size)
        else:
            hx = hx if batched else hx.unsqueeze(1)
            self._check_state(hx, input, self.hidden_size)
        output, (h_n,) = self._run(input, (hx,), batched)
        return output, h_n

    def extra_repr(self) -> str:
        s = f"{self.input_size}, {self.hidden_size}"
        defaults = (("proj_size", 0), ("num_layers", 1), ("bias", True),
                    ("batch_first", False), ("dropout", 0.0), ("bidirectional", False))
        for name, default in defaults:
            value = getattr(self, name)
            if value != default:
                s += f", {name}={value}"
        return s


def _no_projection(kwargs: dict) -> None:
    if "proj_size" in kwargs:
        raise ValueError("proj_size argument is only supported for LSTM, not RNN or GRU")


class RNN(RNNBase):
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

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        _no_projection(kwargs)
        if len(args) > 3:
            nonlinearity, args = args[3], args[:3] + args[4:]
        else:
            nonlinearity = kwargs.pop("nonlinearity", "tanh")
        if nonlinearity not in ("tanh", "relu"):
            raise ValueError(f"Unknown nonlinearity '{nonlinearity}'. Select from 'tanh' or "
                             "'relu'.")
        self.nonlinearity = nonlinearity
        super().__init__("RNN_TANH" if nonlinearity == "tanh" else "RNN_RELU", *args, **kwargs)

    def forward(self, input: Tensor, hx: Tensor | None = None) -> tuple[Tensor, Tensor]:
        return self._one_state(input, hx)


class GRU(RNNBase):
    """A multi-layer gated recurrent unit: reset gate ``r``, update gate ``z``, new gate
    ``n = tanh(W_in x + b_in + r * (W_hn h + b_hn))`` and ``h' = (1 - z) * n + z * h``.

    Inputs, states and outputs as :class:`RNN`'s; gates stacked ``r, z, n`` in the weights.

    >>> out, h_n = nn.GRU(4, 3, num_layers=2)(minitorch.ones(5, 2, 4))
    >>> out.shape, h_n.shape
    (torch.Size([5, 2, 3]), torch.Size([2, 2, 3]))
    """

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        _no_projection(kwargs)
        super().__init__("GRU", *args, **kwargs)

    def forward(self, input: Tensor, hx: Tensor | None = None) -> tuple[Tensor, Tensor]:
        return self._one_state(input, hx)


class LSTM(RNNBase):
    """A multi-layer long short-term memory: gates ``i, f, g, o`` (stacked so in the weights),
    ``c' = f * c + i * g`` and ``h' = o * tanh(c')`` (times ``W_hrᵀ`` with ``proj_size``).

    Takes ``input`` and an optional ``(h_0, c_0)``; returns ``(output, (h_n, c_n))``.

    >>> out, (h_n, c_n) = nn.LSTM(4, 3, batch_first=True)(minitorch.ones(2, 5, 4))
    >>> out.shape, h_n.shape, c_n.shape
    (torch.Size([2, 5, 3]), torch.Size([1, 2, 3]), torch.Size([1, 2, 3]))
    """

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__("LSTM", *args, **kwargs)

    def forward(self, input: Tensor, hx: tuple[Tensor, Tensor] | None = None
                ) -> tuple[Tensor, tuple[Tensor, Tensor]]:
        if isinstance(input, PackedSequence):
            return self._forward_packed(input, hx)
        if hx is not None and input.dim() in (2, 3):
            self._check_state_dims(input, hx)
        input, batched = self._layout(input)
        self._check_input(input)
        width = self.proj_size or self.hidden_size
        if hx is None:
            hx = (self._zeros(input, width), self._zeros(input, self.hidden_size))
        else:
            hx = hx if batched else (hx[0].unsqueeze(1), hx[1].unsqueeze(1))
            self._check_state(hx[0], input, width, "hidden[0]")
            self._check_state(hx[1], input, self.hidden_size, "hidden[1]")
        output, (h_n, c_n) = self._run(input, hx, batched)
        return output, (h_n, c_n)

    @staticmethod
    def _check_state_dims(input: Tensor, hx: tuple) -> None:
        if hx[0].dim() != input.dim() or hx[1].dim() != input.dim():
            kind = "unbatched 2-D" if input.dim() == 2 else "batched 3-D"
            raise RuntimeError(f"For {kind} input, hx and cx should also be {input.dim()}-D but "
                               f"got ({hx[0].dim()}-D, {hx[1].dim()}-D) tensors")
