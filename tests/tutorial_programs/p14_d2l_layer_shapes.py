# d2l 7.6 (LeNet) style: push one example through a network, printing each layer's output
# shape; the pooling layers use ceil_mode and one convolution is grouped (MobileNet-like)
import torch
from torch import nn

net = nn.Sequential(
    nn.Conv2d(1, 6, kernel_size=5, padding=2), nn.Sigmoid(),
    nn.MaxPool2d(kernel_size=3, stride=2, ceil_mode=True),
    nn.Conv2d(6, 12, kernel_size=3, groups=3), nn.ReLU(),
    nn.MaxPool2d(kernel_size=2, stride=2, ceil_mode=True),
    nn.Flatten(), nn.Linear(12 * 3 * 3, 10))
print(net)
X = torch.zeros((1, 1, 15, 15), dtype=torch.float32)
for layer in net:
    X = layer(X)
    print(layer.__class__.__name__, "output shape: \t", X.shape)
print(X.dtype, X.device, type(X))
print([tuple(p.shape) for p in net.parameters()])
