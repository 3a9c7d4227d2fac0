"""qbr's own two-phase solver (Kociemba's algorithm) in numpy: coordinates, move and pruning tables, search."""
