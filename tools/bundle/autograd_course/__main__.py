"""``python -m autograd_course``: see ``autograd_course.cli``."""

import sys

from autograd_course.cli import main

sys.exit(main())
