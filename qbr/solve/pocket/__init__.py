"""Solving the 2x2x2: coordinates, complete distance tables, optimal and robot-cost solutions."""
