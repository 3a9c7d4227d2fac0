"""Seeing the cube: detection, colour measurement, classification. Pure functions: ndarray in, dataclass out."""
