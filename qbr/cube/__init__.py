"""The cube model: conventions, state, moves, validation. Pure: no I/O, imports nothing else of qbr."""
