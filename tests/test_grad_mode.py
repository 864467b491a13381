"""Grad modes: no_grad, enable_grad, set_grad_enabled, inference_mode — as context managers
and decorators, nested, thread-local — and inference tensors.

Each behaviour runs on minitorch and on live torch 2.13 (the ``L`` parameter).
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from typing import Any

import pytest
import torch
from oracle import assert_same_error, mt, raised_by

LIBS = pytest.mark.parametrize("L", [mt, torch], ids=["minitorch", "torch"])


def modes(L: Any) -> tuple[bool, bool]:
    return L.is_grad_enabled(), L.is_inference_mode_enabled()


@pytest.fixture(autouse=True)
def default_modes() -> Any:
    """Every test starts and must end with grad mode on and inference mode off."""
    for L in (mt, torch):
        assert modes(L) == (True, False)
    yield
    for L in (mt, torch):
        if modes(L) != (True, False):
            L.set_grad_enabled(True)
            pytest.fail(f"{L.__name__} left grad modes changed")


# ------------------------------------------------------------------ context managers


@LIBS
def test_no_grad_results(L: Any) -> None:
    x = L.tensor([1.0], requires_grad=True)
    with L.no_grad():
        assert modes(L) == (False, False)
        y = x * 2
        made = L.ones(2, requires_grad=True)  # factories still honour requires_grad
        with L.enable_grad():
            z = x * 2
    assert (y.requires_grad, y.is_leaf, y.grad_fn) == (False, True, None)
    assert made.requires_grad and made.is_leaf
    assert z.requires_grad and z.grad_fn.name() == "MulBackward0"
    z.backward()
    assert x.grad.tolist() == [2.0]


@LIBS
def test_nesting_restores_each_level(L: Any) -> None:
    seen = []
    with L.no_grad():
        seen.append(L.is_grad_enabled())
        with L.enable_grad():
            seen.append(L.is_grad_enabled())
            with L.set_grad_enabled(False):
                seen.append(L.is_grad_enabled())
                with L.no_grad():
                    seen.append(L.is_grad_enabled())
                seen.append(L.is_grad_enabled())
            seen.append(L.is_grad_enabled())
        seen.append(L.is_grad_enabled())
    seen.append(L.is_grad_enabled())
    assert seen == [False, True, False, False, False, True, False, True]


@LIBS
def test_modes_restored_after_an_exception(L: Any) -> None:
    for make in (L.no_grad, L.inference_mode, lambda: L.set_grad_enabled(False)):
        with pytest.raises(KeyError), make():
            raise KeyError("inside")
        assert modes(L) == (True, False)
    with L.no_grad():
        with pytest.raises(KeyError), L.enable_grad():
            raise KeyError("inside")
        assert not L.is_grad_enabled()


@LIBS
def test_set_grad_enabled_as_a_call(L: Any) -> None:
    x = L.tensor([1.0], requires_grad=True)
    try:
        L.set_grad_enabled(False)
        assert (x * 2).requires_grad is False
        L.set_grad_enabled(True)
        assert (x * 2).requires_grad is True
        L.set_grad_enabled(False)
        with L.set_grad_enabled(True):
            assert L.is_grad_enabled()
        assert not L.is_grad_enabled(), "the with block restored the mode before it"
    finally:
        L.set_grad_enabled(True)


@LIBS
@pytest.mark.parametrize("is_train", [False, True])
def test_set_grad_enabled_as_context_manager(L: Any, is_train: bool) -> None:
    x = L.tensor([1.0], requires_grad=True)
    with L.set_grad_enabled(is_train):
        y = x * 2
    assert y.requires_grad is is_train
    assert L.is_grad_enabled()


@LIBS
def test_a_manager_can_be_reused(L: Any) -> None:
    manager = L.no_grad()
    for _ in range(2):
        with manager:
            assert not L.is_grad_enabled()
        assert L.is_grad_enabled()


# ------------------------------------------------------------------ decorators


@LIBS
def test_decorators(L: Any) -> None:
    x = L.tensor([1.0], requires_grad=True)

    @L.no_grad()
    def doubler(t: Any) -> Any:
        return t * 2

    @L.no_grad
    def bare(t: Any) -> Any:
        """Documented."""
        return t * 2

    @L.enable_grad()
    def enabled(t: Any) -> Any:
        return t * 2

    @L.set_grad_enabled(False)
    def disabled(t: Any) -> Any:
        return t * 2

    @L.inference_mode()
    def inferred(t: Any) -> Any:
        return t * 2

    assert L.is_grad_enabled(), "decorating with set_grad_enabled(False) changed nothing now"
    assert not doubler(x).requires_grad and not bare(x).requires_grad
    assert bare.__name__ == "bare" and bare.__doc__ == "Documented."
    with L.no_grad():
        assert enabled(x).requires_grad
    assert not disabled(x).requires_grad
    out = inferred(x)
    assert not out.requires_grad and out.is_inference()
    assert modes(L) == (True, False)


@LIBS
def test_bare_decorators(L: Any) -> None:
    @L.enable_grad
    def enabled() -> tuple[bool, bool]:
        return modes(L)

    @L.inference_mode
    def inferred() -> tuple[bool, bool]:
        return modes(L)

    with L.no_grad():
        assert enabled() == (True, False)
    assert inferred() == (False, True)


@LIBS
def test_decorated_method_and_recursion(L: Any) -> None:
    class Model:
        @L.no_grad()
        def predict(self, t: Any, depth: int = 2) -> Any:
            return t * 2 if depth == 0 else self.predict(t, depth - 1)

    x = L.tensor([1.0], requires_grad=True)
    assert not Model().predict(x).requires_grad
    assert L.is_grad_enabled()


def test_decorated_generator() -> None:
    for L in (torch, mt):
        @L.no_grad()
        def steps(L: Any = L) -> Any:
            for _ in range(2):
                yield L.is_grad_enabled()

        assert list(steps()) == [False, False], L.__name__


@LIBS
def test_decorated_generator_between_steps_send_throw_close_and_return(L: Any) -> None:
    @L.no_grad()
    def echo() -> Any:
        got = yield L.is_grad_enabled()
        try:
            while True:
                got = yield (got, L.is_grad_enabled())
        except KeyError:
            yield ("caught", L.is_grad_enabled())
        return "done"

    gen = echo()
    assert next(gen) is False and L.is_grad_enabled()  # the caller's mode while it waits
    assert gen.send(5) == (5, False)
    assert gen.throw(KeyError("k")) == ("caught", False)
    with pytest.raises(StopIteration) as stop:
        next(gen)
    assert stop.value.value == "done" and L.is_grad_enabled()
    closed = echo()
    next(closed)
    closed.close()
    assert L.is_grad_enabled()


# ------------------------------------------------------------------ threads


@LIBS
@pytest.mark.parametrize("mode", ["no_grad", "inference_mode", "set_grad_enabled"])
def test_grad_mode_is_thread_local(L: Any, mode: str) -> None:
    """A new thread starts with grad on (and inference off) whatever the main thread did,
    and what the thread does is not seen by the main thread."""
    seen: dict[str, Any] = {}
    x = L.tensor([1.0], requires_grad=True)

    def worker() -> None:
        seen["start"] = modes(L)
        seen["records"] = (x * 2).requires_grad
        L.set_grad_enabled(False)
        seen["after"] = modes(L)

    managers: dict[str, Callable[[], Any]] = {
        "no_grad": L.no_grad, "inference_mode": L.inference_mode,
        "set_grad_enabled": lambda: L.set_grad_enabled(False)}
    with managers[mode]():
        inside = modes(L)
        thread = threading.Thread(target=worker)
        thread.start()
        thread.join()
        assert modes(L) == inside
    assert seen == {"start": (True, False), "records": True, "after": (False, False)}


@LIBS
def test_threads_switching_modes_concurrently(L: Any) -> None:
    """Threads toggling their own modes at the same time never see each other's."""
    barrier = threading.Barrier(8)
    errors: list[str] = []
    x = L.tensor([1.0], requires_grad=True)

    def worker(k: int) -> None:
        barrier.wait()
        for _ in range(50):
            want = k % 2 == 0
            with L.set_grad_enabled(want):
                if (x * 2).requires_grad is not want or L.is_grad_enabled() is not want:
                    errors.append(f"thread {k}")

    threads = [threading.Thread(target=worker, args=(k,)) for k in range(8)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert errors == []


# ------------------------------------------------------------------ inference mode


@LIBS
def test_inference_mode_results(L: Any) -> None:
    x = L.tensor([1.0, 2.0], requires_grad=True)
    with L.inference_mode():
        assert modes(L) == (False, True)
        y = x * 2
        made = L.ones(2)
        y.add_(1)  # in-place on an inference tensor is fine inside
    assert (y.requires_grad, y.is_leaf, y.is_inference()) == (False, True, True)
    assert made.is_inference() and not x.is_inference()
    assert not (y * 2).is_inference() and not y.clone().is_inference()
    assert y.tolist() == [3.0, 5.0]


@LIBS
def test_inference_tensor_in_recorded_computation(L: Any) -> None:
    with L.inference_mode():
        constant = L.ones(2) * 3
    x = L.tensor([1.0, 2.0], requires_grad=True)
    (x + constant).sum().backward()  # Add saves nothing: allowed
    assert x.grad.tolist() == [1.0, 1.0]
    assert (constant.sin() * 1).tolist() == pytest.approx([0.14112] * 2, rel=1e-4)


@LIBS
def test_inference_mode_nesting(L: Any) -> None:
    with L.no_grad():
        with L.inference_mode():
            assert modes(L) == (False, True)
        assert modes(L) == (False, False)
    with L.inference_mode(), L.enable_grad():
        assert modes(L) == (True, True)
    with L.inference_mode(False):
        assert modes(L) == (True, False)
        assert not L.ones(1).is_inference()


def test_inference_mode_false_inside_inference_mode() -> None:
    for L in (torch, mt):
        with L.inference_mode(), L.inference_mode(False):
            assert modes(L) == (True, False), L.__name__
            assert not L.ones(1).is_inference()


def _saved_for_backward(L: Any) -> None:
    with L.inference_mode():
        constant = L.ones(2)
    L.ones(2, requires_grad=True) * constant


def _saved_matmul_operand(L: Any) -> None:
    with L.inference_mode():
        t = L.ones(2)
    (t + L.ones(2, requires_grad=True)).exp()  # fine: exp saves its own (normal) result
    (t * 1).requires_grad_().exp()  # fine: t * 1 is a normal tensor
    L.ones(2, requires_grad=True) @ t


def _inplace_outside(L: Any) -> None:
    with L.inference_mode():
        t = L.ones(2)
    with L.no_grad():  # no_grad is not enough
        t.mul_(2)


def _setitem_outside(L: Any) -> None:
    with L.inference_mode():
        t = L.ones(2)
    t[0] = 5.0


INFERENCE_ERRORS = [_saved_for_backward, _saved_matmul_operand, _inplace_outside, _setitem_outside]


@pytest.mark.parametrize("scenario", INFERENCE_ERRORS, ids=lambda f: f.__name__.strip("_"))
def test_inference_tensor_errors_like_torch(scenario: Callable[[Any], None]) -> None:
    want = raised_by(scenario, torch)
    assert want is not None
    assert_same_error(raised_by(scenario, mt), want)


def test_inference_error_texts() -> None:
    assert str(raised_by(_saved_for_backward, mt)) == (
        "Inference tensors cannot be saved for backward. Please do not use Tensors created in "
        "inference mode in computation tracked by autograd. To work around this, you can make a "
        "clone to get a normal tensor and use it in autograd, or use `torch.no_grad()` "
        "instead of `torch.inference_mode()`.")
    assert str(raised_by(_inplace_outside, mt)) == (
        "Inplace update to inference tensor outside InferenceMode is not allowed.You can make a "
        "clone to get a normal tensor before doing inplace update.See "
        "https://github.com/pytorch/rfcs/pull/17 for more details.")


def _view_saved_for_backward(L: Any) -> None:
    with L.inference_mode():
        t = L.ones(2, 2)
    L.ones(2, requires_grad=True) * t[0]


def _requires_grad_outside(L: Any) -> None:
    with L.inference_mode():
        t = L.ones(2)
    t.requires_grad_()


def _version_of_inference_tensor(L: Any) -> None:
    with L.inference_mode():
        t = L.ones(2)
    t._version


@pytest.mark.parametrize("scenario", [_requires_grad_outside, _version_of_inference_tensor,
                                      _view_saved_for_backward],
                         ids=["requires_grad_", "_version", "view saved"])
def test_more_inference_tensor_errors_like_torch(scenario: Callable[[Any], None]) -> None:
    want = raised_by(scenario, torch)
    assert want is not None
    assert_same_error(raised_by(scenario, mt), want)


VIEWS_AND_RESULTS = {
    "t[0]": lambda t: t[0], "t.t()": lambda t: t.t(), "reshape": lambda t: t.reshape(4),
    "view": lambda t: t.view(4), "expand": lambda t: t.unsqueeze(0).expand(2, 2, 2),
    "detach": lambda t: t.detach(), ".data": lambda t: t.data, "clone": lambda t: t.clone(),
    "t * 1": lambda t: t * 1,
}


def test_views_follow_their_base_and_results_the_mode_like_torch() -> None:
    seen = {}
    for L in (torch, mt):
        with L.inference_mode():
            inference, made_inside = L.ones(2, 2), {}
        normal = L.ones(2, 2)
        with L.inference_mode():
            for name, f in VIEWS_AND_RESULTS.items():
                made_inside[name] = f(normal).is_inference()
        seen[L.__name__] = ({name: f(inference).is_inference()
                             for name, f in VIEWS_AND_RESULTS.items()}, made_inside)
    assert seen["minitorch"] == seen["torch"]
