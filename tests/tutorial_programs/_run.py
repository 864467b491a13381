"""Run a tutorial program with torch, or with minitorch standing in for it.

    python _run.py torch|minitorch program.py
"""

import importlib
import runpy
import sys

lib, path = sys.argv[1:]
if lib == "minitorch":
    import minitorch

    sys.modules["torch"] = minitorch
    for name in ("nn", "nn.functional", "optim", "autograd", "autograd.forward_ad",
                 "autograd.graph", "autograd.functional", "utils", "utils.data", "profiler"):
        sys.modules[f"torch.{name}"] = importlib.import_module(f"minitorch.{name}")
runpy.run_path(path, run_name="__main__")
