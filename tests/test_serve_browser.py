"""boardsolve serve in a real browser: headless Chromium loads the page, reads a fixture,
a cell click changes the answer, a corner drag re-reads the board placed by hand; the
page is screenshot at desktop and phone width (BOARDSOLVE_SCREENSHOTS=docs refreshes
docs/serve.png, which the README shows, and docs/serve-phone.png).

Skips where Debian's chromium and chromium-driver are not installed, except on CI
(CI=true), where they must be (.ci/run installs them).
"""

from __future__ import annotations

import os
import shutil
import threading
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
SHOT = ROOT / "fixtures" / "screenshot_lights.png"
#: Where the page's screenshots go besides the test's own folder: set it to docs to
#: refresh the README's pictures (BOARDSOLVE_SCREENSHOTS=docs python -m pytest ...).
SHOTS_TO = os.environ.get("BOARDSOLVE_SCREENSHOTS")
CHROMIUM = "/usr/bin/chromium"
CHROMEDRIVER = shutil.which("chromedriver") or "/usr/bin/chromedriver"


def _missing() -> str | None:
    for module in ("selenium", "starlette", "uvicorn"):
        try:
            __import__(module)
        except ImportError:
            return f"{module} is not installed (pip install '.[test]')"
    if not Path(CHROMIUM).exists() or not Path(CHROMEDRIVER).exists():
        return (
            f"no headless browser: {CHROMIUM} or chromedriver is missing "
            "(apt-get install chromium chromium-driver)"
        )
    return None


MISSING = _missing()
if MISSING:
    if os.environ.get("CI") == "true":
        pytest.fail(f"the browser test must run on CI, but {MISSING}", pytrace=False)
    pytest.skip(MISSING, allow_module_level=True)

from selenium import webdriver  # noqa: E402
from selenium.common.exceptions import StaleElementReferenceException  # noqa: E402
from selenium.webdriver.common.action_chains import ActionChains  # noqa: E402
from selenium.webdriver.common.by import By  # noqa: E402
from selenium.webdriver.common.keys import Keys  # noqa: E402
from selenium.webdriver.support.ui import WebDriverWait  # noqa: E402

from vision_solver.serve.app import LOOPBACK_NAMES, bind, make_server  # noqa: E402

WAIT_S = 60  # the machine may be slow and shared: generous, never a timing assertion


@pytest.fixture(scope="module")
def address(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """A server on a free loopback port, in a thread, with an empty looks folder."""
    sock = bind("127.0.0.1", 0)
    server = make_server(tmp_path_factory.mktemp("looks"), LOOPBACK_NAMES)
    thread = threading.Thread(target=server.run, kwargs={"sockets": [sock]}, daemon=True)
    thread.start()
    deadline = time.monotonic() + WAIT_S
    while not server.started and time.monotonic() < deadline:
        time.sleep(0.05)
    yield f"http://127.0.0.1:{sock.getsockname()[1]}/"
    server.should_exit = True
    thread.join(timeout=10)
    sock.close()


@pytest.fixture(scope="module")
def browser(tmp_path_factory: pytest.TempPathFactory) -> Iterator[webdriver.Chrome]:
    options = webdriver.ChromeOptions()
    options.binary_location = CHROMIUM
    for flag in (
        "--headless",
        "--no-sandbox",
        "--disable-gpu",
        "--disable-quic",
        "--no-first-run",
        "--disable-background-networking",
        "--disable-component-update",
        "--disable-sync",
        "--disable-dev-shm-usage",
        "--window-size=1280,900",
        f"--user-data-dir={tmp_path_factory.mktemp('chromium-profile')}",
    ):
        options.add_argument(flag)
    service = webdriver.ChromeService(executable_path=CHROMEDRIVER)
    driver = webdriver.Chrome(options=options, service=service)
    yield driver
    driver.quit()


def wait_for(driver: webdriver.Chrome, what, message: str):
    return WebDriverWait(driver, WAIT_S).until(what, message)


def summary(driver: webdriver.Chrome) -> str:
    return driver.find_element(By.ID, "summary").text


def cells(driver: webdriver.Chrome) -> list[str]:
    """The cells' readings, row by row (read at once: the page redraws the board often)."""
    return driver.execute_script(
        "return [...document.querySelectorAll('.cell')].map((cell) => cell.dataset.value)"
    )


def idle(driver: webdriver.Chrome) -> bool:
    return driver.find_element(By.ID, "status").text == ""


def click_cell(driver: webdriver.Chrome, row: int, col: int) -> None:
    """Click cell (row, col), 1-based, once the page is idle (a redraw replaces the cells)."""
    wait_for(driver, idle, "the page stayed busy")
    for _ in range(5):
        try:
            selector = f'.cell[data-row="{row}"][data-col="{col}"]'
            driver.find_element(By.CSS_SELECTOR, selector).click()
            return
        except StaleElementReferenceException:
            time.sleep(0.2)
    raise AssertionError(f"cell ({row},{col}) was redrawn under every click")


def screenshot(driver: webdriver.Chrome, folder: Path, name: str) -> None:
    """Save a PNG of the page (to ``folder``, and to $BOARDSOLVE_SCREENSHOTS if set)."""
    path = folder / name
    driver.save_screenshot(str(path))
    assert path.read_bytes().startswith(b"\x89PNG") and path.stat().st_size > 10_000
    if SHOTS_TO:
        shutil.copyfile(path, Path(SHOTS_TO) / name)


def points_of(text: str) -> list[list[float]]:
    return [[float(v) for v in point.split(",")] for point in text.split()]


def outline_points(driver: webdriver.Chrome) -> list[list[float]]:
    """The board outline's corners (image pixels), TL TR BR BL."""
    return points_of(driver.find_element(By.CSS_SELECTOR, ".outline").get_attribute("points"))


def cell_points(driver: webdriver.Chrome, row: int, col: int) -> list[list[float]]:
    """Cell (row, col)'s quad (image pixels), 1-based."""
    selector = f'.cell[data-row="{row}"][data-col="{col}"] polygon'
    return points_of(driver.find_element(By.CSS_SELECTOR, selector).get_attribute("points"))


def load_fixture(driver: webdriver.Chrome, address: str) -> None:
    driver.get(address)
    wait_for(
        driver,
        lambda d: d.find_element(By.TAG_NAME, "body").get_attribute("data-ready"),
        "the page never started",
    )
    driver.find_element(By.ID, "file").send_keys(str(SHOT))
    wait_for(driver, lambda d: summary(d) != "", "the page never showed an answer")


def test_page_reads_a_screenshot_and_a_click_changes_the_answer(browser, address, tmp_path):
    browser.set_window_size(1280, 900)
    load_fixture(browser, address)
    assert summary(browser) == "8 clicks (optimal), 4 solutions"
    assert cells(browser) == list("1101110100011100010111011")
    presses = browser.execute_script("return document.querySelectorAll('.press').length")
    assert presses == 8  # one disc per cell clicked once
    screenshot(browser, tmp_path, "serve.png")

    # the board, read right, saved as a look (into the server's empty looks folder)
    browser.find_element(By.ID, "look-name").send_keys("my game\n")
    wait_for(
        browser,
        lambda d: d.find_element(By.ID, "look-result").text.startswith("Saved look 'my game'"),
        "the look was not saved",
    )
    assert browser.find_element(By.ID, "look-result").text.endswith("it reads 25 of 25 cells back.")

    # a click on cell (1,1) turns it off: the board as corrected has no solution
    click_cell(browser, 1, 1)
    wait_for(browser, lambda d: summary(d) == "No solution as read", "no new answer")
    assert cells(browser)[0] == "0"
    assert browser.execute_script("return document.querySelectorAll('.press').length") == 0
    command = browser.find_element(By.ID, "command").get_attribute("value")
    assert command == "boardsolve screenshot_lights.png --set 1,1=0"

    # two more (as a click on that corner would change them): solvable again, differently
    for row, col in [(1, 2), (2, 1)]:
        click_cell(browser, row, col)
    wait_for(browser, lambda d: summary(d) == "7 clicks (optimal), 4 solutions", "no answer")
    command = browser.find_element(By.ID, "command").get_attribute("value")
    assert command == "boardsolve screenshot_lights.png --set 1,1=0 --set 1,2=0 --set 2,1=0"


def test_dragging_a_corner_re_reads_the_board_placed_by_hand(browser, address):
    browser.set_window_size(1280, 900)
    load_fixture(browser, address)
    corner = browser.find_element(By.CSS_SELECTOR, '.corner[data-corner="2"] .corner-dot')
    board = browser.find_element(By.CSS_SELECTOR, ".outline").rect
    step = round(board["width"] / 10)
    before = outline_points(browser)
    # drag the bottom-right corner up and left (in two moves, as a hand does)
    ActionChains(browser).click_and_hold(corner).move_by_offset(-step, -step).move_by_offset(
        -step, -step
    ).perform()
    # while held, the grid follows the corners: the outline's bottom-right moved, the
    # others did not, and the cells meet the corners (the last cell ends at the dragged one)
    held = outline_points(browser)
    assert held[2][0] < before[2][0] - step and held[2][1] < before[2][1] - step
    assert held[:2] == before[:2] and held[3] == before[3]
    assert cell_points(browser, 5, 5)[2] == pytest.approx(held[2], abs=0.05)
    assert cell_points(browser, 1, 1)[0] == pytest.approx(held[0], abs=0.05)
    assert cell_points(browser, 1, 5)[1] == pytest.approx(held[1], abs=0.05)
    ActionChains(browser).release().perform()
    wait_for(
        browser,
        lambda d: (
            "--corners" in d.find_element(By.ID, "command").get_attribute("value") and idle(d)
        ),
        "the drag did not re-read the board",
    )
    command = browser.find_element(By.ID, "command").get_attribute("value")
    assert command.startswith("boardsolve screenshot_lights.png --size 5x5 --corners '")
    assert len(cells(browser)) == 25 and summary(browser) != ""

    # the same outline divided into 4 x 4 cells: read again, 16 cells, another answer
    for field in ("rows", "cols"):
        wait_for(browser, idle, "the page stayed busy")
        box = browser.find_element(By.ID, field)
        box.send_keys(Keys.CONTROL, "a")
        box.send_keys("4\t")
    wait_for(browser, lambda d: len(cells(d)) == 16 and idle(d), "no 4x4 board")
    command = browser.find_element(By.ID, "command").get_attribute("value")
    assert command.startswith("boardsolve screenshot_lights.png --size 4x4 --corners '")
    assert summary(browser) != "8 clicks (optimal), 4 solutions"


def test_page_fits_a_phone_with_cells_large_enough_to_tap(browser, address, tmp_path):
    browser.set_window_size(375, 812)
    load_fixture(browser, address)
    width = browser.execute_script("return document.documentElement.scrollWidth")
    assert width <= 375  # nothing wider than the screen
    cell = browser.find_element(By.CSS_SELECTOR, '.cell[data-row="3"][data-col="3"] polygon').rect
    assert min(cell["width"], cell["height"]) >= 44  # a finger's target
    screenshot(browser, tmp_path, "serve-phone.png")
