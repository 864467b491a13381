"""Forward AD's views, as torch's (issue #21): the tangent of a view of a dual tensor is the
same view of the base's tangent (its dtype, its memory), so an in-place op or a setitem on
the view, or on the base, changes both tangents; a plain view written in place with a dual
gives its base a tangent; make_dual keeps a tangent laid out as the primal and copies any
other into the primal's layout and dtype. Each program runs under torch and minitorch: the same
result (values, dtype, grad_fn), or the same exception type and message."""

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from oracle import SETTINGS
from test_bad_input_fuzz21b_oracle import assert_as_torch

FW = "fw = L.autograd.forward_ad\nwith fw.dual_level():\n"
DTYPES = ["L.float32", "L.float64"]

# (view of a (3, 4) tensor, the shape of that view)
VIEWS = [("d[:2]", "(2, 4)"), ("d[1]", "(4,)"), ("d[:, 1:3]", "(3, 2)"), ("d.t()", "(4, 3)"),
         ("d.view(12)", "(12,)"), ("d.unsqueeze(0)", "(1, 3, 4)"), ("d.narrow(1, 1, 2)", "(3, 2)"),
         ("d.diagonal()", "(3,)"), ("d[..., ::2]", "(3, 2)"), ("d.transpose(0, 1)[1:]", "(3, 3)")]
# in-place ops on the view; ``e`` is a dual of the view's shape
INPLACE = ["w.add_(1)", "w.mul_(2)", "w.mul_(e)", "w.copy_(e)", "w.zero_()", "w.exp_()",
           "w.add_(e, alpha=3)", "w[...] = e", "w.div_(e)"]


def _program(primal: str, tangent: str, view: str, shape: str, op: str, e_dtype: str) -> str:
    return FW + (
        f"    v = L.arange(12.).reshape(3, 4).to({tangent})\n"
        f"    d = fw.make_dual(L.ones(3, 4, dtype={primal}), v)\n"
        f"    w = {view}\n"
        f"    e = fw.make_dual(L.full({shape}, 2., dtype={e_dtype}), "
        f"L.full({shape}, 5., dtype={e_dtype}))\n"
        f"    {op}\n"
        "    R = (d * 1, v, fw.unpack_dual(d).tangent, fw.unpack_dual(w).tangent)")


@settings(SETTINGS, max_examples=80)
@given(st.sampled_from(DTYPES), st.sampled_from(DTYPES), st.sampled_from(VIEWS),
       st.sampled_from(INPLACE), st.sampled_from(DTYPES))
def test_inplace_on_a_view_of_a_dual_as_torch(primal: str, tangent: str, view: tuple, op: str,
                                              e_dtype: str) -> None:
    """The view's new tangent is written into the base's tangent (the tensor given to
    make_dual), in that tangent's dtype."""
    assert_as_torch(_program(primal, tangent, *view, op, e_dtype))


@settings(SETTINGS, max_examples=40)
@given(st.sampled_from(DTYPES), st.sampled_from(DTYPES), st.sampled_from(VIEWS),
       st.sampled_from(["d.add_(e2)", "d.mul_(e2)", "d.copy_(e2)", "d.mul_(3)",
                        "d[1:] = e2[1:]"]))
def test_a_views_tangent_follows_its_base_as_torch(primal: str, tangent: str, view: tuple,
                                                   op: str) -> None:
    """A view made before an in-place op on its base sees the base's new tangent."""
    assert_as_torch(FW + (
        f"    d = fw.make_dual(L.ones(3, 4, dtype={primal}), L.zeros(3, 4, dtype={tangent}))\n"
        f"    w = {view[0]}\n"
        "    e2 = fw.make_dual(L.full((3, 4), 2.), L.arange(12.).reshape(3, 4))\n"
        f"    {op}\n"
        "    R = (w * 1, fw.unpack_dual(w).tangent, fw.unpack_dual(d).tangent)"))


@settings(SETTINGS, max_examples=30)
@given(st.sampled_from(DTYPES), st.sampled_from(DTYPES), st.sampled_from(VIEWS),
       st.sampled_from(["w.mul_(e)", "w.copy_(e)", "w.add_(e)", "w[...] = e"]))
def test_a_plain_view_written_with_a_dual_as_torch(primal: str, e_dtype: str, view: tuple,
                                                   op: str) -> None:
    """A plain tensor's view written in place with a dual: the base gets a zero tangent of
    its own dtype, with the view's part written in."""
    assert_as_torch(FW + (
        f"    p = L.ones(3, 4, dtype={primal})\n"
        f"    w = {view[0].replace('d', 'p', 1)}\n"
        f"    e = fw.make_dual(L.full({view[1]}, 2., dtype={e_dtype}), "
        f"L.full({view[1]}, 5., dtype={e_dtype}))\n"
        f"    {op}\n"
        "    R = (p * 1, fw.unpack_dual(p).tangent, fw.unpack_dual(w).tangent)"))


@pytest.mark.parametrize("tangent", [
    "L.zeros(1).expand(6).reshape(2, 3)", "L.zeros(1, 3).expand(2, 3)",
    "L.zeros(3, 2).t()", "L.zeros(2, 3, dtype=L.float64)", "L.zeros(2, 3)",
    "L.zeros(3, 2, dtype=L.float64).t()"])
@pytest.mark.parametrize("primal", ["L.ones(2, 3)", "L.ones(3, 2).t()"])
def test_make_dual_lays_the_tangent_out_as_the_primal(primal: str, tangent: str) -> None:
    """The given tangent where its strides are the primal's (``is`` it), else a copy in the
    primal's layout and dtype: then an in-place op on a view of the dual
    writes into it."""
    assert_as_torch(FW + (
        f"    v = {tangent}\n"
        f"    d = fw.make_dual({primal}, v)\n"
        "    t = fw.unpack_dual(d).tangent\n"
        "    d[:1].mul_(fw.make_dual(L.ones(1, 3), L.ones(1, 3)))\n"
        "    R = (t is v, t.stride(), t.dtype, fw.unpack_dual(d).tangent)"))


@pytest.mark.parametrize("program", [
    "    r = L.zeros(2, 3, requires_grad=True)\n    d = fw.make_dual(L.ones(2, 3), r)\n"
    "    R = d[:1].mul_(2)",
    "    d = fw.make_dual(L.ones(2, 3), L.zeros(2, 3))\n    d.exp_()\n    w = d[1:]\n"
    "    w.exp_()\n    R = fw.unpack_dual(d).tangent",
    "    d = fw.make_dual(L.ones(4), L.zeros(4))\n    w = d[:2]\n    w2 = w[1:]\n"
    "    w2.add_(fw.make_dual(L.ones(1), L.ones(1)))\n"
    "    R = (fw.unpack_dual(d).tangent, fw.unpack_dual(w).tangent)",
])
def test_inplace_view_cases_the_fuzz_hit(program: str) -> None:
    """A leaf tangent that requires grad is refused; chains of in-place ops and views of
    views keep one tangent memory."""
    assert_as_torch(FW + program)
