"""Calls left over from issue #21's third fuzz (seeds 2201-2203) where minitorch raised a
different error than torch, or refused what torch does; each program ends as in torch
(``R`` equal, or the same exception type and message)."""

from __future__ import annotations

import pytest
from test_bad_input_fuzz21b_oracle import assert_as_torch

_PROGRAMS = [
    # interpolate checks align_corners, then the size / scale_factor counts, before the mode
    "R = L.nn.functional.interpolate(L.ones(1, 1, 3), size=(2, 3, 4), mode='bilinear')",
    "R = L.nn.functional.interpolate(L.ones(1, 1, 3), size=[2, 3], mode='bicubic')",
    "R = L.nn.functional.interpolate(L.ones(1, 1, 3), scale_factor=(2, 3), mode='bicubic')",
    "R = L.nn.functional.interpolate(L.ones(1, 1, 3), mode='nearest', align_corners=True)",
    "R = L.nn.functional.interpolate(L.ones(1, 1, 3), size=2, mode='linear',"
    " align_corners=False)",
]


@pytest.mark.parametrize("program", _PROGRAMS)
def test_as_torch(program: str) -> None:
    assert_as_torch(program)


_GRADCHECK = [
    # check_batched_grad vmaps the vector-Jacobian product, as torch does
    "x = L.tensor([1., 2.], dtype=L.float64, requires_grad=True)\n"
    "R = L.autograd.gradcheck(lambda a: (a.sin() * a).sum(0, keepdim=True) * a, x,"
    " check_batched_grad=True)",
    "x = L.tensor([[1., 2.], [3., 4.]], dtype=L.float64, requires_grad=True)\n"
    "y = L.tensor([0.5, 1.5], dtype=L.float64, requires_grad=True)\n"
    "R = L.autograd.gradcheck(lambda a, b: (a @ b, a.exp()), (x, y), check_batched_grad=True)",
    "R = L.autograd.gradcheck(lambda a: (a ** 2).sum(), L.tensor([1, 2]),"
    " check_batched_grad=True)",
    "x = L.tensor([1., 2.], dtype=L.float64, requires_grad=True)\n"
    "R = L.autograd.gradcheck(lambda a: 3.0, x, check_batched_grad=True)",
    "x = L.tensor([1., 2.], dtype=L.float64, requires_grad=True)\n"
    "R = L.autograd.gradcheck(lambda a: a * 2, x, check_batched_grad=True,"
    " check_backward_ad=False, check_forward_ad=True)",
]


@pytest.mark.parametrize("program", _GRADCHECK)
def test_gradcheck_as_torch(program: str) -> None:
    assert_as_torch(program)


def test_gradcheck_batched_forward_grad_needs_forward_ad() -> None:
    assert_as_torch("x = L.tensor([1., 2.], dtype=L.float64, requires_grad=True)\n"
                    "R = L.autograd.gradcheck(lambda a: a * 2, x, check_batched_forward_grad=True)")


_MMAP = [
    "import io\nb = io.BytesIO(); L.save(L.ones(2, 3), b); b.seek(0)\nR = L.load(b, mmap=True)",
    "import io\nR = L.load(io.BytesIO(), mmap=True)",
    "import io\nb = io.BytesIO(); L.save(L.ones(2), b); b.seek(0)\nR = L.load(b, mmap=False)",
]


@pytest.mark.parametrize("program", _MMAP)
def test_load_mmap_as_torch(program: str) -> None:
    assert_as_torch(program)


def test_load_mmap_from_a_path_reads_the_file(tmp_path) -> None:
    import minitorch as mt
    path = str(tmp_path / "t.pt")
    mt.save(mt.arange(3.), path)
    assert mt.load(path, mmap=True).tolist() == [0.0, 1.0, 2.0]


_VMAP_OUT_DIMS = [
    "R = L.vmap(lambda x: x.item(), out_dims='a')(L.ones(0, 2))",
    "R = L.vmap(lambda x: (x, x), out_dims=(0, 1.5))(L.ones(2, 3))",
    "R = L.vmap(lambda x: x * 2, out_dims=(None,))(L.ones(2, 3), 1)",
]


@pytest.mark.parametrize("program", _VMAP_OUT_DIMS)
def test_vmap_out_dims_as_torch(program: str) -> None:
    assert_as_torch(program)
