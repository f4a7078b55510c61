/**
 * coach.js — "How the game went", at the end of a game on the game page: every player's win
 * chance across the game as a graph (inline SVG, with a table for those who cannot see it), and
 * the human players' biggest mistakes, each with the better move and why.  Everything is the
 * server's (GET /api/games/{id}/analysis, src/pardon/web/coach_api.py); this draws it.
 *
 *   chanceGraph(analysis, {names, final})  // a <figure>: the SVG graph and its table
 *   mistakeList(mistakes, {mine, names, onShow})  // an <ol>: one item per mistake, a button each
 *   byTurn(decisions)                      // [{turn, chances}]: the chances before each turn's first decision
 *   unjudged(analysis)                     // what the coach did not judge, in a sentence (or null)
 */

import { el } from "/static/site.js";

const NS = "http://www.w3.org/2000/svg";
const WIDTH = 320;
const HEIGHT = 190;
const PLOT = { left: 40, right: 10, top: 12, bottom: 36 }; // room for the axes' labels
const TABLE_ROWS = 11; // turns the table samples, first and last included
const DASHES = { red: "", blue: "7 3", yellow: "2 3", green: "10 3 2 3" }; // not by colour alone
const CARD_LABELS = { sorry: "Sorry!" };

const whole = (chance) => Math.round(chance * 100);
const percent = (chance) => `${whole(chance)}%`;
const cardLabel = (card) => CARD_LABELS[card] ?? card;

function svg(name, attributes = {}, parent = null, text = null) {
  const node = document.createElementNS(NS, name);
  for (const [key, value] of Object.entries(attributes)) node.setAttribute(key, String(value));
  if (text !== null) node.textContent = text;
  parent?.appendChild(node);
  return node;
}

/** Every player's chances before each turn's first decision, turn by turn. */
export function byTurn(decisions) {
  const turns = [];
  for (const decision of decisions) {
    if (!turns.length || turns[turns.length - 1].turn !== decision.turn) turns.push({ turn: decision.turn, chances: decision.chances });
  }
  return turns;
}

/** What the coach did not judge, said plainly: the solo challenge (alone, the chance to win is
 * 100% all along), or the doubling decisions of a game with doubles (to double, accept or drop). */
export function unjudged(analysis) {
  if (analysis.seats.length === 1) return "The coach judges games against opponents: the solo challenge is not judged.";
  const doubling = analysis.decisions.some((decision) => decision.card === null && decision.choices > 1 && analysis.coached.includes(decision.colour));
  return doubling ? "Doubling decisions (to double, accept or drop) are not judged: only cards are." : null;
}

/** The points of the graph: each turn, then the end (`final`: each colour's 1 or 0), if given. */
function pointsOf(analysis, final) {
  const turns = byTurn(analysis.decisions);
  if (final && turns.length) turns.push({ turn: turns[turns.length - 1].turn + 1, chances: final, end: true });
  return turns;
}

/** A short summary of one player's line: where it started, its best and worst, where it ended. */
function summary(colour, points, names) {
  const chances = points.map((point) => point.chances[colour]);
  const best = Math.max(...chances);
  const worst = Math.min(...chances);
  const end = points[points.length - 1];
  const last = end.end ? (end.chances[colour] >= 1 ? "won" : "lost") : `${percent(chances[chances.length - 1])} at the end`;
  return `${names(colour)}: ${percent(chances[0])} at the start, between ${percent(worst)} and ${percent(best)}, ${last}`;
}

/** The graph of every player's win chance by turn, as a figure with a caption and a table. */
export function chanceGraph(analysis, { names, final = null, marks = [] }) {
  const points = pointsOf(analysis, final);
  const first = points[0]?.turn ?? 1;
  const last = points[points.length - 1]?.turn ?? 1;
  const ended = Boolean(points[points.length - 1]?.end);
  const lastTurn = ended && points.length > 1 ? points[points.length - 2].turn : last; // the end is not a turn
  const turns = `${lastTurn > first ? `turns ${first} to ${lastTurn}` : `turn ${first}`}${ended ? " and the end" : ""}`;
  const width = WIDTH - PLOT.left - PLOT.right;
  const height = HEIGHT - PLOT.top - PLOT.bottom;
  const x = (turn) => PLOT.left + (last > first ? ((turn - first) / (last - first)) * width : width / 2);
  const y = (chance) => PLOT.top + (1 - chance) * height;
  const described = analysis.seats.map((colour) => summary(colour, points, names)).join(". ");

  const graph = svg("svg", {
    class: "chance-graph",
    viewBox: `0 0 ${WIDTH} ${HEIGHT}`,
    role: "img",
    "aria-labelledby": "chance-graph-title chance-graph-desc",
  });
  svg("title", { id: "chance-graph-title" }, graph, `Win chance by turn, ${turns}`);
  svg("desc", { id: "chance-graph-desc" }, graph, `${described}.`);
  const axes = svg("g", { class: "axes", "aria-hidden": "true" }, graph);
  for (const chance of [0, 0.25, 0.5, 0.75, 1]) {
    svg("line", { class: chance === 0 ? "axis" : "grid", x1: PLOT.left, x2: PLOT.left + width, y1: y(chance), y2: y(chance) }, axes);
    svg("text", { class: "tick y-tick", x: PLOT.left - 5, y: y(chance) + 4 }, axes, percent(chance));
  }
  svg("line", { class: "axis", x1: PLOT.left, x2: PLOT.left, y1: PLOT.top, y2: PLOT.top + height }, axes);
  const middle = Math.round((first + last) / 2);
  for (const turn of new Set([first, middle, last])) {
    svg("text", { class: "tick x-tick", x: x(turn), y: PLOT.top + height + 15 }, axes, ended && turn === last ? "End" : String(turn));
  }
  svg("text", { class: "axis-title", x: PLOT.left + width / 2, y: HEIGHT - 4 }, axes, "Turn");
  svg("text", { class: "axis-title", x: 11, y: PLOT.top + height / 2, transform: `rotate(-90 11 ${PLOT.top + height / 2})` }, axes, "Win chance");
  const lines = svg("g", { class: "lines", "aria-hidden": "true" }, graph);
  for (const colour of analysis.seats) {
    const path = points.map((point) => `${x(point.turn).toFixed(1)},${y(point.chances[colour]).toFixed(1)}`).join(" ");
    svg("polyline", { class: `chance-line line-${colour}`, "data-colour": colour, points: path, "stroke-dasharray": DASHES[colour] ?? "" }, lines);
  }
  for (const mark of marks) {
    const point = points.find((each) => each.turn === mark.turn);
    if (!point) continue;
    svg("circle", { class: `mistake-mark line-${mark.colour}`, cx: x(mark.turn), cy: y(point.chances[mark.colour]), r: 4.5 }, lines);
  }

  const legend = el(
    "ul",
    { class: "chance-legend", "aria-hidden": "true" },
    analysis.seats.map((colour) => el("li", {}, el("span", { class: `swatch line-${colour}`, dataset: { dash: DASHES[colour] ? "dashed" : "solid" } }), names(colour))),
  );
  const note = unjudged(analysis);
  const said = note ? el("p", { class: "coach-note" }, note) : null;
  return el("figure", { class: "chance-figure" }, graph, legend, chanceTable(analysis.seats, points, names), said);
}

/** The graph as a table: a sample of the turns (the first, the last, and evenly between). */
function chanceTable(seats, points, names) {
  const count = Math.min(TABLE_ROWS, points.length);
  const picked = [...new Set(Array.from({ length: count }, (_, index) => Math.round((index * (points.length - 1)) / Math.max(1, count - 1))))];
  const head = el("tr", {}, el("th", { scope: "col" }, "Turn"), seats.map((colour) => el("th", { scope: "col" }, names(colour))));
  const rows = picked.map((index) => {
    const point = points[index];
    return el(
      "tr",
      {},
      el("th", { scope: "row" }, point.end ? "End" : String(point.turn)),
      seats.map((colour) => el("td", {}, percent(point.chances[colour]))),
    );
  });
  return el(
    "details",
    { class: "chance-details" },
    el("summary", {}, "The win chances as a table"),
    el("table", { class: "scores chance-table" }, el("caption", { class: "visually-hidden" }, "Win chance by turn"), el("thead", {}, head), el("tbody", {}, rows)),
  );
}

function notation(move) {
  return el("code", { class: "notation", "aria-hidden": "true", title: "in the game's notation" }, ` (${move})`);
}

/** The mistakes, biggest first: turn, card, the move played and the better one, the loss and why.
 * `mine(colour)`: whether this page plays that colour ("You played"); `onShow(mistake)` shows it on the board. */
export function mistakeList(mistakes, { mine, names, onShow }) {
  return el(
    "ol",
    { class: "mistakes" },
    mistakes.map((mistake) => {
      const who = mine(mistake.colour) ? "You" : names(mistake.colour);
      const lost = whole(mistake.best_chance) - whole(mistake.played_chance); // the difference of the two shown
      return el(
        "li",
        { class: "mistake", dataset: { decision: String(mistake.decision), colour: mistake.colour } },
        el(
          "p",
          { class: "mistake-head" },
          el("span", { class: `dot ${mistake.colour}`, "aria-hidden": "true" }),
          ` Turn ${mistake.turn}, ${cardLabel(mistake.card)}: `,
          el("strong", { class: "loss" }, lost > 0 ? `−${lost}%` : "−<1%"),
          el("span", { class: "chances" }, ` (${percent(mistake.best_chance)} → ${percent(mistake.played_chance)} to win)`),
        ),
        // in words, the notation after them for those who know it (a screen reader skips it)
        el("p", { class: "mistake-moves" }, `${who} played: `, el("span", { class: "played" }, mistake.played_text), notation(mistake.played)),
        el("p", { class: "mistake-moves" }, "Better: ", el("span", { class: "better" }, mistake.better_text), notation(mistake.better)),
        el("p", { class: "reason" }, mistake.reason),
        el(
          "button",
          { type: "button", class: "show-mistake", "aria-label": `Show on the board: turn ${mistake.turn}`, onclick: () => onShow(mistake) },
          "Show on the board",
        ),
      );
    }),
  );
}
