"""qbr's own two-phase solver: coordinates, tables against known counts, directions, search, and the cache."""

import os
import random
import time

import numpy as np
import pytest

from qbr.cube.conventions import SOLVED
from qbr.cube.cubie import CubieCube
from qbr.cube.generate import random_cubie, random_scramble
from qbr.cube.moves import ALL_FACE_MOVES, Move, invert
from qbr.cube.state import CubeState
from qbr.solve.solver import default_cache_dir
from qbr.solve.twophase import cache
from qbr.solve.twophase import coordinates as co
from qbr.solve.twophase.cubies import PHASE2_MOVES, Cubies, inverse
from qbr.solve.twophase.directions import DIRECTIONS
from qbr.solve.twophase.optimal import optimal
from qbr.solve.twophase.search import two_phase
from qbr.solve.twophase.tables import layout


@pytest.fixture(scope="module")
def tables():
    return cache.shared_tables(default_cache_dir())[0]


def _random_cubies(seed: int, n: int) -> tuple[list[CubieCube], Cubies]:
    rng = random.Random(seed)
    cubes = [random_cubie(rng) for _ in range(n)]
    return cubes, Cubies.of(cubes)


@pytest.mark.parametrize("name", ["twist", "flip", "slice", "cperm", "eperm", "sperm", "slice_sorted", "u_edges",
                                  "d_edges"])
def test_every_coordinate_value_has_a_cube_that_reads_back(name):
    values = getattr(co, f"{name}_of")(getattr(co, f"{name}_cubies")())
    assert np.array_equal(values, np.arange(len(values)))


def test_batched_turns_agree_with_the_cube_model():
    cubes, batch = _random_cubies(1, 50)
    rng = np.random.default_rng(1)
    moves = rng.integers(0, 18, size=50)
    turned = batch.turned(moves)
    for i, (cube, move) in enumerate(zip(cubes, moves, strict=True)):
        want = CubeState(cube.to_facelets()).apply((ALL_FACE_MOVES[move],)).facelets
        got = CubieCube(*(tuple(int(x) for x in getattr(turned, f)[i]) for f in ("cp", "co", "ep", "eo")))
        assert got.to_facelets() == want


def test_inverse_undoes_the_cube():
    cube = random_cubie(random.Random(2))
    assert cube.multiply(inverse(cube)) == CubieCube() == inverse(cube).multiply(cube)


@pytest.mark.parametrize("name", ["twist", "flip", "slice", "cperm", "slice_sorted", "u_edges", "d_edges"])
def test_move_tables_agree_with_turning_the_cubes(tables, name):
    _, batch = _random_cubies(3, 40)
    coordinate = getattr(co, f"{name}_of")
    table = getattr(tables.moves, name)
    before = coordinate(batch)
    for move in range(18):
        after = coordinate(batch.turned(np.full(40, move)))
        assert np.array_equal(table[before, move], after)


def test_phase2_tables_agree_within_the_subgroup(tables):
    rng = random.Random(4)
    cubes = [CubieCube.from_facelets(CubeState.solved().apply(
        [ALL_FACE_MOVES[rng.choice(PHASE2_MOVES)] for _ in range(30)]).facelets) for _ in range(30)]
    batch = Cubies.of(cubes)
    for name in ("eperm", "sperm"):
        coordinate, table = getattr(co, f"{name}_of"), getattr(tables.moves, name)
        for column, move in enumerate(PHASE2_MOVES):
            assert np.array_equal(table[coordinate(batch), column], coordinate(batch.turned(np.full(30, move))))
    eperm = tables.moves.eperm_from_placed[co.u_edges_of(batch) * 24 + co.d_edges_of(batch) % 24]
    assert np.array_equal(eperm, co.eperm_of(batch))


def test_pruning_tables_have_the_known_distance_counts(tables):
    # Phase 1 pairs need at most 9 turns; the counts per distance are the published ones (Kociemba's site).
    assert np.bincount(tables.pruning.twist_slice).tolist() == [
        1, 4, 50, 586, 6184, 54066, 296322, 582492, 142520, 340]
    assert np.bincount(tables.pruning.flip_slice).tolist() == [
        1, 4, 50, 532, 4804, 41832, 238263, 555636, 172314, 324]
    assert np.bincount(tables.pruning.twist_flip).tolist() == [
        1, 4, 46, 504, 5662, 61008, 549711, 2422226, 1431344, 8470]
    for table in (tables.pruning.cperm_sperm, tables.pruning.eperm_sperm):
        assert table.min() == 0 and (table >= 0).all() and np.count_nonzero(table == 0) == 1


def test_near_table_counts_cubes_by_distance(tables):
    # Positions at distance 0..5 in the half-turn metric (OEIS A080601): the keys lose no cube to a collision.
    assert np.bincount(tables.near.distance).tolist() == [1, 18, 243, 3240, 43239, 574908]
    assert np.all(np.diff(tables.near.keys.astype(np.float64)) >= 0)


def test_every_direction_maps_its_solutions_back():
    rng = random.Random(5)
    for _ in range(5):
        scramble = random_scramble(rng, 15)
        cube = CubieCube.from_facelets(CubeState.solved().apply(scramble).facelets)
        for direction in DIRECTIONS:
            home = direction.home_faces()
            # The scramble's own undoing, as the view sees it, must map back to a solution of the cube.
            undo = tuple(scramble) if direction.inverted else invert(scramble)
            seen = tuple(Move("URFDLB"[home.index(m.face)], m.turns) for m in undo)
            assert CubeState(direction.view(cube).to_facelets()).apply(seen).facelets == SOLVED
            assert CubeState(cube.to_facelets()).apply(direction.solution_back(seen)).facelets == SOLVED


def test_two_phase_solves_random_cubes_and_improves_with_time(tables):
    rng = random.Random(6)
    for _ in range(4):
        cube = random_cubie(rng)
        found: list[tuple[Move, ...]] = []
        best = two_phase(cube, tables, deadline=time.monotonic() + 0.3, on_solution=found.append)
        lengths = [len(m) for m in found]
        assert best is not None and CubeState(cube.to_facelets()).apply(best).facelets == SOLVED
        assert lengths == sorted(set(lengths), reverse=True) and len(best) == lengths[-1] <= 22
        first = two_phase(cube, tables, deadline=time.monotonic() + 30, first_only=True)
        assert first is not None and len(first) == lengths[0]


def test_a_passed_deadline_stops_the_search(tables):
    assert two_phase(random_cubie(random.Random(7)), tables, deadline=time.monotonic() - 1) is None


def test_optimal_finds_shortest_solutions(tables):
    rng = random.Random(8)
    for length in (3, 6, 9):
        cube = CubieCube.from_facelets(CubeState.solved().apply(random_scramble(rng, length)).facelets)
        solution = optimal(cube, tables, 10, time.monotonic() + 30)
        assert solution is not None and len(solution) <= length
        assert CubeState(cube.to_facelets()).apply(solution).facelets == SOLVED
        assert optimal(cube, tables, len(solution) - 1, time.monotonic() + 30) is None
    assert optimal(random_cubie(rng), tables, 10, time.monotonic() + 30) is None


# The cache: every broken file is noticed, the tables rebuilt (here: a stand-in that returns the real ones
# without spending seconds), and a good file written again where the directory allows it.


@pytest.fixture
def rebuilt(tables, monkeypatch):
    calls: list[int] = []

    def build():
        calls.append(1)
        return tables

    monkeypatch.setattr(cache, "build_tables", build)
    return calls


def test_a_missing_cache_is_built_and_then_read(tmp_path, rebuilt):
    _, report = cache.load_tables(tmp_path)
    assert report.source == "built" and report.problem is None and rebuilt == [1]
    loaded, report = cache.load_tables(tmp_path)
    assert report.source == "cache" and rebuilt == [1]
    for name, (shape, dtype) in layout().items():
        assert loaded.arrays()[name].shape == shape and loaded.arrays()[name].dtype == dtype
    assert not [p for p in tmp_path.iterdir() if p.suffix == ".tmp"]


@pytest.mark.parametrize("damage", ["truncated", "flipped_byte", "empty", "garbage", "other_version_magic"])
def test_a_damaged_cache_is_rebuilt(tmp_path, rebuilt, damage):
    cache.load_tables(tmp_path)
    path = cache.cache_path(tmp_path)
    data = path.read_bytes()
    damaged = {
        "truncated": data[: len(data) // 2],
        "flipped_byte": data[:-100] + bytes([data[-100] ^ 1]) + data[-99:],
        "empty": b"",
        "garbage": os.urandom(1000),
        "other_version_magic": b"qbr-twophase-tables-v0\n" + data[len(cache.MAGIC):],
    }[damage]
    path.write_bytes(damaged)
    loaded, report = cache.load_tables(tmp_path)
    assert report.source == "built" and report.problem and rebuilt == [1, 1]
    assert cache.load_tables(tmp_path)[1].source == "cache"
    assert np.array_equal(loaded.pruning.twist_slice, cache.load_tables(tmp_path)[0].pruning.twist_slice)


def test_a_wrong_payload_with_a_right_checksum_is_rebuilt(tmp_path, rebuilt):
    import hashlib
    import io

    buffer = io.BytesIO()
    np.savez(buffer, move_twist=np.zeros(3))
    payload = buffer.getvalue()
    cache.cache_path(tmp_path).write_bytes(cache.MAGIC + hashlib.sha256(payload).digest() + payload)
    _, report = cache.load_tables(tmp_path)
    assert report.source == "built" and "wrong shape" in report.problem


def test_an_unwritable_cache_directory_still_gives_tables(tmp_path, rebuilt):
    blocker = tmp_path / "file"
    blocker.write_text("not a directory")
    tables, report = cache.load_tables(blocker / "cache")  # root can write anywhere, but not under a file
    assert report.source == "built_unsaved" and tables is not None


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="no FIFOs on this system")
def test_a_fifo_in_place_of_the_cache_does_not_hang(tmp_path, rebuilt):
    os.mkfifo(cache.cache_path(tmp_path))
    _, report = cache.load_tables(tmp_path)
    assert report.source in ("built", "built_unsaved") and report.problem


def test_a_directory_in_place_of_the_cache_is_bypassed(tmp_path, rebuilt):
    cache.cache_path(tmp_path).mkdir()
    _, report = cache.load_tables(tmp_path)
    assert report.source == "built_unsaved" and report.problem
