"""The graph and the stepper in a real JupyterLab, driven by a headless Chromium.

JupyterLab is started on localhost with a throwaway configuration, the demo notebook
(tests/browser/demo.ipynb) is opened and run, and the page must show the SVG graph and the
stepper's widgets; one click on "Step" must advance it. On failure a screenshot and the
server's log are saved in build/browser-artifacts/.

Needs Debian's chromium (/usr/bin/chromium) and the playwright Python package (never
``playwright install``: the system browser is used).
"""

from __future__ import annotations

import os
import shutil
import socket
import subprocess
import sys
import time
import urllib.parse
import urllib.request
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[1]
DEMO = REPO / "tests" / "browser" / "demo.ipynb"
ARTIFACTS = REPO / "build" / "browser-artifacts"
CHROMIUM = "/usr/bin/chromium"
CHROMIUM_FLAGS = ["--headless", "--no-sandbox", "--disable-gpu",
                  "--disable-background-networking", "--disable-component-update",
                  "--no-first-run"]
TOKEN = "minitorch-browser-test"


def test_demo_notebook_runs_headless(tmp_path, monkeypatch):
    """The same notebook through nbclient: its outputs are an SVG and a widget view."""
    nbformat = pytest.importorskip("nbformat")
    nbclient = pytest.importorskip("nbclient")
    pytest.importorskip("ipywidgets")
    nb = nbformat.read(DEMO, as_version=4)
    monkeypatch.setenv("PYTHONPATH", _pythonpath())  # the kernel imports this checkout
    from course.integrity import SandboxedKernelManager  # (a client that misses no reply)

    nbclient.NotebookClient(nb, timeout=120, kernel_name="python3",
                            kernel_manager_class=SandboxedKernelManager,
                            resources={"metadata": {"path": str(tmp_path)}}).execute()
    graph, stepper = (nb.cells[i].outputs[0]["data"] for i in (2, 3))
    if shutil.which("dot"):
        assert "ExpBackward0" in graph["image/svg+xml"]
    else:  # drawn in the browser by graphviz-anywidget
        assert "application/vnd.jupyter.widget-view+json" in graph
    assert "application/vnd.jupyter.widget-view+json" in stepper


def _pythonpath() -> str:
    return os.pathsep.join(filter(None, [str(REPO), os.environ.get("PYTHONPATH", "")]))


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _start_lab(root: Path, log: Path, with_dot: bool = True) -> tuple[subprocess.Popen, str]:
    port = _free_port()
    env = {**os.environ, "PYTHONPATH": _pythonpath()}
    if not with_dot:  # the server and its kernels find no `dot` (nor anything else) on PATH
        env["PATH"] = str(root.parent / "empty-bin")
        Path(env["PATH"]).mkdir()
    for var, sub in [("JUPYTER_CONFIG_DIR", "config"), ("JUPYTER_RUNTIME_DIR", "runtime"),
                     ("JUPYTERLAB_SETTINGS_DIR", "settings"),
                     ("JUPYTERLAB_WORKSPACES_DIR", "workspaces")]:
        env[var] = str(root.parent / sub)
    news = root.parent / "settings" / "@jupyterlab" / "apputils-extension"
    news.mkdir(parents=True)  # no "get notified about Jupyter news?" pop-up over the page
    (news / "notification.jupyterlab-settings").write_text('{"fetchNews": "false"}')
    cmd = [sys.executable, "-m", "jupyter", "lab", "--no-browser", f"--port={port}",
           "--ServerApp.ip=127.0.0.1", f"--IdentityProvider.token={TOKEN}",
           f"--ServerApp.root_dir={root}", "--LabApp.expose_app_in_browser=True",
           "--LabApp.check_for_updates_class=jupyterlab.NeverCheckForUpdate",
           "--LabApp.news_url=None"]
    if os.geteuid() == 0:
        cmd.append("--allow-root")
    server = subprocess.Popen(cmd, env=env, stdout=log.open("w"), stderr=subprocess.STDOUT,
                              start_new_session=True)
    url = f"http://127.0.0.1:{port}"
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        try:
            urllib.request.urlopen(f"{url}/api/status?token={TOKEN}", timeout=2)
            return server, url
        except OSError:
            if server.poll() is not None:
                break
            time.sleep(0.5)
    _stop(server)
    raise RuntimeError(f"JupyterLab did not start; see {log}")


def _stop(server: subprocess.Popen) -> None:
    server.terminate()
    try:
        server.wait(timeout=15)
    except subprocess.TimeoutExpired:
        server.kill()
        server.wait()


@pytest.mark.browser
@pytest.mark.slow
@pytest.mark.parametrize("with_dot", [True, False], ids=["dot", "no-dot"])
def test_graph_and_stepper_render_in_jupyterlab(tmp_path, with_dot):
    """With `dot`: SVG outputs. Without: graphviz-anywidget draws both in the page. Either
    way the stepper's panel never covers its graph, from 1000 px wide to 1600."""
    if with_dot and not shutil.which("dot"):
        pytest.skip("Graphviz's dot is not installed")
    if not with_dot:
        pytest.importorskip("graphviz_anywidget")
    if not os.path.exists(CHROMIUM):
        pytest.skip(f"no Chromium at {CHROMIUM} (Debian: apt-get install chromium)")
    sync_api = pytest.importorskip(
        "playwright.sync_api", reason="playwright is not installed (pip install playwright)")
    pytest.importorskip("jupyterlab", reason="jupyterlab is not installed")
    root = tmp_path / "notebooks"
    root.mkdir()
    shutil.copy(DEMO, root / DEMO.name)
    log = tmp_path / "jupyterlab.log"
    server, url = _start_lab(root, log, with_dot)
    try:
        with sync_api.sync_playwright() as p:
            browser = p.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_FLAGS)
            page = browser.new_page(viewport={"width": 1400, "height": 1000})
            try:
                _run_demo(page, url, with_dot)
            except Exception:
                ARTIFACTS.mkdir(parents=True, exist_ok=True)
                page.screenshot(path=str(ARTIFACTS / "jupyterlab.png"), full_page=True)
                shutil.copy(log, ARTIFACTS / "jupyterlab.log")
                raise
            finally:
                browser.close()
    finally:
        _stop(server)


def _run_demo(page, url: str, with_dot: bool) -> None:
    page.set_default_timeout(90_000)
    page.goto(f"{url}/lab/tree/{DEMO.name}?token={TOKEN}")
    page.wait_for_selector(".jp-Notebook .jp-Cell")
    page.wait_for_function("window.jupyterapp && window.jupyterapp.shell.currentWidget"
                           " && window.jupyterapp.shell.currentWidget.sessionContext"
                           " && window.jupyterapp.shell.currentWidget.sessionContext.session"
                           " && window.jupyterapp.shell.currentWidget.sessionContext"
                           ".session.kernel")
    page.evaluate("window.jupyterapp.commands.execute('notebook:run-all-cells')")
    if with_dot:
        # JupyterLab shows an image/svg+xml output as an <img> with a data: URL
        graph = page.locator(".jp-RenderedSVG img, .jp-RenderedImage img").first
        graph.wait_for()
        source = urllib.parse.unquote(graph.get_attribute("src"))
        assert source.startswith("data:image/svg+xml") and "ExpBackward0" in source
        page.wait_for_function("img => img.complete && img.naturalWidth > 100",
                               arg=graph.element_handle())
    else:  # Graphviz as WebAssembly draws an <svg> into the widget's output
        page.wait_for_function(
            "[...document.querySelectorAll('.jp-OutputArea-output svg')]"
            ".some(svg => svg.textContent.includes('ExpBackward0'))")
    stepper = page.locator(".minitorch-stepper")
    stepper.wait_for()
    panel = stepper.locator(".minitorch-stepper-panel")
    assert "Start (6 steps)" in panel.inner_text()
    picture = stepper.locator(".minitorch-stepper-graph svg" if with_dot else
                              ".minitorch-stepper-picture svg").first
    picture.wait_for()
    assert stepper.locator(".widget-slider").count() == 1
    stepper.locator("button[title='run the next node']").click()
    page.wait_for_function(
        "document.querySelector('.minitorch-stepper-panel').innerText.includes('Step 1 of 6')")
    # Query the picture afresh on every poll: a step redraws it, so an element handle taken
    # before the redraw may point at a detached <svg> forever.
    page.wait_for_function(
        "[...document.querySelectorAll('.minitorch-stepper-picture svg')]"
        ".some(svg => svg.textContent.includes('step 1'))")
    for width in (1000, 1200, 1400, 1600):
        page.set_viewport_size({"width": width, "height": 1000})
        page.wait_for_timeout(300)
        graph_box = stepper.locator(".minitorch-stepper-picture svg").first.bounding_box()
        panel_box = panel.bounding_box()
        assert graph_box["width"] > 100, (width, graph_box)
        assert graph_box["x"] + graph_box["width"] <= panel_box["x"] + 1, (width, graph_box,
                                                                           panel_box)
