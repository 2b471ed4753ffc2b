// The scoreboard's five roads drawn in SVG as the casino's signs draw them, and the ask road.
//
// The cells come from the server (a step's "roads": [col, row, value, …] per cell, row 0 at the top,
// six rows): this module only draws them. Every cell is a <g class="cell"> holding data-col,
// data-row and data-value (and data-ties on the big road); a bead's markers are <g class="marker">
// with the same data attributes, so a test reads the roads from the DOM without parsing shapes.
// A road is redrawn from the first cell that changed: a step adds a cell or two, and 500 coups of
// cells are not drawn again for it.

const SVG = "http://www.w3.org/2000/svg";
const ROWS = 6;

/** The roads in the order the page shows them; `half`: drawn at half the cell size, as the casino's derived roads. */
export const ROADS = [
  { key: "bead_plate", name: "Bead plate", half: false },
  { key: "big_road", name: "Big road", half: false },
  { key: "big_eye_boy", name: "Big eye boy", half: true },
  { key: "small_road", name: "Small road", half: true },
  { key: "cockroach_pig", name: "Cockroach pig", half: true },
];

/** The derived roads (the ask road's columns). */
export const DERIVED = ROADS.filter((road) => road.half);

// Colours of the signs: Banker red, Player blue, Tie green; the derived roads' red and blue.
const COLOUR = { B: "#c62828", P: "#1565c0", T: "#2e7d32", red: "#c62828", blue: "#1565c0" };
const WINNER = { B: "Banker", P: "Player", T: "Tie" };
const MARKER = { banker_pair: "banker pair", player_pair: "player pair", natural: "natural" };

/** An SVG element with its attributes (values set as attributes, never as markup or style). */
function svg(name, attributes = {}, parent = null) {
  const element = document.createElementNS(SVG, name);
  for (const [key, value] of Object.entries(attributes)) element.setAttribute(key, String(value));
  if (parent) parent.appendChild(element);
  return element;
}

/** A <title> (the tooltip) as text. */
function title(parent, text) {
  svg("title", {}, parent).textContent = text;
}

/** The shape of one cell of a road at (x, y), size s: `value` is the winner or the colour. */
function shape(road, group, x, y, s, value, ties = 0) {
  const cx = x + s / 2;
  const cy = y + s / 2;
  const colour = COLOUR[value] || "#777";
  if (road === "bead_plate") {  // a filled disc with the winner's letter
    svg("circle", { cx, cy, r: s * 0.42, fill: colour }, group);
    const letter = svg("text", { x: cx, y: cy, "text-anchor": "middle", "dominant-baseline": "central",
      "font-size": s * 0.5, "font-weight": "bold", fill: "#fff" }, group);
    letter.textContent = value;
  } else if (road === "big_road") {  // a hollow ring; a tie is a green slash across it, more than one counted
    svg("circle", { cx, cy, r: s * 0.36, fill: "none", stroke: colour, "stroke-width": s * 0.12 }, group);
    if (ties > 0) {
      svg("line", { x1: x + s * 0.18, y1: y + s * 0.82, x2: x + s * 0.82, y2: y + s * 0.18, stroke: COLOUR.T,
        "stroke-width": s * 0.1, "stroke-linecap": "round" }, group);
    }
    if (ties > 1) {
      const count = svg("text", { x: cx, y: cy, "text-anchor": "middle", "dominant-baseline": "central",
        "font-size": s * 0.46, "font-weight": "bold", fill: COLOUR.T }, group);
      count.textContent = String(ties);
    }
  } else if (road === "big_eye_boy") {  // a small hollow ring
    svg("circle", { cx, cy, r: s * 0.34, fill: "none", stroke: colour, "stroke-width": s * 0.16 }, group);
  } else if (road === "small_road") {  // a small filled disc
    svg("circle", { cx, cy, r: s * 0.4, fill: colour }, group);
  } else {  // cockroach pig: a slash
    svg("line", { x1: x + s * 0.2, y1: y + s * 0.8, x2: x + s * 0.8, y2: y + s * 0.2, stroke: colour,
      "stroke-width": s * 0.18, "stroke-linecap": "round" }, group);
  }
}

/** A bead's markers: a banker pair a red dot top left, a player pair a blue dot bottom right, a natural a gold ring. */
function markers(group, x, y, s, col, row, names) {
  for (const name of names) {
    const mark = svg("g", { class: "marker", "data-col": col, "data-row": row, "data-value": name }, group);
    if (name === "natural") {
      svg("circle", { cx: x + s / 2, cy: y + s / 2, r: s * 0.47, fill: "none", stroke: "#f9a825",
        "stroke-width": s * 0.07 }, mark);
    } else {
      const banker = name === "banker_pair";
      svg("circle", { cx: x + s * (banker ? 0.18 : 0.82), cy: y + s * (banker ? 0.18 : 0.82), r: s * 0.11,
        fill: banker ? COLOUR.B : COLOUR.P, stroke: "#fff", "stroke-width": s * 0.03 }, mark);
    }
  }
}

/** One road's cell as an SVG group, with its data attributes and tooltip. */
function cellElement(road, cell, s, beadMarkers) {
  const [col, row, value] = cell;
  const x = col * s;
  const y = row * s;
  const group = svg("g", { class: "cell", "data-col": col, "data-row": row, "data-value": value });
  if (road === "big_road") {
    const ties = Number(cell[3]) || 0;
    group.setAttribute("data-ties", String(ties));
    shape(road, group, x, y, s, value, ties);
    title(group, WINNER[value] + (ties ? ` · ${ties} tie${ties > 1 ? "s" : ""}` : ""));
  } else if (road === "bead_plate") {
    const names = beadMarkers || [];
    shape(road, group, x, y, s, value);
    markers(group, x, y, s, col, row, names);
    const said = names.map((name) => MARKER[name] || name).join(", ");
    title(group, `Coup ${col * ROWS + row + 1}: ${WINNER[value] || value}${said ? ` (${said})` : ""}`);
  } else {
    shape(road, group, x, y, s, value);
    title(group, value);
  }
  return group;
}

/** The drawings kept between steps: per road its box, SVG, cells group and the keys of the cells drawn. */
const drawn = new Map();

/** The SVG of one road in its box (made on first use, or again when the cell size changes). */
function board(key, box, s) {
  let road = drawn.get(key);
  if (road && road.size === s && road.box === box) return road;
  box.textContent = "";
  const root = svg("svg", { role: "img", "aria-label": ROADS.find((r) => r.key === key).name, "data-road": key });
  const defs = svg("defs", {}, root);
  const pattern = svg("pattern", { id: `grid-${key}`, width: s, height: s, patternUnits: "userSpaceOnUse" }, defs);
  svg("path", { d: `M ${s} 0 L 0 0 0 ${s}`, fill: "none", stroke: "#cfd4da", "stroke-width": 1 }, pattern);
  const grid = svg("rect", { x: 0, y: 0, height: ROWS * s, fill: `url(#grid-${key})` }, root);
  const cells = svg("g", { class: "cells" }, root);
  box.appendChild(root);
  road = { box, root, grid, cells, size: s, keys: [], cols: -1 };
  drawn.set(key, road);
  return road;
}

/**
 * Draw the five roads of a step's "roads" object (a missing road is drawn empty) into the boxes `boxes[key]`,
 * at `size` CSS pixels a cell (half that on the derived roads); each box scrolled to the latest column.
 * The cells are written first and the boxes scrolled last, so that the browser lays the page out once.
 */
export function drawRoads(roads, boxes, size) {
  const data = roads || {};
  const beads = new Map();  // "col,row" -> the markers of that bead
  for (const [col, row, name] of data.markers || []) {
    const key = `${col},${row}`;
    if (!beads.has(key)) beads.set(key, []);
    beads.get(key).push(name);
  }
  const changed = [];
  for (const { key, half } of ROADS) {
    if (!boxes[key]) continue;
    const road = board(key, boxes[key], half ? size / 2 : size);
    const cells = Array.isArray(data[key]) ? data[key] : [];
    const marks = (cell) => (key === "bead_plate" ? beads.get(`${cell[0]},${cell[1]}`) || [] : []);
    const keys = cells.map((cell) => cell.join(",") + "|" + marks(cell).join(","));
    let same = 0;  // the cells drawn already, unchanged
    while (same < keys.length && same < road.keys.length && keys[same] === road.keys[same]) same += 1;
    if (same === keys.length && same === road.keys.length) continue;
    const groups = road.cells.children;
    while (groups.length > same) groups[groups.length - 1].remove();
    const fresh = document.createDocumentFragment();
    for (let i = same; i < cells.length; i += 1) fresh.appendChild(cellElement(key, cells[i], road.size, marks(cells[i])));
    road.cells.appendChild(fresh);
    road.keys = keys;
    road.last = cells.reduce((last, cell) => Math.max(last, cell[0]), -1);
    changed.push(road);
  }
  for (const road of changed) {
    if (road.width === undefined) road.width = road.box.clientWidth;  // measured once (again after measureRoads)
    resize(road);
  }
  for (const road of changed) road.box.scrollLeft = Math.max(0, (road.last + 3) * road.size - road.width);
}

/** Size a road's SVG for its columns: two spare, and at least its box's width. */
function resize(road) {
  const s = road.size;
  const shown = Math.max(road.last + 3, Math.floor(road.width / s), 12);
  if (shown === road.cols) return;
  road.cols = shown;
  road.root.setAttribute("width", String(shown * s));
  road.root.setAttribute("height", String(ROWS * s));
  road.root.setAttribute("viewBox", `0 0 ${shown * s} ${ROWS * s}`);
  road.grid.setAttribute("width", String(shown * s));
}

/** The boxes changed width (the window was resized): measure them again at the next drawing, which redraws all. */
export function measureRoads() {
  for (const road of drawn.values()) {
    road.width = undefined;
    road.keys = [];
    road.cells.textContent = "";
  }
}

/** Forget the drawings (the cell size changed: the next drawRoads draws every road anew). */
export function resetRoads() {
  drawn.clear();
}

/** A one-cell SVG icon of a derived road's mark in `colour` (the ask road's cells). */
function icon(key, colour, s) {
  const root = svg("svg", { width: s, height: s, viewBox: `0 0 ${s} ${s}`, "aria-hidden": "true" });
  shape(key, root, 0, 0, s, colour);
  return root;
}

/**
 * Fill the ask road table: for each side (banker, player) the mark each derived road would make if it won the next
 * coup (`ask`), and the exact chance of each colour on each road next coup (`odds`: "ask_odds").
 * Each cell holds data-side/data-colour, data-road and data-value (the colour, or "" where no mark is made).
 */
export function drawAsk(table, ask, odds, size) {
  for (const td of table.querySelectorAll("td[data-road]")) {
    const road = td.dataset.road;
    td.textContent = "";
    if (td.dataset.side) {
      const colour = ask && ask[td.dataset.side] ? ask[td.dataset.side][road] : null;
      td.dataset.value = colour || "";
      if (colour) {
        td.appendChild(icon(road, colour, size));
        td.appendChild(document.createTextNode(" " + colour));
      } else {
        td.textContent = "—";
      }
    } else {
      const figure = odds && odds[road] ? odds[road][td.dataset.colour] : null;
      td.dataset.value = figure ? figure.probability : "";
      td.textContent = figure ? figure.percent : "—";
      if (figure) td.title = figure.probability; else td.removeAttribute("title");
    }
  }
}
