"""Shared by every pytest suite under Tests/: puts this directory on the import path, so each
suite imports the helpers they have in common (`bindery_support`)."""

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
