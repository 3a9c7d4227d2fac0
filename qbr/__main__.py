"""Allow ``python -m qbr``."""

import sys

from qbr.cli import main

sys.exit(int(main()))
