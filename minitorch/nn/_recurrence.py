"""One time step of each recurrent cell, in the order of torch's CPU kernels (ATen's RNN.cpp).

Each step takes the input's projection ``linear(x, W_ih, b_ih)`` (computed for every time step
at once by the layers, for one step by the cells) and adds the hidden state's projection
``linear(h, W_hh, b_hh)`` to it as torch does, so that float32 results are torch's to the bit.

>>> import minitorch
>>> h = minitorch.zeros(1, 2)
>>> w = minitorch.ones(2, 2)
>>> rnn_step(minitorch.ones(1, 2), h, w, None, "tanh")
tensor([[0.7616, 0.7616]])
"""

from __future__ import annotations

from .._tensor import Tensor
from . import functional as F

__all__ = ["gru_step", "lstm_step", "rnn_step"]


def rnn_step(projected: Tensor, h: Tensor, w_hh: Tensor, b_hh: Tensor | None,
             nonlinearity: str) -> Tensor:
    """Elman: ``act(linear(h, W_hh, b_hh) + projected)``."""
    pre = F.linear(h, w_hh, b_hh) + projected
    return pre.tanh() if nonlinearity == "tanh" else pre.relu()


def lstm_step(projected: Tensor, hc: tuple[Tensor, Tensor], w_hh: Tensor,
              b_hh: Tensor | None) -> tuple[Tensor, Tensor]:
    """LSTM: gates ``i, f, g, o`` from one sum, ``c' = f*c + i*g`` and ``h' = o*tanh(c')``."""
    h, c = hc
    i, f, g, o = (F.linear(h, w_hh, b_hh) + projected).chunk(4, 1)
    c = f.sigmoid() * c + i.sigmoid() * g.tanh()
    return o.sigmoid() * c.tanh(), c


def gru_step(projected: Tensor, h: Tensor, w_hh: Tensor, b_hh: Tensor | None) -> Tensor:
    """GRU: reset ``r``, update ``z`` and new ``n = tanh(x_n + r*h_n)``; ``h' = (h-n)*z + n``."""
    hidden = F.linear(h, w_hh, b_hh)
    width = hidden.shape[-1] // 3
    # torch adds x_r, x_z into the chunks of ``hidden`` in place and takes their sigmoid
    # there: its vector loop then runs along each row of a chunk, whose last values take
    # another exp; r and z as chunks of one sum have those rows
    r, z = (hidden[..., :2 * width] + projected[..., :2 * width]).chunk(2, -1)
    r, z = r.sigmoid(), z.sigmoid()
    n = (projected[..., 2 * width:] + hidden[..., 2 * width:] * r).tanh()
    return (h - n) * z + n
