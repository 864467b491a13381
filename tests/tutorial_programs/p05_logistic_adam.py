# Logistic regression with nn.Linear, BCEWithLogitsLoss and Adam on fixed data
import torch
from torch import nn

X = torch.tensor([[0.5, 1.0], [1.5, -0.5], [-1.0, 0.3], [2.0, 1.0], [-0.7, -1.2], [0.1, 0.2]])
y = torch.tensor([[1.0], [1.0], [0.0], [1.0], [0.0], [0.0]])
model = nn.Linear(2, 1)
with torch.no_grad():
    model.weight.copy_(torch.tensor([[0.1, -0.1]]))
    model.bias.fill_(0.0)
loss_fn = nn.BCEWithLogitsLoss()
opt = torch.optim.Adam(model.parameters(), lr=0.1)
for epoch in range(60):
    opt.zero_grad()
    loss = loss_fn(model(X), y)
    loss.backward()
    opt.step()
    if epoch % 20 == 0:
        print(epoch, round(loss.item(), 4))
probs = torch.sigmoid(model(X))
print(((probs > 0.5).float() == y).float().mean())
print(nn.BCELoss()(probs, y).grad_fn.name(), round(nn.BCELoss()(probs, y).item(), 4))
print(opt)
