"""Views against torch: their strides, storage offset, storage and dtype, what an in-place
write through one shows in its base, and the refusals around them (view_as_real,
view_as_complex, contiguous's keyword), with torch as the oracle."""

import pytest

import minitorch

torch = pytest.importorskip("torch")


def _outcome(lib, expression):
    """What ``expression`` (with ``M`` the library) gives: its geometry and values, or its
    exception's type and message."""
    try:
        t = eval(expression, {"M": lib})
    except Exception as e:  # the outcome compared
        return type(e).__name__, str(e).split("\nException raised from")[0]
    if isinstance(t, (torch.Tensor, minitorch.Tensor)):
        return (tuple(t.shape), tuple(t.stride()), t.storage_offset(), t.is_contiguous(),
                str(t.dtype), t.tolist())
    return t


GEOMETRY = [
    # a view of no elements lies where torch's does in the storage
    "M.arange(12.).view(3, 4)[3:]",
    "M.arange(12.).view(3, 4)[1:1]",
    "M.arange(12.).view(3, 4)[:, 4:]",
    "M.arange(12.).view(3, 4)[2:2, 1:]",
    "M.arange(12.)[5:5]",
    "M.arange(12.).view(3, 4)[:, 4:][3:]",
    "M.arange(12.).view(3, 4)[:, 4:][1]",
    "M.arange(12.).view(3, 4)[:, 4:].unbind()[2]",
    "M.arange(12.).view(3, 4)[:, 4:].split(1)[2]",
    "M.arange(12.).view(3, 4)[:, 10:20:3][1:]",
    "M.ones(3, 4)[:, 2:].t()[3:]",
    "M.arange(12.).view(3, 4).tensor_split([1, 5])[2]",
    "M.arange(12.).view(3, 4)[:, 4:].as_strided((1,), (1,))",
    "M.arange(12.)[12:].as_strided((1,), (1,))",
    "M.arange(12.)[12:].view(0, 3).t()",
    # a view of a detach() or of a set_() lies in the same storage
    "M.arange(8.)[2:].view(2, 3).detach().t()",
    "M.arange(8.)[2:].view(2, 3).detach().t().as_strided((8,), (1,), 0)",
    "M.empty(0).set_(M.arange(8.)[2:].view(2, 3))",
    "M.empty(0).set_(M.arange(8.)[2:].view(2, 3)).t().as_strided((8,), (1,), 0)",
    "M.empty(0).set_()",
    # view and reshape: torch's strides for dims of size one, an empty view's zero strides
    "M.arange(15.).view(1, 5, 3).transpose(0, -1).unflatten(0, (-1, 1))",
    "M.arange(15.).view(1, 5, 3).transpose(0, -1).view(3, 5, 1, 1)",
    "M.ones(1, 1, 1).expand(4, 1, 1).view(4, 1, 1, 1)",
    "M.ones(1, 1, 1).expand(4, 1, 1).reshape(4, 1, 1, 1)",
    "M.arange(1.).expand(0)",
    "M.arange(1.).expand(0).flatten()",
    "M.arange(1.).as_strided((0,), (0,))",
    "M.arange(1.).expand(0).t_()",
    "M.arange(1.).expand(2, 0).transpose_(0, 1)",
    # clone keeps a dense or empty tensor's strides
    "M.zeros(1, 3).t().clone()",
    "M.zeros(3, 1).t().clone()",
    "M.zeros(0, 4).broadcast_to(2, 0, 4).clone()",
    "M.zeros(0, 4, 4, 6)[..., ::2].clone()",
    # as_strided and resize_ of a view(dtype) read its storage as that dtype
    "M.arange(4.).view(M.int32).as_strided((2,), (2,))",
    "M.arange(4.)[1:].view(M.int16).as_strided((2,), (2,))",
    "M.arange(4, dtype=M.float64).view(M.float32).as_strided_((2,), (2,), 1)",
    "M.arange(4.).view(M.uint8).as_strided((16,), (1,))",
    "M.arange(4.).view(M.uint8).as_strided((17,), (1,))",
    "M.arange(4.).view(M.int32).resize_(2)",
    "M.arange(4.)[1:].view(M.int32).resize_(2)",
    # resize_ keeps a view's offset as its storage grows, and a storage does not shrink
    "M.arange(4.)[1:].resize_(5)[:3]",
    "M.arange(4.)[1:].resize_(5).untyped_storage().nbytes()",
    "M.arange(4.).resize_(2).untyped_storage().nbytes()",
    "M.arange(4.).resize_(0).as_strided((), ())",
    "M.arange(4.)[1:].view(M.int32).resize_(5)[:3]",
    "M.arange(1.).expand(0).detach()",
    "M.arange(4.)[3:].reshape(1).resize_(1, 0)",
    "M.arange(1.).expand(3).unsqueeze_(-2).set_().resize_(2, 1, 2).storage_offset()",
    "M.arange(8.)[2:].view(2, 3).set_(M.arange(3.)[1:])",
    # refusals
    "M.view_as_real(M.ones(2))",
    "M.view_as_real(1)",
    "M.view_as_complex(M.ones(2, 3))",
    "M.view_as_complex(M.ones(2, 2).t())",
    "M.view_as_complex(M.ones(2, 2, dtype=M.int64))",
    "M.view_as_complex(M.ones(()))",
    "M.view_as_complex(M.ones(3, 4)[:, 1:3])",
    "M.view_as_complex(M.ones(3, 3)[:, :2])",
    "M.ones(2, 3).contiguous(M.contiguous_format)",
]


@pytest.mark.parametrize("expression", GEOMETRY)
def test_view_geometry_as_torch(expression):
    assert _outcome(minitorch, expression) == _outcome(torch, expression)


WRITES = [
    # (the view of the base ``b``, then an in-place write through it)
    ("b.unbind()[1]", "v.add_(5)"),
    ("b[6:]", "v.add_(1)"),
    ("M.empty(0).set_(b[1:])", "v.add_(1)"),
]


@pytest.mark.parametrize(("view", "write"), WRITES)
def test_write_through_view_as_torch(view, write):
    def run(lib):
        b = lib.arange(6.)
        v = eval(view, {"M": lib, "b": b})
        eval(write, {"v": v})
        return b.tolist(), v.tolist(), v.storage_offset()

    assert run(minitorch) == run(torch)
