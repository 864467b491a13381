# Saving and loading a model's state dict, an optimizer's and a checkpoint; legacy types
import io

import torch
from torch import nn

model = nn.Sequential(nn.Linear(3, 2), nn.Tanh(), nn.Linear(2, 1))
with torch.no_grad():
    for p in model.parameters():
        p.copy_(torch.linspace(-1, 1, p.numel()).reshape(p.shape))
opt = torch.optim.RMSprop(model.parameters(), lr=0.01, momentum=0.5)
x = torch.Tensor([[1, 2, 3], [0, -1, 1]])
model(x).sum().backward()
opt.step()
buffer = io.BytesIO()
torch.save({"epoch": 5, "model": model.state_dict(), "opt": opt.state_dict()}, buffer)
buffer.seek(0)
ckpt = torch.load(buffer)
print(sorted(ckpt), ckpt["epoch"], list(ckpt["model"]))
print(ckpt["model"]["0.weight"])
twin = nn.Sequential(nn.Linear(3, 2), nn.Tanh(), nn.Linear(2, 1))
twin.load_state_dict(ckpt["model"])
print(torch.equal(twin(x), model(x)), twin(x))
print(ckpt["opt"]["param_groups"][0]["lr"], sorted(ckpt["opt"]["state"][0]))
print(x.type(), x.long(), torch.LongTensor([1, 2]).type(torch.FloatTensor))
print(torch.FloatTensor(2, 3).shape)
