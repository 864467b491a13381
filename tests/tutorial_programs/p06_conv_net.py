# A small convolutional net: Conv2d, ReLU, MaxPool2d, Flatten, Linear, cross entropy, SGD
import torch
import torch.nn.functional as F
from torch import nn


class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.conv1 = nn.Conv2d(1, 4, 3, padding=1)
        self.pool = nn.MaxPool2d(2, 2)
        self.conv2 = nn.Conv2d(4, 6, 3)
        self.fc = nn.Linear(6, 3)

    def forward(self, x):
        x = self.pool(F.relu(self.conv1(x)))
        x = F.relu(self.conv2(x))
        x = torch.flatten(x, 1)
        return self.fc(x)


net = Net()
with torch.no_grad():
    for i, p in enumerate(net.parameters()):
        p.copy_(torch.linspace(-0.5, 0.5, p.numel()).reshape(p.shape) * (1 + 0.1 * i))
print(net)
x = torch.arange(2 * 36, dtype=torch.float32).reshape(2, 1, 6, 6) / 36
target = torch.tensor([0, 2])
opt = torch.optim.SGD(net.parameters(), lr=0.1, momentum=0.9)
for step in range(3):
    opt.zero_grad()
    out = net(x)
    loss = F.cross_entropy(out, target)
    loss.backward()
    opt.step()
    print(step, round(loss.item(), 4), out.grad_fn.name())
print(net.conv1.weight.grad.shape, round(net.conv1.weight.grad.abs().sum().item(), 4))
