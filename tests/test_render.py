"""Tests for the synthetic screenshot renderer (tests/synth)."""

from __future__ import annotations

import itertools

import cv2
import numpy as np
import pytest
from synth import LOOKS, Rendered, chairs, random_scene, render_board, themes

from vision_solver.errors import BoardInputError

FLAT_LOOKS = [name for name in LOOKS if name != "chairs"]


def _puzzle(look: str) -> str:
    return "arrows" if look in ("arrow-tiles", "arrow-squares", "chairs") else "lights"


def _cells(look: str, rows: int, cols: int, seed: int = 0) -> np.ndarray:
    top = 4 if _puzzle(look) == "arrows" else 2
    return np.random.default_rng(seed).integers(0, top, size=(rows, cols))


def _signed_area(quad: np.ndarray) -> float:
    """Shoelace area; positive for clockwise order in image coordinates (y pointing down)."""
    x, y = quad[:, 0], quad[:, 1]
    return 0.5 * float(np.dot(x, np.roll(y, -1)) - np.dot(y, np.roll(x, -1)))


# --- every look ------------------------------------------------------------------------------


@pytest.mark.parametrize("look", list(LOOKS))
def test_every_look_renders_a_3x4_board(look: str) -> None:
    cells = _cells(look, 3, 4)
    out = render_board(cells, look, seed=1)
    assert isinstance(out, Rendered)
    assert out.look == look
    assert out.puzzle == _puzzle(look)
    assert out.image.dtype == np.uint8
    assert out.image.ndim == 3 and out.image.shape[2] == 3
    assert out.image.std() > 5  # not a blank canvas
    assert out.cells.dtype == np.int64
    np.testing.assert_array_equal(out.cells, cells)
    assert out.corners.shape == (4, 2) and out.corners.dtype == np.float64


@pytest.mark.parametrize("look", list(LOOKS))
@pytest.mark.parametrize("tilt", [0.0, 0.25])
def test_corners_inside_canvas_and_clockwise(look: str, tilt: float) -> None:
    out = render_board(
        _cells(look, 4, 6, seed=2), look, seed=5, cell_px=24, canvas=(640, 480), tilt=tilt
    )
    h, w = out.image.shape[:2]
    assert (h, w) == (480, 640)
    c = out.corners
    assert np.all(c[:, 0] >= 0) and np.all(c[:, 0] <= w - 1)
    assert np.all(c[:, 1] >= 0) and np.all(c[:, 1] <= h - 1)
    assert _signed_area(c) > 0
    # TL is the top-left-most corner and BR the bottom-right-most
    sums = c.sum(axis=1)
    assert np.argmin(sums) == 0 and np.argmax(sums) == 2


@pytest.mark.parametrize("look", FLAT_LOOKS)
def test_corner_quad_area_matches_cell_grid(look: str) -> None:
    rows, cols, cp = 3, 5, 30
    out = render_board(_cells(look, rows, cols), look, seed=3, cell_px=cp)
    area = _signed_area(out.corners)
    assert abs(area - rows * cols * cp * cp) <= 0.1 * rows * cols * cp * cp


def test_corners_at_origin_for_flat_looks() -> None:
    out = render_board(
        _cells("flat-dark", 2, 3), "flat-dark", cell_px=20, canvas=(300, 200), origin=(50, 60)
    )
    expected = np.array([[49.5, 59.5], [109.5, 59.5], [109.5, 99.5], [49.5, 99.5]])
    np.testing.assert_allclose(out.corners, expected)


# --- determinism -----------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("look", "kwargs"),
    [
        ("flat-dark", {}),
        ("round", {"tilt": 0.2, "noise": 4.0}),
        ("numbered", {"canvas": (500, 400)}),
        ("chairs", {"cell_px": 30, "noise": 2.0}),
    ],
)
def test_same_seed_gives_identical_bytes(look: str, kwargs: dict) -> None:
    cells = _cells(look, 4, 5)
    a = render_board(cells, look, seed=42, **kwargs)
    b = render_board(cells, look, seed=42, **kwargs)
    assert a.image.tobytes() == b.image.tobytes()
    np.testing.assert_array_equal(a.corners, b.corners)
    c = render_board(cells, look, seed=43, **kwargs)
    assert a.image.shape != c.image.shape or a.image.tobytes() != c.image.tobytes()


def test_random_scene_is_deterministic() -> None:
    a = random_scene(7, canvas=(800, 600))
    b = random_scene(7, canvas=(800, 600))
    assert a.look == b.look
    assert a.image.tobytes() == b.image.tobytes()
    np.testing.assert_array_equal(a.cells, b.cells)


# --- ground truth survives tilt and noise ----------------------------------------------------


@pytest.mark.parametrize("tilt", [0.0, 0.15, 0.3])
def test_cell_centres_show_the_right_state(tilt: float) -> None:
    """Map cell centres through the corner quad and read each tile's colour back."""
    rows, cols = 5, 6
    cells = _cells("flat-dark", rows, cols, seed=9)
    out = render_board(
        cells, "flat-dark", seed=11, cell_px=32, canvas=(700, 500), tilt=tilt, noise=3.0
    )
    unit = np.float32([[0, 0], [cols, 0], [cols, rows], [0, rows]])
    hom = cv2.getPerspectiveTransform(unit, out.corners.astype(np.float32))
    centres = np.float32([[[c + 0.5, r + 0.5] for r in range(rows) for c in range(cols)]])
    pts = cv2.perspectiveTransform(centres, hom)[0]
    img = cv2.GaussianBlur(out.image, (5, 5), 0).astype(int)
    for (x, y), want in zip(pts, cells.ravel(), strict=True):
        b, g, r = img[int(round(y)), int(round(x))]
        saturated = max(b, g, r) - min(b, g, r) > 80  # lit is a vivid colour, dark is grey
        assert saturated == bool(want)


# --- clutter stays off the board -------------------------------------------------------------


@pytest.mark.parametrize("look", FLAT_LOOKS)
def test_clutter_leaves_the_board_alone(look: str) -> None:
    kw = {"seed": 4, "cell_px": 24, "canvas": (560, 420)}
    cells = _cells(look, 4, 5)
    with_ui = render_board(cells, look, clutter=True, **kw)
    bare = render_board(cells, look, clutter=False, **kw)
    (x1, y1), (x2, y2) = with_ui.corners[0], with_ui.corners[2]
    m = 12
    region = (slice(int(y1) - m, int(y2) + m), slice(int(x1) - m, int(x2) + m))
    assert np.array_equal(with_ui.image[region], bare.image[region])
    assert not np.array_equal(with_ui.image, bare.image)  # some clutter was drawn


# --- input validation ------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("cells", "look", "message"),
    [
        (np.zeros(5, int), "flat-dark", "2-D, not 1-D"),
        (np.zeros((2, 2, 2), int), "flat-dark", "2-D, not 3-D"),
        (np.zeros((0, 3), int), "flat-dark", "(0, 3)"),
        (np.array([[0, 1], [2, 0]]), "flat-dark", "found 2 at (1, 0)"),
        (np.array([[0, -1]]), "round", "found -1"),
        (np.array([[0, 4]]), "arrow-tiles", "0..3, found 4"),
        (np.array([[0.0, 0.5]]), "bevel", "0.5"),
        (np.array([["a"]]), "bevel", "dtype"),
    ],
)
def test_bad_cells_are_rejected(cells: np.ndarray, look: str, message: str) -> None:
    with pytest.raises(BoardInputError) as err:
        render_board(cells, look)
    assert message in str(err.value)


def test_bad_arguments_are_rejected() -> None:
    cells = np.zeros((2, 2), int)
    with pytest.raises(ValueError, match="unknown look"):
        render_board(cells, "no-such-look")
    with pytest.raises(ValueError, match="tilt"):
        render_board(cells, "flat-dark", tilt=-0.1)
    with pytest.raises(ValueError, match="noise"):
        render_board(cells, "flat-dark", noise=-1)
    with pytest.raises(ValueError, match="cell_px"):
        render_board(cells, "flat-dark", cell_px=2)
    with pytest.raises(ValueError, match="does not fit"):
        render_board(np.zeros((20, 20), int), "flat-dark", cell_px=40, canvas=(300, 300))
    with pytest.raises(BoardInputError, match="does not fit"):
        render_board(cells, "flat-dark", canvas=(300, 300), origin=(280, 10))
    with pytest.raises(ValueError, match="puzzle"):
        random_scene(0, puzzle="sudoku")
    with pytest.raises(ValueError, match="draws 'arrows'"):
        random_scene(0, puzzle="lights", look="chairs")


def test_float_and_bool_cells_are_accepted() -> None:
    out = render_board(np.array([[1.0, 0.0]]), "flat-light", cell_px=20)
    np.testing.assert_array_equal(out.cells, [[1, 0]])
    out = render_board(np.array([[True, False]]), "flat-light", cell_px=20)
    np.testing.assert_array_equal(out.cells, [[1, 0]])


# --- random scenes ---------------------------------------------------------------------------


def test_random_scene_sizes_and_looks() -> None:
    seen = set()
    for seed in range(8):
        puzzle = "arrows" if seed % 4 == 3 else "lights"
        out = random_scene(seed, puzzle=puzzle, canvas=(960, 720))
        rows, cols = out.cells.shape
        assert 2 <= rows <= 20 and 2 <= cols <= 20
        assert out.puzzle == puzzle and themes.PUZZLE_OF_LOOK[out.look] == puzzle
        assert out.image.shape == (720, 960, 3)
        assert out.cells.max() <= (3 if puzzle == "arrows" else 1)
        seen.add(out.look)
    assert len(seen) >= 3


def test_random_scene_honours_requests() -> None:
    out = random_scene(3, rows=2, cols=17, look="gridlines", tilt=0.1)
    assert out.cells.shape == (2, 17) and out.look == "gridlines"


# --- the benches -----------------------------------------------------------------------------


def test_bench_model_backrest_is_behind_the_sitter() -> None:
    """Backrest centre relative to the seat centre, on the ground plane (x east, y north)."""
    behind = {0: (0, -1), 1: (-1, 0), 2: (0, 1), 3: (1, 0)}
    for direction, (bx, by) in behind.items():
        lo, hi = chairs._world_boxes(direction, 0.0, 0.0)
        mid = (lo + hi) / 2
        seat = mid[chairs._BENCH_KIND == 0, :2].mean(axis=0)
        back = mid[chairs._BENCH_KIND == 2, :2].mean(axis=0)
        offset = back - seat
        assert np.sign(np.round(offset, 6)).tolist() == [bx, by], direction


def test_bench_paint_order_is_a_permutation() -> None:
    for direction in range(4):
        lo, hi = chairs._world_boxes(direction, 0.5, 0.5)
        for eye_x in (-8.0, 0.3, 0.5, 0.7, 9.0):
            order = chairs._paint_order(lo, hi, np.array([eye_x, -6.0, 6.0]))
            assert sorted(order) == list(range(len(lo)))


def _wood_mask(img: np.ndarray) -> np.ndarray:
    b, g, r = (img[..., i].astype(float) for i in range(3))
    return (r > 1.2 * g) & (r > 20)  # brown wood: red above green, unlike grass and stone


@pytest.mark.parametrize("seed", [0, 11])
def test_chairs_four_directions_look_different(seed: int) -> None:
    ims = [
        render_board(np.array([[d]]), "chairs", seed=seed, cell_px=96, clutter=False).image
        for d in range(4)
    ]
    # same seed: identical grass and camera, so only the bench changes
    union = np.zeros(ims[0].shape[:2], bool)
    for a, b in itertools.combinations(range(4), 2):
        union |= np.abs(ims[a].astype(int) - ims[b].astype(int)).max(axis=2) > 12
    assert union.sum() > 500
    for a, b in itertools.combinations(range(4), 2):
        mad = np.abs(ims[a].astype(int) - ims[b].astype(int))[union].mean()
        assert mad > 10, (a, b, mad)

    feats = []
    for img in ims:
        m = _wood_mask(img)
        ys, xs = np.nonzero(m)
        top = ys < np.percentile(ys, 25)
        low = ys > np.median(ys)
        red = img[..., 2].astype(float)
        feats.append(
            {
                "area": m.sum(),
                "top_x": xs[top].mean() - xs.mean(),  # where the highest parts (backrest) lean
                "low_bright": red[ys[low], xs[low]].mean() - red[ys[~low], xs[~low]].mean(),
            }
        )
    # facing the camera (2) shows the seat in front of the backrest: more wood, lit seat below
    assert feats[2]["area"] > 1.3 * feats[0]["area"]
    assert feats[2]["low_bright"] > 0 > feats[0]["low_bright"]
    # facing right (1) has its backrest on the west, facing left (3) on the east
    assert feats[1]["top_x"] < -1 and feats[3]["top_x"] > 1


def test_chairs_corners_follow_the_ground_grid() -> None:
    rows, cols = 3, 4
    out = render_board(_cells("chairs", rows, cols), "chairs", seed=2, cell_px=40)
    tl, tr, br, bl = out.corners
    # a camera looking down from the south: the far (top) edge is shorter than the near edge
    assert np.linalg.norm(tr - tl) < np.linalg.norm(br - bl)
    assert tl[1] < bl[1] and tr[1] < br[1]
