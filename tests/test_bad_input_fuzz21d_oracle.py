"""Bad input found by issue #21's fourth fuzz (seeds 3301-3302) that minitorch accepted where
torch refuses (SILENT) or refused with a raw numpy or Python error from its own code
(INTERNAL), against live torch. Each case is a small program run on torch and on minitorch
(``L``); its outcome, the value of ``R`` or the exception's type and message, must be the
same.
"""

from __future__ import annotations

import pytest
from test_bad_input_fuzz21b_oracle import assert_as_torch

DL = "R = L.utils.data.DataLoader(list(range(5)), batch_size=2, "


@pytest.mark.parametrize("options", [
    "num_workers=-1", "num_workers=-1, timeout=-1", "timeout=-1", "timeout=-0.5",
    "timeout=-1, prefetch_factor=2", "prefetch_factor=2", "prefetch_factor=-1",
    "num_workers=0, prefetch_factor=0", "persistent_workers=True",
    "persistent_workers=True, multiprocessing_context='spawn'",
    "multiprocessing_context='spawn'", "multiprocessing_context=3",
    "prefetch_factor=None, persistent_workers=False, multiprocessing_context=None",
    "num_workers=1, prefetch_factor=-1", "num_workers=None"])
def test_dataloader_worker_options_as_torch(options: str) -> None:
    """The worker options are checked as torch checks them, in its order, though minitorch
    loads in one process: options only workers use are refused without workers."""
    assert_as_torch(DL + options + "); R = None")


@pytest.mark.parametrize("batch", [
    "[np.ones(2), np.ones(3)]", "[np.ones((2, 2)), np.ones((2, 3))]", "[np.ones(2), 3]",
    "[np.ones(2, dtype=np.float32), np.zeros(2, dtype=np.float32)]",
    "[np.ones(2, dtype=np.int16), np.zeros(2, dtype=np.int16)]",
    "[np.ones(()), np.zeros(())]", "[np.float32(1.), np.float32(2.)]",
    "[np.int32(1), np.int32(2)]", "[np.float64(1.), np.float64(2.)]",
    "[np.bool_(1), np.bool_(0)]",
    "[np.array(['a']), np.array(['b'])]", "[np.ones(2, dtype=object)] * 2",
    "[L.ones(2), L.ones(3)]", "[[1, 2], [3]]", "[(1, 2), (3,)]", "[(1,), (2, 3)]",
    "[[1, 2], [3, 4]]", "[(1, 'a'), (2, 'b')]", "[object(), object()]", "[None, None]",
    "[{'a': object()}]", "[1 + 2j, 3j]", "['a', 'b']", "[b'a', b'b']", "[True, False]",
    "[1, 2.5]", "[1, 'a']", "[{'a': [1, 2]}, {'a': [3]}]"])
def test_default_collate_as_torch(batch: str) -> None:
    """default_collate stacks numpy arrays and scalars as tensors (equal sizes only), wants
    samples of one length, and refuses what it cannot batch, with torch's errors."""
    assert_as_torch(f"import numpy as np; R = L.utils.data.default_collate({batch})")
    assert_as_torch(f"import numpy as np; R = list(L.utils.data.DataLoader({batch}, "
                    "batch_size=2))")
