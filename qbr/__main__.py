"""Allow ``python -m qbr``."""

from qbr.cli import main_entry

main_entry()
