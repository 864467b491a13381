"""minitorch.course: seams plug a student's piece in, and always put the reference back."""

import pytest

import minitorch
from minitorch import course
from minitorch.autograd import engine


def test_plug_restores_on_exit_even_after_an_error() -> None:
    original = engine.discover
    with pytest.raises(ZeroDivisionError), course.plug(engine, "discover", lambda roots: 1 / 0):
        engine.discover([])
    assert engine.discover is original is course.reference(engine, "discover")


def test_minitorch_calls_the_plugged_piece() -> None:
    calls = []

    def spy(roots):
        calls.append(roots)
        return course.reference(engine, "discover")(roots)

    x = minitorch.tensor(2.0, requires_grad=True)
    with course.plug(engine, "discover", spy):
        (x * x).backward()
    assert len(calls) == 1 and x.grad.item() == 4.0


def test_switched_off_catches_a_kept_reference() -> None:
    kept = engine.execute
    x = minitorch.tensor(2.0, requires_grad=True)
    with course.switched_off("engine.execute"), pytest.raises(course.SwitchedOff):
        kept([(x * x).grad_fn, 0], [minitorch.tensor(1.0)], keep_graph=False, create_graph=False)
    (x * x).backward()  # back on after the block
    assert x.grad.item() == 4.0


def test_reset_restores_everything() -> None:
    plugged = course.plug(engine, "execute", None)
    plugged.__enter__()  # a student's cell that never left the block
    course.switched_off("engine.discover").__enter__()
    course.reset()
    assert engine.execute is course.reference(engine, "execute")
    assert engine.discover([]) == ({}, [])


def test_unknown_seam_names_the_known_ones() -> None:
    with pytest.raises(KeyError, match=r"engine\.execute"), course.switched_off("engine.nothing"):
        pass
    assert {"engine.discover", "engine.execute"} <= set(course.seams())
