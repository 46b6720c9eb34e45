// The correction page of `boardsolve serve`: plain JavaScript, no build step, nothing
// fetched from elsewhere.  The image is read once by POST /api/read; a click on a cell or
// a change of puzzle rule asks POST /api/solve (milliseconds); a corner dragged or a new
// size re-reads the image with the corners and size given, as the CLI's --corners --size.
"use strict";

const SVG_NS = "http://www.w3.org/2000/svg";
const ARROWS = "↑→↓←"; // U R D L = 0 1 2 3, as on typed boards
const LETTERS = "URDL";

const $ = (id) => document.getElementById(id);

const state = {
  about: { low_confidence: 0.6, max_bytes: 25e6, image_types: ["image/png", "image/jpeg"] },
  bytes: null, // the image's bytes, sent again on each read (the server keeps nothing)
  type: "",
  name: "screenshot.png",
  img: null,
  reading: null, // the detect object, with the cells set by hand applied
  answer: null, // the solve object
  fixed: new Map(), // "r,c" -> value set by hand (0-based)
  corners: null, // [[x, y] x 4] TL TR BR BL in image pixels
  rows: 5,
  cols: 5,
  byHand: false, // corners or size given by the user: the CLI command needs them
  wholeImage: false,
  view: { x: 0, y: 0, w: 1, h: 1 },
  stagePx: 1,
  seq: 0,
};

// --- geometry: the board's cells from its four corners (a projective map) -----------------

/** The homography taking the unit square's corners to the quad's, as a function (s, t) -> [x, y]. */
function squareToQuad(quad) {
  const [[x0, y0], [x1, y1], [x2, y2], [x3, y3]] = quad;
  const sx = x0 - x1 + x2 - x3;
  const sy = y0 - y1 + y2 - y3;
  let a, b, c, d, e, f, g, h;
  if (Math.abs(sx) < 1e-9 && Math.abs(sy) < 1e-9) {
    [a, b, c, d, e, f, g, h] = [x1 - x0, x3 - x0, x0, y1 - y0, y3 - y0, y0, 0, 0];
  } else {
    const dx1 = x1 - x2, dx2 = x3 - x2, dy1 = y1 - y2, dy2 = y3 - y2;
    const den = dx1 * dy2 - dx2 * dy1;
    g = (sx * dy2 - dx2 * sy) / den;
    h = (dx1 * sy - sx * dy1) / den;
    a = x1 - x0 + g * x1;
    b = x3 - x0 + h * x3;
    c = x0;
    d = y1 - y0 + g * y1;
    e = y3 - y0 + h * y3;
    f = y0;
  }
  return (s, t) => {
    const w = g * s + h * t + 1;
    return [(a * s + b * t + c) / w, (d * s + e * t + f) / w];
  };
}

/** Board (u, v) -> image (x, y): cell (r, c) covers u in [c, c+1], v in [r, r+1]. */
function boardMap() {
  const map = squareToQuad(state.corners);
  return (u, v) => map(u / state.cols, v / state.rows);
}

// --- talking to the server ----------------------------------------------------------------

async function api(path, options) {
  const response = await fetch(path, options);
  if (!response.ok) {
    let message = `${response.status} ${response.statusText}`;
    try {
      message = (await response.json()).error || message;
    } catch (_) { /* not JSON */ }
    const error = new Error(message);
    error.status = response.status;
    throw error;
  }
  return response;
}

function readParams() {
  const params = new URLSearchParams();
  const puzzle = $("puzzle").value;
  if (puzzle !== "auto") params.set("puzzle", puzzle);
  if ($("lit").value) params.set("lit", $("lit").value);
  if (state.byHand && state.corners) {
    params.set("size", `${state.rows}x${state.cols}`);
    params.set("corners", cornersText());
  }
  return params;
}

function cornersText() {
  return state.corners.map(([x, y]) => `${x.toFixed(1)},${y.toFixed(1)}`).join(" ");
}

function imageBody() {
  return { method: "POST", headers: { "Content-Type": state.type }, body: state.bytes };
}

function setStatus(text, kind = "") {
  $("status").textContent = text;
  $("status").className = kind;
}

async function readBoard() {
  const seq = ++state.seq;
  setStatus("Reading the board…", "busy");
  try {
    const response = await api(`/api/read?${readParams()}`, imageBody());
    const reading = await response.json();
    if (seq !== state.seq) return;
    applyReading(reading);
    await solveBoard(seq);
  } catch (error) {
    if (seq !== state.seq) return;
    if (error.status === 422) {
      placeByHand();
      setStatus(`${error.message}. Drag the corners onto the board and set its rows and columns.`, "error");
    } else {
      setStatus(error.message, "error");
    }
    state.answer = null;
    render();
  }
}

function applyReading(reading) {
  const sameSize = state.reading && reading.rows === state.rows && reading.cols === state.cols;
  if (!sameSize) state.fixed.clear();
  state.rows = reading.rows;
  state.cols = reading.cols;
  state.corners = reading.corners;
  for (const [key, value] of state.fixed) {
    const [r, c] = key.split(",").map(Number);
    if (value < reading.states) {
      reading.cells[r][c] = value;
      reading.confidence[r][c] = 1;
    }
  }
  state.reading = reading;
  showSize();
  computeView();
}

/** The size inputs show the board's size, except one being typed in. */
function showSize() {
  for (const [id, value] of [["rows", state.rows], ["cols", state.cols]]) {
    if (document.activeElement !== $(id)) $(id).value = value;
  }
}

function preset() {
  const puzzle = $("puzzle").value;
  if (puzzle !== "auto") return puzzle;
  return state.reading && state.reading.puzzle === "arrows" ? "moon-legend" : "lights-out";
}

async function solveBoard(seq = state.seq) {
  if (!state.reading) return;
  setStatus("Solving…", "busy");
  const fixed = [...state.fixed.keys()].map((key) => key.split(",").map(Number));
  const query = {
    cells: state.reading.cells,
    puzzle: preset(),
    turn: $("turn").value,
    confidence: state.reading.confidence,
    fixed,
  };
  try {
    const response = await api("/api/solve", {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify(query),
    });
    const answer = await response.json();
    if (seq !== state.seq) return;
    state.answer = answer;
    setStatus("");
  } catch (error) {
    if (seq !== state.seq) return;
    state.answer = null;
    setStatus(error.message, "error");
  }
  render();
}

function placeByHand() {
  const { width, height } = state.img;
  state.reading = null;
  state.byHand = true;
  state.rows = Number($("rows").value) || 5;
  state.cols = Number($("cols").value) || 5;
  showSize();
  const side = Math.min(width, height) * 0.5;
  const [x0, y0] = [(width - side) / 2, (height - side) / 2];
  state.corners = [[x0, y0], [x0 + side, y0], [x0 + side, y0 + side], [x0, y0 + side]];
  state.wholeImage = true;
  computeView();
}

// --- loading an image ---------------------------------------------------------------------

async function loadFile(file) {
  if (!file) return;
  if (file.size > state.about.max_bytes) {
    setStatus(`${file.name}: ${(file.size / 1e6).toFixed(1)} MB is over the ` +
      `${Math.floor(state.about.max_bytes / 1e6)} MB limit`, "error");
    return;
  }
  const url = URL.createObjectURL(file);
  const img = new Image();
  img.src = url;
  try {
    await img.decode();
  } catch (_) {
    setStatus(`${file.name || "image"}: the browser cannot show this image`, "error");
    return;
  }
  state.img = img;
  state.name = file.name || "screenshot.png";
  if (state.about.image_types.includes(file.type)) {
    state.bytes = await file.arrayBuffer();
    state.type = file.type;
  } else { // e.g. HEIC or TIFF: send what the browser shows, as PNG
    const canvas = document.createElement("canvas");
    canvas.width = img.naturalWidth;
    canvas.height = img.naturalHeight;
    canvas.getContext("2d").drawImage(img, 0, 0);
    const blob = await new Promise((resolve) => canvas.toBlob(resolve, "image/png"));
    state.bytes = await blob.arrayBuffer();
    state.type = "image/png";
    state.name = state.name.replace(/\.[^.]*$/, "") + ".png";
  }
  state.reading = null;
  state.answer = null;
  state.fixed.clear();
  state.byHand = false;
  state.wholeImage = false;
  state.corners = null;
  $("work").hidden = false;
  document.body.classList.add("loaded");
  $("look-result").textContent = "";
  await readBoard();
}

// --- drawing ------------------------------------------------------------------------------

function computeView() {
  const W = state.img.naturalWidth, H = state.img.naturalHeight;
  if (state.wholeImage || !state.corners) {
    state.view = { x: 0, y: 0, w: W, h: H };
  } else { // zoom on the board (with a margin) so that its cells are large enough to tap
    const xs = state.corners.map((p) => p[0]), ys = state.corners.map((p) => p[1]);
    let [x0, x1, y0, y1] = [Math.min(...xs), Math.max(...xs), Math.min(...ys), Math.max(...ys)];
    const margin = 0.2 * Math.max(x1 - x0, y1 - y0);
    x0 = Math.max(0, x0 - margin); y0 = Math.max(0, y0 - margin);
    x1 = Math.min(W, x1 + margin); y1 = Math.min(H, y1 + margin);
    state.view = { x: x0, y: y0, w: Math.max(1, x1 - x0), h: Math.max(1, y1 - y0) };
  }
  $("view").textContent = state.wholeImage ? "Zoom to the board" : "Show whole image";
}

function sizeStage() {
  const stage = $("stage");
  const available = stage.parentElement.clientWidth;
  const tallest = Math.max(240, window.innerHeight * 0.72);
  const scale = Math.min(available / state.view.w, tallest / state.view.h);
  const width = Math.round(state.view.w * scale), height = Math.round(state.view.h * scale);
  stage.style.width = `${width}px`;
  stage.style.height = `${height}px`;
  state.stagePx = width;
  const canvas = $("picture");
  const ratio = window.devicePixelRatio || 1;
  canvas.width = Math.round(width * ratio);
  canvas.height = Math.round(height * ratio);
  const v = state.view;
  const context = canvas.getContext("2d");
  context.imageSmoothingQuality = "high";
  context.drawImage(state.img, v.x, v.y, v.w, v.h, 0, 0, canvas.width, canvas.height);
}

function el(name, attrs = {}, parent = null) {
  const node = document.createElementNS(SVG_NS, name);
  for (const [key, value] of Object.entries(attrs)) node.setAttribute(key, value);
  if (parent) parent.appendChild(node);
  return node;
}

const pointsOf = (points) => points.map(([x, y]) => `${x.toFixed(2)},${y.toFixed(2)}`).join(" ");

function render() {
  if (!state.img) return;
  sizeStage();
  const svg = $("board");
  const v = state.view;
  svg.setAttribute("viewBox", `${v.x} ${v.y} ${v.w} ${v.h}`);
  svg.replaceChildren();
  if (!state.corners) return;
  const px = v.w / state.stagePx; // image pixels per CSS pixel
  const map = boardMap();
  const reading = state.reading;
  const answer = state.answer;
  const misread = new Map((answer && answer.misreads || []).map((m) => [`${m.row - 1},${m.col - 1}`, m.value]));
  const turns = reading && reading.states > 2;

  const cells = el("g", { class: "cells" }, svg);
  for (let r = 0; r < state.rows; r++) {
    for (let c = 0; c < state.cols; c++) {
      const quad = [map(c, r), map(c + 1, r), map(c + 1, r + 1), map(c, r + 1)];
      const centre = map(c + 0.5, r + 0.5);
      const pitch = Math.min(Math.hypot(quad[1][0] - quad[0][0], quad[1][1] - quad[0][1]),
        Math.hypot(quad[3][0] - quad[0][0], quad[3][1] - quad[0][1]));
      const key = `${r},${c}`;
      const value = reading ? reading.cells[r][c] : null;
      const group = el("g", {
        class: "cell", "data-row": r + 1, "data-col": c + 1,
        "data-value": value === null ? "" : value, role: "button", tabindex: 0,
        "aria-label": `row ${r + 1}, column ${c + 1}: ${describe(value)}`,
      }, cells);
      const classes = ["cell-area"];
      if (reading && reading.puzzle === "lights" && value === 1) classes.push("lit");
      if (state.fixed.has(key)) classes.push("fixed");
      else if (misread.has(key)) classes.push("misread");
      else if (reading && reading.confidence[r][c] < state.about.low_confidence) classes.push("doubt");
      el("polygon", { points: pointsOf(quad), class: classes.join(" "), "vector-effect": "non-scaling-stroke" }, group);
      if (value !== null) {
        const [mx, my] = map(c + 0.2, r + 0.2);
        if (reading.puzzle === "lights") { // the reading: a lit or an unlit lamp
          el("circle", { cx: mx, cy: my, r: pitch * 0.085, class: value ? "reading on" : "reading off",
            "vector-effect": "non-scaling-stroke" }, group);
        } else {
          const mark = el("text", { x: mx, y: my, class: "reading", "font-size": pitch * 0.26 }, group);
          mark.textContent = ARROWS[value];
        }
        if (classes.includes("doubt")) {
          const [qx, qy] = map(c + 0.8, r + 0.24);
          const doubt = el("text", { x: qx, y: qy, class: "doubt-mark", "font-size": pitch * 0.28 }, group);
          doubt.textContent = "?";
        }
      }
      const count = answer && answer.presses ? answer.presses[r][c] : 0;
      if (count) {
        const press = el("g", { class: "press", "data-count": count }, group);
        el("circle", { cx: centre[0], cy: centre[1], r: pitch * 0.26, "vector-effect": "non-scaling-stroke" }, press);
        const label = el("text", { x: centre[0], y: centre[1], "font-size": pitch * 0.3 }, press);
        label.textContent = turns ? `${Math.abs(count)}${count < 0 ? "↺" : "↻"}` : String(Math.abs(count));
      }
    }
  }
  el("polygon", { points: pointsOf(state.corners), class: "outline", "vector-effect": "non-scaling-stroke" }, svg);
  state.corners.forEach(([x, y], index) => {
    const handle = el("g", { class: "corner", "data-corner": index }, svg);
    el("circle", { cx: x, cy: y, r: 22 * px, class: "corner-hit" }, handle);
    el("circle", { cx: x, cy: y, r: 9 * px, class: "corner-dot", "vector-effect": "non-scaling-stroke" }, handle);
  });
  showAnswer();
  $("turn-choice").hidden = !turns;
  $("command").value = commandText();
}

function describe(value) {
  if (value === null) return "not read";
  if (state.reading.puzzle === "lights") return value ? "lit" : "unlit";
  return ["up", "right", "down", "left"][value];
}

function summaryText(answer) {
  if (!answer.solvable) return "No solution as read";
  const clicks = answer.moves === 1 ? "click" : "clicks";
  const proof = answer.optimal ? "optimal" : "best found, not proven optimal";
  const solutions = answer.solutions === 1 ? "solution" : "solutions";
  return `${answer.moves} ${clicks} (${proof}), ${answer.solutions} ${solutions}`;
}

function showAnswer() {
  const answer = state.answer;
  const reading = state.reading;
  $("summary").textContent = answer ? summaryText(answer) : "";
  $("summary").className = answer && !answer.solvable ? "summary unsolvable" : "summary";
  let detail = "";
  if (reading) {
    const doubtful = reading.confidence.flat().filter((v) => v < state.about.low_confidence).length;
    detail = `${reading.rows}×${reading.cols} ${reading.puzzle} board` +
      (doubtful ? `, ${doubtful} cell${doubtful === 1 ? "" : "s"} unsure (?)` : "");
    if (answer && !answer.solvable && answer.misreads && answer.misreads.length) {
      detail += ". Check " + answer.misreads.map((m) => `(${m.row},${m.col})`).join(", ");
    }
  }
  $("detail").textContent = detail;
}

function commandText() {
  const quote = (text) => (/^[\w.,/=@:+-]+$/.test(text) ? text : `'${text.replace(/'/g, "'\\''")}'`);
  const parts = ["boardsolve", quote(state.name)];
  if ($("puzzle").value !== "auto") parts.push("--puzzle", $("puzzle").value);
  if (state.byHand && state.corners) {
    parts.push("--size", `${state.rows}x${state.cols}`, "--corners", quote(cornersText()));
  }
  if ($("lit").value) parts.push("--lit", $("lit").value);
  if (state.reading && state.reading.states > 2 && $("turn").value !== "cw") parts.push("--turn", $("turn").value);
  const arrows = state.reading && state.reading.puzzle === "arrows";
  for (const [key, value] of state.fixed) {
    const [r, c] = key.split(",").map(Number);
    parts.push("--set", `${r + 1},${c + 1}=${arrows ? LETTERS[value] : value}`);
  }
  return parts.join(" ");
}

// --- correcting ---------------------------------------------------------------------------

function cycleCell(group) {
  if (!state.reading) return;
  const r = Number(group.dataset.row) - 1, c = Number(group.dataset.col) - 1;
  const value = (state.reading.cells[r][c] + 1) % state.reading.states;
  state.reading.cells[r][c] = value;
  state.reading.confidence[r][c] = 1;
  state.fixed.set(`${r},${c}`, value);
  state.seq++;
  render();
  solveBoard();
}

function imagePoint(event) {
  const svg = $("board");
  const point = svg.createSVGPoint();
  point.x = event.clientX;
  point.y = event.clientY;
  return point.matrixTransform(svg.getScreenCTM().inverse());
}

let drag = null;
let draggedAt = 0; // the click that ends a drag is no cell's click

function startDrag(event) {
  const handle = event.target.closest(".corner");
  if (!handle) return;
  event.preventDefault();
  drag = { index: Number(handle.dataset.corner), pointer: event.pointerId, moved: false };
  $("board").setPointerCapture(event.pointerId);
}

function moveDrag(event) {
  if (!drag || event.pointerId !== drag.pointer) return;
  const point = imagePoint(event);
  const W = state.img.naturalWidth, H = state.img.naturalHeight;
  state.corners[drag.index] = [Math.min(W, Math.max(0, point.x)), Math.min(H, Math.max(0, point.y))];
  drag.moved = true;
  render();
}

function endDrag(event) {
  if (!drag || event.pointerId !== drag.pointer) return;
  const moved = drag.moved;
  drag = null;
  if (moved) {
    draggedAt = Date.now();
    state.byHand = true;
    readBoard();
  }
}

function changeSize() {
  const rows = Number($("rows").value), cols = Number($("cols").value);
  if (!(rows >= 1 && rows <= 200 && cols >= 1 && cols <= 200) || !state.corners) return;
  if (rows === state.rows && cols === state.cols) return;
  state.rows = rows;
  state.cols = cols;
  state.byHand = true;
  state.fixed.clear();
  readBoard();
}

// --- downloads, command, look -------------------------------------------------------------

function saveBlob(blob, filename) {
  const link = document.createElement("a");
  link.href = URL.createObjectURL(blob);
  link.download = filename;
  document.body.appendChild(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(link.href), 10000);
}

const stem = () => state.name.replace(/\.[^.]*$/, "");

async function downloadOverlay() {
  if (!state.bytes) return;
  const params = readParams();
  if (state.reading && state.reading.states > 2) params.set("turn", $("turn").value);
  const arrows = state.reading && state.reading.puzzle === "arrows";
  for (const [key, value] of state.fixed) {
    const [r, c] = key.split(",").map(Number);
    params.append("set", `${r + 1},${c + 1}=${arrows ? LETTERS[value] : value}`);
  }
  setStatus("Drawing the overlay…", "busy");
  try {
    const response = await api(`/api/overlay?${params}`, imageBody());
    saveBlob(await response.blob(), `${stem()}.solved.png`);
    setStatus("");
  } catch (error) {
    setStatus(error.message, "error");
  }
}

function downloadJson() {
  if (!state.reading) return;
  const object = { ...state.reading, ...(state.answer || {}) };
  saveBlob(new Blob([JSON.stringify(object) + "\n"], { type: "application/json" }), `${stem()}.json`);
}

async function copyCommand() {
  const text = $("command").value;
  try {
    await navigator.clipboard.writeText(text);
    setStatus("Command copied.");
  } catch (_) { // not a secure context (a phone on the network): select it instead
    $("command").select();
    setStatus("Select and copy the command above.");
  }
}

async function saveLook(event) {
  event.preventDefault();
  if (!state.reading) return;
  const arrows = state.reading.puzzle === "arrows";
  const cells = state.reading.cells.map((row) => row.map((v) => (arrows ? LETTERS[v] : v)).join("")).join(",");
  const params = new URLSearchParams({ name: $("look-name").value, cells, corners: cornersText() });
  $("look-result").textContent = "Learning…";
  try {
    const response = await api(`/api/look?${params}`, imageBody());
    const saved = await response.json();
    $("look-result").textContent = `Saved look '${saved.name}' (${saved.path}); it reads ` +
      `${saved.read_back} of ${saved.cells} cells back.`;
  } catch (error) {
    $("look-result").textContent = error.message;
  }
}

// --- wiring -------------------------------------------------------------------------------

function firstImage(items) {
  for (const item of items || []) {
    const file = item.kind === "file" ? item.getAsFile() : item;
    if (file && file.type.startsWith("image/")) return file;
  }
  return null;
}

async function start() {
  for (const id of ["file", "camera"]) {
    $(id).addEventListener("change", (event) => loadFile(event.target.files[0]));
  }
  document.addEventListener("paste", (event) => {
    const file = firstImage(event.clipboardData && event.clipboardData.items);
    if (file) loadFile(file);
  });
  document.addEventListener("dragover", (event) => {
    event.preventDefault();
    document.body.classList.add("dragging");
  });
  document.addEventListener("dragleave", () => document.body.classList.remove("dragging"));
  document.addEventListener("drop", (event) => {
    event.preventDefault();
    document.body.classList.remove("dragging");
    const file = firstImage(event.dataTransfer && event.dataTransfer.files);
    if (file) loadFile(file);
  });
  const svg = $("board");
  svg.addEventListener("pointerdown", startDrag);
  svg.addEventListener("pointermove", moveDrag);
  svg.addEventListener("pointerup", endDrag);
  svg.addEventListener("pointercancel", endDrag);
  svg.addEventListener("click", (event) => {
    const cell = event.target.closest(".cell");
    if (cell && Date.now() - draggedAt > 300) cycleCell(cell);
  });
  svg.addEventListener("keydown", (event) => {
    const cell = event.target.closest(".cell");
    if (cell && (event.key === "Enter" || event.key === " ")) {
      event.preventDefault();
      cycleCell(cell);
    }
  });
  $("rows").addEventListener("change", changeSize);
  $("cols").addEventListener("change", changeSize);
  $("puzzle").addEventListener("change", () => { state.fixed.clear(); readBoard(); });
  $("lit").addEventListener("change", () => { state.fixed.clear(); readBoard(); });
  $("turn").addEventListener("change", () => { state.seq++; solveBoard(); });
  $("settings").addEventListener("submit", (event) => event.preventDefault());
  $("view").addEventListener("click", () => {
    state.wholeImage = !state.wholeImage;
    computeView();
    render();
  });
  $("download-png").addEventListener("click", downloadOverlay);
  $("download-json").addEventListener("click", downloadJson);
  $("copy").addEventListener("click", copyCommand);
  $("look").addEventListener("submit", saveLook);
  window.addEventListener("resize", () => { if (state.img) render(); });
  try {
    state.about = await (await api("/api/about")).json();
  } catch (_) { /* keep the defaults */ }
  document.body.dataset.ready = "true";
}

start();
