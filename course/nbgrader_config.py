# The instructor's nbgrader configuration for the autograd course.
#
# nbgrader reads `nbgrader_config.py` from the directory it runs in. This file is copied into
# a grading course root by `python tools/build_course.py --instructor-root DIR` (see
# course/README.md), and tools/build_course.py and the tests load it to generate the release,
# so the committed release and a real class are built with the same settings.
# It holds no paths: the course root is the directory nbgrader runs in.

import atexit
import shutil
import sys
import tempfile
import warnings
from pathlib import Path

from nbconvert.preprocessors import ClearMetadataPreprocessor, CSSHTMLHeaderPreprocessor
from nbgrader.preprocessors import (
    AssignLatePenalties,
    CheckCellMetadata,
    ClearOutput,
    DeduplicateIds,
    GetGrades,
    IgnorePattern,
    LimitOutput,
    OverwriteKernelspec,
    SaveAutoGrades,
)

c = get_config()  # noqa: F821  (traitlets provides get_config when it loads this file)

# The course's nbgrader plug-ins sit beside this file (integrity.py).
sys.path.insert(0, str(Path(__file__).resolve().parent))
from integrity import (  # noqa: E402
    GuardedExecute,
    HideHiddenTests,
    RestoreHiddenTests,
    quiet_routine_logs,
)

# Files that are never copied from source/ to release/ or collected from a submission.
c.CourseDirectory.ignore = [
    ".ipynb_checkpoints",
    ".virtual_documents",
    ".jupyter_ystore.db",
    ".DS_Store",
    "*.pyc",
    "__pycache__",
    "feedback",
]

# Each cell gets this many seconds; then it is interrupted, scores 0, and grading goes on.
c.Execute.timeout = 60

# A test cell scores 0 when anything reaches stderr, and minitorch warns where torch warns.
# The course's convention keeps graded cells silent: every notebook starts with a locked
# set-up cell (grade_id "setup") that ignores warnings while nbgrader executes it
# (NBGRADER_EXECUTION is set for autograde and validate). Belt and braces, for a student who
# deleted the set-up cell or reset the filters: stderr outputs that hold a Python warning
# ("file.py:12: UserWarning: ...") are dropped before scoring. Errors are never dropped:
# they are error outputs, not stderr streams.
c.IgnorePattern.enabled = True
c.IgnorePattern.pattern = r"(?m)^.*:\d+: \w*Warning: "

# Logs an instructor can trust: nothing in an honest run reads as an error or as tampering.
# - nbgrader's gradebook trips a SQLAlchemy warning ("... not in session, add operation ...
#   will not proceed") for every new submission; it is harmless (the rows are added anyway).
# - A looping cell and a dead kernel are routine outcomes of grading, not errors of the
#   grader: they are logged as one WARNING each, saying what grading did.
# - A test cell as released lacks its hidden tests, so nbgrader's "Attribute 'checksum' for
#   cell ... has changed!" fired for every submission; RestoreHiddenTests restores such cells
#   silently and still warns about any other change to a locked cell.
warnings.filterwarnings("ignore", message=r".* not in session, add operation along")
quiet_routine_logs("AutogradeApp")  # in validate, a dead kernel is fatal: stays an ERROR
c.Autograde.sanitize_preprocessors = [
    ClearOutput,
    DeduplicateIds,
    OverwriteKernelspec,
    RestoreHiddenTests,
    CheckCellMetadata,
]

# Kernels talk to nbgrader over Unix sockets in a private folder, not TCP ports. With TCP,
# nbgrader picks free ports and the kernel binds them moments later; on a machine where other
# kernels start at the same time (parallel grading, other users) a port can be taken in
# between, and then the kernel dies at start or nbgrader waits a whole cell timeout (60 s)
# for a reply that never comes: the intermittent stall of `nbgrader validate`. Unix sockets
# also end the kernel's "running over TCP without encryption" warning.
_SOCKETS = tempfile.mkdtemp(prefix="nbgrader-kernel-")
atexit.register(shutil.rmtree, _SOCKETS, ignore_errors=True)
c.KernelManager.transport = "ipc"
c.KernelManager.ip = str(Path(_SOCKETS) / "kernel")

# A test cell deleted from a submission is put back and run, instead of scoring 0 and
# waiting for manual grading.
c.OverwriteCells.add_missing_cells = True

# `nbgrader zip_collect A`: put one zip per student, named after the student id, or one
# folder per student, in downloaded/A/archive/. The first folder under extracted/ is the
# student id, the notebook's file name is the notebook id; notebooks with other names
# (checkpoints, copies) are skipped.
c.FileNameCollectorPlugin.named_regexp = (
    r".*/extracted/(?P<student_id>[^/]+)/(?:.*/)?(?P<file_id>[^/]+\.ipynb)$"
)
c.ZipCollectApp.strict = True

# Feedback HTML is made from the autograded notebook, which holds the hidden tests again:
# strip them, and every output line quoting them, before students see it.
c.GenerateFeedback.preprocessors = [HideHiddenTests, GetGrades, CSSHTMLHeaderPreprocessor]

# Student code runs in the same kernel as the tests and could talk them round. Autograde runs
# each notebook with GuardedExecute instead of nbgrader's Execute (see course/README.md, "What
# autograding defends against"): a sandboxed kernel in a scratch folder, a restart when the
# kernel dies, and hidden checks compared outside the kernel. The rest is nbgrader's default.
c.Autograde.autograde_preprocessors = [
    GuardedExecute,
    IgnorePattern,
    ClearMetadataPreprocessor,
    LimitOutput,
    SaveAutoGrades,
    AssignLatePenalties,
    CheckCellMetadata,
]
