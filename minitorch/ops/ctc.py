"""The connectionist temporal classification loss (``ctc_loss``) as torch's CPU kernel: the
forward (alpha) recursion over the extended target (blanks between and around the labels) in
log space, the backward (beta) recursion for the gradient, one sample at a time.

>>> import minitorch
>>> lp = minitorch.zeros(2, 1, 2).log_softmax(2)  # two frames, classes blank and 1
>>> CtcLoss.apply(lp, minitorch.tensor([[1]]), input_lengths=[2], target_lengths=[1], blank=0)
tensor([0.2877])
"""

from __future__ import annotations

from typing import Any

import numpy as np

from .. import _args
from .._dtype import float32, float64
from .._tensor import Tensor
from ..backend import from_numpy, to_numpy
from ._base import Op, wrap
from .pointwise import _NoDerivative

__all__ = ["CtcLoss"]


def _primes(labels: Any, blank: int) -> Any:
    """The extended target: blank, label 1, blank, label 2, ..., blank."""
    primes = np.full(2 * len(labels) + 1, blank, dtype=np.int64)
    primes[1::2] = labels
    return primes


def _log_sum(terms: list, dtype: Any) -> Any:
    """torch's ``log(sum exp(x - max)) + max`` of a few log values, a max of -inf read as 0."""
    top = np.maximum.reduce(terms)
    top = np.where(top == -np.inf, dtype.type(0), top)
    with np.errstate(invalid="ignore"):
        return np.log(sum(np.exp(t - top) for t in terms)) + top


def _shifted(row: Any, by: int, skip: Any) -> Any:
    """``row[s - by]`` at each ``s`` (-inf where out of range or where ``skip``)."""
    out = np.full_like(row, -np.inf)
    out[by:] = row[:len(row) - by] if by else row
    return np.where(skip, -np.inf, out)


def _ahead(row: Any, by: int, skip: Any) -> Any:
    """``row[s + by]`` at each ``s`` (-inf where out of range or where ``skip``)."""
    out = np.full_like(row, -np.inf)
    out[:len(row) - by] = row[by:]
    return np.where(skip, -np.inf, out)


def _alphas(lp: Any, primes: Any, frames: int) -> Any:
    """log alpha (frames x extended length): the log probability of each prefix path."""
    alpha = np.full((max(frames, 1), len(primes)), -np.inf, dtype=lp.dtype)
    alpha[0, 0] = lp[0, primes[0]]
    if len(primes) > 1:
        alpha[0, 1] = lp[0, primes[1]]
    same = np.zeros(len(primes), dtype=bool)
    same[2:] = primes[2:] == primes[:-2]  # no skip over a blank between equal labels
    for t in range(1, frames):
        prev = alpha[t - 1]
        alpha[t] = _log_sum([prev, _shifted(prev, 1, False), _shifted(prev, 2, same)],
                            lp.dtype) + lp[t, primes]
    return alpha


def _betas(lp: Any, primes: Any, frames: int) -> Any:
    """log beta: the log probability of each suffix path (from the last frame back)."""
    n = len(primes)
    beta = np.full((max(frames, 1), n), -np.inf, dtype=lp.dtype)
    beta[frames - 1, n - 1] = lp[frames - 1, primes[n - 1]]
    if n > 1:
        beta[frames - 1, n - 2] = lp[frames - 1, primes[n - 2]]
    same = np.zeros(n, dtype=bool)
    same[:-2] = primes[:-2] == primes[2:]
    for t in range(frames - 2, -1, -1):
        nxt = beta[t + 1]
        beta[t] = _log_sum([nxt, _ahead(nxt, 1, False), _ahead(nxt, 2, same)],
                           lp.dtype) + lp[t, primes]
    return beta


def _nll(alpha: Any, frames: int, length: int, dtype: Any) -> Any:
    if frames == 0:  # torch's kernel: no frames align an empty target only
        return -np.float64(0.0 if length == 0 else -np.inf)
    last = alpha[frames - 1]
    if length == 0:
        return -last[0]
    return -_log_sum([last[2 * length:2 * length + 1], last[2 * length - 1:2 * length]],
                     dtype)[0]


_CHECKING = " (while checking arguments for ctc_loss_allocate_outputs)"


def _check(log_probs: Tensor, targets: Tensor, input_lengths: list, target_lengths: list,
           blank: int) -> None:
    """torch's checks of a CPU ``ctc_loss`` call, in its order."""
    if log_probs.dtype not in (float32, float64):
        raise _args.not_implemented("ctc_loss_cpu", log_probs.dtype)
    if log_probs.numel() == 0:
        raise RuntimeError("log_probs tensor must not be empty")
    if log_probs.dim() != 3:
        raise RuntimeError(f"Expected 3-dimensional tensor, but got {log_probs.dim()}-dimensional "
                           f"tensor for argument #1 'log_probs'{_CHECKING}")
    if not 1 <= targets.dim() <= 2:
        raise RuntimeError(f"Expected 1 to 2 dimensions, but got {targets.dim()}-dimensional "
                           f"tensor for argument #2 'targets'{_CHECKING}")
    frames, batch, classes = log_probs.shape
    if not 0 <= blank < classes:
        raise RuntimeError("blank must be in label range")
    for lengths, name in ((input_lengths, "input_lengths"), (target_lengths, "target_lengths")):
        if len(lengths) != batch:
            raise RuntimeError(f"{name} must be of size batch_size")
    _check_range("target_lengths", target_lengths, None)
    if targets.dim() == 1:  # the targets end to end
        _check_size(targets, 0, sum(target_lengths), "")
    else:  # a padded row a sample
        _check_size(targets, 0, batch, "")
        if targets.shape[1] < max(target_lengths, default=0):
            _check_size(targets, 1, max(target_lengths), "at least ")
    _check_range("input_lengths", input_lengths, frames)


def _check_range(name: str, lengths: list, most: int | None) -> None:
    for n in lengths:
        if n < 0 or (most is not None and n > most):
            bound = "least 0" if n < 0 else f"most {most}"
            raise RuntimeError(f"Expected {name} to have value at {bound}, but got value {n}"
                               f"{_CHECKING}")


def _check_size(targets: Tensor, dim: int, size: int, at_least: str) -> None:
    if at_least or targets.shape[dim] != size:
        raise RuntimeError(f"Expected tensor to have size {at_least}{size} at dimension {dim}, "
                           f"but got size {targets.shape[dim]} for argument #2 'targets'"
                           f"{_CHECKING}")


def _samples(lp: Any, targets: Any, input_lengths: list, target_lengths: list,
             blank: int) -> Any:
    """Each sample's frames, extended target and length (padded or concatenated targets)."""
    offset = 0
    for b, (frames, length) in enumerate(zip(input_lengths, target_lengths)):
        if targets.ndim == 2:
            labels = targets[b, :length]
        else:
            labels, offset = targets[offset:offset + length], offset + length
        _check_labels(labels, lp.shape[2], b)
        yield b, lp[:, b], _primes(labels, blank), frames, length


def _check_labels(labels: Any, classes: int, sample: int) -> None:
    """A label outside the classes: torch's kernel reads past ``log_probs`` there and returns
    whatever it finds; minitorch refuses."""
    bad = labels[(labels < 0) | (labels >= classes)]
    if bad.size:
        raise RuntimeError(f"ctc_loss(): sample {sample} has the target label {bad[0]}, outside "
                           f"the {classes} classes of log_probs (valid labels are 0 to "
                           f"{classes - 1}); torch would read out of bounds here")


class CtcLoss(Op):
    """Each sample's negative log likelihood of its target under ``log_probs`` (frames,
    batch, classes); the gradient is torch's (``exp(lp) - occupancy / exp(lp - nll)``, which
    is the gradient through a log_softmax that made ``log_probs``)."""

    node_name = "CtcLossBackward0"
    _profile_name = "aten::_ctc_loss"

    @staticmethod
    def forward(ctx: Any, log_probs: Tensor, targets: Tensor, *, input_lengths: list,
                target_lengths: list, blank: int, zero_infinity: bool = False) -> Tensor:
        _check(log_probs, targets, input_lengths, target_lengths, blank)
        lp, tg = to_numpy(log_probs._data), to_numpy(targets._data).astype(np.int64)
        nll = np.zeros(lp.shape[1], dtype=lp.dtype)
        for b, sample, primes, frames, length in _samples(lp, tg, input_lengths,
                                                          target_lengths, blank):
            nll[b] = _nll(_alphas(sample, primes, frames), frames, length, lp.dtype)
        ctx.save_for_backward(log_probs, targets)
        ctx.lengths = (input_lengths, target_lengths, blank, zero_infinity)
        ctx.nll = nll
        return wrap(from_numpy(nll, log_probs.device))

    @staticmethod
    def backward(ctx: Any, g: Tensor) -> tuple:
        log_probs, targets = ctx.saved_tensors
        input_lengths, target_lengths, blank, zero_infinity = ctx.lengths
        return CtcLossBackward.on(g, log_probs, targets, nll=ctx.nll, input_lengths=input_lengths,
                                  target_lengths=target_lengths, blank=blank,
                                  zero_infinity=zero_infinity), None


class CtcLossBackward(_NoDerivative):
    """torch's ``_ctc_loss_backward``, which has no derivative."""

    _profile_name = "aten::_ctc_loss_backward"

    @staticmethod
    def compute(g: Tensor, log_probs: Tensor, targets: Tensor, *, nll: Any, input_lengths: list,
                target_lengths: list, blank: int, zero_infinity: bool) -> Any:
        lp, tg = to_numpy(log_probs._data), to_numpy(targets._data).astype(np.int64)
        scale = to_numpy(g._data)
        grad = np.zeros_like(lp)
        for b, sample, primes, frames, _ in _samples(lp, tg, input_lengths, target_lengths,
                                                     blank):
            if frames == 0 or (zero_infinity and nll[b] == np.inf):
                continue  # an impossible target's gradient is 0 where asked
            both = _alphas(sample, primes, frames)[:frames] + _betas(sample, primes, frames)
            occupancy = np.full((frames, lp.shape[2]), -np.inf, dtype=lp.dtype)
            for s, c in enumerate(primes):  # log-add each extended position into its class
                occupancy[:, c] = _log_sum([occupancy[:, c], both[:, s]], lp.dtype)
            here = sample[:frames]
            with np.errstate(over="ignore"):
                grad[:frames, b] = (np.exp(here) - np.exp(occupancy + nll[b] - here)) * scale[b]
        return from_numpy(grad, log_probs.device)
