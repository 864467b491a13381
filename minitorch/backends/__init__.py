"""``minitorch.backends``: the switches programs set for the libraries torch's kernels may
call (cuDNN, cuBLAS, MPS, MKL), kept and checked as torch keeps them.

minitorch computes with numpy (MKL's BLAS and LAPACK where they are installed) and CuPy;
it calls neither cuDNN nor cuBLAS directly, so these switches change no result here,
as on torch's CPU build. They exist so that the usual set-up lines of a training script run
unchanged (not to be confused with ``minitorch.backend``, the array namespaces):

>>> import minitorch
>>> minitorch.backends.cudnn.deterministic, minitorch.backends.mps.is_available()
(False, False)
"""

from . import cuda, cudnn, mkl, mps

__all__ = ["cuda", "cudnn", "mkl", "mps"]
