"""Pictures of autograd: the backward graph (``draw``, ``show``) and a backward-pass stepper.

Needs the ``graphviz`` Python package (``pip install graphviz``) to build the DOT text, and
Graphviz's ``dot`` program to turn it into SVG; without ``dot``, ``graphviz-anywidget`` draws
the graphs in JupyterLab with Graphviz compiled to WebAssembly (without either, the notebook
shows how to install one). The stepper also needs ``ipywidgets``.

>>> import minitorch
>>> import minitorch.viz as viz
>>> x = minitorch.tensor([3.], requires_grad=True)
>>> g = viz.draw(x * x, params={"x": x})      # shows as SVG in Jupyter
>>> stepper = viz.BackwardStepper(x * x)     # Step / Back / Reset through the engine's run
>>> [s.title for s in stepper.steps]
['MulBackward0', 'AccumulateGrad (x)']
>>> with viz.use(lambda t: ([t.grad_fn], [])):   # your own graph walk draws (course seam)
...     g = viz.draw(x * x)
"""

from __future__ import annotations

try:
    import graphviz  # noqa: F401
except ImportError:  # one line that says what to do, instead of a traceback from deep inside
    raise ModuleNotFoundError(
        "minitorch.viz needs the graphviz Python package: pip install graphviz "
        "(and graphviz-anywidget to draw without Graphviz's dot program)", name="graphviz"
    ) from None

from .dot import Graph, Source, draw, show, use
from .stepper import BackwardStepper, Delivery, LeafUpdate, State, Step

__all__ = ["BackwardStepper", "Delivery", "Graph", "LeafUpdate", "Source", "State", "Step", "draw",
           "show", "use"]
