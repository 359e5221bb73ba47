"""Shared helpers of the pytest suite: where the repository's test data is."""

import pathlib

REPOSITORY = pathlib.Path(__file__).resolve().parents[2]
