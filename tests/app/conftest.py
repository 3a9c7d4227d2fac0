"""Fixtures shared by the app tests."""

from pathlib import Path

import pytest

from qbr.solve.i18n import Translator

LOCALES = Path(__file__).resolve().parents[2] / "qbr" / "app" / "locales"


@pytest.fixture(scope="module")
def translators() -> dict[str, Translator]:
    """English, with the window's messages (a test module needing every language defines its own)."""
    return {"en": Translator("en", extra_dirs=[LOCALES])}
