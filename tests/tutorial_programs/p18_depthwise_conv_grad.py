# A depthwise separable convolution (MobileNet) by hand with F.conv2d(groups=...), its
# gradients, and a ceil-mode max pool, all with fixed weights
import torch
import torch.nn.functional as F

x = torch.linspace(-1, 1, 2 * 4 * 6 * 6).reshape(2, 4, 6, 6).requires_grad_()
depthwise = torch.linspace(-0.5, 0.5, 4 * 9).reshape(4, 1, 3, 3).requires_grad_()
pointwise = torch.linspace(-1, 1, 8 * 4).reshape(8, 4, 1, 1).requires_grad_()
h = F.conv2d(x, depthwise, padding=1, groups=4)
y = F.conv2d(h, pointwise)
z = F.max_pool2d(y, 4, stride=4, ceil_mode=True)
print(h.shape, y.shape, z.shape, z.grad_fn.name())
loss = (z ** 2).mean()
loss.backward()
print(round(loss.item(), 4))
print(depthwise.grad[0, 0])
print(pointwise.grad.flatten()[:6])
print(x.grad.abs().sum().round(decimals=3))
