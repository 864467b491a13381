"""``transform_to``/``biject_to`` and the element-wise transforms (Exp, Affine, Compose)
against live torch: which transform a constraint gets, its printed form, values, inverses,
log-Jacobians and their gradients, shapes, equality, and torch's errors."""

from __future__ import annotations

import pytest
from test_bad_input_fuzz21b_oracle import assert_as_torch

CONSTRAINTS = ["C.positive", "C.nonnegative", "C.real", "C.greater_than(2.)",
               "C.greater_than_eq(-1.)"]
TRANSFORMS = ["D.ExpTransform()", "D.AffineTransform(1., -2.)",
              "D.AffineTransform(L.tensor([0., 1.]), L.tensor([2., 0.5]))",
              "D.ComposeTransform([D.ExpTransform(), D.AffineTransform(0.5, 3.)])",
              "D.ComposeTransform([])", "D.ExpTransform().inv",
              "D.ComposeTransform([D.ExpTransform(), D.AffineTransform(1., 2.)]).inv"]
X = "L.tensor([-0.5, 0.25], requires_grad=True)"


@pytest.mark.parametrize("registry", ["transform_to", "biject_to"])
@pytest.mark.parametrize("constraint", CONSTRAINTS)
def test_registry_picks_torchs_transform(registry: str, constraint: str) -> None:
    assert_as_torch(f"D = L.distributions; C = D.constraints; t = D.{registry}({constraint}); "
                    f"x = {X}; y = t(x); g = L.autograd.grad(y.sum(), x)[0]; "
                    "R = (type(t).__name__, repr(t), y, g, t.inv(y), t.bijective, "
                    "repr(t.domain), repr(t.codomain), t.log_abs_det_jacobian(x, y))")


@pytest.mark.parametrize("make", TRANSFORMS)
def test_transforms_as_torch(make: str) -> None:
    """On points where every transform and inverse here is finite."""
    assert_as_torch(f"D = L.distributions; t = {make}; "
                    "x = L.tensor([3.5, 5.], requires_grad=True); y = t(x); "
                    "j = t.log_abs_det_jacobian(x, y); "
                    "g = L.autograd.grad((y + j).sum(), x, allow_unused=True)[0]; "
                    "R = (repr(t), y, j, g, t.inv(y), t.sign if not hasattr(t.sign, 'shape') "
                    "else t.sign, t.bijective, t.event_dim, t.inv.inv == t, t == t.inv, "
                    "t.forward_shape((3, 2)), t.inverse_shape((2,)))")


@pytest.mark.parametrize("program", [
    "R = D.transform_to(D.constraints.nonnegative_integer)",
    "R = D.biject_to(D.constraints.boolean)",
    "R = D.transform_to.register(3, lambda c: None)",
    "R = (D.AffineTransform(1., 2.) == D.AffineTransform(1., 2.), "
    "D.AffineTransform(1., 2.) == D.AffineTransform(1., 3.), D.ExpTransform() == D.ExpTransform(), "
    "D.ComposeTransform([D.ExpTransform()]) == D.ComposeTransform([D.ExpTransform()]))",
])
def test_registry_edges_as_torch(program: str) -> None:
    assert_as_torch("D = L.distributions\n" + program)
