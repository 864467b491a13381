"""What the session-30 fuzzers found, each a small program run on torch and on minitorch
(``L``) whose outcome, the value of ``R`` or the exception's type and message, must be the
same: a list of tensors checked element by element before any later argument, ``tensor``'s
keyword-only options, a memory format's type before the device, addbmm's autograd reading
the batch count, and ``out=`` where torch's function takes one (index_copy, the scatters,
narrow_copy, orgqr, lu_solve, chain_matmul, special's logsumexp and multigammaln, lu), every
given type before a missing argument, the device made before a size is unpacked, and a
composite op's out=: its input's dtype first, autograd's refusal under the op it runs, or its
result copied in, in the graph."""

from __future__ import annotations

import pytest
from test_bad_input_fuzz21b_oracle import assert_as_torch

ROW = "x = L.ones(3); i = L.tensor([0]); "
# an int list's overflow: its message up to the C++ frames torch's carries
UNPACKED = "try:\n    {}\nexcept TypeError as e:\n    R = str(e).split('\\nException')[0]"


@pytest.mark.parametrize("program", [
    # a tensor list: each element's type is the parser's, before dim, out and stray keywords
    "R = L.cat(L.ones(2), dim=2**63, out=3)",
    "R = L.cat([L.ones(2), 1], dim=True, out=L.ones(2))",
    "R = L.cat([L.ones(2), 1], out=3)",
    "R = L.cat((L.ones(2), 'a'), 1.5, out=L.ones(2))",
    "R = L.cat(tensors=[L.ones(2), 1], dim=True, out=L.ones(2))",
    "R = L.stack([L.ones(2), None], dim=True, out=L.ones(2))",
    "R = L.stack(L.ones(2), dim=2**63, out=3)",
    "R = L.hstack([L.ones(2), 1], out=3)",
    "R = L.hstack(tensors=(L.ones(2), 'a'), dim=1.5)",
    "R = L.concat((L.ones(2), 'a'), dim=1.5, out=L.ones(2))",
    "R = L.linalg.multi_dot(None, tensors=[L.ones(2)])",
    "R = L.ones(3).index_put((1,), L.tensor(1.), 1.5)",
    "R = L.index_put(L.ones(3), [None, 'a'], L.tensor(1.), 1.5)",
    "R = L.cat([L.ones(2), L.ones(2)], dim=1.5, out=L.ones(2))",
    # tensor() takes its options by keyword only
    "R = L.tensor([1], None)",
    "R = L.tensor(L.ones(2, 1), L.float32)",
    "R = L.tensor([1], L.float32, dtype=L.int64)",
    "R = L.tensor(data=[1], dtype=L.float64)",
    # stack_module_state reads a sequence: its len(), then by index
    "R = L.func.stack_module_state(1)",
    "R = L.func.stack_module_state(iter([L.nn.Linear(1, 1)]))",
    "R = L.func.stack_module_state({L.nn.Linear(1, 1): 1})",
    "R = L.func.stack_module_state([L.nn.Linear(1, 1), L.nn.ReLU()])",
    "R = L.func.stack_module_state((L.nn.Linear(1, 1), L.nn.Linear(1, 1)))[0]['weight'].shape",
    # a memory format's type is the parser's, before the device is reached; the device is
    # reached before the layout's rank is checked
    "R = L.ones(2).mtia(2, memory_format='right')",
    "R = L.ones(2).xpu(memory_format='right')",
    "R = L.ones(2).cuda('foo', memory_format='right')",
    "R = L.ones(2).cuda(memory_format=L.channels_last)",
    "R = L.ones(2).cuda(non_blocking=2, memory_format='a')",
    "R = L.ones(2).cuda(1.5, 2, memory_format='a')",
    "R = L.ones(2).to('cuda', memory_format=L.channels_last)",
    "R = L.ones(2).cpu(memory_format='right')",
    "R = L.ones(2).cpu(memory_format=L.channels_last)",
    "R = L.ones(2).cpu(memory_format=L.contiguous_format)",
    "R = L.ones(2).cpu(2)",
    "R = L.ones(2).cpu(foo=1)",
    "R = L.nn.Linear(1, 1).cuda(1.5)",
    # addbmm's autograd saves batch1's batch count before the kernel reads its sizes
    "R = L.ones(3, 3, requires_grad=True).addbmm(L.tensor(1.), L.tensor([1, 2]))",
    "R = L.ones(3, 3).addbmm_(L.tensor(1., requires_grad=True), batch2=L.tensor([1, 2]))",
    "R = L.ones(3, 3).addbmm(L.tensor(1.), L.tensor([1, 2]))",
    "R = L.ones(3, 3).addbmm(L.ones(2, 2, 2), L.ones(2, 2, 2, requires_grad=True))",
    "R = L.ones(3, 3).addbmm(L.ones(1, 3, 2), L.ones(1, 2, 3, requires_grad=True))",
    # out= where torch's function takes one
    ROW + "R = L.index_copy(x, 0, i, L.tensor([5.]), out=L.zeros(3))",
    ROW + "R = L.index_copy(x, 0, i, L.tensor([5.]), out=L.zeros(3, dtype=L.float64))",
    ROW + "R = L.index_copy(x.requires_grad_(), 0, i, L.tensor([5.]), out=L.zeros(3))",
    ROW + "R = L.index_copy(x, 1.5, i, L.tensor([5.]), out=3)",
    ROW + "R = L.index_copy(x, 0, L.tensor([3]), L.tensor([5.]), out=L.zeros(3))",
    ROW + "o = L.ones(6); R = (L.index_copy(x, 0, i, L.tensor([5.]), out=o[::2]), o)",
    ROW + "R = L.scatter(x, 0, i, L.tensor([5.]), out=L.zeros(3))",
    ROW + "R = L.scatter(x, 0, i, 5., out=L.zeros(3))",
    ROW + "R = L.scatter(x, 0, i, value=5., out=L.zeros(3))",
    ROW + "R = L.scatter(x, 0, i, 5., reduce='add', out=L.zeros(3))",
    ROW + "R = L.scatter(x, 0, i, L.tensor([5.]), out=L.zeros(3, dtype=L.int64))",
    ROW + "R = L.scatter(x, 0, i, L.tensor([5.]), out=3)",
    ROW + "R = L.scatter(x, 0, i, src=2.0, out=L.zeros(3))",
    ROW + "R = L.scatter_add(x, 0, i, L.tensor([5.]), out=L.zeros(3))",
    ROW + "R = L.scatter_add(x, 0, i, L.tensor([5.]), out=L.zeros(3, dtype=L.int64))",
    ROW + "R = L.scatter_reduce(x, 0, i, L.tensor([5.]), 'sum', out=L.zeros(3))",
    ROW + "R = L.scatter_reduce(x, 0, i, L.tensor([5.]), 'mean', include_self=False, "
          "out=L.zeros(3, dtype=L.float64))",
    ROW + "R = L.narrow_copy(x, 0, 0, 2, out=L.zeros(2))",
    ROW + "R = L.narrow_copy(x, 0, 0, 2, out=L.zeros(2, dtype=L.int64))",
    ROW + "R = L.narrow_copy(x.requires_grad_(), 0, 0, 2, out=L.zeros(2))",
    "R = L.orgqr(L.eye(2), L.ones(2), out=L.zeros(1))",
    "R = L.orgqr(L.eye(2), L.ones(2), out=L.zeros(1, dtype=L.int32))",
    "R = L.orgqr(L.eye(2, requires_grad=True), L.ones(2), out=L.zeros(1))",
    "p = L.tensor([1, 2], dtype=L.int32); R = L.lu_solve(L.ones(2, 1), L.eye(2), p, "
    "out=L.zeros(2, 1))",
    "p = L.tensor([1, 2], dtype=L.int32); R = L.lu_solve(L.ones(2, 1), L.eye(2), p, "
    "out=L.zeros(2, 1, dtype=L.float64))",
    "R = L.chain_matmul(L.ones(2, 2), L.ones(2, 2), out=L.zeros(2, 2))",
    "R = L.chain_matmul(L.ones(2, 2), L.ones(2, 2), out=L.zeros(2, 2, dtype=L.int64))",
    "R = L.chain_matmul(L.ones(2, 2), L.ones(2, 2), out=3)",
    "R = L.chain_matmul(L.ones(2, 2, requires_grad=True), out=L.zeros(1, dtype=L.int64))",
    "R = L.chain_matmul(L.ones(2, 2, requires_grad=True), L.ones(2, 2), out=L.zeros(1))",
    "R = L.chain_matmul(out=L.zeros(1))",
    "R = L.linalg.multi_dot([L.ones(2, 2), L.ones(2, 2, requires_grad=True)], out=L.zeros(1))",
    "R = L.special.logsumexp(L.ones(2), 0, out=L.zeros(()))",
    "R = L.special.logsumexp(L.ones(2), 0, out=3)",
    "R = L.special.logsumexp(L.ones(2), 0, out=L.zeros((), dtype=L.int64))",
    "R = L.special.multigammaln(L.ones(2) * 3, 2, out=L.zeros(2))",
    "R = L.special.multigammaln(L.ones(2) * 3, 2.5, out=1)",
    "R = L.mvlgamma(L.ones(2) * 3, 2, out=L.zeros((), dtype=L.int64))",
    "R = L.mvlgamma(L.ones(2) * 3, 2, out=L.zeros((), dtype=L.float64))",
    "R = L.mvlgamma(L.ones(2, dtype=L.float64) * 3, 2, out=L.zeros((), dtype=L.float16))",
    "R = L.mvlgamma(L.ones(2) * 3, p=2.5)",
    "R = L.ones(2).mvlgamma(2.5)",
    # lu: torch's Python functions (named by the one boolean_dispatch runs), with out=;
    # Tensor.lu is Python too, and warns once as the op it calls
    "R = L.lu(L.ones(2, 2), 1, True, 4, 5)",
    "R = L.lu(L.ones(2, 2), get_infos=True, foo=1)",
    "R = L.lu(1, 2**62, None, dims=L.ones(2))",
    "R = L.lu()",
    "R = L.lu(L.ones(2, 2), out=3)",
    "R = L.lu(L.tensor([[0., 1.], [2., 0.]]), out=[L.zeros(1), L.zeros(1, dtype=L.int32)])",
    "R = L.lu(L.tensor([[0., 1.], [2., 0.]]), get_infos=True, out=(L.zeros(1), "
    "L.zeros(1, dtype=L.int32), L.zeros(1, dtype=L.int32)))",
    "R = L.lu(L.tensor([[0., 1.], [2., 0.]]), out=[L.zeros(1), 1])",
    "R = L.lu(L.tensor([[0., 1.], [2., 0.]]), out=[L.zeros(1)])",
    "R = L.lu(L.tensor([[0., 1.], [2., 0.]]), out='ab')",
    "R = L.ones(2, 2).lu(True, 1, 3)",
    "R = L.ones(2, 2).lu(get_infos=1, foo=2)",
    "R = L.ones(2, 2).lu(out=3)",
    "R = L.ones(2, 2).lu(2)",
    "import warnings\nwith warnings.catch_warnings(record=True) as w:\n"
    "    warnings.simplefilter('always')\n    L.ones(2, 2).lu(); L.lu(L.ones(2, 2))\n"
    "R = len(w) <= 1",
    # every given argument's type before the missing ones (torch's top-level norms, loss)
    "R = L.batch_norm([1.0, 2.0])",
    "R = L.batch_norm(L.ones(2), 1)",
    "R = L.batch_norm(L.ones(2), None, None, None, None, True, 0.1, eps='a')",
    "R = L.batch_norm(L.ones(2), None, None, None, None, 'a')",
    "R = L.batch_norm(L.ones(2), None, None)",
    "R = L.batch_norm(L.tensor([[1.], [3.]]), None, None, None, None, True, 0.1, 1e-5, False)",
    "R = L.instance_norm('a')",
    "R = L.instance_norm(L.ones(2), 1)",
    "R = L.instance_norm(L.tensor([[[1., 3.]]]), None, None, None, None, 1, 0.1, 1e-5, False)",
    "R = L.poisson_nll_loss(L.ones(2), L.ones(2), 1)",
    "R = L.poisson_nll_loss(L.zeros(2), L.ones(2), True, False, 1e-8, 2.5)",
    "R = L.poisson_nll_loss(L.zeros(2), L.ones(2), True, False, 1e-8, 2**63)",
    # as_subclass's class must be a type first
    "R = L.ones(4).as_subclass('a')",
    "R = L.ones(4).as_subclass(int)",
    # a factory's out=: the parser's types first; an unknown keyword is told from its options
    "R = L.eye(n=(0,), out=L.ones(1), dtype=L.int64)",
    "R = L.eye(2, m=1.5, out=L.ones(1), dtype=L.int64)",
    "R = L.zeros(2, out=L.ones(1), dtype=L.int64, foo=1)",
    "R = L.zeros(2, layout=L.strided, foo=1)",
    "R = L.zeros(2, pin_memory=False, foo=1)",
    "R = L.full((2,), 1., out=L.ones(1), foo=1)",
    "R = L.zeros_like(L.ones(2), layout=L.strided, foo=1)",
    # a Number parameter takes a complex number (its kernel refuses the value)
    "R = L.addmm(L.ones(3, 3), L.ones(3, 3), L.ones(3, 3), alpha=(1+2j), out=L.ones(3, 3))",
    "R = L.addmm(L.ones(3, 3), L.ones(3, 3, dtype=L.int32), L.ones(3, 3, dtype=L.uint8), "
    "alpha=(1+2j), out=L.ones(3, 3, dtype=L.float64))",
    "R = L.threshold(L.ones(3), (1+2j), 2, out=L.ones(3))",
    "R = L.threshold(L.ones(3), 'a', 2, out=L.ones(3))",
    # svd and slice_scatter: every type, then the values
    "R = L.linalg.svd(L.ones(2, 2), None, driver=3)",
    "R = L.linalg.svd(L.ones(2, 2), 1, driver='gesvd')",
    "R = L.linalg.svd(A=L.ones(1, 1, 5, dtype=L.int64), full_matrices=None)",
    "R = L.ones(2, 3).slice_scatter(src=L.ones(2, 3), start=L.ones(1), step=(2, 3))",
    "R = L.slice_scatter(L.zeros(4), L.ones(2), start=2**63, step='a')",
    "R = L.slice_scatter(L.zeros(4), L.ones(2), start=2**63, step=2**64)",
    "R = L.slice_scatter(L.zeros(4), L.ones(2), start=L.tensor(1), step=2)",
    "R = L.slice_scatter(L.zeros(4), L.ones(2), 0, None, 2.5, 2)",
    # the device is made once every type is read: before a size is unpacked or checked
    "R = L.zeros(2**63, device='amax')",
    "R = L.zeros(-1, device=-1)",
    "R = L.zeros(-1, device='amax', requires_grad=1)",
    "R = L.full((-1,), 2, device='amax')",
    "R = L.full((2,), 'a', device='amax')",
    "R = L.empty_strided((2**63,), (1,), device='amax')",
    "R = L.arange(-1, device='amax')",
    "R = L.rand(-1, device='amax')",
    "R = L.eye(-1, device='amax')",
    "R = L.linspace(0, 1, -1, device='amax')",
    "R = L.randint(0, 2, (-1,), device='amax')",
    "R = L.randperm(-1, device='amax')",
    "R = L.ones(2).new_ones(-1, device='amax')",
    "R = L.ones(2).new_zeros(2**63, device='amax')",
    "R = L.ones(2).new_ones(2, layout='a', pin_memory=3, requires_grad=1)",
    "R = L.ones(2).new_ones(2, pin_memory=3, requires_grad=1)",
    "R = L.ones(2).new_full((-1,), 2, device='amax')",
    "R = L.ones(2).new_full(-1)",
    "R = L.ones(2).new_full((2,), 1, layout='a', requires_grad=1)",
    "R = L.ones(3).new_empty_strided((-1,), stride=(1, 1), device='amax')",
    "R = L.ones(3).new_empty_strided((2**63,), (1,), device='amax')",
    "R = L.ones(6).reshape(2**63, foo=1)",
    "R = L.ones(2, 3).permute(1, 2**63, foo=1)",
    # a composite op's out=: its input's dtype checked first (linalg), the op with out= it
    # runs named by autograd's refusal, or its result copied in, in the graph
    "R = L.linalg.tensorsolve(L.ones(3), L.ones(2, 1), out=L.ones(3, 2, dtype=L.int8))",
    "R = L.linalg.tensorsolve(L.ones(3), L.ones(2, 1))",
    "R = L.linalg.cond(L.ones(3), out=L.ones(1, dtype=L.int8))",
    "R = L.linalg.pinv(L.ones(3), out=L.ones(1, dtype=L.int8))",
    "R = L.cholesky_solve(L.ones(3), L.ones(3), out=L.ones(1, dtype=L.int8))",
    "R = L.linalg.cond(L.eye(2, requires_grad=True), out=L.ones(1, dtype=L.int8))",
    "x = L.eye(2, requires_grad=True); o = L.ones(1)\nL.linalg.tensorsolve(x, L.ones(2), "
    "out=o).sum().backward(); R = (o.grad_fn.name(), x.grad)",
    "v = L.ones(3, requires_grad=True); o = L.ones(1)\nL.inner(v, v * 2, out=o).backward()\n"
    "R = (o.grad_fn.name(), v.grad)",
    "R = L.quantile(L.ones(3, requires_grad=True), 0.5, out=L.ones(1)).requires_grad",
    "R = L.linalg.norm(L.eye(2, requires_grad=True), out=L.ones(1)).grad_fn.name()",
    "R = L.nuclear_norm(L.eye(2, requires_grad=True), out=L.ones(1)).requires_grad",
    "R = L.matrix_power(L.eye(2, requires_grad=True), 0, out=L.ones(1))",
    "R = L.matrix_power(L.eye(2, requires_grad=True), 1, out=L.ones(1)).grad_fn.name()",
    "R = L.matrix_power(L.eye(2, requires_grad=True), 2, out=L.ones(1))",
    "R = L.matrix_power(L.eye(2, requires_grad=True), -1, out=L.ones(1))",
    "R = L.linalg.vecdot(L.eye(2, requires_grad=True), L.eye(2), out=L.ones(1))",
    "R = L.linalg.vecdot(L.ones(2, requires_grad=True), L.ones(2), out=L.ones(1))",
    "R = L.diff(L.ones(3), prepend=L.ones(1, requires_grad=True), out=L.ones(1))",
    "R = L.outer(L.ones(3, requires_grad=True), L.ones(3), out=L.ones(1))",
    "R = L.nanmean(L.ones(3, requires_grad=True), out=L.ones(1))",
    "R = L.clip(L.ones(3, requires_grad=True), 0, 1, out=L.ones(1))",
    "R = L.frobenius_norm(L.eye(2, requires_grad=True), (0, 1), out=L.ones(1))",
    "R = L.linalg.det(L.eye(2, requires_grad=True), out=L.ones(1))",
    "R = L.linalg.eigvalsh(L.eye(2, requires_grad=True), out=L.ones(1))",
    "R = L.linalg.svdvals(L.eye(2, requires_grad=True), out=L.ones(1))",
    "R = L.linalg.cholesky(L.eye(2, requires_grad=True), out=L.ones(1))",
    "R = L.linalg.solve(L.eye(2, requires_grad=True), L.ones(2), out=L.ones(1))",
    "R = L.linalg.matmul(L.eye(2, requires_grad=True), L.eye(2), out=L.ones(1))",
    # a factory's out= that requires grad: the arguments unpacked first; randn's and empty's
    # out= resize it (torch's refusal of that)
    *(UNPACKED.format(call) for call in (
        "L.ones((2**63,), out=L.ones(1, requires_grad=True))",
        "L.zeros(2, 2**63, out=L.ones(1, requires_grad=True))",
        "L.rand((2**63,), out=L.ones(1, requires_grad=True))")),
    "R = L.arange(2**64, out=L.ones(1, requires_grad=True))",
    "R = L.linspace(0, 1, 2**63, out=L.ones(1, requires_grad=True))",
    "R = L.ones((-1,), out=L.ones(1, requires_grad=True))",
    "R = L.randn(2, out=L.ones(1, requires_grad=True))",
    "R = L.empty(2, out=L.ones(1, requires_grad=True))",
    "R = L.empty(-1, out=L.ones(1, requires_grad=True))",
    "R = L.zeros(2, out=L.ones(1, requires_grad=True))",
    # one float16 element: fill_'s fast path reads a double (its imaginary part refused)
    "R = L.full((1,), 1j, dtype=L.float16)",
    "R = L.full((2,), 1j, dtype=L.float16)",
    "R = L.ones(1, dtype=L.float16).fill_(1j)",
    "R = L.ones(1, dtype=L.float16).fill_(2+0j)",
    "R = L.ones(1, dtype=L.float16).fill_(1e300)",
    "R = L.scalar_tensor(1j, dtype=L.float16)",
    # out=: linspace reads complex ends into out's dtype; logsumexp unpacks its dim first;
    # empty_strided's lists typed before either is unpacked
    "R = L.linspace(0, 1j, 10, out=L.ones(1))",
    "R = L.logspace(0, 1j, 10, out=L.ones(1))",
    "R = L.linspace(0, 2+0j, 3, out=L.ones(1))",
    "R = L.linspace(0, 1j, 10, dtype=L.float32)",
    "R = L.logsumexp(L.ones(2, dtype=L.int64), 2**63, out=L.ones(1, dtype=L.int64))",
    "R = L.logsumexp(L.ones(2, dtype=L.int64), 5, out=L.ones(1, dtype=L.int64))",
    "R = L.empty_strided((2, None), 6)",
    "R = L.empty_strided(size=2, stride=(1,))",
    "R = L.empty_strided((2,), stride=1)",
    "R = L.ones(2).new_empty_strided((2,), stride=1)",
    # numpy's scalars as torch's parser reads them: complex128 is a Python complex, float32
    # a real number (in-place and out= casts refused before the kernel)
    "R = L.ones(2, dtype=L.int64).add_(np.complex128(1j))",
    "R = L.ones(0, dtype=L.int64).add_(np.complex128(complex('nan')))",
    "R = L.ones(2, 1, dtype=L.uint8).__iand__(np.complex128(2**63))",
    "R = L.ones(2, dtype=L.int64).add_(np.complex64(1j))",
    "R = L.bitwise_xor(L.ones(2, 3, dtype=L.bool), np.float32(0.5), out=L.ones(3, 0, "
    "dtype=L.bool))",
    "R = L.add(L.ones(2, 3, dtype=L.int64), np.float32(0.5), out=L.ones(2, 3, dtype=L.int64))",
    "R = L.ones((), dtype=L.float16).pow(complex('nan'))",
    "R = L.ones(2, dtype=L.float16) ** 1j",
    "R = L.ones(2, dtype=L.float16).pow_(1j)",
    # arange of bools is int64's; a 0-d numpy array indexes as its value truncated (or bool)
    "R = L.arange(True, True, True)",
    "R = L.arange(False, True, True)",
    "R = L.ones(0)[np.array(2.0)]",
    "R = L.arange(5.)[np.array(2.7)]",
    "R = L.arange(5.)[np.array(-1.5)]",
    "R = L.ones(3)[np.array(True)]",
    "R = L.arange(6.).reshape(2, 3)[np.array(1.9), np.array(1.9)]",
    "R = L.arange(5.)[np.float64(2.0)]",
    "x = L.arange(5.); x[np.array(1.5)] = 9; R = x",
    # oneDNN runs a float32 convolution of a batch: its refusal of an empty kernel side
    "R = L.nn.Conv3d(1, 4, 0)(L.ones(2, 1, 2, 1, 3))",
    "R = L.nn.Conv2d(1, 4, 0)(L.ones(2, 1, 2, 3))",
    "R = L.nn.Conv1d(1, 4, 0)(L.ones(2, 1, 3))",
    "R = L.nn.Conv1d(1, 4, 0)(L.ones(1, 1, 3))",
    "R = L.nn.Conv2d(1, 4, 0).double()(L.ones(2, 1, 2, 3, dtype=L.float64))",
    # shapes broadcast from their last dim; the parser counts positional arguments first;
    # a method's out= is refused after the other arguments' binding
    "R = L.nn.functional.cosine_similarity(L.ones(2, 3, 4), L.ones(3, 3, 0), dim=-1)",
    "R = L.erf('a', 'a')",
    "R = L.exp(L.ones(1), 2)",
    "R = L.ones(2, 3).amin(1, dim=0, out=L.ones(3))",
    "R = L.ones(2, 3, 4).bmm(L.ones(2, 4, 2), 1, out=L.ones(2))",
    "R = L.ones(2, 3).amin(1, out=L.ones(3))",
    # a view copy's out= (diag's too) has no derivative: refused only where out requires
    # grad, else out takes torch's NotImplemented node
    "R = L.diag(L.ones(4, 5, requires_grad=True), 3, out=L.ones(2, 3, requires_grad=True))",
    "R = L.diag(L.ones(4, 5, requires_grad=True), 3, out=L.ones(2, 3))",
    "R = L.diag(L.ones(3, requires_grad=True), out=L.ones(2)).grad_fn.name()",
    "R = L.diag(L.ones(3), out=L.ones(2, requires_grad=True))",
    "R = L.diagonal_copy(L.ones(4, 5, requires_grad=True), out=L.ones(2))",
    "R = L.diagonal_copy(L.ones(4, 5), out=L.ones(2, requires_grad=True))",
    "R = L.t_copy(L.ones(4, 5, requires_grad=True), out=L.ones(2)).sum().backward()",
    "R = L.diag(L.ones(3, requires_grad=True), out=L.ones(2)).sum().backward()",
    # out=: the arguments' ints and Numbers unpacked before autograd's refusal; nanmean's
    # own checks before its nansum's
    "R = L.addbmm(L.ones(1), L.ones(3, 2), L.ones(2, 3, 4, requires_grad=True), beta=10**20, "
    "out=L.ones(0, dtype=L.int8))",
    "R = L.addmm(L.ones(2, 2), L.ones(2, 2, requires_grad=True), L.ones(2, 2), alpha=-2**64, "
    "out=L.ones(1))",
    "R = L.cumsum(L.ones(2, requires_grad=True), 2**63, out=L.ones(1))",
    "R = L.sum(L.ones(2, requires_grad=True), 2**63, out=L.ones(1))",
    *(UNPACKED.format(call) for call in (
        "L.sum(L.ones(2, requires_grad=True), (0, 2**63), out=L.ones(1))",
        "L.amax(L.ones(2, requires_grad=True), (0, 2**63), out=L.ones(1))")),
    "R = L.nanmean(L.ones(3, requires_grad=True), 0, dtype=L.int64, out=L.ones(()))",
    "R = L.nanmean(L.ones(3, requires_grad=True), 5, out=L.ones(()))",
    "R = L.nanmean(L.ones(3, requires_grad=True), out=L.ones(()))",
    "R = L.nanmean(L.ones(3, dtype=L.int64), 0, out=L.ones(()))",
    "R = L.nanmean(L.ones(3, dtype=L.int64), 0)",
    "R = L.nanmean(L.ones(3), 0, out=L.ones(()))",
    # the parameters before the keyword-only ones are typed first, by keyword too; a C
    # function that takes no arguments refuses one in Python's words
    "R = L.full_like(input=L.ones(4, dtype=L.bool), fill_value='a', layout='bilinear')",
    "R = L.full_like(L.ones(4), 'a', layout='bilinear')",
    "R = L.full(size=(2,), fill_value='a', layout='b')",
    "R = L.zeros(size='a', layout='b')",
    "R = L.zeros(size=2.5)",
    "R = L.zeros(size=(2,), layout='b')",
    "R = L.empty(1, size=None)",
    "R = L.zeros(1, size=(2,))",
    "R = L.kthvalue(3, L.ones(2, 1), dim=True)",
    "R = L.kthvalue(L.ones(3), 1, dim=True)",
    "R = L.get_num_threads(None)",
    "R = L.get_num_threads(x=1)",
    # a C method that takes nothing names a keyword first, positional arguments too
    "R = L.ones(2).abs_(1, foo=2)",
    "R = L.ones(2).deg2rad(1, foo=2)",
    "R = L.ones(2).abs_(1)",
    "R = L.ones(2).abs_(foo=2)",
])
def test_as_torch(program: str) -> None:
    assert_as_torch(program)
