/**
 * board.js — the Sorry! board, drawn in SVG from the server's geometry; no rules inside.
 *
 * The geometry comes from `GET /api/board?rules=RULES` (src/pardon/web/board_json.py): the 60
 * track squares, slides, each colour's Safety Zone, Start and Home circles (with a slot for each
 * pawn), the diamonds of older boards and the Fire spaces of 2013.  Positions are the position
 * objects of docs/json.md; decisions are the `last` (or a move) of a state (docs/protocol.md):
 * `{actions: [{kind, colour, pawn, from, to, path, slide, target}], bumps: [pawnKey]}`.
 *
 * Names: a *pawn key* is "colour:location" ("red:start", "blue:23", "green:S2"), as the server
 * writes them; a *place key* is "sq:23" for a track square, else "colour:S2" / "colour:home" /
 * "colour:start" (see `placeKey`).
 *
 * API (ES module):
 *   const geometry = await loadGeometry(rules)          // fetch /api/board
 *   const board = createBoard(container, geometry, {onPawn, onPlace, seat})
 *        container: an element the <svg> is put in; onPawn(pawnKey, element) and
 *        onPlace(placeKey) are called on click / Enter / Space; seat: the colour whose side
 *        is drawn at the bottom, as at a real table (Red's when left out).  A tap that misses
 *        everything a player may choose, but lands within SNAP_PX of one, chooses the nearest:
 *        every choice is at least a finger wide, however small the board.
 *   showPosition(board, position)                       // pawns (and Fire/Ice tokens) where it says
 *   await animateDecision(board, before, after, decision) // steps square by square, slides, bumps, switches
 *   showCard(board, {card, text, pack, discards})       // the card face up in the centre, the pack count
 *   showTurn(board, colour)                             // whose turn: that colour's Start glows
 *   markPawns(board, keys, cls)  markPlaces(board, places) clearMarks(board)
 *        places: [{key, label, cls, show}] — rings drawn on those places, focusable, each calling
 *        onPlace; a ring with `show` is only to look at (role img, no Tab stop).
 *   markCursor(board, key, label)                       // the keyboard's cursor ring on a place; it takes the focus
 *   tokenWords(position, pawnKey)  positionWords(geometry, position) // the Fire/Ice a pawn holds; every pawn, in words
 *   The places, the print and the card are aria-hidden: a screen reader hears the pawns, the rings,
 *   and the summary (#board-summary, the board's description) of where every pawn stands.
 *   setFocusable(board, keys, labels, unplayable)       // which pawns Tab reaches: `keys` to choose,
 *        `unplayable` those that cannot move now (aria-disabled: Enter asks onPawn why not)
 *   placeKey(colour, location)   pawnPlace(pawnKey)     // key helpers
 *   board.svg, board.reducedMotion (set true to skip animations)
 */

const NS = "http://www.w3.org/2000/svg";
const UNIT = 40; // pixels of the viewBox per board square
/** The board's rim round the track, where each square's number is printed (viewBox units): wide
 * enough for an 11 px number however small the board is drawn (a phone). */
const RIM = 26;
const LETTERS = { red: "R", blue: "B", yellow: "Y", green: "G" };
const STEP_MS = 120;
const SLIDE_MS = 70;
const SNAP_PX = 24; // half a fingertip: a pawn or ring this near a tap is the one meant

export async function loadGeometry(rules) {
  const answer = await fetch(`/api/board?rules=${encodeURIComponent(rules)}`);
  if (!answer.ok) throw new Error(`cannot load the board (${answer.status})`);
  return answer.json();
}

function el(name, attributes = {}, parent = null) {
  const node = document.createElementNS(NS, name);
  for (const [key, value] of Object.entries(attributes)) node.setAttribute(key, value);
  if (parent) parent.appendChild(node);
  return node;
}

const px = (value) => +(value * UNIT).toFixed(2);

export function placeKey(colour, location) {
  return typeof location === "number" ? `sq:${location}` : `${colour}:${String(location)}`;
}

/** The place key of a pawn key ("blue:23" → "sq:23", "red:S2" → "red:S2"). */
export function pawnPlace(key) {
  const [colour, where] = key.split(":");
  return /^\d+$/.test(where) ? `sq:${where}` : `${colour}:${where}`;
}

function locationOf(value) {
  return typeof value === "number" || /^\d+$/.test(String(value)) ? Number(value) : String(value);
}

/** The point (viewBox units) of a location of a pawn of `colour`; `slot` for Start and Home. */
function pointOf(board, colour, location, slot = 0) {
  const g = board.geometry;
  if (typeof location === "number") return board.at(g.track[location]);
  const player = g.players[colour];
  if (location === "start" || location === "home") {
    const slots = player[location].slots;
    return board.at(slots[slot % slots.length]);
  }
  const index = Number(String(location).slice(1)) - 1; // S1..S5
  return board.at(player.safety[index]);
}

/** A point of the geometry (in squares) in viewBox units, not turned: the centre's card and pack. */
const scaled = (point) => ({ x: px(point.x), y: px(point.y) });

/** How a board seen from Red's seat is turned so that `seat`'s side is at the bottom. */
function turnsFor(geometry, seat) {
  const angle = geometry.players[seat]?.angle ?? 0; // degrees clockwise from Red's side
  return Math.round(angle / 90) % 4;
}

/** A point of the geometry in viewBox units, turned a quarter anticlockwise `turns` times. */
function turnedPoint(geometry, turns, point) {
  const centre = geometry.size / 2;
  let x = point.x - centre;
  let y = point.y - centre;
  for (let turn = 0; turn < turns; turn++) [x, y] = [y, -x];
  return { x: px(x + centre), y: px(y + centre) };
}

export function createBoard(container, geometry, handlers = {}) {
  const size = px(geometry.size);
  const svg = el("svg", {
    viewBox: `${-RIM - 2} ${-RIM - 2} ${size + 2 * RIM + 4} ${size + 2 * RIM + 4}`,
    class: "board",
    role: "group",
    "aria-label": "The Sorry! board",
  });
  container.replaceChildren(svg);
  keepTextReadable(svg, size + 2 * RIM + 4);
  const turns = turnsFor(geometry, handlers.seat ?? "red");
  const board = {
    svg,
    geometry,
    handlers,
    seat: handlers.seat ?? "red",
    turns,
    at: (point) => turnedPoint(geometry, turns, point),
    pawns: {}, // colour → [{node, location}]
    places: {}, // place key → node
    reducedMotion: window.matchMedia?.("(prefers-reduced-motion: reduce)").matches ?? false,
  };
  svg.dataset.seat = board.seat;
  const layers = {};
  for (const name of ["base", "track", "features", "centre", "marks", "pawns", "tokens", "badges"]) {
    layers[name] = el("g", { class: `layer-${name}` }, svg);
    // the empty places, the print and the card are drawing only: a screen reader hears the pawns,
    // the rings, and the summary below the board (the card is said beside the board)
    if (!["marks", "pawns"].includes(name)) layers[name].setAttribute("aria-hidden", "true");
  }
  board.summary = document.createElement("p");
  board.summary.id = "board-summary";
  board.summary.className = "visually-hidden";
  container.append(board.summary);
  svg.setAttribute("aria-describedby", "board-summary");
  board.layers = layers;
  drawBase(board);
  drawTrack(board);
  for (const colour of geometry.colours) drawColour(board, colour);
  drawSlides(board);
  drawCentre(board);
  svg.addEventListener("click", (event) => activate(board, nearestChoice(board, event) ?? event.target));
  svg.addEventListener("keydown", (event) => {
    if (event.key === "Enter" || event.key === " ") {
      if (activate(board, event.target)) event.preventDefault();
    }
  });
  return board;
}

/** What a player may choose: the rings, and the pawns Tab reaches but for those that cannot move. */
const CHOICES = '.mark, .pawn[tabindex]:not([aria-disabled="true"])';

/** The pawn or ring a player may choose nearest a tap that hit none of them, if one is near. */
function nearestChoice(board, event) {
  if (event.target.closest?.(CHOICES) || !event.clientX) return null;
  let best = null;
  let bestDistance = SNAP_PX;
  for (const node of board.svg.querySelectorAll(CHOICES)) {
    const box = node.getBoundingClientRect();
    const distance = Math.hypot(box.x + box.width / 2 - event.clientX, box.y + box.height / 2 - event.clientY);
    if (distance <= bestDistance) [best, bestDistance] = [node, distance];
  }
  return best;
}

function activate(board, target) {
  const pawn = target.closest?.(".pawn");
  if (pawn && board.handlers.onPawn) {
    board.handlers.onPawn(pawn.dataset.key, pawn);
    return true;
  }
  const place = target.closest?.("[data-place]");
  if (place && board.handlers.onPlace) {
    board.handlers.onPlace(place.dataset.place);
    return true;
  }
  return false;
}

function drawBase(board) {
  const size = px(board.geometry.size);
  el("rect", { x: -RIM, y: -RIM, width: size + 2 * RIM, height: size + 2 * RIM, rx: 14, class: "board-edge" }, board.layers.base);
  el("rect", { x: 0, y: 0, width: size, height: size, rx: 4, class: "board-face" }, board.layers.base);
  el("rect", { x: UNIT, y: UNIT, width: size - 2 * UNIT, height: size - 2 * UNIT, class: "board-inner" }, board.layers.base);
}

/** Each track square's number on the rim beside it, the numbers every move's words use ("4 to 12"). */
function drawSquareNumbers(board) {
  const size = px(board.geometry.size);
  const out = UNIT / 2 + RIM / 2; // from a square's centre to the middle of the rim
  for (const square of board.geometry.track) {
    const { x, y } = board.at(square);
    const dx = x < UNIT ? -out : x > size - UNIT ? out : 0;
    const dy = y < UNIT ? -out : y > size - UNIT ? out : 0;
    el("text", { x: x + dx, y: y + dy, class: "square-number" }, board.layers.base).textContent = String(square.square);
  }
}

function drawTrack(board) {
  const { track, diamonds, fire_spaces: fire } = board.geometry;
  drawSquareNumbers(board);
  for (const square of track) {
    const group = el("g", { class: `square side-${square.side}`, "data-place": `sq:${square.square}` }, board.layers.track);
    const centre = board.at(square);
    el("rect", { x: centre.x - UNIT / 2, y: centre.y - UNIT / 2, width: UNIT, height: UNIT, class: "square-face" }, group);
    el("title", {}, group).textContent = `square ${square.square}`;
    board.places[`sq:${square.square}`] = group;
  }
  for (const number of diamonds) {
    const { x, y } = board.at(track[number]);
    const r = UNIT * 0.3;
    el("polygon", { points: `${x},${y - r} ${x + r},${y} ${x},${y + r} ${x - r},${y}`, class: "diamond" }, board.layers.features);
  }
  for (const number of fire) {
    const { x, y } = board.at(track[number]);
    const flame = `M${x},${y - 14} C${x + 10},${y - 4} ${x + 11},${y + 8} ${x},${y + 13} C${x - 11},${y + 8} ${x - 10},${y - 4} ${x},${y - 14} Z`;
    el("path", { d: flame, class: "fire-space" }, board.layers.features);
    el("circle", { cx: x, cy: y + 5, r: 4.5, class: "fire-core" }, board.layers.features);
  }
}

function drawColour(board, colour) {
  const player = board.geometry.players[colour];
  const layer = board.layers.track;
  player.safety.forEach((point, index) => {
    const key = `${colour}:S${index + 1}`;
    const group = el("g", { class: `safety ${colour}`, "data-place": key }, layer);
    const centre = board.at(point);
    el("rect", { x: centre.x - UNIT / 2, y: centre.y - UNIT / 2, width: UNIT, height: UNIT, class: "safety-face" }, group);
    el("title", {}, group).textContent = `${colour} Safety Zone S${index + 1}`;
    // its name as the words of a move say it ("32 to S5"), under any pawn standing there
    el("text", { x: centre.x, y: centre.y, class: "safety-number" }, group).textContent = `S${index + 1}`;
    board.places[key] = group;
  });
  for (const name of ["start", "home"]) {
    const circle = player[name];
    const key = `${colour}:${name}`;
    const group = el("g", { class: `${name}-circle ${colour}`, "data-place": key }, layer);
    const centre = board.at(circle);
    el("circle", { cx: centre.x, cy: centre.y, r: px(circle.r), class: "circle-face" }, group);
    const label = el("text", { x: centre.x, y: centre.y, class: "circle-label" }, group);
    label.textContent = name === "start" ? "START" : "HOME";
    label.setAttribute("transform", `rotate(${player.angle - 90 * board.turns} ${centre.x} ${centre.y})`);
    el("title", {}, group).textContent = `${colour} ${name === "start" ? "Start" : "Home"}`;
    board.places[key] = group;
  }
  // the start exit circle, printed on the track in the colour of its Start
  const exit = board.at(board.geometry.track[player.start_exit]);
  el("circle", { cx: exit.x, cy: exit.y, r: UNIT * 0.42, class: `exit-ring ${colour}` }, board.layers.features);
}

function drawSlides(board) {
  const { track } = board.geometry;
  for (const slide of board.geometry.slides) {
    const points = slide.squares.map((square) => board.at(track[square]));
    const first = points[0];
    const second = points[1];
    const last = points[points.length - 1];
    const dx = Math.sign(second.x - first.x);
    const dy = Math.sign(second.y - first.y);
    const group = el("g", { class: `slide ${slide.colour}` }, board.layers.features);
    el("line", { x1: first.x, y1: first.y, x2: last.x, y2: last.y, class: "slide-bar" }, group);
    // the triangle points along the track, its base across the square's back edge
    const h = UNIT * 0.34;
    const tip = { x: first.x + dx * h, y: first.y + dy * h };
    const back = { x: first.x - dx * h, y: first.y - dy * h };
    const across = { x: -dy * h, y: dx * h };
    el(
      "polygon",
      {
        points: `${tip.x},${tip.y} ${back.x + across.x},${back.y + across.y} ${back.x - across.x},${back.y - across.y}`,
        class: "slide-triangle",
      },
      group,
    );
    el("circle", { cx: last.x, cy: last.y, r: UNIT * 0.26, class: "slide-end" }, group);
  }
}

/** The size of the card's rule text, in viewBox units (pardon.css: .card-text). */
const CARD_TEXT_UNITS = 10.5;
/** The smallest text a player should have to read on the board, in CSS pixels. */
const SMALLEST_TEXT_PX = 11;

/** However small the board is drawn (a phone), its words stay readable: `--smallest-text` is
 * SMALLEST_TEXT_PX in viewBox units at the size the board is drawn now, and every text on the
 * board is at least that big (pardon.css). */
function keepTextReadable(svg, width) {
  const fit = () => {
    const drawn = svg.getBoundingClientRect().width;
    if (drawn <= 0) return;
    const smallest = (SMALLEST_TEXT_PX * width) / drawn;
    svg.style.setProperty("--smallest-text", `${smallest}px`);
    // the centre card's rule text (10.5 units, wrapped to fit the card) cannot grow: shown as
    // its number alone, large, where it would be read smaller (the panel says it in full)
    svg.classList.toggle("small-board", smallest > CARD_TEXT_UNITS);
  };
  fit();
  if (window.ResizeObserver) new ResizeObserver(fit).observe(svg);
}

function drawCentre(board) {
  const c = scaled(board.geometry.centre);
  const layer = board.layers.centre;
  const logo = el("text", { x: c.x, y: c.y + 16, class: "logo", transform: `rotate(-45 ${c.x} ${c.y})` }, layer);
  logo.textContent = "SORRY!";
  const pack = el("g", { class: "pack", transform: `translate(${c.x - 86} ${c.y - 86})` }, layer);
  el("rect", { x: -28, y: -40, width: 56, height: 80, rx: 6, class: "card-back" }, pack);
  el("rect", { x: -22, y: -34, width: 44, height: 68, rx: 4, class: "card-back-inner" }, pack);
  el("text", { x: 0, y: 4, class: "card-back-text", transform: "rotate(-45)" }, pack).textContent = "SORRY!";
  board.packLabel = el("text", { x: 0, y: 58, class: "pile-label" }, pack);
  const face = el("g", { class: "card-face-up", transform: `translate(${c.x + 78} ${c.y + 78})` }, layer);
  el("rect", { x: -70, y: -48, width: 140, height: 96, rx: 8, class: "card-face" }, face);
  board.cardNumber = el("text", { x: -44, y: -10, class: "card-number" }, face);
  board.cardText = el("text", { x: CARD_TEXT_BOX.x, y: CARD_TEXT_BOX.y, class: "card-text" }, face);
  board.discardLabel = el("text", { x: 0, y: 66, class: "pile-label" }, face);
  board.cardFace = face;
}

/** Marks whose turn it is: that colour's Start circle glows. */
export function showTurn(board, colour) {
  for (const [key, node] of Object.entries(board.places)) {
    if (key.endsWith(":start")) node.classList.toggle("deciding", key === `${colour}:start`);
  }
}

/** Shows the card face up (with its rule text), how many cards are left and in the discard pile.
 * No card (`card` null) shows the empty place where the next card will be turned up. */
export function showCard(board, { card, text, pack, discards }) {
  board.cardFace.classList.toggle("empty", !card);
  board.cardNumber.textContent = card ? (card === "sorry" ? "S!" : card) : "";
  fitText(board.cardText, card && text ? text : "", CARD_TEXT_BOX);
  board.packLabel.textContent = `${pack} left`;
  board.discardLabel.textContent = `${discards} discarded`;
}

/** Where a card's rule text goes on the card (right of its number), in the card's own units. */
const CARD_TEXT_BOX = { x: -18, y: -42, width: 82, height: 84 };
const TEXT_SIZES = [10.5, 9.5, 8.5, 7.5, 7, 6.5];

/** Writes `text` wrapped into `box`, in the largest size at which all of it fits: never cut, never spilling. */
function fitText(node, text, box) {
  node.replaceChildren();
  if (!text) return;
  for (const size of TEXT_SIZES) {
    const lines = wrap(text, Math.max(8, Math.floor(box.width / (size * 0.56))));
    node.replaceChildren();
    node.style.fontSize = `${size}px`;
    lines.forEach((line, index) => {
      const span = el("tspan", { x: box.x, dy: index === 0 ? 0 : +(size * 1.18).toFixed(2) }, node);
      span.textContent = line;
    });
    node.setAttribute("y", box.y + size);
    const measured = measure(node);
    const width = measured?.width ?? Math.max(...lines.map((line) => line.length)) * size * 0.56;
    const height = measured?.height ?? lines.length * size * 1.18;
    if (width <= box.width && height <= box.height) return;
  }
}

function measure(node) {
  try {
    const box = node.getBBox();
    return box.width > 0 ? box : null;
  } catch {
    return null; // not drawn yet: the estimate stands
  }
}

function wrap(text, width) {
  const lines = [];
  let line = "";
  for (const word of text.split(/\s+/)) {
    if (line && (line + " " + word).length > width) {
      lines.push(line);
      line = word;
    } else line = line ? `${line} ${word}` : word;
  }
  if (line) lines.push(line);
  return lines;
}

// --- pawns -------------------------------------------------------------------------------

function makePawn(board, colour, index) {
  const node = el("g", { class: `pawn ${colour}`, "data-colour": colour }, board.layers.pawns);
  const r = px(board.geometry.pawn_radius);
  el("circle", { r: UNIT * 0.5, class: "pawn-hit" }, node); // a larger target for fingers
  el("circle", { r: r + 4, class: "pawn-halo" }, node);
  el("circle", { r, class: "pawn-body" }, node);
  el("circle", { r: r * 0.55, class: "pawn-head" }, node);
  const letter = el("text", { class: "pawn-letter", y: 0.5 }, node);
  letter.textContent = LETTERS[colour] ?? "?";
  return { node, colour, index, location: null, point: null };
}

function setPawn(board, pawn, location, slot, duration = 0) {
  pawn.location = location;
  const point = pointOf(board, pawn.colour, location, slot);
  const key = `${pawn.colour}:${location}`;
  pawn.node.dataset.key = key;
  pawn.node.setAttribute("aria-label", describePlace(pawn.colour, location));
  const from = pawn.point;
  pawn.point = point;
  pawn.node.style.transform = `translate(${point.x}px, ${point.y}px)`;
  if (from && duration > 0 && !board.reducedMotion && (from.x !== point.x || from.y !== point.y)) {
    return pawn.node.animate([translate(from), translate(point)], { duration, easing: "ease-in-out" }).finished;
  }
  return Promise.resolve();
}

const translate = (point) => ({ transform: `translate(${point.x}px, ${point.y}px)` });

function describePlace(colour, location) {
  const name = colour[0].toUpperCase() + colour.slice(1);
  if (typeof location === "number") return `${name} pawn on square ${location}`;
  if (location === "start") return `${name} pawn in Start`;
  if (location === "home") return `${name} pawn at Home`;
  return `${name} pawn on Safety Zone ${location}`;
}

/** The Fire or Ice a pawn holds, in words (", frozen by the Ice"), or "" (a pawn key, a position). */
export function tokenWords(position, key) {
  const tokens = position?.tokens;
  if (!tokens) return "";
  const [colour, where] = key.split(":");
  const location = locationOf(where);
  const words = [];
  for (const [name, said] of [["fire", "holding the Fire"], ["ice", "frozen by the Ice"]]) {
    const token = tokens[name];
    if (token?.colour === colour && locationOf((position.pawns[colour] ?? [])[token.pawn]) === location) words.push(said);
  }
  return words.length ? `, ${words.join(" and ")}` : "";
}

/** A pawn's name: where it stands, and the token it holds. */
function pawnName(board, pawn) {
  return describePlace(pawn.colour, pawn.location) + tokenWords(board.position, `${pawn.colour}:${pawn.location}`);
}

const COLOUR_WORDS = { red: "Red", blue: "Blue", yellow: "Yellow", green: "Green" };

/** Where every colour's pawns stand, in words, for the summary under the board:
 * "Red: 2 in Start, 1 on square 19 (46 from Home), 1 Home." */
export function positionWords(geometry, position) {
  const length = geometry.track.length;
  const parts = [];
  for (const [colour, locations] of Object.entries(position.pawns)) {
    const counts = new Map();
    const add = (words, order) => {
      const entry = counts.get(words) ?? { words, order, count: 0 };
      entry.count += 1;
      counts.set(words, entry);
    };
    for (const value of locations) {
      const location = locationOf(value);
      const held = tokenWords(position, `${colour}:${location}`);
      if (location === "start") add(`in Start${held}`, -1);
      else if (location === "home") add(`Home${held}`, 999);
      else if (typeof location === "number") {
        const entrance = geometry.players[colour]?.entrance;
        const left = entrance == null ? null : ((entrance - location + length) % length) + 6;
        add(`on square ${location}${left == null ? "" : ` (${left} from Home)`}${held}`, 100 - (left ?? 0));
      } else {
        const left = 6 - Number(String(location).slice(1));
        add(`in the Safety Zone at ${location} (${left} from Home)${held}`, 500 - left);
      }
    }
    const said = [...counts.values()].sort((a, b) => a.order - b.order).map((entry) => `${entry.count} ${entry.words}`);
    parts.push(`${COLOUR_WORDS[colour] ?? colour}: ${said.join(", ")}.`);
  }
  return parts.join(" ");
}

/** Puts every pawn where `position` says, keeping each pawn that has not moved where it is. */
export function showPosition(board, position, duration = 0) {
  const done = [];
  for (const [colour, locations] of Object.entries(position.pawns)) {
    const pawns = (board.pawns[colour] ??= []);
    while (pawns.length < locations.length) pawns.push(makePawn(board, colour, pawns.length));
    const wanted = locations.map(locationOf);
    const free = [...pawns];
    const assigned = new Array(wanted.length).fill(null);
    wanted.forEach((location, index) => {
      const same = free.findIndex((pawn) => pawn.location === location);
      if (same >= 0) assigned[index] = free.splice(same, 1)[0];
    });
    wanted.forEach((location, index) => {
      if (!assigned[index]) assigned[index] = free.shift();
    });
    const slots = { start: 0, home: 0 };
    const order = wanted.map((location, index) => [location, assigned[index]]);
    order.sort((a, b) => a[1].index - b[1].index);
    for (const [location, pawn] of order) {
      const slot = location in slots ? slots[location]++ : 0;
      done.push(setPawn(board, pawn, location, slot, duration));
    }
  }
  for (const colour of Object.keys(board.pawns)) {
    if (!(colour in position.pawns)) for (const pawn of board.pawns[colour]) pawn.node.remove();
  }
  board.position = position; // before the tokens: a token names its pawn by its place in this position
  showTokens(board, position.tokens);
  for (const pawns of Object.values(board.pawns)) {
    for (const pawn of pawns) if (!pawn.node.hasAttribute("tabindex")) pawn.node.setAttribute("aria-label", pawnName(board, pawn));
  }
  if (board.summary) board.summary.textContent = `Where the pawns stand. ${positionWords(board.geometry, position)}`;
  return Promise.all(done);
}

function showTokens(board, tokens) {
  const layer = board.layers.tokens;
  layer.replaceChildren();
  if (!tokens || !board.geometry.tokens) return;
  for (const name of ["fire", "ice"]) {
    const token = tokens[name];
    let point = scaled(board.geometry.tokens[name]);
    if (token) {
      const pawns = board.position?.pawns ?? {};
      const location = locationOf((pawns[token.colour] ?? [])[token.pawn]);
      const holder = (board.pawns[token.colour] ?? []).find((pawn) => pawn.location === location);
      if (holder) {
        // a ring round the pawn that holds it, seen from across the table; the badge at its shoulder
        el("circle", { cx: holder.point.x, cy: holder.point.y, r: UNIT * 0.47, class: `token-halo ${name}` }, layer);
        point = { x: holder.point.x + 14, y: holder.point.y - 14 };
      }
    }
    const group = el("g", { class: `token ${name}`, transform: `translate(${point.x} ${point.y})` }, layer);
    el("circle", { r: 11, class: "token-face" }, group);
    el("path", { d: TOKEN_ICONS[name], class: "token-icon" }, group);
    el("title", {}, group).textContent = name === "fire" ? "the Fire token" : "the Ice token";
  }
}

/** A flame and a snowflake, drawn rather than lettered: a tiny "F" or "I" was hard to see. */
const TOKEN_ICONS = {
  fire: "M0,-8 C6,-2 6,4 0,8 C-6,4 -6,-2 0,-8 Z",
  ice: "M0,-8 V8 M-6.9,-4 L6.9,4 M-6.9,4 L6.9,-4 M-2.5,-6.5 L0,-4 L2.5,-6.5 M-2.5,6.5 L0,4 L2.5,6.5",
};

function pawnAt(board, key) {
  const [colour, where] = key.split(":");
  const location = locationOf(where);
  return (board.pawns[colour] ?? []).find((pawn) => pawn.location === location) ?? null;
}

/** The pawn element(s) of a pawn key (every pawn in a Start for "red:start"). */
export function pawnElements(board, key) {
  const [colour, where] = key.split(":");
  const location = locationOf(where);
  return (board.pawns[colour] ?? []).filter((pawn) => pawn.location === location).map((pawn) => pawn.node);
}

async function moveAlong(board, pawn, path, { slideFrom = Infinity } = {}) {
  const points = path.map((location) => pointOf(board, pawn.colour, locationOf(location), 0));
  const from = pawn.point;
  if (!points.length || board.reducedMotion) return;
  const frames = [translate(from), ...points.map(translate)];
  const steps = points.length;
  const slideSteps = Math.max(0, steps - slideFrom);
  const duration = (steps - slideSteps) * STEP_MS + slideSteps * SLIDE_MS;
  pawn.point = points[points.length - 1];
  pawn.node.style.transform = translate(pawn.point).transform;
  pawn.node.parentNode.appendChild(pawn.node); // the moving pawn passes over the others
  await pawn.node.animate(frames, { duration, easing: "linear" }).finished;
}

/** Animates one decision (the `last` of a state): each pawn along its path, then the bumps. */
export async function animateDecision(board, before, after, decision) {
  if (!decision || board.reducedMotion) return showPosition(board, after);
  try {
    const bumped = (decision.bumps ?? []).map((key) => pawnAt(board, key)).filter(Boolean);
    for (const action of decision.actions ?? []) {
      if (!action.path) continue;
      const pawn = pawnAt(board, action.pawn);
      if (!pawn) continue;
      const target = action.target ? pawnAt(board, action.target) : null;
      const countSteps = action.path.length - (action.slide_squares ?? 0);
      const moving = [moveAlong(board, pawn, action.path, { slideFrom: countSteps })];
      if (target && action.kind === "switch") {
        moving.push(moveAlong(board, target, [action.from]));
        target.location = locationOf(action.from);
      }
      await Promise.all(moving);
      pawn.location = locationOf(action.to);
    }
    await Promise.all(
      bumped.map((pawn) => {
        pawn.location = "start";
        const slot = board.pawns[pawn.colour].filter((other) => other.location === "start").indexOf(pawn);
        return setPawn(board, pawn, "start", slot, 450);
      }),
    );
  } catch (error) {
    console.warn("animation skipped", error);
  }
  return showPosition(board, after, 200);
}

// --- marks --------------------------------------------------------------------------------

/** Marks pawns (by key) with a class: "movable", "selected", "target". */
export function markPawns(board, keys, cls) {
  const wanted = new Set(keys);
  for (const pawns of Object.values(board.pawns)) {
    for (const pawn of pawns) pawn.node.classList.toggle(cls, wanted.has(pawn.node.dataset.key));
  }
}

/** Makes the pawns of `keys` reachable by Tab (one tab stop per pawn key), each labelled
 * `labels[key]` if given; the pawns of `unplayable` too, marked aria-disabled: they cannot move
 * now, but a keyboard or screen-reader player may still ask why, as a click does.  Every other
 * pawn leaves the Tab order, and its label goes back to where it stands. */
export function setFocusable(board, keys, labels = {}, unplayable = []) {
  const wanted = new Set(keys);
  const disabled = new Set(unplayable);
  const seen = new Set();
  for (const pawns of Object.values(board.pawns)) {
    for (const pawn of pawns) {
      const key = pawn.node.dataset.key;
      const focusable = (wanted.has(key) || disabled.has(key)) && !seen.has(key);
      pawn.node.setAttribute("aria-label", (focusable && labels[key]) || pawnName(board, pawn));
      if (focusable) {
        seen.add(key);
        pawn.node.setAttribute("tabindex", "0");
        pawn.node.setAttribute("role", "button");
        if (wanted.has(key)) pawn.node.removeAttribute("aria-disabled");
        else pawn.node.setAttribute("aria-disabled", "true");
      } else {
        pawn.node.removeAttribute("tabindex");
        pawn.node.removeAttribute("role");
        pawn.node.removeAttribute("aria-disabled");
      }
    }
  }
}

/** Draws a ring on each place of `places` ({key, label, cls}); each is a button calling onPlace. */
export function markPlaces(board, places) {
  const layer = board.layers.marks;
  layer.replaceChildren();
  board.layers.badges.replaceChildren();
  for (const place of places) {
    const point = placePoint(board, place.key);
    if (!point) continue;
    const role = place.show ? { role: "img" } : { tabindex: "0", role: "button" }; // a ring to look at, or to choose
    const group = el("g", { class: `mark ${place.cls ?? ""}`, "data-place": place.key, ...role, "aria-label": place.label ?? place.key }, layer);
    el("circle", { cx: point.x, cy: point.y, r: UNIT * 0.5, class: "mark-ring" }, group);
    if (place.badge) {
      group.dataset.badge = place.badge;
      const spot = badgePoint(point, place.badge);
      // badges sit above the pawns, so a step count is never hidden under a pawn
      el("text", { x: spot.x, y: spot.y, class: "mark-badge" }, board.layers.badges).textContent = place.badge;
    }
  }
  return [...layer.children];
}

/** Where a ring's badge goes.  A count sits in the ring itself, on top of any pawn there (its
 * white outline keeps it readable), so the counts of a path round a corner never crowd each
 * other; a word ("switch") goes above the ring, below it on the top row, to leave the pawn's
 * letter in view. */
function badgePoint(point, badge) {
  if (String(badge).length <= 2) return { x: point.x, y: point.y + 4.5 };
  return { x: point.x, y: point.y > UNIT ? point.y - UNIT * 0.62 : point.y + UNIT * 0.85 };
}

function placePoint(board, key) {
  const [first, second] = key.split(":");
  if (first === "sq") return board.at(board.geometry.track[Number(second)]);
  const player = board.geometry.players[first];
  if (!player) return null;
  if (second === "start" || second === "home") return board.at(player[second]);
  return board.at(player.safety[Number(second.slice(1)) - 1]);
}

/** The keyboard's cursor on the board: a ring on `key` (a place with no ring of its own) that
 * Enter chooses as a click there would; it takes the focus.  Gone with the other marks. */
export function markCursor(board, key, label) {
  board.layers.marks.querySelector(".cursor-mark")?.remove();
  const point = placePoint(board, key);
  if (!point) return null;
  const group = el(
    "g",
    { class: "mark cursor-mark", "data-place": key, tabindex: "-1", role: "button", "aria-label": label },
    board.layers.marks,
  );
  el("circle", { cx: point.x, cy: point.y, r: UNIT * 0.5, class: "mark-ring" }, group);
  group.focus({ preventScroll: true });
  return group;
}

export function clearMarks(board) {
  board.layers.marks.replaceChildren();
  board.layers.badges.replaceChildren();
  for (const cls of ["movable", "selected", "target", "blocked"]) markPawns(board, [], cls);
}
