"""Side-by-side benchmarks: minitorch vs hand-written numpy vs PyTorch, in one process.

Every workload runs interleaved (A, B, C, A, B, C, ...) with one BLAS thread, and the table
reports the median time of each and the ratios — absolute times on a shared machine mean
little, ratios measured side by side do.

    python benchmarks/run.py            # full run (a few minutes: 1 000 000-node chains)
    python benchmarks/run.py --quick    # fewer repeats, chains up to 100 000 nodes
    python benchmarks/run.py --gpu      # on a CUDA machine: minitorch+CuPy vs torch CUDA

The GPU mode needs an NVIDIA GPU, CuPy (``pip install "minitorch[cuda]"``) and a CUDA build of
torch; elsewhere it refuses with a message and exit status 2.
"""

from __future__ import annotations

import argparse
import gc
import os
import statistics
import subprocess
import sys
import time
from collections.abc import Callable

for _var in ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS"):
    os.environ[_var] = "1"

import numpy as np  # noqa: E402

sys.path.insert(0, os.path.join(os.path.dirname(__file__), ".."))
import minitorch  # noqa: E402

try:
    import torch

    torch.set_num_threads(1)
except ImportError:  # the benchmark still compares with numpy
    torch = None

BATCH, D_IN, HIDDEN, D_OUT, LR = 64, 784, 256, 10, 0.01
GPU_BATCH, GPU_HIDDEN = 1024, 4096


def interleaved(runs: dict[str, Callable[[], object]], repeats: int,
                clock: Callable[[], float] = time.perf_counter) -> dict[str, float]:
    """Median seconds per call of each function, calling them in turn ``repeats`` times.
    Workloads of a millisecond or more pass ``time.process_time``: the CPU time this process
    got, which other jobs on a shared machine disturb far less than the wall clock (whose
    reading costs less, for the microsecond ones)."""
    times: dict[str, list[float]] = {name: [] for name in runs}
    for fn in runs.values():
        fn()  # warm up
    for _ in range(repeats):
        for name, fn in runs.items():
            start = clock()
            fn()
            times[name].append(clock() - start)
    return {name: statistics.median(ts) for name, ts in times.items()}


def _mlp_data(seed: int = 0, batch: int = BATCH, hidden: int = HIDDEN) -> dict[str, np.ndarray]:
    rng = np.random.default_rng(seed)
    bound1, bound2 = 1 / np.sqrt(D_IN), 1 / np.sqrt(hidden)
    return {
        "x": rng.standard_normal((batch, D_IN)).astype(np.float32),
        "y": rng.standard_normal((batch, D_OUT)).astype(np.float32),
        "w1": rng.uniform(-bound1, bound1, (D_IN, hidden)).astype(np.float32),
        "b1": rng.uniform(-bound1, bound1, hidden).astype(np.float32),
        "w2": rng.uniform(-bound2, bound2, (hidden, D_OUT)).astype(np.float32),
        "b2": rng.uniform(-bound2, bound2, D_OUT).astype(np.float32),
    }


def numpy_mlp_step() -> Callable[[], None]:
    """The training step written by hand in numpy: forward, backward, in-place SGD."""
    d = _mlp_data()
    x, y, w1, b1, w2, b2 = d["x"], d["y"], d["w1"], d["b1"], d["w2"], d["b2"]
    scale = np.float32(2.0 / (BATCH * D_OUT))

    def step() -> None:
        h = x @ w1
        h += b1
        np.maximum(h, 0, out=h)
        out = h @ w2
        out += b2
        diff = out - y
        _ = float(np.mean(diff * diff))
        g_out = diff * scale
        g_w2 = h.T @ g_out
        g_b2 = g_out.sum(0)
        g_h = g_out @ w2.T
        g_h *= h > 0
        g_w1 = x.T @ g_h
        g_b1 = g_h.sum(0)
        for p, g in ((w1, g_w1), (b1, g_b1), (w2, g_w2), (b2, g_b2)):
            g *= LR
            p -= g

    return step


def framework_mlp_step(lib: object, device: str = "cpu", **sizes: int) -> Callable[[], None]:
    """The same step in minitorch or torch: one code, ``lib`` is either module."""
    d = _mlp_data(**sizes)
    t = {k: lib.tensor(v, device=device) for k, v in d.items()}
    params = [t[k].requires_grad_() for k in ("w1", "b1", "w2", "b2")]
    x, y = t["x"], t["y"]
    w1, b1, w2, b2 = params

    def step() -> None:
        h = lib.addmm(b1, x, w1).relu()
        out = lib.addmm(b2, h, w2)
        loss = ((out - y) ** 2).mean()
        loss.backward()
        with lib.no_grad():
            for p in params:
                p -= LR * p.grad
                p.grad = None

    return step


def scalar_graph(lib: object, ops: int = 1000) -> Callable[[], None]:
    """A chain of ``ops`` scalar operations on fresh operands, forward and backward."""

    def run() -> None:
        x = lib.tensor(1.0, requires_grad=True)
        y = x
        for _ in range(ops // 2):
            y = y * 1.0001 + 0.0001
        y.backward()

    return run


def leaf_graph(lib: object, ops: int = 1000) -> Callable[[], None]:
    """``ops`` scalar operations that all use one leaf, forward and backward: ``ops``
    gradients arrive at the leaf's accumulator."""

    def run() -> None:
        x = lib.tensor(1.0, requires_grad=True)
        y = x
        for _ in range(ops // 2):
            y = y * x + x
        y.backward()

    return run


def profiled(step: Callable[[], None], steps: int = 100) -> Callable[[], None]:
    """``steps`` calls of ``step`` inside one minitorch profile()."""

    def run() -> None:
        with minitorch.autograd.profiler.profile():
            for _ in range(steps):
                step()

    return run


def repeated(step: Callable[[], None], steps: int = 100) -> Callable[[], None]:
    def run() -> None:
        for _ in range(steps):
            step()

    return run


def gradcheck_modes(n: int = 200) -> dict[str, Callable[[], object]]:
    """gradcheck of one n-element input, slow (one backward per output) and fast mode."""
    minitorch.manual_seed(0)
    x = minitorch.randn(n, dtype=minitorch.float64, requires_grad=True)

    def f(t: object) -> object:
        return t.sin() * t

    check = minitorch.autograd.gradcheck
    return {"slow": lambda: check(f, (x,)), "fast": lambda: check(f, (x,), fast_mode=True)}


def chain(lib: object, n: int) -> object:
    """The output of ``n`` recorded multiplications in a row."""
    x = lib.tensor(1.0, requires_grad=True)
    y = x
    for _ in range(n):
        y = y * 1.0
    return y


def deep_chain(lib: object, n: int) -> Callable[[], None]:
    """Build an ``n``-node chain and run its backward."""
    return lambda: chain(lib, n).backward()


def chain_backward_times(sizes: tuple[int, ...], repeats: int) -> dict[int, float]:
    """Median seconds of the backward alone through minitorch chains of each size (built
    outside the timing, sizes interleaved)."""
    times: dict[int, list[float]] = {n: [] for n in sizes}
    for _ in range(repeats):
        for n in sizes:
            y = chain(minitorch, n)
            start = time.perf_counter()
            y.backward()
            times[n].append(time.perf_counter() - start)
    return {n: statistics.median(ts) for n, ts in times.items()}


class CollectorClock:
    """Seconds Python's cyclic garbage collector spent in collections of the oldest
    generation (the ones that walk every live object) while it was installed."""

    def __init__(self) -> None:
        self.seconds, self._start = 0.0, 0.0

    def __call__(self, phase: str, info: dict) -> None:
        if info["generation"] != 2:
            return
        if phase == "start":
            self._start = time.process_time()
        else:
            self.seconds += time.process_time() - self._start

    def __enter__(self) -> CollectorClock:
        gc.callbacks.append(self)
        return self

    def __exit__(self, *exc: object) -> None:
        gc.callbacks.remove(self)


def chain_times(sizes: tuple[int, ...], repeats: int) -> dict[tuple[str, int], tuple]:
    """The fastest (forward, backward) CPU seconds of each library's chain of each size, over
    ``repeats`` rounds (libraries and sizes interleaved in each round), with the seconds
    the garbage collector's full collections took in that forward."""
    libs = [minitorch] + ([torch] if torch is not None else [])
    best: dict[tuple[str, int], tuple] = {}
    for _ in range(repeats):
        for n in sizes:
            for lib in libs:
                with CollectorClock() as collector:
                    start = time.process_time()
                    y = chain(lib, n)
                    built = time.process_time()
                y.backward()
                done = time.process_time()
                del y
                key = (lib.__name__, n)
                old = best.get(key, (float("inf"), float("inf"), 0.0))
                if built - start < old[0]:
                    old = (built - start, old[1], collector.seconds)
                best[key] = (old[0], min(old[1], done - built), old[2])
    return best


def chain_peak_memory(lib_name: str, n: int) -> int:
    """Bytes of anonymous memory (the heap: RssAnon) that building an ``n``-node chain with
    ``lib_name`` in a fresh Python process added, at its largest: after the forward, or at the
    end of the backward (sampled by the leaf's post-accumulate hook, while the engine still
    holds what it needs). Shared libraries' pages are left out: on a busy machine they leave
    and re-enter the resident set, and would count as the graph's."""
    code = (
        "import sys\n"
        f"sys.path.insert(0, {os.path.dirname(os.path.dirname(os.path.abspath(__file__)))!r})\n"
        f"import {lib_name} as lib\n"
        "def anon():\n"
        "    with open('/proc/self/status') as f:\n"
        "        line = next(ln for ln in f if ln.startswith('RssAnon:'))\n"
        "    return int(line.split()[1]) * 1024\n"
        "def chain(n, samples):\n"
        "    y = x = lib.tensor(1.0, requires_grad=True)\n"
        "    x.register_post_accumulate_grad_hook(lambda t: samples.append(anon()))\n"
        "    for _ in range(n): y = y * 1.0\n"
        "    samples.append(anon())\n"
        "    y.backward()\n"
        "chain(1000, [])\n"
        "before, samples = anon(), []\n"
        f"chain({n}, samples)\n"
        "print(max(samples) - before)\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         check=True)
    return int(out.stdout.split()[-1])


def chain_rows(sizes: tuple[int, ...], repeats: int) -> list[tuple[str, str]]:
    """Forward and backward per op of the chain at each size, against torch; the growth of
    the forward's cost; the peak memory of the largest chain against torch's."""
    best = chain_times(sizes, repeats)
    small, big = sizes[0], sizes[-1]
    rows = []
    for n in sizes:
        fwd, bwd, collecting = (t / n * 1e6 for t in best[("minitorch", n)])
        line = f"{fwd:.2f} fwd ({collecting:.2f} in full GC), {bwd:.2f} bwd"
        if torch is not None:
            tf, tb, _ = (t / n * 1e6 for t in best[("torch", n)])
            line += f"; torch {tf:.2f}, {tb:.2f}; ratio {fwd / tf:.2f}x, {bwd / tb:.2f}x"
        rows.append((f"chain y = y * c of {n} nodes, minitorch us/op (CPU)", line))
    for n in sizes[1:]:  # the forward's cost per op as the graph grows, 1 = flat
        growth = best[("minitorch", n)][0] / n / (best[("minitorch", small)][0] / small)
        line = f"{growth:.2f}x"
        if torch is not None:
            tg = best[("torch", n)][0] / n / (best[("torch", small)][0] / small)
            line += f" (torch {tg:.2f}x)"
        rows.append((f"chain forward per op, {n} / {small} nodes (1 = flat)", line))
    if torch is not None and sys.platform.startswith("linux"):
        mine, theirs = chain_peak_memory("minitorch", big), chain_peak_memory("torch", big)
        rows.append((f"chain of {big} nodes, peak memory minitorch / torch",
                     f"{mine / theirs:.2f}x ({mine / big:.0f} against {theirs / big:.0f} "
                     "bytes a node)"))
    return rows


SUM_CASES = (((64, 784), None), ((64, 784), 1), ((64, 784), 0), ((1_000_000,), None),
             ((2, 5), 1), ((64, 10), 1), ((10,), None))


def sum_rows(repeats: int) -> list[tuple[str, str]]:
    """minitorch's float32 sum kernel (torch's order of additions, rebuilt on numpy) against
    np.sum (pairwise, another order) and torch.sum, on the sizes of an MLP step's sums."""
    from minitorch.ops._cascade_sum import torch_sum

    rows = []
    rng = np.random.default_rng(0)
    for shape, dim in SUM_CASES:
        x = rng.standard_normal(shape).astype(np.float32)
        axis = None if dim is None else (dim,)
        runs = {"minitorch": lambda x=x, axis=axis: torch_sum(np, x, axis),
                "numpy": lambda x=x, axis=axis: np.sum(x, axis=axis)}
        if torch is not None:
            t = torch.from_numpy(x)
            runs["torch"] = lambda t=t, dim=dim: t.sum() if dim is None else t.sum(dim)
        times = interleaved(runs, repeats if x.size < 100_000 else max(3, repeats // 10))
        line = (f"{times['minitorch'] * 1e6:.1f} us, {times['minitorch'] / times['numpy']:.2f}x"
                " np.sum")
        if torch is not None:
            line += f", {times['minitorch'] / times['torch']:.2f}x torch.sum"
        where = "all" if dim is None else f"dim={dim}"
        rows.append((f"sum in torch's order, {'x'.join(map(str, shape))} f32 {where}", line))
    return rows


def synchronized(step: Callable[[], None], lib: object) -> Callable[[], None]:
    """``step`` followed by waiting for the GPU, so the time is the kernels' time too."""

    def run() -> None:
        step()
        lib.cuda.synchronize()

    return run


def refuse(reason: str) -> None:
    """Stop with ``reason`` on stderr and exit status 2 (nothing was measured)."""
    print(f"benchmarks/run.py: {reason}", file=sys.stderr)
    raise SystemExit(2)


def gpu_rows(repeats: int) -> list[tuple[str, str]]:
    """minitorch on CuPy against torch on CUDA: the MLP step at GPU size."""
    if not minitorch.cuda.is_available():
        refuse("--gpu needs an NVIDIA GPU and CuPy (pip install 'minitorch[cuda]'); "
               "minitorch.cuda.is_available() is False here")
    if torch is None or not torch.cuda.is_available():
        refuse("--gpu compares with torch on CUDA; this torch has no CUDA device")
    sizes = {"batch": GPU_BATCH, "hidden": GPU_HIDDEN}
    runs = {lib.__name__: synchronized(framework_mlp_step(lib, "cuda", **sizes), lib)
            for lib in (minitorch, torch)}
    t = interleaved(runs, repeats)
    name = f"MLP step {GPU_BATCH}x{D_IN}->{GPU_HIDDEN}->{D_OUT} f32 on the GPU"
    return [(f"{name}, minitorch ms", f"{t['minitorch'] * 1e3:.2f}"),
            (f"{name}, torch ms", f"{t['torch'] * 1e3:.2f}"),
            ("GPU MLP step, minitorch+CuPy / torch CUDA", f"{t['minitorch'] / t['torch']:.2f}x")]


def print_table(rows: list[tuple[str, str]]) -> None:
    width = max(len(r[0]) for r in rows)
    print(f"{'workload':<{width}}  result")
    print("-" * (width + 10))
    for name, value in rows:
        print(f"{name:<{width}}  {value}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true",
                        help="fewer repeats, chains up to 100 000 nodes")
    parser.add_argument("--gpu", action="store_true",
                        help="only the GPU comparison (needs CUDA, CuPy and torch with CUDA)")
    args = parser.parse_args()
    repeats = 30 if args.quick else 300
    if args.gpu:
        print_table(gpu_rows(repeats))
        return
    rows: list[tuple[str, str]] = []

    mlp = {"numpy": numpy_mlp_step(), "minitorch": framework_mlp_step(minitorch)}
    if torch is not None:
        mlp["torch"] = framework_mlp_step(torch)
    t = interleaved(mlp, repeats, time.process_time)
    rows.append(("MLP step 64x784->256->10 f32, minitorch / numpy by hand",
                 f"{t['minitorch'] / t['numpy']:.2f}x"))
    if torch is not None:
        rows.append(("MLP step, minitorch / torch eager", f"{t['minitorch'] / t['torch']:.2f}x"))

    for shape, graph in (("fresh operands", scalar_graph), ("one leaf in every op", leaf_graph)):
        scal = {"minitorch": graph(minitorch)}
        if torch is not None:
            scal["torch"] = graph(torch)
        s = interleaved(scal, max(5, repeats // 3), time.process_time)
        line = f"{s['minitorch'] / 1000 * 1e6:.2f} us/op"
        if torch is not None:
            line = f"{s['minitorch'] / s['torch']:.2f}x ({line})"
        rows.append((f"1000-op scalar graph fwd+bwd, {shape}, minitorch / torch", line))

    step = framework_mlp_step(minitorch)
    prof = interleaved({"off": repeated(step), "on": profiled(step)}, max(3, repeats // 10))
    rows.append(("100 MLP steps, profiler on / off", f"{prof['on'] / prof['off']:.2f}x"))

    gc_times = interleaved(gradcheck_modes(), 3)
    rows.append(("gradcheck 200-element input, slow / fast_mode",
                 f"{gc_times['slow'] / gc_times['fast']:.0f}x"))

    n_small, n_big = 10_000, 100_000
    back = chain_backward_times((n_small, n_big), 5)
    rows.append((f"chain backward, time({n_big}) / time({n_small}) (10 = linear)",
                 f"{back[n_big] / back[n_small]:.1f}"))
    both = interleaved({"small": deep_chain(minitorch, n_small),
                        "big": deep_chain(minitorch, n_big)}, 3)
    rows.append(("the same chains built and run backward (Python's GC included)",
                 f"{both['big'] / both['small']:.1f}"))

    rows += sum_rows(repeats * 10)

    sizes = (10_000, 100_000) if args.quick else (10_000, 100_000, 1_000_000)
    rows += chain_rows(sizes, 2 if args.quick else 3)

    print_table(rows)


if __name__ == "__main__":
    main()
