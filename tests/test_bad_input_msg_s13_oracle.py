"""Bad input on which minitorch raised torch's exception type with another message (found by
the differential fuzz of seeds 2202-2203), against live torch. Each case is a small program
run on torch and on minitorch (``L``); its outcome, the value of ``R`` or the exception's type
and message, must be the same.
"""

from __future__ import annotations

import pytest
from test_bad_input_fuzz21b_oracle import assert_as_torch


@pytest.mark.parametrize("d", ["None", "'float64'", "float", "3", "L.ones(1)", "L.int64",
                               "L.bool", "L.float16"])
def test_set_default_dtype_refusals_as_torch(d: str) -> None:
    """A non-dtype default is an "invalid dtype object" first; a dtype that is no floating
    type is refused without that prefix."""
    assert_as_torch(f"try:\n    L.set_default_dtype({d})\nfinally:\n"
                    "    L.set_default_dtype(L.float32)\nR = L.get_default_dtype()")


def test_set_default_dtype_is_positional_only() -> None:
    """torch's ``d`` is positional-only: naming it is Python's error."""
    assert_as_torch("L.set_default_dtype(d=L.float64)")


@pytest.mark.parametrize("call", [
    "x.transpose()", "x.transpose(1)", "x.transpose(dim1=1)", "L.transpose(x)",
    "L.transpose(x, 1)", "x.unsqueeze()", "L.unsqueeze(x)", "x.select(0)", "x.index_select(0)",
    "x.gather(0)", "x.chunk()", "x.index_add(0)", "x.topk()", "x.kthvalue()", "x.type_as()",
    "L.full((2,))", "L.full()", "L.cat()", "L.stack()", "L.tensor()",
    "L.full_like(x)", "x.mul()", "L.reshape(x)", "L.permute(x)"])
def test_missing_arguments_in_torch_words(call: str) -> None:
    """A required argument left out is named as torch's parser names it: every required one
    from the first missing, in double quotes, with its singular and plural swapped."""
    assert_as_torch(f"x = L.ones(2, 3)\nR = {call}")


@pytest.mark.parametrize("call", [
    "x.repeat(2.0, 1)", "x.expand(2.0, 3)", "x.reshape(2.0, 3)", "x.permute(2.0, 0)",
    "x.flip(2.0, 0)", "x.transpose(1, 0, 2)", "L.transpose(x, 1, 0, 1)", "x.unsqueeze(0, 1)",
    "L.unsqueeze(x, 0, 1)", "x.unbind(0, 1)", "L.reshape(x, 2, 1)", "L.permute(x, (0,), 1)",
    "x.view_as(x, x)"])
def test_too_many_arguments_in_torch_words(call: str) -> None:
    """torch counts a method's positional arguments after the tensor (in its own refusals of
    spread-out sizes too), says "from ... to" where some are optional, and names the
    function as its parser does."""
    assert_as_torch(f"x = L.ones(2, 3)\nR = {call}")


@pytest.mark.parametrize("call", [
    "L.argmax(x, (0, 0))", "x.argmax((0, 0))", "L.argmin(x, 1.5)", "L.nanmedian(x, (0, 0))",
    "L.index_add(x, (), L.tensor([0]), L.ones(1, 3))", "L.index_add(x, 0, [0], L.ones(1, 3))",
    "L.scatter_add(x, (0, 0), L.tensor([[0]]), L.ones(1, 3))", "x.max(0, 1)", "x.min(0, 1)",
    "L.reshape(x, ((),))", "L.reshape(x, (1, 2.0))", "L.permute(x, (0, 1.0))",
    "L.transpose(x, 1.5, 0)", "L.transpose(x, 0, 1.5)", "L.unsqueeze(x, 1.5)",
    "L.chunk(x, 2, 1.5)", "L.topk(x, 1, 1.5)", "L.kthvalue(x, 1, 1.5)",
    "L.gather(x, 1.5, L.tensor([[0]]))", "L.index_select(x, 1.5, L.tensor([0]))",
    "L.flatten(x, 1.5)", "L.cumsum(x, dim=1.5)", "L.randint(True, 5)"])
def test_positions_where_the_caller_put_them(call: str) -> None:
    """An argument of the wrong type is numbered where the call put it: the function form
    counts the tensor, the method does not, a keyword has no number."""
    assert_as_torch(f"x = L.ones(2, 3)\nR = {call}")


@pytest.mark.parametrize("call", [
    "x.round(decimals=1.5)", "x.round(decimals=None)", "x.round(decimals='a')",
    "L.round(x, decimals=1.5)", "L.round(x, decimals=None)", "L.round(x, 1)", "x.round(1)",
    "x.round(1, decimals=1)", "L.round(x, dec=1)", "L.round('a', decimals=1)", "L.round()",
    "x.round_(decimals=1.5)", "x.round_(1)"])
def test_round_decimals_as_torch(call: str) -> None:
    """``decimals`` is keyword-only: a wrong type given by name is named without a position
    where one overload takes that many arguments (the method), the combination where two do
    (the function, which counts ``out``)."""
    assert_as_torch(f"x = L.ones(2)\nR = {call}")


@pytest.mark.parametrize("call", [
    "x.tril_(1.5)", "x.triu_(1.5)", "x.atan2_('a')", "x.hypot_('a')",
    "x.addcmul_(x, x, value='a')", "x.exp_(1)", "x.abs_(1)", "x.relu_(1)", "x.sigmoid_(1)",
    "x.zero_(1)", "x.log_(1)", "x.t_(1)", "x.abs(0)", "x.exp(1, 2)", "x.t(0)",
    "L.abs(x, 0)"])
def test_in_place_and_bare_methods_in_torch_words(call: str) -> None:
    """An in-place method's refusal names the in-place method, numbered as a method; a method
    that takes nothing but the tensor is a C method in torch, refused in Python's words."""
    assert_as_torch(f"x = L.ones(2, 2)\nR = {call}")


@pytest.mark.parametrize("call", [
    "x.max(None)", "x.min(1.5)", "x.max((0, 1))", "x.min(())", "x.max(0, 1)", "L.max(x, 0, 1)",
    "L.max(x, None)", "L.min(x, 1.5)", "L.max(x, dim=None)", "x.max(dim=1.5)",
    "x.min(0, keepdim=1)", "x.max(other=1)", "L.min(x, other=1)",
    "x.prod(())", "L.prod(x, dim=None)", "x.prod(dim=None)", "x.prod(0, 1)", "L.prod(x, 'a')",
    "x.all((0, 1), dtype=L.int64)", "x.all('a')", "L.all(x, 'a')", "x.any(0, 'a')",
    "L.any(x, dim=1.5)", "x.squeeze(None)", "x.squeeze(1.5)", "L.squeeze(x, None)"])
def test_reductions_with_overloads_as_torch(call: str) -> None:
    """max, min, prod, all, any and squeeze have several overloads: an argument that fits none
    is the invalid combination where more than one takes that many arguments (the function
    counting ``out``), the single overload's own refusal where one does."""
    assert_as_torch(f"x = L.ones(2, 3)\nR = {call}")


@pytest.mark.parametrize("call", [
    "x.view(2.0, 3)", "x.view(None)", "x.view('a')", "x.view()", "x.movedim(0, 1, 2)",
    "x.movedim(0)", "L.movedim(x, 0)", "L.movedim(x, 0, 1.5)", "x.movedim((0,), 1.5)",
    "x.narrow(0)", "L.narrow(x, 0)", "x.narrow(0, 0, 1, 1)", "L.narrow(x, 0, 0, 1.5)",
    "x.narrow(0, 'a', 1)"])
def test_views_with_overloads_as_torch(call: str) -> None:
    """view, movedim and narrow list their overloads for a wrong count or type of arguments."""
    assert_as_torch(f"x = L.ones(2, 3)\nR = {call}")


@pytest.mark.parametrize("call", [
    "L.linspace(0, 1, 2.5)", "L.linspace(0, 1, True)", "L.linspace(0, 1)", "L.linspace()",
    "L.linspace(0, 1, '3')", "L.linspace(0, 1, dtype=L.bool)",
    "L.linspace(0, 1, 2.5, dtype=L.int64)", "L.linspace(0, 1, steps=2.5)",
    "L.linspace('a', 1, 3)", "L.logspace(0, 1)", "L.logspace(0, 1, dtype=L.float64)",
    "L.logspace(0, 1, 2.5, dtype=L.int64, requires_grad=True)", "L.logspace(0, 1, 3, 'a')",
    "L.logspace(0, 1, 3, base='a')", "L.rand((2.0, 3), dtype=L.int64)",
    "L.rand(((2, 3),), dtype=L.int64)", "L.rand(((2, 3),), device='cpu')",
    "L.rand(((2, 3),), generator=None)", "L.rand((2.0, 3))",
    "L.randn((2.0, 3), requires_grad=True)", "L.rand(2.0)", "L.rand(2, 'a')",
    "L.randn(2, 'a')"])
def test_factories_with_overloads_as_torch(call: str) -> None:
    """linspace, logspace (start and end each a Tensor or a Number) and rand, randn (with and
    without a generator) list their overloads; a size read after the parse matched is refused
    alone."""
    assert_as_torch(f"R = {call}")


@pytest.mark.parametrize("program", [
    "R = L.vmap(lambda x: x)()", "def f(x): return x\nR = L.vmap(f)()", "R = L.vmap(L.sin)()",
    "R = L.func.vmap(lambda x: x, in_dims=1)()", "R = L.vmap(lambda x: x, in_dims='a')()",
    "R = L.vmap(lambda x: x, chunk_size=-1)(L.ones(3))", "R = L.vmap(lambda x: x, chunk_size=0)",
    "R = L.vmap(lambda x: x, randomness='a', chunk_size=-1)"])
def test_vmap_refusals_name_the_function(program: str) -> None:
    """vmap called with no inputs names the mapped function; a chunk_size below 1 is refused
    when vmap is called, after the randomness."""
    assert_as_torch(program)


@pytest.mark.parametrize("call", [
    "L.Tensor(2, -1)", "L.FloatTensor(2, -1)", "L.LongTensor(-1)", "L.DoubleTensor(2, -3, -1)",
    "L.FloatTensor(2, dtype=L.float64)", "L.Tensor(2, dtype=L.float64)",
    "L.Tensor(2, requires_grad=True)", "L.FloatTensor(2, device='cpu').shape", "L.Tensor(2, 'a')",
    "L.Tensor(L.ones(2), 1)", "L.Tensor(foo=1)", "L.Tensor('a')", "L.Tensor(2.5)",
    "L.Tensor([1, 'a'])", "L.FloatTensor([1, 'a'])", "L.LongTensor([1, 'a'])",
    "L.BoolTensor([1, None])"])
def test_legacy_constructors_as_torch(call: str) -> None:
    """torch.Tensor and the typed constructors are the parser's ``new``: sizes when the first
    argument is an int (a negative one refused with the shape), ``device`` the one keyword,
    data converted to the constructor's dtype element by element."""
    assert_as_torch(f"R = {call}")


@pytest.mark.parametrize("data", ["[1, 'a']", "['a']", "[['a']]", "'a'", "['ab', 1]", "('a',)",
                                  "[[1, 2], 'ab']", "[[1], 'a']", "[1, None]", "[1, object()]"])
@pytest.mark.parametrize("dtype", ["None", "L.float32", "L.int64", "L.int32", "L.uint8",
                                   "L.bool"])
def test_tensor_of_non_numbers_as_torch(data: str, dtype: str) -> None:
    """A string where torch reads the first item of each level is a sequence with no end;
    elsewhere a non-number is refused as its type (inferred) or as the dtype converts it; a
    string alone is no data whatever the dtype."""
    assert_as_torch(f"R = L.tensor({data}, dtype={dtype})")


@pytest.mark.parametrize("data", ["[b'a']", "['']", "[[1, 2], b'ab']"])
def test_tensor_of_bytes_or_empty_strings_as_torch(data: str) -> None:
    """Without a dtype torch infers none for bytes or an empty string."""
    assert_as_torch(f"R = L.tensor({data})")


_NO_GRAD_VIEW = "x = L.ones(3, requires_grad=True)\nwith L.no_grad():\n    v = x[:2]\n"


@pytest.mark.parametrize("program", [
    _NO_GRAD_VIEW + "v.mul_(2)", _NO_GRAD_VIEW + "v.add_(1)", _NO_GRAD_VIEW + "v.zero_()",
    _NO_GRAD_VIEW + "v.copy_(L.ones(2))", _NO_GRAD_VIEW + "v += 1",
    _NO_GRAD_VIEW + "with L.no_grad():\n    v.mul_(2)",
    _NO_GRAD_VIEW + "x.mul_(2)",
    "x = L.ones(3, requires_grad=True) * 1\nwith L.no_grad():\n    v = x[:2]\nv.mul_(2)",
    "x = L.ones(3, requires_grad=True) * 1\nwith L.no_grad():\n    v = x[:2]\nx.mul_(2)\n"
    "R = v * 1",
    "x = L.ones(3)\nwith L.no_grad():\n    v = x[:2]\nv.mul_(L.ones(2, requires_grad=True))",
    "x = L.ones(4, requires_grad=True)\nwith L.no_grad():\n    y = x.chunk(2)\ny[0].mul_(2)",
    "x = L.ones(3, requires_grad=True)\ny = x.unbind()\ny[0].mul_(2)",
    "x = L.ones(3, requires_grad=True) * 1\ny = x.unbind()\ny[0].mul_(2)",
    "x = L.ones(3, requires_grad=True)\ny = x.unbind()\nz = y[0].view(1)\nz.mul_(2)",
    "x = L.ones(4, requires_grad=True)\ny = x.split(2)\ny[0].mul_(2)",
    "x = L.ones(4, requires_grad=True)\ny = x.chunk(2)\nz = y[0][1:]\nz.mul_(2)",
    "x = L.ones(4)\ny = x.chunk(2)\ny[1].add_(L.ones(2, requires_grad=True))",
    "x = L.ones(4)\ny = x.unbind()\ny[1].add_(L.ones(1, requires_grad=True))",
    "x = L.ones(4)\ny = x.chunk(2)\ny[1].add_(1)\nR = x",
    "x = L.ones(3, requires_grad=True)\nv = x[:2]\nv.mul_(2)"])
def test_in_place_on_views_in_torch_order(program: str) -> None:
    """A view autograd cannot rebase (made in no_grad mode, or one of several an op returned)
    is refused before the view-of-a-leaf rule, where the write would be recorded; the message
    names the view's own node when it has one."""
    assert_as_torch(program + "\nR = 0" if "R =" not in program else program)


@pytest.mark.parametrize("write", [
    "x |= L.ones(3)", "x &= L.ones(3, dtype=L.int64)", "x <<= L.ones(3)", "x.copy_(L.ones(3))",
    "x.copy_(L.ones(1, 2, 2, dtype=L.float64))", "x.masked_fill_(L.ones(3).bool(), 1)",
    "x.add_(L.ones(3), alpha=2)", "x.sub_(L.ones(3), alpha=2)", "x.fill_(L.ones(3))",
    "x.add_(L.ones(3))", "x.mul_(L.ones(3))", "x.clamp_(min=L.ones(3))"])
def test_leaf_refused_before_the_kernel_checks(write: str) -> None:
    """Writing into a leaf that requires grad is autograd's refusal, made before the kernel
    checks the operand's shape or dtype."""
    assert_as_torch(f"x = L.ones(2, 2, requires_grad=True)\n{write}\nR = x")


@pytest.mark.parametrize("key", [
    "[[0, 1], [1, 0]], np.int64(1), 1.0", "0, 1, 1.0", "1.0, 0, 1", "1.0, 0", "1.0",
    "1.0, 1:0, L.tensor([0, 9])", "'a', 0, 0", "L.tensor([1.]), 0, 0", "L.tensor([1.]), 0",
    "L.tensor([]), L.tensor(1), L.tensor([1.])", "..., 0, 0, 1.0", "None, 0, 0, 1.0",
    "0, None, 0, 1.0", "0, 1.0, None", "5, 0, 1.0", "5, 1.0", "..., 1.0, ...",
    "0, 0, L.tensor(1.)", "L.tensor([1.]), 5", "L.tensor([True, False]), 5",
    "[True, False], True", "True, [True, False]", "1:, [True, False, True, True, False]",
    "None, L.tensor([True, False])", "L.tensor(True), L.tensor([True, False])",
    "L.tensor([1.]), L.tensor([True, False])", "L.tensor([True, False, True]), L.tensor([5])",
    "L.tensor([0, 1]), L.tensor([True, False])"])
def test_index_checks_in_torch_order(key: str) -> None:
    """torch counts the dims a key indexes first (a float or a string counts), then slices in
    turn (ints' bounds, wrong kinds of index), then its index kernel checks the index tensors'
    dtypes and the masks against the sliced tensor, then the values."""
    assert_as_torch(f"x = L.zeros(3, 4)\nR = x[{key}]")
    assert_as_torch(f"x = L.zeros(3, 4)\nx[{key}] = 1\nR = x")


@pytest.mark.parametrize("key", [
    ":1", "::0", "1:2:0", "'a':", "(slice(None),)", ":1, :1", "0", "5", "-1", "np.int64(0)",
    "2 ** 70", "(0,)", "L.tensor(0)", "True", "None, :1", "..., :1", "1.0", "None, 1.0",
    "..., 1.0", "L.tensor([1.]), -1", "::0, 1.0, ::0"])
def test_index_of_a_0d_tensor_as_torch(key: str) -> None:
    """A lone slice or int indexing a 0-d tensor is applied at once (refused by the slice, or
    as an index of no dim); in a tuple the count of dims comes first."""
    assert_as_torch(f"x = L.tensor(1.5)\nR = x[{key}]")
    assert_as_torch(f"x = L.tensor(1.5)\nx[{key}] = 1\nR = x")


@pytest.mark.parametrize("args", [
    "'a', L.tensor(1.)", "None, L.tensor(2.5)", "None, 2", "None, True", "L.tensor(1.), None",
    "1, 'a'", "L.tensor(1.)", "", "1, 2, 3", "1, 2.5", "L.tensor(1), 2.5",
    "tensor=L.tensor(1), other=2.5", "L.tensor(1), other=None", "[1], 2",
    "np.float32(1), L.tensor(1)", "L.tensor([1, 2]), np.int64(3)"])
def test_result_type_overloads_as_torch(args: str) -> None:
    """result_type takes two operands, each a tensor or a number, as torch's four overloads."""
    assert_as_torch(f"R = L.result_type({args})")


@pytest.mark.parametrize("call", [
    "L.divide(x, 'a', rounding_mode='floor')", "L.divide(x, x, rounding_mode=1)",
    "L.divide(x, 2.5, rounding_mode=1)", "L.divide(x, 'a')", "L.divide(x)",
    "L.div(x, 'a')", "L.div(x, 'a', rounding_mode='floor')", "L.div(x, None)", "L.div('a', x)",
    "L.true_divide(x, 'a')", "x.divide(x, rounding_mode=1)", "x.divide('a')",
    "x.divide_(x, rounding_mode=1)", "x.div('a')", "x.div_('a')", "L.mul(x, 'a')",
    "L.mul('a', x)", "L.mul(x, None)", "x.mul('a')", "x.mul([1])", "L.add(x, 'a')",
    "L.sub(x, 'a')", "L.floor_divide(x, 'a')", "L.concat(L.tensor(1.))",
    "L.concatenate(L.tensor(1.))", "L.concat([x], 1.5)", "L.concat()",
    "L.concatenate([x], dim='a')", "L.randint_like(x, 2.5, requires_grad=True)",
    "L.randint_like(x, 2.5, dtype=L.float32)", "L.randint_like(x, 1, 2.5)",
    "L.randint_like(x, 'a', 'b', 'c')", "L.randint_like(2, 3)", "L.randint_like(x)"])
def test_aliases_and_number_operands_as_torch(call: str) -> None:
    """An alias (divide, true_divide, concat, randint_like's randint) refuses in its own name
    with its own overloads; the binary ops that read a number as a tensor refuse anything
    else as their ``other`` (or ``input``) must be a Tensor."""
    assert_as_torch(f"x = L.ones(2)\nR = {call}")


@pytest.mark.parametrize("call", [
    "F.one_hot(L.tensor([0]), num_classes=4.0)", "F.one_hot(L.tensor([0]), 4.0)",
    "F.one_hot(L.tensor([0]), 4, 5)",
    "F.conv2d(L.ones(1, 3, 5, 5), L.ones(4, 1, 3, 3), stride=1.5)",
    "F.conv2d(L.ones(1, 3, 5, 5), L.ones(4, 1, 3, 3), None, 1.5)",
    "F.conv1d(L.ones(1, 3, 5), L.ones(4, 3, 3), stride=1.5)",
    "F.conv3d(L.ones(1, 1, 3, 3, 3), L.ones(1, 1, 1, 1, 1), groups=1.5)",
    "F.conv2d(L.ones(1, 3, 5, 5), L.ones(4, 1, 3, 3), padding='same', dilation=[1.5])",
    "F.conv2d(L.ones(1, 3, 5, 5))", "F.conv2d(L.ones(1, 3, 5, 5), 'a')",
    "F.softplus(L.ones(2), 'a')", "F.softplus(L.ones(2), beta='a')", "F.linear(L.ones(2), 'a')",
    "F.linear(L.ones(2))", "F.linear(L.ones(2), L.ones(3, 2), 'a')",
    "F.logsigmoid(L.ones(2), 1)", "F.logsigmoid('a')",
    "F.pixel_shuffle(L.ones(1, 4, 2, 2), 1.5)",
    "F.pixel_unshuffle(L.ones(1, 1, 2, 2), downscale_factor='a')", "F.prelu(L.ones(2), 'a')",
    "F.cosine_similarity(L.ones(2), L.ones(2), 1.5)",
    "F.pairwise_distance(L.ones(2), L.ones(2), 'a')",
    "F.adaptive_avg_pool1d(L.ones(1, 2, 4), 1.5)", "F.bilinear(L.ones(2), L.ones(2), 'a')",
    "L.randint(True, 5)", "L.randint(2.5, (2,), dtype=L.float32)", "L.randint(1, 2.5, (2,))"])
def test_functional_c_functions_as_torch(call: str) -> None:
    """The functions of torch.nn.functional that are C functions in torch refuse in its
    parser's words, for the call as it was written (a keyword has no position, the
    convolutions list the arguments given)."""
    assert_as_torch(f"F = L.nn.functional\nR = {call}")


@pytest.mark.parametrize("program", [
    "R = L.zeros(0).expand(-1, -1, -1)", "R = L.zeros(2).expand(-1, 3, -1, 2)",
    "R = L.zeros(2).expand(-1, -1, 3)", "R = L.zeros(()).expand(-1, 2)",
    "R = L.nn.utils.rnn.pad_sequence([], padding_side='bad')",
    "R = L.nn.utils.rnn.pad_sequence((), batch_first=True, padding_side='bad')",
    "R = L.nn.utils.rnn.pad_sequence([L.ones(2)], padding_side='bad')",
    "R = L.tensor(1.).diagonal()", "R = L.tensor(1.).diagonal(0, 0, 0)",
    "R = L.tensor(1.).diagonal(0, 1, 0)", "R = L.diagonal(L.tensor(1.), 0, -1, 0)",
    "R = L.tensor(1.).diag_embed(0, 0, 2)"])
def test_check_order_and_wording_as_torch(program: str) -> None:
    """expand names the last leading -1 (torch walks the sizes from the back); pad_sequence
    refuses no sequences before a bad side; diagonal wraps a 0-d tensor's dims as one dim's."""
    assert_as_torch(program)


@pytest.mark.parametrize("call", [
    "F.interpolate(L.arange(6.).view(2, 3), size=0, mode='nearest-exact')",
    "F.interpolate(L.arange(6.).view(2, 3), scale_factor=-1, mode='nearest')",
    "F.interpolate(L.arange(6.).view(2, 3), scale_factor=1.5, mode='bicubic')",
    "F.interpolate(L.arange(6.).view(2, 3), scale_factor=1.5, mode='linear')",
    "F.interpolate(L.ones(1, 1, 1, 1, 1, 2), scale_factor=2)",
    "F.interpolate(L.ones(1, 1, 1, 1, 1, 2), size=(2, 2, 2, 2))",
    "F.interpolate(L.arange(12.).view(1, 1, 3, 4), scale_factor=2, mode='bad')",
    "F.interpolate(L.arange(6.).view(1, 2, 3), scale_factor=2, mode='bad')",
    "F.interpolate(L.ones(2), scale_factor=2)", "F.interpolate(L.ones(2), size=(2, 2))",
    "F.interpolate(L.ones(1, 2, 3), scale_factor=2, mode='bilinear')"])
def test_interpolate_rank_as_torch(call: str) -> None:
    """interpolate refuses a rank other than 3, 4, 5 (or a mode it does not know) in torch's
    words, after the size or scale factor."""
    assert_as_torch(f"F = L.nn.functional\nR = {call}")


@pytest.mark.parametrize("call", [
    "F.conv1d(L.ones(1, 2, 5), L.ones(4, 2), padding=(1, 1))",
    "F.conv1d(L.ones(1, 2, 5), L.ones(4, 2), stride=(1, 2, 3))",
    "F.conv1d(L.ones(1, 2, 5), L.ones(4))", "F.conv1d(L.ones(2, 5), L.ones(4, 2))",
    "F.conv2d(L.ones(1, 2, 5, 5), L.ones(4, 2, 3), padding='same', stride=2)",
    "F.conv2d(L.ones(1, 2, 5, 5), L.ones(4, 2, 3), padding='same', dilation=(1, 2, 3))",
    "F.conv2d(L.ones(1, 2, 5, 5), L.ones(4, 2, 3, 3), padding='same', dilation=(1, 2, 3), "
    "stride=2)", "F.conv2d(L.ones(1, 2, 5, 5), L.ones(4, 2, 3, 3), padding='same', "
    "stride=(2, 1, 1))", "F.conv2d(L.ones(1, 2, 5, 5), L.ones(4, 2, 3, 3), padding='same', "
    "groups=0, stride=2)", "F.conv2d(L.ones(1, 2, 5, 5), L.ones(4, 2, 3), stride=(1, 2, 3))",
    "F.conv2d(L.ones(1, 2, 5, 5), L.ones(4, 2, 3))",
    "F.conv2d(L.ones(1, 2, 5, 5), L.ones(4, 2, 3, 3, 3), stride=(1, 2, 3))",
    "F.conv2d(L.ones(2, 5, 5), L.ones(4, 2, 3), padding=(1, 1, 1))",
    "F.conv2d(L.ones(1, 2, 5, 5), L.ones(4, 2, 3, 3), groups=0, stride=(1, 2, 3))",
    "F.conv2d(L.ones(1, 2, 5, 5), L.ones(4, 2), padding='bad')",
    "F.conv2d(L.ones(1, 2, 5, 5), L.ones(4, 2), groups=0)",
    "F.conv2d(L.ones(5, 5), L.ones(4, 2), stride=0)",
    "F.conv2d(L.ones(1, 2, 5, 5), L.ones(4, 2, 3, 3), stride=0, padding=(1, 1, 1))",
    "F.conv3d(L.ones(1, 1, 3, 3, 3), L.ones(1, 1, 1, 1), stride=(1, 1))",
    "F.conv3d(L.ones(1, 1, 3, 3, 3), L.ones(1, 1), stride=(1, 1))",
    "F.conv_transpose2d(L.ones(1, 2, 5, 5), L.ones(2, 4), groups=0)"])
def test_convolution_checks_in_torch_order(call: str) -> None:
    """A convolution checks the padding string, the weight's rank (at least three dims), the
    groups, then each of stride, padding, dilation against the weight's window dims ('same':
    the ranks first, then lengths that cannot broadcast, then the stride)."""
    assert_as_torch(f"F = L.nn.functional\nR = {call}")


@pytest.mark.parametrize("call", [
    "L.ones(2, 2).sub(L.ones(3), alpha=True)", "L.add(L.ones(3, 1), L.ones(2, 3), alpha=True)",
    "L.add(L.ones(3, 1, dtype=L.int64), L.ones(2, 3, dtype=L.int64), alpha=1.5)",
    "L.add(L.ones(3, 1, dtype=L.int64), L.ones(2, 3, dtype=L.int64), alpha='a')",
    "L.sub(L.ones(3, dtype=L.bool), L.ones(2, dtype=L.bool), alpha=2)",
    "L.ones(3).add_(L.ones(2), alpha=True)", "L.ones(2, 2).add(L.ones(2), alpha=True)"])
def test_alpha_checked_after_the_broadcast(call: str) -> None:
    """add's and sub's alpha is checked against the result's dtype after the operands
    broadcast (its type by the parser, first)."""
    assert_as_torch(f"R = {call}")


@pytest.mark.parametrize("call", [
    "L.empty((2, None), dtype='x')", "L.zeros((2, None), dtype='x')", "L.zeros(2, dtype='x')",
    "L.rand((2, None), dtype='x')", "L.randn((2, 'a'), requires_grad=1)",
    "L.empty(True, size=(2,))", "L.empty((2.0, 3), size=(2,))", "L.ones((2.0, 3), size=(2,))",
    "L.empty(2, size=(2,))", "L.zeros(2, size=(2,))", "L.randn(2, size=(2,))",
    "L.zeros(size=2.5)", "L.zeros(size=(2, 'a'))", "L.ones(size=[2.5])", "L.ones(size=(2.5,))",
    "L.reshape(L.ones(2), shape=(2.5,))", "L.ones(2).view(size=(2.5,))"])
def test_sizes_read_after_the_parse_as_torch(call: str) -> None:
    """torch's parser checks the first size and the other arguments' types; the other sizes
    are read (and refused) after; a size given twice is refused after the positional one's
    type; a keyword's sequence is refused whole (torch names no bad element of it)."""
    assert_as_torch(f"R = {call}")


@pytest.mark.parametrize("program", [
    "m = L.nn.Conv2d(2, 4, 3)\nR = m(L.ones(2, 4), 1, 2)", "m = L.nn.Conv1d(2, 4, 3)\nR = m()",
    "m = L.nn.Conv3d(2, 4, 3)\nR = m(1, 2)",
    "m = L.nn.Conv2d(2, 4, 3, padding_mode='reflect', padding=1)\nR = m(L.ones(1, 2, 5, 5)).shape",
    "R = L.normal(0., 1.)", "R = L.normal(0., 1., (2,), 'a')", "R = L.normal('a', 1.)",
    "R = L.normal(L.ones(2), 'a')", "R = L.normal(0., 1., size=(2,), dtype='x')",
    "R = L.normal(0., L.ones(2), size=(2,))", "R = L.normal()",
    "R = L.linspace(0, 1, 2 ** 40)", "R = L.linspace(0, 1, 2 ** 40, dtype=L.int32)",
    "R = L.logspace(0, 1, 2 ** 40, dtype=L.float64)",
    "R = L.func.jacrev(lambda x: 3.0, has_aux=True)(L.ones(2, 3))",
    "R = L.func.jacrev(lambda x: (x, x, x), has_aux=True)(L.tensor(2.))"])
def test_names_overloads_and_sizes_in_messages(program: str) -> None:
    """Each convolution layer has its own forward (its name in Python's arity message);
    normal lists its four overloads; linspace's allocation counts its dtype's bytes; jacrev's
    aux check speaks as the vjp it runs."""
    assert_as_torch(program)


_MODE_RANK = {"linear": 3, "bilinear": 4, "trilinear": 5, "bicubic": 4, "lanczos": 4}


@pytest.mark.parametrize(("mode", "rank"), [(mode, rank) for mode, own in _MODE_RANK.items()
                                            for rank in (3, 4, 5) if rank != own])
def test_interpolate_mode_of_another_rank_as_torch(mode: str, rank: int) -> None:
    """A mode of one rank on another: the linear modes name the rank they need, bicubic and
    lanczos get torch's 'Input Error'."""
    assert_as_torch(f"R = L.nn.functional.interpolate(L.ones(*([1] * {rank})), "
                    f"scale_factor=2, mode='{mode}')")


@pytest.mark.parametrize("call", [
    "nn.BCEWithLogitsLoss(pos_weight=L.ones(2))(L.ones(2, 3), L.ones(2, 3))",
    "F.binary_cross_entropy_with_logits(L.ones(3), L.ones(3), weight=L.ones(2))",
    "F.binary_cross_entropy_with_logits(L.ones(3), L.ones(3), pos_weight=L.ones(2))",
    "F.binary_cross_entropy_with_logits(L.ones(2, 3), L.ones(2, 3), weight=L.ones(2))",
    "F.binary_cross_entropy_with_logits(L.ones(2, 3), L.ones(2, 3), weight=L.ones(2), "
    "pos_weight=L.ones(4))",
    "F.binary_cross_entropy_with_logits(L.ones(2, 3), L.ones(2, 3), weight=L.ones(2, 1, 1))",
    "F.binary_cross_entropy_with_logits(L.ones(2, 3), L.ones(2, 3), pos_weight=L.ones(2, 1, 1))",
    "F.binary_cross_entropy(L.ones(3) / 2, L.ones(3), weight=L.ones(2))",
    "F.binary_cross_entropy(L.ones(2, 3) / 2, L.ones(2, 3), weight=L.ones(2))",
    "F.binary_cross_entropy(L.ones(2, 3) / 2, L.ones(2, 3), weight=L.ones(2, 1, 1))",
    "nn.BCELoss(weight=L.ones(2))(L.ones(3) / 2, L.ones(3))"])
def test_binary_cross_entropy_weights_as_torch(call: str) -> None:
    """The weights broadcast as torch's code uses them: pos_weight with the target, then
    into the loss in place, then weight into the loss in place (binary_cross_entropy's weight
    first broadcast with the target by torch's Python)."""
    assert_as_torch(f"F, nn = L.nn.functional, L.nn\nR = {call}")


@pytest.mark.parametrize("f", ["lambda x: 3.0", "lambda x: (x, 3.0)", "lambda x: [x]"])
@pytest.mark.parametrize("x", ["L.tensor(2.)", "L.ones(0)", "(L.ones(2), L.ones(1))"])
def test_forward_mode_jacobian_outputs_as_torch(f: str, x: str) -> None:
    """jacobian's forward mode checks the outputs as torch's _jacfwd does (naming no
    function), its reverse mode as jacobian."""
    call = "L.autograd.functional.jacobian"
    assert_as_torch(f"R = {call}({f}, {x}, strategy='forward-mode', vectorize=True)")
    assert_as_torch(f"R = {call}({f}, {x})")


@pytest.mark.parametrize("key", [
    "L.ones(2, 3).bool(), 9", "L.tensor([True, False]), 9", "..., 9", "0, ..., 9",
    "None, ..., 9", "..., None, 9", "[0], ..., 9", "True, 0, 9", "0, None, None, 9", "0, 1, 9",
    "..., 9, 0", "None, 0, 9, 0", "L.tensor([1.]), ..., 9"])
def test_int_out_of_bounds_numbered_by_its_item(key: str) -> None:
    """An int out of range is numbered by its item in the key (an ellipsis, None or a mask is
    one item), as torch's slicing counts them."""
    assert_as_torch(f"x = L.zeros(2, 3, 4)\nR = x[{key}]")
    assert_as_torch(f"x = L.zeros(2, 3, 4)\nx[{key}] = 1\nR = x")


@pytest.mark.parametrize("dtype", ["bool", "float32", "float64", "int64", "uint8"])
@pytest.mark.parametrize("write", ["R = x.expand_as(L.ones(6))", "R = x.expand(6)",
                                   "y = L.ones(2, 3)\ny[0] = L.ones(3, 1, 3, dtype=x.dtype)"])
def test_expand_names_the_tensor_type(dtype: str, write: str) -> None:
    """expand's refusal names the tensor's type as torch does: bool, which has no legacy
    tensor type, as CPUBoolType."""
    assert_as_torch(f"x = L.ones(2, 3, dtype=L.{dtype})\n{write}")
