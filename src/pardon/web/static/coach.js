/**
 * coach.js — "How the game went", at the end of a game on the game page: the win chance across
 * the game as a graph, round by round (inline SVG, with a table for those who cannot see it;
 * the page's own player's line at first, the others on request), and the human players' biggest
 * mistakes, each placed in words ("Your 12th turn") with the better move and why.  Everything is
 * the server's (GET /api/games/{id}/analysis, src/pardon/web/coach_api.py); this draws it.
 *
 *   chanceGraph(analysis, {names, final, own, you, marks})  // a <figure>: the graph, its legend and table
 *   mistakeList(mistakes, {mine, names, owner, turns, onShow})  // an <ol>: one item per mistake, a button each
 *   turnsOf(decisions)                     // [{turn, colour, round, nth, chances}]: each turn (a card), placed
 *   turnWords(mistake, turns, {mine, owner})  // "Your 12th turn (round 11)"
 *   moveWords(move, text, who)             // a move in words; a pass as what was done ("You declined the switch")
 *   ordinal(n)                             // "1st", "2nd", "11th", "22nd"
 *   unjudged(analysis)                     // what the coach did not judge, in a sentence (or null)
 */

import { el } from "/static/site.js";

const NS = "http://www.w3.org/2000/svg";
const WIDTH = 320;
const HEIGHT = 172;
const PLOT = { left: 38, right: 16, top: 10, bottom: 24 }; // room for the axes' labels
const CHARACTER = 6.8; // about the width of a character of the labels of the rounds, in the graph's units
const TICK_GAP = 12; // the least room between two of those labels
const TABLE_ROWS = 11; // rounds the table samples, first and last included
const DASHES = { red: "", blue: "7 3", yellow: "2 3", green: "10 3 2 3" }; // not by colour alone
const CARD_LABELS = { sorry: "Sorry!" };

const whole = (chance) => Math.round(chance * 100);
const percent = (chance) => `${whole(chance)}%`;
const cardLabel = (card) => CARD_LABELS[card] ?? card;
/** "a 7", "an 8", "an 11", "a Sorry!". */
export const aCard = (card) => `${["8", "11"].includes(String(card)) ? "an" : "a"} ${cardLabel(card)}`;

function svg(name, attributes = {}, parent = null, text = null) {
  const node = document.createElementNS(NS, name);
  for (const [key, value] of Object.entries(attributes)) node.setAttribute(key, String(value));
  if (text !== null) node.textContent = text;
  parent?.appendChild(node);
  return node;
}

/** 1st, 2nd, 3rd, 4th, 11th, 12th, 13th, 21st, 22nd, 101st, 111th… */
export function ordinal(number) {
  const hundred = number % 100;
  const suffix = hundred >= 11 && hundred <= 13 ? "th" : ({ 1: "st", 2: "nd", 3: "rd" }[number % 10] ?? "th");
  return `${number}${suffix}`;
}

/** Every turn (a card: a 2's draw again is a turn of its own) in order: its player, the round it
 * is in, which of its player's turns it is (from 1), and the chances before its first decision.
 * A round is once round the table: it ends when a player who has had a turn in it has another
 * after someone else's (so a 2's draw again, or a player who dropped out, changes nothing); alone
 * (the solo challenge), each turn is a round. */
export function turnsOf(decisions) {
  const turns = [];
  const counts = {};
  const alone = new Set(decisions.map((decision) => decision.colour)).size === 1; // the solo challenge: a turn a round
  let round = 0;
  let seen = new Set();
  for (const decision of decisions) {
    const previous = turns[turns.length - 1];
    if (previous?.turn === decision.turn) continue; // the turn's first decision is its player's
    const colour = decision.colour;
    if (!previous || alone || (seen.has(colour) && previous.colour !== colour)) {
      round += 1;
      seen = new Set();
    }
    seen.add(colour);
    counts[colour] = (counts[colour] ?? 0) + 1;
    turns.push({ turn: decision.turn, colour, round, nth: counts[colour], chances: decision.chances });
  }
  return turns;
}

/** Where a mistake was made, in words: "Your 12th turn (round 11)", "Sam's 3rd turn (round 3)".
 * `mine(colour)`: whether it was this page's player ("Your"); `owner(colour)`: a short name. */
export function turnWords(mistake, turns, { mine = () => false, owner = (colour) => colour } = {}) {
  const whose = mine(mistake.colour) ? "Your" : `${owner(mistake.colour)}'s`;
  const place = turns.find((each) => each.turn === mistake.turn);
  if (!place) return `${whose} turn`;
  const nth = turns.filter((each) => each.colour === mistake.colour && each.turn <= mistake.turn).length || place.nth;
  return `${whose} ${ordinal(nth)} turn (round ${place.round})`;
}

/** Whether a move moves nothing: a pass, a declined 11, a discard. */
export const movesNothing = (move) => !move?.actions?.length;

/** A move in words: the server's words (`text`) for a move that moves something; for one that
 * moves nothing, what was done, said of `who` ("You declined the switch", "Sam passed"), or,
 * with no `who`, what to do ("Decline the switch", "Pass", "Discard a 5"). */
export function moveWords(move, text, who = null) {
  if (!movesNothing(move)) return text;
  const discard = / discards (.+)$/.exec(text ?? "");
  if (/declines the switch/.test(text ?? "")) return who ? `${who} declined the switch` : "Decline the switch";
  if (discard) return who ? `${who} discarded ${discard[1]}` : `Discard ${discard[1]}`;
  return who ? `${who} passed` : "Pass";
}

/** What the coach did not judge, said plainly: the solo challenge (alone, the chance to win is
 * 100% all along), or the doubling decisions of a game with doubles (to double, accept or drop). */
export function unjudged(analysis) {
  if (analysis.seats.length === 1) return "The coach judges games against opponents: the solo challenge is not judged.";
  const doubling = analysis.decisions.some((decision) => decision.card === null && decision.choices > 1 && analysis.coached.includes(decision.colour));
  return doubling ? "Doubling decisions (to double, accept or drop) are not judged: only cards are." : null;
}

/** The points of the graph: the chances at the start of each round, then the end (`final`: each
 * colour's 1 or 0), if given. */
function pointsOf(turns, final) {
  const points = [];
  for (const turn of turns) if (points[points.length - 1]?.round !== turn.round) points.push({ round: turn.round, chances: turn.chances });
  if (final && points.length) points.push({ round: points[points.length - 1].round + 1, chances: final, end: true });
  return points;
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

/** The labels along the bottom: "Round 1", a few round numbers (every 10, 20, 25… as fits
 * best), and "End"; none over another.  The first is drawn from its place rightwards, the end
 * leftwards, the others centred on theirs. */
function roundTicks(first, last, ended, x) {
  const rounds = ended ? last - 1 : last;
  const end = ended ? { round: last, label: "End" } : null;
  const span = (tick) => {
    const width = tick.label.length * CHARACTER;
    const at = x(tick.round);
    if (tick.round === first) return [at, at + width];
    return tick.round === last ? [at - width, at] : [at - width / 2, at + width / 2];
  };
  const clear = (tick, other) => !other || span(tick)[1] + TICK_GAP <= span(other)[0] || span(other)[1] + TICK_GAP <= span(tick)[0];
  let best = [];
  for (const step of [1, 2, 5, 10, 20, 25, 50, 100, 200, 500, 1000].filter((each) => rounds / each <= 4)) {
    const kept = [{ round: first, label: `Round ${first}` }];
    for (let round = step; round <= rounds; round += step) {
      const tick = { round, label: `Round ${round}` };
      if (round > first && clear(tick, kept[kept.length - 1]) && clear(tick, end)) kept.push(tick);
    }
    if (kept.length > best.length) best = kept;
  }
  return end ? [...best, end] : best;
}

/** The graph of the win chance by round, as a figure with a legend, a table and a caption: the
 * lines of `own` (the page's own player; a partner's too) at first, every player's on request.
 * `you(colour)`: whether the page plays that colour (its legend says "(you)"); `marks`: the
 * mistakes to circle on the lines. */
export function chanceGraph(analysis, { names, final = null, own = analysis.seats, you = () => false, marks = [] }) {
  const turns = turnsOf(analysis.decisions);
  const points = pointsOf(turns, final);
  const shownAtFirst = analysis.seats.filter((colour) => own.includes(colour));
  const others = analysis.seats.filter((colour) => !own.includes(colour));
  const drawn = el("div", { class: "chance-drawn" });
  const draw = (all) => {
    const colours = all || !shownAtFirst.length ? analysis.seats : shownAtFirst;
    drawn.replaceChildren(graphOf(colours, points, turns, { names, own: shownAtFirst, marks }), legendOf(colours, names, you), chanceTable(colours, points, names));
  };
  draw(false);
  const toggle = others.length && shownAtFirst.length
    ? el(
        "label",
        { class: "chance-toggle" },
        el("input", { type: "checkbox", class: "show-others", onchange: (event) => draw(event.target.checked) }),
        others.length > 1 ? " Show the other players" : " Show the other player",
      )
    : null;
  const note = unjudged(analysis);
  const said = note ? el("p", { class: "coach-note" }, note) : null;
  return el("figure", { class: "chance-figure" }, toggle, drawn, said);
}

function graphOf(colours, points, turns, { names, own, marks }) {
  const first = points[0]?.round ?? 1;
  const last = points[points.length - 1]?.round ?? 1;
  const ended = Boolean(points[points.length - 1]?.end);
  const lastRound = ended && points.length > 1 ? points[points.length - 2].round : last; // the end is not a round
  const rounds = `${lastRound > first ? `rounds ${first} to ${lastRound}` : `round ${first}`}${ended ? " and the end" : ""}`;
  const width = WIDTH - PLOT.left - PLOT.right;
  const height = HEIGHT - PLOT.top - PLOT.bottom;
  const x = (round) => PLOT.left + (last > first ? ((round - first) / (last - first)) * width : width / 2);
  const y = (chance) => PLOT.top + (1 - chance) * height;
  const described = colours.map((colour) => summary(colour, points, names)).join(". ");

  const graph = svg("svg", {
    class: "chance-graph",
    viewBox: `0 0 ${WIDTH} ${HEIGHT}`,
    role: "img",
    "aria-labelledby": "chance-graph-title chance-graph-desc",
  });
  svg("title", { id: "chance-graph-title" }, graph, `Win chance by round, ${rounds}`);
  svg("desc", { id: "chance-graph-desc" }, graph, `${described}. A round: every player has a turn.`);
  const axes = svg("g", { class: "axes", "aria-hidden": "true" }, graph);
  for (const chance of [0, 0.5, 1]) {
    svg("line", { class: chance === 0 ? "axis" : "grid", x1: PLOT.left, x2: PLOT.left + width, y1: y(chance), y2: y(chance) }, axes);
    svg("text", { class: "tick y-tick", x: PLOT.left - 5, y: y(chance) + 4 }, axes, percent(chance));
  }
  svg("line", { class: "axis", x1: PLOT.left, x2: PLOT.left, y1: PLOT.top, y2: PLOT.top + height }, axes);
  for (const tick of roundTicks(first, last, ended, x)) {
    const anchor = tick.round === first ? "start" : tick.round === last ? "end" : "middle"; // inside the graph
    svg("line", { class: "grid x-grid", x1: x(tick.round), x2: x(tick.round), y1: PLOT.top + height, y2: PLOT.top + height + 4 }, axes);
    svg("text", { class: "tick x-tick", x: x(tick.round), y: PLOT.top + height + 16, "text-anchor": anchor }, axes, tick.label);
  }
  const lines = svg("g", { class: "lines", "aria-hidden": "true" }, graph);
  for (const colour of colours) {
    const path = points.map((point) => `${x(point.round).toFixed(1)},${y(point.chances[colour]).toFixed(1)}`).join(" ");
    const whose = own.includes(colour) ? "own" : "other";
    svg("polyline", { class: `chance-line line-${colour} ${whose}`, "data-colour": colour, points: path, "stroke-dasharray": DASHES[colour] ?? "" }, lines);
  }
  for (const mark of marks) {
    const round = turns.find((turn) => turn.turn === mark.turn)?.round;
    const point = points.find((each) => !each.end && each.round === round);
    if (!point || !colours.includes(mark.colour)) continue;
    svg("circle", { class: `mistake-mark line-${mark.colour}`, cx: x(round), cy: y(point.chances[mark.colour]), r: 4.5 }, lines);
  }
  return graph;
}

function legendOf(colours, names, you) {
  return el(
    "ul",
    { class: "chance-legend", "aria-hidden": "true" },
    colours.map((colour) =>
      el("li", {}, el("span", { class: `swatch line-${colour}`, dataset: { dash: DASHES[colour] ? "dashed" : "solid" } }), names(colour), you(colour) ? " (you)" : ""),
    ),
  );
}

/** The graph as a table: a sample of the rounds (the first, the last, and evenly between). */
function chanceTable(colours, points, names) {
  const count = Math.min(TABLE_ROWS, points.length);
  const picked = [...new Set(Array.from({ length: count }, (_, index) => Math.round((index * (points.length - 1)) / Math.max(1, count - 1))))];
  const head = el("tr", {}, el("th", { scope: "col" }, "Round"), colours.map((colour) => el("th", { scope: "col" }, names(colour))));
  const rows = picked.map((index) => {
    const point = points[index];
    return el(
      "tr",
      {},
      el("th", { scope: "row" }, point.end ? "End" : String(point.round)),
      colours.map((colour) => el("td", {}, percent(point.chances[colour]))),
    );
  });
  return el(
    "details",
    { class: "chance-details" },
    el("summary", {}, "The win chances as a table"),
    el(
      "table",
      { class: "scores chance-table" },
      el("caption", { class: "visually-hidden" }, "Win chance at the start of each round (a round: every player has a turn)"),
      el("thead", {}, head),
      el("tbody", {}, rows),
    ),
  );
}

/** The mistakes, biggest first: whose turn it was and which, the card, the move played and the
 * better one, in words, the loss and why.  `mine(colour)`: whether this page plays that colour
 * ("Your 12th turn", "You played"); `names(colour)`, `owner(colour)`: a player's name, and a short
 * one ("Sam's 12th turn"); `turns`: turnsOf(the decisions); `onShow(mistake)` shows it on the board. */
export function mistakeList(mistakes, { mine, names, owner = names, turns = [], onShow }) {
  return el(
    "ol",
    { class: "mistakes" },
    mistakes.map((mistake) => {
      const who = mine(mistake.colour) ? "You" : owner(mistake.colour);
      const where = turnWords(mistake, turns, { mine, owner });
      const lost = whole(mistake.best_chance) - whole(mistake.played_chance); // the difference of the two shown
      const played = movesNothing(mistake.played_move)
        ? el("p", { class: "mistake-moves" }, el("span", { class: "played" }, `${moveWords(mistake.played_move, mistake.played_text, who)}.`))
        : el("p", { class: "mistake-moves" }, `${who} played: `, el("span", { class: "played" }, mistake.played_text));
      return el(
        "li",
        { class: "mistake", dataset: { decision: String(mistake.decision), colour: mistake.colour } },
        el(
          "p",
          { class: "mistake-head" },
          el("span", { class: `dot ${mistake.colour}`, "aria-hidden": "true" }),
          el("span", { class: "mistake-when" }, ` ${where}, with ${aCard(mistake.card)}: `),
          el("strong", { class: "loss" }, lost > 0 ? `−${lost}%` : "−<1%"),
          el("span", { class: "chances" }, ` (${percent(mistake.best_chance)} → ${percent(mistake.played_chance)} to win)`),
        ),
        played,
        el("p", { class: "mistake-moves" }, "Better: ", el("span", { class: "better" }, moveWords(mistake.better_move, mistake.better_text))),
        el("p", { class: "reason" }, mistake.reason),
        el(
          "button",
          { type: "button", class: "show-mistake", "aria-label": `Show on the board: ${where.replace(/ \(round \d+\)$/, "")}`, onclick: () => onShow(mistake) },
          "Show on the board",
        ),
      );
    }),
  );
}
