"""qbr: a webcam Rubik's cube scanner and solver."""

__version__ = "0.1.0"
