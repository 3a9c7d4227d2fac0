"""Reading files qbr is given or keeps: regular files only, never blocking, bounded while read; JSON with limits.

Imports nothing of qbr, so every layer may use it; callers turn :class:`~qbr.files.read.UnreadableFile` into
their own typed error.
"""
