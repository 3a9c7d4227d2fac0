"""Solving: the only place kociemba is imported; instructions and their translations."""
