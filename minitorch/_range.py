"""``torch.range``: the deprecated, end-inclusive ``arange`` (torch warns on every call).

>>> import warnings
>>> with warnings.catch_warnings():
...     warnings.simplefilter("ignore")
...     minitorch.range(1, 3)
tensor([1., 2., 3.])
"""

from __future__ import annotations

import warnings
from typing import Any

from . import _args, backend
from . import _dtype as D
from ._creation import _created, _leaf, check_range_bounds

__all__ = ["range"]


def range(start: Any = _args.OMITTED, end: Any = _args.OMITTED, step: Any = 1, *,
          dtype: Any = None, device: Any = None,
          requires_grad: bool = False) -> Any:
    """``start, start + step, ...`` up to and including ``end``, in the default dtype (or
    ``dtype``); deprecated in torch: use ``arange``, which stops before ``end``.

    >>> import warnings; warnings.simplefilter("ignore")
    >>> minitorch.range(0, 1, 0.5)
    tensor([0.0000, 0.5000, 1.0000])
    """
    warnings.warn("torch.range is deprecated and will be removed in a future release because "
                  "its behavior is inconsistent with Python's range builtin. Instead, use "
                  "torch.arange, which produces values in [start, end).", UserWarning,
                  stacklevel=4)  # the caller, past _call_form's and creation_options's
    if start is _args.OMITTED:  # torch's parser names every required one from the first
        _args.missing("range", (start, "start"), (_args.OMITTED, "end"))
    if end is _args.OMITTED:  # missing, after start's type and before the keywords'
        _args.parsed("range", ("number", start, "start", 1))
        _args.missing("range", (end, "end"))
    start, end, step, dtype, requires_grad = _args.parsed(
        "range", ("number", start, "start", 1), ("number", end, "end", 2),
        ("number", step, "step", 3), ("dtype", dtype, "dtype", None),
        ("bool", requires_grad, "requires_grad", None))  # (None refused, unlike arange)
    dt = dtype or D.get_default_dtype()
    if dt is D.bool:
        raise NotImplementedError("\"range_cpu\" not implemented for 'Bool'")
    if not dt.is_floating_point:  # torch's kernel reads the bounds in int64
        start, end, step = (int(_args.assigned(v, D.int64, unsigned=True))
                            for v in (start, end, step))
    else:  # ... else in its accumulating type, where a complex number must be real
        start, end, step = (_args.double_of(v, "float" if dt is D.float16 else "double")
                            for v in (start, end, step))
    check_range_bounds(start, end, step)
    size = int((end - start) / step + 1) if dt.is_floating_point else (end - start) // step + 1
    if size > _args.INT64_MAX:  # torch's int64 count wraps to a value no SymInt holds
        raise RuntimeError("IntArrayRef contains an int that cannot be represented as a "
                           f"SymInt: {_args.INT64_MIN}")
    _args.check_alloc((size,), dt.itemsize)
    name = dt.name
    wide = "float64" if dt.is_floating_point else "int64"  # torch's accumulating type

    def make(xp: Any) -> Any:
        steps = xp.arange(size, dtype=backend.array_dtype(xp, wide))
        return xp.astype(start + steps * step, backend.array_dtype(xp, name))

    return _leaf(_created(make, device), requires_grad)
