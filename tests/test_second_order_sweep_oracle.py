"""Every differentiable built-in op through the second-order transforms, against torch.

``hessian`` (= ``jacfwd(jacrev(f))``), ``jacfwd(jacrev)``, ``jacrev(jacfwd)``, ``jacfwd(jacfwd)``
(on a plane through x), ``jacrev(jacrev)``, ``autograd.functional.hvp`` and ``vhp`` of
``f(x) = <w, op(x)>``, values and signs of zeros. Forward-over-reverse runs an op's backward
formula under forward AD, so it checks that what the backward uses (saved inputs, saved
*outputs*, custom Functions' saved tensors) carries its tangent; forward-over-forward checks
nested forward levels.

The ops are listed programmatically (every subclass of ``ops.Op``): each is either called
here or excluded with the reason, so a new op joins the sweep or says why not.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np
import pytest
import torch
import torch.func

import minitorch as mt
import minitorch.func
from minitorch.ops._base import Op
from tests.oracle import assert_same_error, numpy_of, raised_by

# How each op is called: ``x`` has 6 float64 values in (0.2, 0.9); ``y`` is another function
# of x (so binary ops mix their inputs); ``M``, ``N`` 2x3 and 3x2 matrices of x; ``A`` a
# well-conditioned 2x2; ``F`` is ``nn.functional``.
CALLS: dict[str, str] = dict(
    line.split(": ", 1) for line in """
Asinh: x.asinh()
Atanh: x.atanh()
Cos: x.cos()
Cosh: x.cosh()
Erf: x.erf()
Exp: x.exp()
Exp2: x.exp2()
Expm1: x.expm1()
Log: x.log()
Log10: x.log10()
Log1p: x.log1p()
Log2: x.log2()
Reciprocal: x.reciprocal()
Rsqrt: x.rsqrt()
Sigmoid: x.sigmoid()
Sin: x.sin()
Sinh: x.sinh()
Sqrt: x.sqrt()
Tanh: x.tanh()
Tan: x.tan()
Acos: x.acos()
Asin: x.asin()
Atan: x.atan()
Deg2Rad: x.deg2rad() * x
Rad2Deg: x.rad2deg() * x
Sinc: x.sinc()
Erfc: x.erfc()
Erfinv: x.erfinv()
I0: x.i0()
Lgamma: x.lgamma()
Digamma: x.digamma()
Polygamma: L.polygamma(2, x)
Mvlgamma: L.mvlgamma(x + 1, 2)
Logit: x.logit(0.3)
NanToNum: x.nan_to_num() * x
Fmax: L.fmax(x, y) * x
Fmin: L.fmin(x, y) * x
Logaddexp2: L.logaddexp2(x, y)
Ldexp: L.ldexp(x, y)
Nextafter: L.nextafter(x, y) * x
Frexp: L.frexp(x * 3)[0] * x
Hardshrink: L.hardshrink(x, 0.5) * x
Softshrink: F.softshrink(x, 0.25) * x
RreluWithNoise: F.rrelu(x - 0.5, 0.1, 0.3) * x
Ceil: (x * 3).ceil() * x
Floor: (x * 3).floor() * x
Round: (x * 3).round() * x
Trunc: (x * 3).trunc() * x
Abs: (x - 0.5).abs()
Acosh: (x + 1).acosh()
Frac: (x * 3).frac()
Neg: -x * x
Relu: (x - 0.5).relu() * x
RoundDecimals: x.round(decimals=1) * x
Sign: (x - 0.5).sign() * x
Gelu: F.gelu(x - 0.5)
Silu: F.silu(x - 0.5)
Elu: F.elu(x - 0.5)
LeakyRelu: F.leaky_relu(x - 0.5) * x
LogSigmoid: F.logsigmoid(x - 0.5)
Softplus: F.softplus(x - 0.5)
Hardtanh: F.hardtanh(x * 3 - 1.5) * x
Clamp: x.clamp(0.3, 0.7) * x
ClampMin: x.clamp(min=0.4) * x
ClampTensor: x.clamp(min=y) * x
ClampMinTensor: x.clamp_min(y) * x
ClampMax: x.clamp_max(0.6) * x
ClampMaxTensor: x.clamp_max(y) * x
Add: x + y * x
Sub: x - y * x
Mul: x * y
Div: x / y
DivScalar: x * x / 3
MulScalar: x * x * 3
Rsub: 2 - x * x
PowScalarBase: 2 ** x
PowScalarExponent: x ** 3
PowTensorExponent: x ** y
Maximum: L.maximum(x, y) * x
Minimum: L.minimum(x, y) * x
Fmod: L.fmod(x, y) * x
FmodScalar: x.fmod(0.3) * x
Remainder: L.remainder(x, y) * x
RemainderScalar: x.remainder(0.3) * x
DivMode: L.div(x * 3, y, rounding_mode='floor') * x
DivRounded: L.div(x * 3, y, rounding_mode='trunc') * x
Xlogy: L.xlogy(x, y)
Lerp: L.lerp(x, y, 0.3) * x
LerpTensor: L.lerp(x, y, x)
Addcdiv: L.addcdiv(x, x, y, value=0.5) * x
Addcmul: L.addcmul(x, x, y, value=0.5)
Where: L.where(x > 0.5, x * x, y)
MaskedFill: x.masked_fill(x > 0.5, 1.0) * x
Sum: x.sum() * x
SumDim: M.sum(1) ** 2
Mean: x.mean() * x
MeanDim: M.mean(1) ** 2
Prod: x.prod()
ProdDim: M.prod(1)
MaxAll: x.max() * x
MinAll: x.min() * x
MaxDim: M.max(1).values * M.sum(1)
MinDim: M.min(1).values * M.sum(1)
Amax: L.linalg.matrix_norm(M, float('inf')) * x
Amin: L.linalg.matrix_norm(M, -float('inf')) * x
Std: x.std()
Var: x.var()
Norm: x.norm()
LinalgVectorNorm: L.linalg.vector_norm(x, 3)
Logsumexp: x.logsumexp(0)
Cumsum: x.cumsum(0) ** 2
Cumprod: x.cumprod(0)
Softmax: x.softmax(0)
LogSoftmax: x.log_softmax(0)
SafeSoftmax: F.softmax(M, 1)
Sort: x.sort().values * x
Topk: x.topk(2).values ** 2
Dot: L.dot(x, y)
Mm: M @ N
Mv: L.mv(M, x[:3])
Bmm: L.bmm(M[None], N[None])
Addmm: L.addmm(A, M, N)
Det: L.det(A)
Solve: L.linalg.solve(A, x[:2])
Inv: L.linalg.inv(A)
Dist: L.dist(M, N.T) * L.dist(x, y, 1)
MatrixExp: L.matrix_exp(A) + L.linalg.matrix_exp(M @ N * 2)
LinalgEigh: L.linalg.eigh(A + A.T).eigenvectors ** 2 * L.linalg.eigvalsh(A + A.T, 'U')
LinalgHouseholderProduct: L.linalg.householder_product(N, x[:2])
LinalgQr: L.linalg.qr(N).Q.sum(1) ** 2 + L.linalg.qr(N).R.sum() + L.linalg.qr(M).Q.sum()
View: x.view(2, 3) ** 2
UnsafeView: (M @ N).reshape(4) ** 2
Expand: x[:1].expand(3) * x[:3]
Permute: M.permute(1, 0) ** 2
Transpose: M.transpose(0, 1) ** 2
T: M.t() ** 2
Squeeze: x[None].squeeze() ** 2
SqueezeDim: x[None].squeeze(0) ** 2
SqueezeDims: x.view(1, 6, 1).squeeze((0, 2)) ** 2
Unsqueeze: x.unsqueeze(0) ** 2
Select: M[1] ** 2
Slice: x[1:4] ** 2
Index: x[L.tensor([0, 2, 2])] ** 2
Flip: x.flip(0) * x
Repeat: x.repeat(2) ** 2
Cat: L.cat([x, y]) ** 2
Stack: L.stack([x, y]) ** 2
Split: x.split(2)[1] ** 2
SplitWithSizes: x.split([2, 4])[1] ** 2
Unbind: M.unbind(0)[1] ** 2
Clone: x.clone() ** 2
ToCopy: x.to(L.float32).to(L.float64) ** 2
Diagonal: A.diagonal() ** 2
DiagonalCopy: L.diag(A) ** 2
DiagEmbed: L.diag_embed(x[:3]) ** 2
Tril: A.tril() ** 2
Triu: A.triu() ** 2
Gather: M.gather(1, L.tensor([[0, 2], [1, 1]])) ** 2
IndexSelect: x.index_select(0, L.tensor([1, 1, 4])) ** 2
IndexAdd: x.index_add(0, L.tensor([1, 1]), y[:2] * x[:2])
IndexReduce: x.index_reduce(0, L.tensor([1, 1, 0]), y[:3] * x[:3], 'prod')
Scatter: x.scatter(0, L.tensor([1, 3]), y[:2] * x[:2])
ScatterAdd: x.scatter_add(0, L.tensor([1, 1]), y[:2] * x[:2])
ScatterValue: x.scatter(0, L.tensor([1, 3]), 0.5) * x
Unfold: x.unfold(0, 2, 1) ** 2
Embedding: F.embedding(L.tensor([1, 0, 1]), M) ** 2
PixelShuffle: F.pixel_shuffle(L.cat([x, x[:2]]).view(2, 4, 1, 1), 2) ** 2
PixelUnshuffle: F.pixel_unshuffle(L.cat([x, x[:2]]).view(2, 1, 2, 2), 2) ** 2
ChannelShuffle: F.channel_shuffle(L.cat([x, x[:2]]).view(2, 4, 1), 2) ** 2
ConstantPadNd: F.pad(x.view(1, 1, 6), (1, 2), value=0.5) ** 2
ReflectionPad1D: F.pad(x.view(1, 1, 6), (1, 2), mode='reflect') ** 2
ReflectionPad2D: F.pad(x.view(1, 1, 2, 3), (1, 1, 1, 1), mode='reflect') ** 2
ReflectionPad3D: F.pad(x.view(1, 1, 1, 2, 3), (1, 1, 1, 1), mode='reflect') ** 2
ReplicationPad1D: F.pad(x.view(1, 1, 6), (1, 2), mode='replicate') ** 2
ReplicationPad2D: F.pad(x.view(1, 1, 2, 3), (1, 1, 1, 1), mode='replicate') ** 2
ReplicationPad3D: F.pad(x.view(1, 1, 1, 2, 3), (1, 1, 1, 1), mode='replicate') ** 2
Im2Col: F.unfold(x.view(1, 1, 2, 3), (2, 2)) ** 2
Col2Im: F.fold(x.view(1, 2, 3), (2, 4), (2, 1)) ** 2
Convolution: F.conv2d(x.view(1, 1, 2, 3), x[:4].view(1, 1, 2, 2))
AvgPool2d: F.avg_pool2d(x.view(1, 1, 2, 3), 2, 1) ** 2
MaxPoolWithIndices: F.max_pool2d(x.view(1, 1, 2, 3), 2, 1) ** 2
MaxPool3DWithIndices: F.max_pool3d(x.view(1, 1, 1, 2, 3), (1, 2, 2), 1) ** 2
AdaptiveAvgPool2D: F.adaptive_avg_pool2d(x.view(1, 1, 2, 3), 1) ** 2
AdaptiveMaxPool2D: F.adaptive_max_pool2d(x.view(1, 1, 2, 3), 1) ** 2
AvgPool3d: F.avg_pool3d(x.view(1, 1, 1, 2, 3), (1, 2, 2), 1, (0, 1, 0)) ** 2
AdaptiveAvgPool3D: F.adaptive_avg_pool3d(x.view(1, 1, 1, 2, 3), (1, 1, 2)) ** 2
AdaptiveMaxPool3D: F.adaptive_max_pool3d(x.view(1, 1, 1, 2, 3), (1, 1, 2)) ** 2
NativeBatchNorm: F.batch_norm(M.t(), None, None, x[:2], x[2:4], training=True)
NativeLayerNorm: F.layer_norm(M, (3,), x[:3], x[3:])
NativeGroupNorm: F.group_norm(M.view(1, 2, 3), 2, x[:2], x[2:4]) ** 2
MseLoss: F.mse_loss(x, y)
HuberLoss: F.huber_loss(x * 3, y, delta=0.5)
SmoothL1Loss: F.smooth_l1_loss(x * 3, y, beta=0.5)
SoftMarginLoss: F.soft_margin_loss(x, y)
BinaryCrossEntropy: F.binary_cross_entropy(x, y)
BinaryCrossEntropyWithLogits: F.binary_cross_entropy_with_logits(x, y)
NllLoss: F.nll_loss(M.log_softmax(1), L.tensor([2, 0]))
NllLoss2d: F.nll_loss(x.view(1, 2, 3, 1), L.tensor([[[1], [0], [1]]]))
MultiMarginLoss: F.multi_margin_loss(M, L.tensor([2, 0]))
Convolution1d: F.conv1d(x.view(1, 1, 6), x[:2].view(1, 1, 2))
ConvolutionTranspose: F.conv_transpose2d(x.view(1, 1, 2, 3), x[:4].view(1, 1, 2, 2))
Kthvalue: x.kthvalue(2).values * x
MaskedFillTensor: x.masked_fill(x > 0.5, x[0]) * x
MaskedSelect: x.masked_select(x > 0.3) ** 2
MaxPoolReturningIndices: F.max_pool2d(x.view(1, 1, 2, 3), 2, 1, return_indices=True)[0] ** 2
MaxPool3DReturningIndices: F.max_pool3d(x.view(1, 2, 3), 2, 1, return_indices=True)[0] ** 2
MaxUnpool2D: F.max_unpool2d(x[:2].view(1, 1, 1, 2) ** 2, L.tensor([[[[0, 3]]]]), 2) ** 2
MaxUnpool3D: F.max_unpool3d(x[:2].view(1, 1, 1, 1, 2) ** 2, L.tensor([[[[[0, 7]]]]]), 2) ** 2
Median: x.median() * x
Mode: x.mode().values * x
Nanmedian: x.nanmedian() * x
SolveRight: L.linalg.solve(A, M.t(), left=False)
SortStable: x.sort(stable=True).values * x
UnsafeSplit: x.unsafe_split(2)[1] ** 2
Roll: x.roll(2) * x
Rot90: L.rot90(M) ** 2
NarrowCopy: L.narrow_copy(x, 0, 1, 3) ** 2
UpsampleBilinear2D: F.interpolate(x.view(1, 1, 2, 3), scale_factor=2, mode='bilinear') ** 2
UpsampleLinear1D: F.interpolate(x.view(1, 1, 6), scale_factor=2, mode='linear') ** 2
UpsampleNearest1D: F.interpolate(x.view(1, 1, 6), scale_factor=2) ** 2
UpsampleNearest2D: F.interpolate(x.view(1, 1, 2, 3), scale_factor=2) ** 2
UpsampleNearest3D: F.interpolate(x.view(1, 1, 1, 2, 3), scale_factor=2) ** 2
UpsampleNearestExact1D: F.interpolate(x.view(1, 1, 6), scale_factor=1.5, mode='nearest-exact') ** 2
UpsampleNearestExact2D: F.interpolate(x.view(1, 1, 2, 3), size=(3, 4), mode='nearest-exact') ** 2
UpsampleNearestExact3D: F.interpolate(x.view(1, 1, 1, 2, 3), size=3, mode='nearest-exact') ** 2
UpsampleTrilinear3D: F.interpolate(x.view(1, 1, 1, 2, 3), scale_factor=2, mode='trilinear') ** 2
UpsampleBicubic2D: F.interpolate(x.view(1, 1, 2, 3), scale_factor=2, mode='bicubic') ** 2
RsubTensors: L.rsub(x, y, alpha=2) * x
Sgn: (x - 0.5).sgn() * x
Angle: (x - 0.5).angle() * x
Hypot: L.hypot(x, y)
Atan2: L.atan2(x, y)
Logaddexp: L.logaddexp(x, y)
Copysign: L.copysign(x, y - 0.8)
CopysignScalar: L.copysign(x * x, -1.)
Selu: F.selu(x - 0.5)
Celu: F.celu(x - 0.5, 0.7)
Mish: F.mish(x - 0.5)
Hardswish: F.hardswish(x * 8 - 4)
Threshold: F.threshold(x, 0.5, -1.) * x
Glu: F.glu(M, 1)
Prelu: F.prelu(M - 0.5, x[:2] * 0.5)
Amax: M.amax(1) * x[:2]
Amin: M.amin(0) * x[:3]
ClampMax: x.clamp(max=0.6) * x
ClampMaxTensor: x.clamp_max(y) * x
Roll: x.roll(2) * x
Rot90: L.rot90(M) ** 2
NarrowCopy: L.narrow_copy(x, 0, 1, 3) ** 2
Trace: L.trace(M) * x
Take: L.take(M, L.tensor([0, 5, 5])) ** 2
Put: L.put(x, L.tensor([1, 3]), y[:2] * x[:2])
IndexCopy: x.index_copy(0, L.tensor([1, 3]), y[:2] * x[:2])
IndexFill: x.index_fill(0, L.tensor([1, 3]), 0.5) * x
IndexFillTensor: x.index_fill(0, L.tensor([1, 3]), x[0]) * x
IndexPutAccumulate: x.index_put((L.tensor([1, 1]),), y[:2] * x[:2], accumulate=True)
MaskedScatter: x.masked_scatter(x > 0.5, y * x)
SelectScatter: M.select_scatter(M[0] * M[1], 0, 1) ** 2
SliceScatter: x.slice_scatter(x[:2] * y[:2], 0, 2, 4) ** 2
DiagonalScatter: A.diagonal_scatter(A.diagonal() ** 2) ** 2
AsStrided: x.as_strided((2, 2), (1, 2)) ** 2
Renorm: M.renorm(2, 0, 0.5)
BlockDiag: L.block_diag(M, x[:2]) ** 2
Vdot: L.vdot(x, y)
LinalgCross: L.linalg.cross(M, M.roll(1, 1))
EuclideanDist: L.cdist(M, N.t(), compute_mode='use_mm_for_euclid_dist')
Addr: L.addr(M, x[:2], y[:3])
AffineGridGenerator: F.affine_grid(x.view(1, 2, 3), (1, 1, 2, 3), align_corners=False) ** 2
Addmv: L.addmv(x[:2], M, y[:3])
Addbmm: L.addbmm(A, M[None], N[None])
Baddbmm: L.baddbmm(A, M[None], N[None])
LinalgSvd: L.linalg.svd(M, full_matrices=False).U.sum(0) ** 2 + L.svd(M).S * L.svd(M).V[0]
LinalgSlogdet: L.linalg.slogdet(A).logabsdet * x
LinalgPinv: L.linalg.pinv(M) ** 2
LinalgCholesky: L.linalg.cholesky(A @ A.mT + L.eye(2, dtype=x.dtype)) ** 2
Cholesky: L.cholesky(A @ A.mT + L.eye(2, dtype=x.dtype), upper=True) ** 2
CholeskyInverse: L.cholesky_inverse(A.tril() + L.eye(2, dtype=x.dtype))
CholeskySolve: L.cholesky_solve(M.mT, A.tril() + L.eye(2, dtype=x.dtype))
LinalgSolveTriangular: L.linalg.solve_triangular(A + 3 * L.eye(2, dtype=x.dtype), M, upper=False)
LuFactor: L.linalg.lu_factor(A + 3 * L.eye(2, dtype=x.dtype)).LU ** 2
LuSolve: L.linalg.lu_solve(*L.linalg.lu_factor(A + 3 * L.eye(2, dtype=x.dtype)), M)
LuUnpack: L.lu_unpack(*L.linalg.lu_factor(A + 3 * L.eye(2, dtype=x.dtype))).U ** 2
Lstsq: L.linalg.lstsq(A + 3 * L.eye(2, dtype=x.dtype), M).solution ** 2
Aminmax: M.aminmax(dim=1).max * M.aminmax(dim=1).min
Nansum: L.nansum(M * y.view(2, 3), 1)
StdMean: L.std_mean(M, 1)[0] * L.std_mean(M, 1)[1]
VarMean: L.var_mean(x)[0] * L.var_mean(x)[1]
XlogyScalarOther: L.xlogy(x, 2.5) * x
XlogyScalarSelf: L.xlogy(1.5, x) * x
Cummax: L.cummax(M, 1).values * M
Cummin: L.cummin(M, 0).values * M
Logcumsumexp: L.logcumsumexp(M, 1)
Entr: L.special.entr(x)
Erfcx: L.special.erfcx(x)
I0e: L.special.i0e(x)
I1e: L.special.i1e(x)
LogNdtr: L.special.log_ndtr(x - 0.5)
Ndtri: L.special.ndtri(x * 0.9)
Xlog1py: L.special.xlog1py(x, y)
Xlog1pyOther: L.special.xlog1py(1.5, x)
Xlog1pySelf: L.special.xlog1py(x, 2.5)
ViewCopy: L.view_copy(x, (2, 3)) ** 2
FillNumber: L.fill(x, 2.0) * x
FillTensor: L.fill(x, (x * y).sum())
""".strip().splitlines())

# Op classes the sweep does not call by themselves, and why.
EXCLUDED: dict[str, str] = {
    "UnsafeSplitWithSizes": "torch has no batching rule for aten::unsafe_split_with_sizes "
                            "(unsafe_chunk of an empty dim): its transforms refuse it, "
                            "minitorch's run (first order: test_blackbox_s26bbox_oracle.py)",
    "Lu": "its second order through torch.func is not torch's yet (first order and double "
          "backward: tests/test_linalg_lu_oracle.py)",
    "TriangularSolve": "its forward AD is not torch's yet (first order and double backward: "
                       "tests/test_triangular_solve_oracle.py)",
    **dict.fromkeys(["Alias", "Copy", "CopySlices", "Fill", "FillTensor_", "Zero",
                     "ConjPhysical_", "EluInplace",
                     "LeakyReluInplace", "SqueezeInplace", "UnsqueezeInplace", "TInplace",
                     "TransposeInplace", "PolygammaInPlace", "SqueezeAllInplace",
                     "SqueezeDimsInplace", "SeluInplace", "CeluInplace",
                     "ThresholdInplace", "RreluWithNoiseInplace",
                     *(f"{n}InPlace{k}" for n in ("Eq", "Ne", "Lt", "Le", "Gt", "Ge")
                       for k in ("Scalar", "Tensor")),
                     "AsStridedView", "AsStridedInplace"],
                    "in-place op, or an internal piece of one (forward_ad.inplace runs it)"),
    **dict.fromkeys(["Bernoulli", "BernoulliOfProbabilities", "BernoulliNumber",
                     "BernoulliTensor", "Exponential", "Normal", "Random", "Uniform",
                     "Cauchy", "LogNormal", "Geometric",
                     "NormalBackward1", "NormalBackward2", "NormalBackward3"],
                    "random: no two libraries draw the same numbers"),
    **dict.fromkeys(["CopyInto", "FillInto", "IndexPut"],
                    "a write through an index (x[key] = value) is in place: forward_ad.inplace "
                    "runs it"),
    "Embed": "the backward of basic indexing (Select, Slice, Index run it)",
    "CtcLoss": "torch's _ctc_loss_backward has no derivative: a double backward is refused "
               "as torch's (test_corpus18a_oracle.py)",
    "WeightNormInterface": "torch's fused weight norm keeps its saved norms constant in the "
                           "double backward (its own gradgradcheck fails): second order "
                           "against torch's module in test_parametrize_oracle.py",
    "ScatterLegacyReduce": "scatter(reduce=) is a NotImplemented node in torch: no derivative",
    "ConjPhysicalOut": "conj_physical(out=) of a real tensor is a NotImplemented node in "
                       "torch: no derivative (test_leftovers_s27_oracle.py)",
    "WrittenWithoutDerivative": "a view copy's out= is a NotImplemented node in torch: no "
                                "derivative of any order",
    "SetNotImplemented": "set_ is a NotImplemented node in torch: no derivative "
                         "(test_leftovers_s19left_oracle.py)",
    "Hardsigmoid": "torch's backward of hardsigmoid is a NotImplemented node: no second "
                   "derivative (first order in test_activation_modules_oracle.py)",
    "ScatterReduce": "first-order values and gradients against torch in "
                     "test_bad_input_fuzz21c_s13a_oracle.py; not yet swept to second order",
    "EmbeddingBag": "torch has no second derivative of embedding_bag (the derivative for "
                    "'_embedding_bag_backward' is not implemented); "
                    "test_embedding_bag_oracle.py checks minitorch's against torch's "
                    "embedding and sum",
    "PackPaddedSequence": "torch has no forward AD of _pack_padded_sequence (NotImplementedError) "
                          "and its jacrev fails; test_rnn_packing_oracle.py checks gradients",
    "SliceEmbed": "the backward of a slice (Slice runs it)",
    "ReshapeAlias": "reshape's view under no_grad: no graph to differentiate twice",
    "Upsample": "the base of the Upsample* ops, never applied itself",
    "I1": "i0's derivative (torch's special_i1, not public here): I0 runs it",
    **dict.fromkeys(["Unique2", "UniqueDim", "UniqueConsecutive", "FloorDivide",
                     "FloorDivideInplace", "Histogram"],
                    "not differentiable in torch (no derivative for _unique2 / unique_dim / "
                    "unique_consecutive / floor_divide(_) / histogram)"),
    "RemainderNumber": "not differentiable in torch (no derivative for remainder of a number by "
                       "a tensor): test_bad_input_fuzz21c_oracle.py checks that backward refuses",
    "Geqrf": "not differentiable in torch (the derivative for 'geqrf' is not implemented)",
    "Heaviside": "not differentiable in torch (no derivative for heaviside): "
                 "test_missing_api_s13_pointwise_oracle.py checks that backward refuses",
    "Pdist": "torch has no double backward of pdist (the derivative for '_pdist_backward' is "
             "not implemented): test_missing_api_s13_shape_oracle.py checks both refuse",
    "Cdist": "torch has no double backward of cdist (the derivative for '_cdist_backward' is "
             "not implemented): test_missing_api_s13_shape_oracle.py checks both refuse",
    "Bincount": "not differentiable in torch (derivative for aten::bincount is not "
                "implemented): test_missing_api_s13_shape_oracle.py checks that backward "
                "refuses",
    "FwPrimal": "forward AD's primal view (unpack_dual), an alias: Alias's sweep covers it",
    "GridSampler2d": "grid_sample's node, whose graph of gradients is its composition's: "
                     "test_grid_sample_s20conv_oracle.py differentiates it twice with torch",
    "MultiplyAdd": "grid_sample's fused multiply-add, no public op of its own: "
                   "test_corpus20e_s14_oracle.py checks grid_sample's gradients",
    "MultiLabelMarginLoss": "torch has no double backward (the derivative for "
                            "multilabel_margin_loss_backward is not implemented): "
                            "test_corpus20f_oracle.py checks both refuse in its words",
    **dict.fromkeys(["StandardGamma", "StandardGammaGrad"],
                    "torch has no second derivative of a gamma draw (the derivative for "
                    "'_standard_gamma_grad' is not implemented): test_gamma_sampling_oracle.py "
                    "checks the first and that both refuse"),
    **dict.fromkeys(["SampleDirichlet", "DirichletGrad", "Binomial"],
                    "not differentiable in torch (no derivative for _sample_dirichlet / "
                    "_dirichlet_grad / binomial): test_gamma_sampling_oracle.py and "
                    "test_binomial_sampling_oracle.py check that backward refuses"),
    **dict.fromkeys(["Igamma", "Igammac"],
                    "torch has no forward AD of igamma/igammac, and minitorch's refusal is "
                    "not yet in its words; first order in test_special_s24special_oracle.py"),
    **dict.fromkeys(["Zeta", "ZetaOther", "ZetaSelf"],
                    "not differentiable in torch (no derivative for special_zeta): "
                    "test_special_s24special_oracle.py checks that backward refuses"),
    "DetachCopy": "not differentiable in torch (detach_copy's node is NotImplemented)",
    "NativeChannelShuffle": "torch refuses its forward AD (NotImplementedError) where minitorch "
                            "gives a RuntimeError: not yet matched; first order in "
                            "test_names_s24names_oracle.py",
    "Poisson": "a sample: its gradient is zero in torch, and so its second "
               "(test_corpus20f_oracle.py checks PoissonBackward0's zero gradient)",
}


def _op_classes() -> list[str]:
    """Every public built-in op (a subclass of Op with its own name); the ``...Backward``
    ops are the backward formulas of others and run in the sweep as those ops' backward."""
    found, todo = set(), [Op]
    while todo:
        cls = todo.pop()
        for sub in cls.__subclasses__():
            todo.append(sub)
            if not sub.__name__.startswith("_") and not sub.__name__.endswith("Backward") \
                    and sub.__module__.startswith("minitorch.") \
                    and not vars(sub).get("named_twin"):  # not other tests' own ops, nor
                found.add(sub.__name__)  # (ViewCopy's twins, made as a *_copy first runs)
    return sorted(found)


def _scalar(L: Any, op: str) -> Callable[[Any], Any]:
    """``f(x) = <w, op(x)>`` with a fixed weight ``w``: a scalar whose Hessian is rich."""
    def f(x: Any) -> Any:
        y = x.flip(0) * 0.7 + 0.3
        M, N = x.view(2, 3), x.view(3, 2)
        A = x[:4].view(2, 2) + L.eye(2, dtype=x.dtype) * 2
        out = eval(CALLS[op], {"L": L, "F": L.nn.functional, "x": x, "y": y, "M": M, "N": N,
                               "A": A})
        w = L.arange(out.numel(), dtype=out.dtype).reshape(out.shape) * 0.25 + 0.5
        return (out * w).sum().to(x.dtype)
    return f


TRANSFORMS: dict[str, Callable[[Any, Callable, Any], Any]] = {
    "hessian": lambda L, f, x: L.func.hessian(f)(x),
    "jacfwd(jacrev)": lambda L, f, x: L.func.jacfwd(L.func.jacrev(f))(x),
    "jacrev(jacfwd)": lambda L, f, x: L.func.jacrev(L.func.jacfwd(f))(x),
    "jacfwd(jacfwd)": lambda L, f, x: L.func.jacfwd(L.func.jacfwd(f))(x),
    "jacrev(jacrev)": lambda L, f, x: L.func.jacrev(L.func.jacrev(f))(x),
    "hvp": lambda L, f, x: L.autograd.functional.hvp(f, x, x.flip(0) - 0.5)[1],
    "vhp": lambda L, f, x: L.autograd.functional.vhp(f, x, x.flip(0) - 0.5)[1],
}

X = [0.31, 0.74, 0.52, 0.23, 0.87, 0.46]
# minitorch's jacfwd(jacfwd) of f runs one nested jvp per pair of columns, each op's tangent a
# generic J v: 36 for the 6 values of X, a quarter of the whole suite's time. It is swept on a
# plane through x instead: g(s) = f(x + P s) has jacfwd(jacfwd(g))(0) = P^T H P, 4 nested jvps,
# and P's entries, all non-zero and unrelated, leave no wrong entry of H unseen.
PLANE = [[0.3, -0.2], [0.1, 0.5], [-0.4, 0.3], [0.6, 0.1], [0.2, -0.5], [-0.1, 0.4]]


def _on_plane(L: Any, f: Callable, x: Any) -> Callable:
    """``s -> f(x + P s)`` for the :data:`PLANE` ``P``."""
    plane = L.tensor(PLANE, dtype=x.dtype)
    return lambda s: f(x + plane @ s)


def _run(L: Any, op: str, transform: str) -> Any:
    f, x = _scalar(L, op), L.tensor(X, dtype=L.float64)
    if transform == "jacfwd(jacfwd)":
        f, x = _on_plane(L, f, x), L.zeros(len(PLANE[0]), dtype=L.float64)
    return TRANSFORMS[transform](L, f, x)


def _values(t: Any) -> np.ndarray:
    return numpy_of(t).astype(np.float64)


MATRICES = ("hessian", "jacfwd(jacrev)", "jacrev(jacfwd)", "jacfwd(jacfwd)", "jacrev(jacrev)")

# Where torch.func's answer is not the second derivative (torch's own double backward,
# autograd.functional.hessian, disagrees with it, and is symmetric): minitorch is compared
# with torch's double backward there. Never a silently wrong Hessian, even to match torch.
TORCH_FUNC_WRONG: dict[tuple[str, str], str] = {
    **{(op, t): "torch.func's batched norm backward with weight = f(x): an asymmetric Hessian"
       for op in ("NativeBatchNorm", "NativeLayerNorm") for t in MATRICES},
    **{(op, t): "torch's forward-over-forward of an LU-based op: not the Hessian"
       for op in ("Det", "Solve", "SolveRight") for t in ("jacrev(jacfwd)", "jacfwd(jacfwd)")},
    ("LinalgEigh", "jacrev(jacfwd)"): "torch's reverse-over-forward of eigh: nan",
    **{("CholeskyInverse", t): "torch's forward AD of cholesky_inverse: not the Hessian "
       "(its double backward and finite differences agree with minitorch's)"
       for t in ("hessian", "jacfwd(jacrev)", "jacrev(jacfwd)", "jacfwd(jacfwd)")},
    **{("LinalgSlogdet", t): "torch's forward-over-forward of an LU-based op: not the Hessian"
       for t in ("jacrev(jacfwd)", "jacfwd(jacfwd)")},
    ("SelectScatter", "jacrev(jacfwd)"): "torch's reverse-over-forward of select_scatter: an "
                                         "asymmetric Hessian (its double backward agrees with "
                                         "minitorch's)",
    **{("LinalgHouseholderProduct", t): "torch's forward AD of householder_product: not the "
       "Hessian (off by 20; minitorch matches the numerical one)"
       for t in ("jacrev(jacfwd)", "jacfwd(jacfwd)")},
}

# Where torch refuses (no double backward or forward AD for the op, or a torch-internal
# failure) and minitorch differentiates: compared with finite differences of torch's gradient.
TORCH_REFUSES: dict[tuple[str, str], str] = {
    **{("MultiMarginLoss", t): "torch: derivative for multi_margin_loss_backward not implemented"
       for t in TRANSFORMS},
    ("BinaryCrossEntropy", "jacrev(jacfwd)"): "torch: 'ZeroTensors are immutable'",
    **{(op, t): f"torch: no forward AD of {name}"
       for op, name in (("EuclideanDist", "_euclidean_dist"), ("Cholesky", "cholesky"))
       for t in ("hessian", "jacfwd(jacrev)", "jacrev(jacfwd)", "jacfwd(jacfwd)")},
    **{("RreluWithNoise", t): "torch: 'vmap: we do not yet support aten::rrelu_with_noise'"
       for t in ("hessian", "jacfwd(jacrev)", "jacrev(jacfwd)", "jacfwd(jacfwd)")},
}


def _projected(hess: np.ndarray, transform: str) -> np.ndarray:
    """The Hessian ``hess`` as ``transform`` gives it: on :data:`PLANE` for jacfwd(jacfwd)."""
    plane = np.asarray(PLANE)
    return plane.T @ hess @ plane if transform == "jacfwd(jacfwd)" else hess


def _double_backward_reference(op: str, transform: str) -> np.ndarray:
    """torch's Hessian by double backward, no torch.func."""
    x = torch.tensor(X, dtype=torch.float64)
    return _projected(_values(torch.autograd.functional.hessian(_scalar(torch, op), x)),
                      transform)


def _numerical_reference(op: str, transform: str) -> np.ndarray:
    """Central differences of torch's first derivative (the Hessian, or it times v)."""
    f, eps = _scalar(torch, op), 1e-6

    def gradient(values: np.ndarray) -> np.ndarray:
        x = torch.tensor(values, dtype=torch.float64, requires_grad=True)
        return torch.autograd.grad(f(x), x)[0].numpy()

    columns = []
    for i in range(len(X)):
        step = np.zeros(len(X))
        step[i] = eps
        columns.append((gradient(np.add(X, step)) - gradient(np.subtract(X, step))) / (2 * eps))
    hess = np.stack(columns, 1)
    v = np.flip(np.asarray(X)) - 0.5
    return _projected(hess, transform) if transform in MATRICES else hess @ v


def _reference(op: str, transform: str) -> np.ndarray:
    if (op, transform) in TORCH_FUNC_WRONG:
        return _double_backward_reference(op, transform)
    if (op, transform) in TORCH_REFUSES:
        return _numerical_reference(op, transform)
    return _values(_run(torch, op, transform))


def matches(op: str, transform: str, signs: bool = True) -> bool | str:
    """True where minitorch gives torch's values (and with ``signs``, its signs of zeros) or
    torch's error; otherwise what differed."""
    inexact = (op, transform) in TORCH_REFUSES
    want_error = None if inexact or (op, transform) in TORCH_FUNC_WRONG else \
        raised_by(lambda L: _run(L, op, transform), torch)
    if want_error is not None:
        got_error = raised_by(lambda L: _run(L, op, transform), mt)
        try:
            assert_same_error(got_error, want_error)
        except AssertionError as e:
            return str(e)
        return True
    want = _reference(op, transform)
    try:
        got = _values(_run(mt, op, transform))
    except Exception as e:  # the sweep reports what failed
        return f"raised {e!r}"
    rtol, atol = (1e-5, 1e-6) if inexact else (1e-7, 1e-10)
    if got.shape != want.shape or not np.allclose(got, want, rtol=rtol, atol=atol,
                                                  equal_nan=True):
        return f"values\n{got}\nexpected\n{want}"
    zeros = want == 0
    if signs and not inexact and \
            not np.array_equal(np.signbit(got[zeros]), np.signbit(want[zeros])):
        return f"signs of zeros\n{got}\nexpected\n{want}"
    return True


def test_every_op_is_swept_or_excluded() -> None:
    missing = [op for op in _op_classes() if op not in CALLS and op not in EXCLUDED]
    assert not missing, f"ops neither swept nor excluded: {missing}"
    stale = [op for op in (*CALLS, *EXCLUDED) if op not in _op_classes()]
    assert not stale, f"no such op: {stale}"


# Where only the signs of some zeros still differ (values match; known, not yet fixed):
# - jacrev(...): torch's jacrev and jacfwd are vmapped; a batched gradient that reaches an
#   unbatched tensor is summed over the batch, and that sum turns -0. into +0. minitorch runs
#   one vjp/jvp per row, as a plain double backward does (torch's autograd.grad twice gives
#   minitorch's signs there).
# - hessian, jacfwd(jacrev): minitorch's tangent of a backward formula is one generic J v
#   (the op's backward differentiated again), which adds the same terms as torch's
#   hand-written forward formulas in another order, so an all-zero sum may take another sign.
# - hvp, vhp of elu (and selu, celu, which share its formula): one entry, cause not yet traced.
SIGNS_DIFFER: dict[str, str] = {
    "hessian": "Atanh CholeskyInverse Cumprod LogSigmoid Renorm Rsub SafeSoftmax Sigmoid Solve "
               "Sub Tanh",
    "jacfwd(jacrev)": "Atanh CholeskyInverse Cumprod LogSigmoid Renorm Rsub SafeSoftmax Sigmoid "
                      "Solve Sub Tanh",
    "jacrev(jacrev)": "Atan Atanh Cumprod Log Log10 Log1p Log2 LogSigmoid Neg Prod ProdDim "
                      "Reciprocal Rsqrt Rsub Sigmoid Sqrt Sub Tanh Xlog1pyOther",
    "jacrev(jacfwd)": "Atan Atanh Log Log10 Log1p Log2 LogSigmoid Neg Prod ProdDim Reciprocal "
                      "Rsqrt Rsub Sigmoid Sqrt Sub Tanh Ndtri Xlog1pyOther",
    "hvp": "Celu Elu Selu FillNumber",
    "vhp": "Celu Elu Selu FillNumber",
}


# Where torch's own answer is wrong, so there is nothing to compare with.
TORCH_WRONG: dict[tuple[str, str], str] = {
    ("Logcumsumexp", "hvp"): "torch's hvp (a double backward through zero grad_outputs) "
                             "gives NaN: its logcumsumexp backward takes the log of the "
                             "gradient; its hessian of the same function is finite",
}


def _signs_checked(op: str, transform: str) -> bool:
    # (on the PLANE, a zero is a sum of H's entries that cancel: its sign is rounding's)
    return transform != "jacfwd(jacfwd)" and op not in SIGNS_DIFFER.get(transform, "").split()


@pytest.mark.parametrize("transform", list(TRANSFORMS))
@pytest.mark.parametrize("op", sorted(CALLS))
def test_second_order_transform_matches_torch(op: str, transform: str) -> None:
    if (op, transform) in TORCH_WRONG:
        pytest.skip(TORCH_WRONG[op, transform])
    result = matches(op, transform, signs=_signs_checked(op, transform))
    assert result is True, f"{transform} of {CALLS[op]}: {result}"


def _custom_exp(L: Any) -> Any:
    """A custom Function whose backward and jvp use its saved *output*."""
    class MyExp(L.autograd.Function):
        generate_vmap_rule = True

        @staticmethod
        def forward(x: Any) -> Any:
            return x.exp()

        @staticmethod
        def setup_context(ctx: Any, inputs: tuple, output: Any) -> None:
            ctx.save_for_backward(output)
            ctx.save_for_forward(output)

        @staticmethod
        def backward(ctx: Any, g: Any) -> Any:
            return g * ctx.saved_tensors[0]

        @staticmethod
        def jvp(ctx: Any, t: Any) -> Any:
            return t * ctx.saved_tensors[0]

    return lambda v: (MyExp.apply(v) * L.tensor([1.0, 2.0, 3.0], dtype=v.dtype)).sum()


@pytest.mark.parametrize("transform", list(TRANSFORMS))
def test_custom_function_saving_its_output(transform: str) -> None:
    """Its saved output carries the tangent its jvp gave (hessian was zeros). torch's own
    jacfwd(jacfwd) gives zeros here, so that one is compared with torch's double backward."""
    x = [0.3, -0.7, 1.2]

    def run(L: Any) -> np.ndarray:
        return _values(TRANSFORMS[transform](L, _custom_exp(L), L.tensor(x, dtype=L.float64)))

    want = _values(torch.autograd.functional.hessian(
        _custom_exp(torch), torch.tensor(x, dtype=torch.float64))) \
        if transform == "jacfwd(jacfwd)" else run(torch)
    np.testing.assert_allclose(run(mt), want, rtol=1e-12)


if __name__ == "__main__":  # the sweep's counts: python tests/test_second_order_sweep_oracle.py
    bad = {t: {op: matches(op, t) for op in sorted(CALLS)} for t in TRANSFORMS}
    total = len(CALLS) * len(TRANSFORMS)
    signs = sum(str(r).startswith("signs") for row in bad.values() for r in row.values())
    wrong = sum(r is not True for row in bad.values() for r in row.values())
    print(f"{total - wrong}/{total} match torch (values, errors and signs of zeros); "
          f"{total - wrong + signs}/{total} in values and errors")
    for t, row in bad.items():
        print(t, [(op, str(r).split(chr(10))[0][:40]) for op, r in row.items() if r is not True])
