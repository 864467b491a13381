"""The autograd course on a student's machine: two commands, run from the unzipped folder.

    python -m autograd_course start     # set up .venv (first time), open JupyterLab
    python -m autograd_course check     # run every chapter's visible tests, print progress

Only the standard library is used until the course's own environment exists.
"""

__all__ = ["cli", "progress"]
