import sys
from pathlib import Path

# tests import their helpers (brute force, image paths) as plain modules
sys.path.insert(0, str(Path(__file__).parent))
