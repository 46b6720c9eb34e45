import os
import sys
from pathlib import Path

# Under pytest-xdist each worker process is one of the threads the machine has: the
# numerical libraries under numpy and OpenCV take one thread each, as `boardsolve batch`
# gives its workers (set before numpy is first imported; a user's own setting stands).
if os.environ.get("PYTEST_XDIST_WORKER"):
    for name in ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS"):
        os.environ.setdefault(name, "1")
    import cv2

    cv2.setNumThreads(1)

# tests import their helpers (brute force, image paths) as plain modules
sys.path.insert(0, str(Path(__file__).parent))
