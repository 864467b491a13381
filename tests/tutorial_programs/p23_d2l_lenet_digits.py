# d2l's LeNet (sigmoid, average pooling) trained a few steps with a squared-error loss; every
# digit of the losses and gradient sizes is printed: a convolution adding in another order shows
import torch
from torch import nn

torch.manual_seed(0)
net = nn.Sequential(
    nn.Conv2d(1, 6, kernel_size=5, padding=2), nn.Sigmoid(),
    nn.AvgPool2d(kernel_size=2, stride=2),
    nn.Conv2d(6, 16, kernel_size=5), nn.Sigmoid(),
    nn.AvgPool2d(kernel_size=2, stride=2),
    nn.Flatten(),
    nn.Linear(16 * 5 * 5, 120), nn.Sigmoid(),
    nn.Linear(120, 84), nn.Sigmoid(),
    nn.Linear(84, 10))
X = torch.rand(32, 1, 28, 28)
y = torch.rand(32, 10)
opt = torch.optim.SGD(net.parameters(), lr=0.9)
loss_fn = nn.MSELoss()
for step in range(3):
    opt.zero_grad()
    loss = loss_fn(net(X), y)
    loss.backward()
    print(step, loss.item(), net[0].weight.grad.abs().sum().item(),
          net[3].bias.grad.abs().sum().item())
    opt.step()
print(net(X[:1]).tolist())
