# PyTorch recipe "Profiling your PyTorch module": profile a training step of a small model and
# list what its backward ran (the engine's evaluate_function rows and the nodes)
import torch
from torch import nn
from torch.autograd import profiler

model = nn.Sequential(nn.Linear(4, 3), nn.ReLU(), nn.Linear(3, 1))
x = torch.ones(5, 4)
with profiler.profile() as prof, profiler.record_function("train_step"):
    loss = (model(x) ** 2).mean()
    loss.backward()

rows = sorted((e.key, e.count) for e in prof.key_averages()
              if "Backward" in e.key or "AccumulateGrad" in e.key)
for key, count in rows:
    print(f"{key:70s} {count}")
print("train_step" in [e.key for e in prof.key_averages()])
