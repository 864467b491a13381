"""``LBFGS``: limited-memory BFGS, a quasi-Newton method that re-evaluates the loss itself.

Each ``step(closure)`` runs up to ``max_iter`` iterations on all parameters as one flat vector
``x``. An iteration turns the gradient ``g`` into a direction ``d`` with the two-loop recursion
over the last ``history_size`` pairs ``s = x_new - x_old``, ``y = g_new - g_old`` (an
approximate inverse Hessian times ``-g``), then moves ``x += t * d``: ``t = lr`` (on the first
iteration ever, ``min(1, 1/|g|_1) * lr``), or the step a strong-Wolfe line search picks.
The closure must zero the gradients, compute the loss, call ``backward()`` and return it.

The arithmetic is torch's, operation for operation on tensors (``dot``, ``add_(alpha=)``,
``mul``), so the iterates are torch's numbers.

>>> import minitorch
>>> from minitorch import nn, optim
>>> w = nn.Parameter(minitorch.tensor([3.0, -1.0], dtype=minitorch.float64))
>>> opt = optim.LBFGS([w])
>>> def closure():
...     opt.zero_grad()
...     loss = ((w - 1) ** 2).sum()
...     loss.backward()
...     return loss
>>> opt.step(closure).item()
8.0
>>> w
Parameter containing:
tensor([1., 1.], dtype=torch.float64, requires_grad=True)
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any

from .._tensor import Tensor
from ..autograd.grad_mode import no_grad
from ..ops.shape import cat
from .optimizer import Optimizer, _plain

__all__ = ["LBFGS"]

_SAVED = ("d", "t", "old_dirs", "old_stps", "ro", "H_diag", "prev_flat_grad", "prev_loss")


class LBFGS(Optimizer):
    """L-BFGS over all parameters (one group only; see the module docstring).

    ``line_search_fn`` is None (fixed step ``lr``) or ``"strong_wolfe"``. The state (of the
    first parameter) keeps ``d``, ``t``, ``old_dirs``, ``old_stps``, ``ro``, ``H_diag``,
    ``prev_flat_grad``, ``prev_loss``, ``func_evals`` and ``n_iter`` between steps.

    >>> optim.LBFGS([nn.Parameter(minitorch.ones(1))]).defaults["max_eval"]
    25
    """

    _step_reads_self = False  # torch's step is under no_grad only
    _loaded_defaults: dict[str, Any] = {}  # torch's LBFGS adds no flags to a loaded group

    def __init__(self, params: Iterable[Any], lr: float | Tensor = 1, max_iter: int = 20,
                 max_eval: int | None = None, tolerance_grad: float = 1e-7,
                 tolerance_change: float = 1e-9, history_size: int = 100,
                 line_search_fn: str | None = None) -> None:
        if isinstance(lr, Tensor) and lr.numel() != 1:
            raise ValueError("Tensor lr must be 1-element")
        if not 0.0 <= lr:  # noqa: SIM300 (torch's operand order words its TypeError)
            raise ValueError(f"Invalid learning rate: {lr}")
        if max_eval is None:
            max_eval = max_iter * 5 // 4
        defaults = {"lr": lr, "max_iter": max_iter, "max_eval": max_eval,
                    "tolerance_grad": tolerance_grad, "tolerance_change": tolerance_change,
                    "history_size": history_size, "line_search_fn": line_search_fn}
        super().__init__(params, defaults)
        if len(self.param_groups) != 1:
            raise ValueError("LBFGS doesn't support per-parameter options (parameter groups)")
        self._params = self.param_groups[0]["params"]  # torch's attribute, which programs read

    # ---------------------------------------------------------------- the flat vector x

    def _flat_grad(self) -> Tensor:
        return cat([p.new_zeros(p.numel()) if p.grad is None else p.grad.view(-1)
                    for p in self._params], 0)

    def _move(self, step: Any, direction: Tensor) -> None:
        """``x += step * direction``, parameter by parameter."""
        offset = 0
        for p in self._params:
            p.add_(direction[offset:offset + p.numel()].view_as(p), alpha=step)
            offset += p.numel()

    def _evaluate_at(self, closure: Callable[[], Any], x: list[Tensor], step: Any,
                     direction: Tensor) -> tuple[float, Tensor]:
        """The loss and flat gradient at ``x + step * direction``; the parameters go back
        to ``x`` afterwards."""
        self._move(step, direction)
        loss = float(self._closure_loss(closure))
        grad = self._flat_grad()
        for p, saved in zip(self._params, x):
            p.copy_(saved)
        return loss, grad

    # ---------------------------------------------------------------- the step

    def step(self, closure: Callable[[], Any]) -> Any:  # type: ignore[override]
        """Up to ``max_iter`` iterations; returns the loss the closure gave first."""
        with no_grad():
            return self._iterate(closure, self.param_groups[0])

    def _iterate(self, closure: Callable[[], Any], group: dict[str, Any]) -> Any:
        lr, max_iter, max_eval = _plain(group["lr"]), group["max_iter"], group["max_eval"]
        tol_grad, tol_change = group["tolerance_grad"], group["tolerance_change"]
        state = self.state[self._params[0]]
        state.setdefault("func_evals", 0)
        state.setdefault("n_iter", 0)
        first_loss = self._closure_loss(closure)
        loss, evals = float(first_loss), 1
        state["func_evals"] += 1
        grad = self._flat_grad()
        if grad.abs().max() <= tol_grad:
            return first_loss
        d, t = state.get("d"), state.get("t")
        fresh = [key for key in _SAVED if key not in state]  # (torch adds these at the end)
        n_iter = 0
        while n_iter < max_iter:  # torch's count: max_iter may be any number
            n_iter += 1
            state["n_iter"] += 1
            d = self._direction(state, group, grad, d, t)
            if state.get("prev_flat_grad") is None:
                state["prev_flat_grad"] = grad.clone()
            else:
                state["prev_flat_grad"].copy_(grad)
            state["prev_loss"] = prev_loss = loss
            t = min(1.0, 1.0 / grad.abs().sum()) * lr if state["n_iter"] == 1 else lr
            gtd = grad.dot(d)
            if gtd > -tol_change:
                break
            loss, grad, t, used, optimal = self._advance(closure, group, loss, grad, d, t, gtd,
                                                         n_iter, max_eval - evals)
            evals += used
            state["func_evals"] += used
            if (n_iter == max_iter or evals >= max_eval or optimal
                    or d.mul(t).abs().max() <= tol_change or abs(loss - prev_loss) < tol_change):
                break
        state["d"], state["t"] = d, t
        for key in fresh:  # torch's order of the state's keys: the new ones set last
            if key in state:
                state[key] = state.pop(key)
        return first_loss

    def _direction(self, state: dict[str, Any], group: dict[str, Any], grad: Tensor,
                   d: Tensor | None, t: Any) -> Tensor:
        """The first iteration ever: ``-grad``. Later: the history updated with the last
        move, then the two-loop recursion ``d = -H grad``."""
        if state["n_iter"] == 1:
            state.update(old_dirs=[], old_stps=[], ro=[], H_diag=1)
            return grad.neg()
        y = grad.sub(state["prev_flat_grad"])
        s = d.mul(t)
        ys = y.dot(s)
        dirs, stps, ro = state["old_dirs"], state["old_stps"], state["ro"]
        if ys > 1e-10:  # keep the pair only where the curvature is positive
            if len(dirs) == group["history_size"]:
                for kept in (dirs, stps, ro):
                    kept.pop(0)  # (torch's pops: a history of 0 pops from an empty list)
            dirs.append(y)
            stps.append(s)
            ro.append(1.0 / ys)
            state["H_diag"] = ys / y.dot(y)
        al = state.setdefault("al", [None] * group["history_size"])
        q = grad.neg()
        for i in reversed(range(len(dirs))):
            al[i] = stps[i].dot(q) * ro[i]
            q.add_(dirs[i], alpha=-al[i])
        r = q.mul(state["H_diag"])
        for i in range(len(dirs)):
            be_i = dirs[i].dot(r) * ro[i]
            r.add_(stps[i], alpha=al[i] - be_i)
        return r

    def _advance(self, closure: Callable[[], Any], group: dict[str, Any], loss: float,
                 grad: Tensor, d: Tensor, t: Any, gtd: Tensor, n_iter: int, evals_left: int
                 ) -> tuple[float, Tensor, Any, int, bool]:
        """Move along ``d``: by ``t``, or by the strong-Wolfe step. Returns the new loss,
        gradient and step, the closure calls made and whether the gradient is small enough."""
        line_search = group["line_search_fn"]
        used = 0
        if line_search is not None:
            if line_search != "strong_wolfe":
                raise RuntimeError("only 'strong_wolfe' is supported")
            x = [p.clone() for p in self._params]
            search = _StrongWolfe(lambda step: self._evaluate_at(closure, x, step, d),
                                  d, loss, grad, gtd, evals_left)
            loss, grad, t, used = search.run(t)
            self._move(t, d)
        else:
            self._move(t, d)
            if n_iter != group["max_iter"]:
                loss = float(self._closure_loss(closure))
                grad = self._flat_grad()
                used = 1
            else:
                return loss, grad, t, used, False
        return loss, grad, t, used, bool(grad.abs().max() <= group["tolerance_grad"])


def _cubic_minimum(x1: Any, f1: Any, g1: Any, x2: Any, f2: Any, g2: Any,
                   bounds: tuple[Any, Any] | None = None) -> Any:
    """The minimiser of the cubic through ``(x1, f1)``, ``(x2, f2)`` with slopes ``g1``,
    ``g2``, clamped to ``bounds`` (default: between the two points); their midpoint when the
    cubic has no minimum."""
    low, high = bounds if bounds is not None else (min(x1, x2), max(x1, x2))
    d1 = g1 + g2 - 3 * (f1 - f2) / (x1 - x2)
    d2_square = d1 ** 2 - g1 * g2
    if d2_square < 0:
        return (low + high) / 2.0
    d2 = d2_square.sqrt()
    if x1 <= x2:
        at = x2 - (x2 - x1) * ((g2 + d2 - d1) / (g2 - g1 + 2 * d2))
    else:
        at = x1 - (x1 - x2) * ((g1 + d2 - d1) / (g1 - g2 + 2 * d2))
    return min(max(at, low), high)


class _StrongWolfe:
    """A line search for a step ``t`` along ``d`` with sufficient decrease
    (``f(t) <= f(0) + c1 t f'(0)``) and a small slope (``|f'(t)| <= -c2 f'(0)``): first grow
    the step until a bracket holds such a point, then shrink the bracket by cubic
    interpolation (Nocedal and Wright, algorithms 3.5 and 3.6)."""

    # torch's step leaves the search its own tolerance, not the optimizer's tolerance_change
    c1, c2, tolerance_change = 1e-4, 0.9, 1e-9

    def __init__(self, evaluate: Callable[[Any], tuple[float, Tensor]], d: Tensor, f: float,
                 g: Tensor, gtd: Tensor, max_ls: int) -> None:
        self.evaluate, self.d, self.f, self.g, self.gtd = evaluate, d, f, g.clone(), gtd
        self.max_ls = max_ls
        self.evals = 0

    def _at(self, t: Any) -> tuple[float, Tensor, Tensor]:
        self.evals += 1
        f, g = self.evaluate(t)
        return f, g, g.dot(self.d)

    def _decreases(self, t: Any, f_new: float) -> bool:
        return not f_new > (self.f + self.c1 * t * self.gtd)

    def _flat(self, gtd_new: Tensor) -> bool:
        return bool(abs(gtd_new) <= -self.c2 * self.gtd)

    def run(self, t: Any) -> tuple[float, Tensor, Any, int]:
        """The loss, gradient and step found, and the evaluations made."""
        f_new, g_new, gtd_new = self._at(t)
        prev = (0, self.f, self.g, self.gtd)
        tries, done = 0, False
        while tries < self.max_ls:  # grow the step until a bracket is found
            if not self._decreases(t, f_new) or (tries > 1 and f_new >= prev[1]):
                bracket = [list(prev), [t, f_new, g_new.clone(), gtd_new]]
                break
            if self._flat(gtd_new):
                bracket, done = [[t, f_new, g_new, gtd_new]], True
                break
            if gtd_new >= 0:
                bracket = [list(prev), [t, f_new, g_new.clone(), gtd_new]]
                break
            next_t = _cubic_minimum(prev[0], prev[1], prev[3], t, f_new, gtd_new,
                                    bounds=(t + 0.01 * (t - prev[0]), t * 10))
            prev = (t, f_new, g_new.clone(), gtd_new)
            t = next_t
            f_new, g_new, gtd_new = self._at(t)
            tries += 1
        if tries == self.max_ls:
            bracket = [[0, self.f, self.g, None], [t, f_new, g_new, None]]
        low = self._zoom(bracket, done, tries)
        return bracket[low][1], bracket[low][2], bracket[low][0], self.evals

    def _zoom(self, bracket: list[list[Any]], done: bool, tries: int) -> int:
        """Shrink the bracket ``[[t, f, g, gtd], ...]`` in place; the index of its best end."""
        d_norm = self.d.abs().max()
        low, high = (0, 1) if bracket[0][1] <= bracket[-1][1] else (1, 0)
        stalled = False
        while not done and tries < self.max_ls:
            (t_a, f_a, _, s_a), (t_b, f_b, _, s_b) = bracket
            if abs(t_b - t_a) * d_norm < self.tolerance_change:
                break
            t = _cubic_minimum(t_a, f_a, s_a, t_b, f_b, s_b)
            t, stalled = _away_from_ends(t, max(t_a, t_b), min(t_a, t_b), stalled)
            f_new, g_new, gtd_new = self._at(t)
            tries += 1
            if not self._decreases(t, f_new) or f_new >= bracket[low][1]:
                bracket[high] = [t, f_new, g_new.clone(), gtd_new]
                low, high = (0, 1) if bracket[0][1] <= bracket[1][1] else (1, 0)
                continue
            if self._flat(gtd_new):
                done = True
            elif gtd_new * (bracket[high][0] - bracket[low][0]) >= 0:
                bracket[high] = bracket[low]
            bracket[low] = [t, f_new, g_new.clone(), gtd_new]
        return low


def _away_from_ends(t: Any, top: Any, bottom: Any, stalled: bool) -> tuple[Any, bool]:
    """Keep a trial step a tenth of the bracket away from its ends when the last one was
    already close to them (or ``t`` falls outside); returns the step and whether it was
    close without being moved."""
    eps = 0.1 * (top - bottom)
    if not min(top - t, t - bottom) < eps:
        return t, False
    if stalled or t >= top or t <= bottom:
        return (top - eps if abs(t - top) < abs(t - bottom) else bottom + eps), False
    return t, True
