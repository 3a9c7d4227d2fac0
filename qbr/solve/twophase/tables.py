"""Every table the two-phase search needs, built together from the coordinates (about two seconds)."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from qbr.solve.twophase import coordinates as co
from qbr.solve.twophase.move_tables import MoveTables, build_move_tables
from qbr.solve.twophase.near_table import NearTable, build_near_table
from qbr.solve.twophase.pruning_tables import PruningTables, build_pruning_tables


@dataclass(frozen=True)
class Tables:
    moves: MoveTables
    pruning: PruningTables
    near: NearTable

    def arrays(self) -> dict[str, np.ndarray]:
        """Every table by name (what the cache stores)."""
        return {
            **{f"move_{k}": getattr(self.moves, k) for k in MoveTables.__dataclass_fields__},
            **{f"prune_{k}": getattr(self.pruning, k) for k in PruningTables.__dataclass_fields__},
            "near_keys": self.near.keys,
            "near_distance": self.near.distance,
        }

    @classmethod
    def from_arrays(cls, arrays: dict[str, np.ndarray]) -> Tables:
        """Raises KeyError if a table is missing."""
        return cls(
            MoveTables(**{k: arrays[f"move_{k}"] for k in MoveTables.__dataclass_fields__}),
            PruningTables(**{k: arrays[f"prune_{k}"] for k in PruningTables.__dataclass_fields__}),
            NearTable(arrays["near_keys"], arrays["near_distance"]),
        )


def solved_coordinates() -> dict[str, int]:
    solved = co.twist_cubies().take(np.array([0]))  # coordinate 0 of twist is the solved cube
    return {
        name: int(getattr(co, f"{name}_of")(solved)[0])
        for name in ("twist", "flip", "slice", "cperm", "eperm", "sperm", "slice_sorted", "u_edges", "d_edges")
    }


def build_tables() -> Tables:
    moves = build_move_tables()
    solved = solved_coordinates()
    return Tables(moves, build_pruning_tables(moves, solved), build_near_table(moves, solved))


def layout() -> dict[str, tuple[tuple[int, ...], np.dtype]]:
    """Name -> (shape, dtype) of every table, known without building any (to check a cached file)."""
    i32, i8 = np.dtype(np.int32), np.dtype(np.int8)
    every, phase2 = 18, 10
    moves = {
        "twist": (co.N_TWIST, every), "flip": (co.N_FLIP, every), "slice": (co.N_SLICE, every),
        "cperm": (co.N_CPERM, every), "eperm": (co.N_EPERM, phase2), "sperm": (co.N_SPERM, phase2),
        "slice_sorted": (co.N_SLICE_SORTED, every), "u_edges": (co.N_SLICE_SORTED, every),
        "d_edges": (co.N_SLICE_SORTED, every),
    }
    shapes = {f"move_{k}": (v, i32) for k, v in moves.items()}
    shapes["move_eperm_from_placed"] = ((co.N_SLICE_SORTED * co.N_SPERM,), np.dtype(np.int32))
    shapes["prune_twist_slice"] = ((co.N_TWIST * co.N_SLICE,), i8)
    shapes["prune_flip_slice"] = ((co.N_FLIP * co.N_SLICE,), i8)
    shapes["prune_twist_flip"] = ((co.N_TWIST * co.N_FLIP,), i8)
    shapes["prune_cperm_sperm"] = ((co.N_CPERM * co.N_SPERM,), i8)
    shapes["prune_eperm_sperm"] = ((co.N_EPERM * co.N_SPERM,), i8)
    near = 1 + 18 + 243 + 3240 + 43239 + 574908  # cubes within 0..5 turns (OEIS A080601)
    shapes["near_keys"] = ((near,), np.dtype(np.uint64))
    shapes["near_distance"] = ((near,), i8)
    return shapes
