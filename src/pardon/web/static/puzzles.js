/**
 * puzzles.js — the puzzles (/puzzles, /puzzles/{n}): a position and a card, find the best move.
 * The board is board.js's; the moves, the verdict and the coach's reason come from the server
 * (GET /api/puzzles…), so the page knows no rules.  The puzzles solved are kept in this browser.
 */
import { animateDecision, createBoard, loadGeometry, showCard, showPosition } from "/static/board.js";
import { api, capitalise, chip, el, say, store, stored } from "/static/site.js";

const SOLVED_KEY = "pardon.puzzlesSolved";
const $ = (id) => document.getElementById(id);
// `turn` counts what the page was asked to show: an answer or an animation of an earlier one
// (a second tap, Next pressed meanwhile) finds it moved on and leaves the page alone
const view = { list: [], puzzle: null, board: null, geometry: null, verdict: null, turn: 0 };

function solved() {
  try {
    return new Set(JSON.parse(stored(SOLVED_KEY) ?? "[]"));
  } catch {
    return new Set();
  }
}

/** Whether the browser kept it (a browser that keeps nothing still shows the verdict). */
function noteSolved(number) {
  return store(SOLVED_KEY, JSON.stringify([...solved().add(number)]));
}

/** The puzzle the address names: a number, 0 for an address that names none that can be. */
function numberInPath() {
  const match = location.pathname.match(/^\/puzzles\/([^/]+)/);
  if (!match) return null;
  const number = Number(match[1]);
  return Number.isSafeInteger(number) && number > 0 ? number : 0;
}

function levelInQuery() {
  const level = new URLSearchParams(location.search).get("level");
  return ["easy", "medium", "hard"].includes(level) ? level : "";
}

function cardWords(card) {
  if (card === "sorry") return "a Sorry! card";
  return ["8", "11"].includes(card) ? `an ${card}` : `a ${card}`;
}

function taskText(puzzle) {
  const colour = capitalise(puzzle.colour);
  const team = puzzle.partner ? ` (partner of ${capitalise(puzzle.partner)})` : "";
  if (!puzzle.card) return `${colour}${team} plays one card of the hand below. Which card and move are best?`;
  return `${colour}${team} to play ${cardWords(puzzle.card)}. Which move is best?`;
}

/** A hand puzzle's cards, as cards. */
function handCards(puzzle) {
  if (!puzzle.hand.length) return [];
  const cards = puzzle.hand.map((card) =>
    el("span", { class: "hand-card", role: "listitem" }, card === "sorry" ? "Sorry!" : card),
  );
  return [el("span", { class: "hand-cards", role: "list", "aria-label": `${capitalise(puzzle.colour)}'s hand` }, cards)];
}

function levelWords(puzzle) {
  return `${capitalise(puzzle.difficulty)} · ${puzzle.rules_name}`;
}

/** The puzzles of the chosen level, in order; the one after (or before) the one shown (the first
 * when none is shown, or one of another level). */
function neighbour(step) {
  const numbers = view.list.map((entry) => entry.number);
  if (!numbers.length) return null;
  const at = numbers.indexOf(view.puzzle?.number);
  if (at < 0) return numbers[0];
  return numbers[(at + step + numbers.length) % numbers.length];
}

async function loadList() {
  const level = $("level").value;
  const query = level ? `?level=${level}` : "";
  view.list = (await api(`/api/puzzles${query}`)).puzzles;
}

function progressText() {
  const done = solved();
  const here = view.list.filter((entry) => done.has(entry.number)).length;
  const level = $("level").value;
  return `Solved in this browser: ${here} of ${view.list.length}${level ? ` ${level}` : ""} puzzles.`;
}

function moveButton(move) {
  return el(
    "li",
    {},
    el(
      "button",
      { type: "button", dataset: { move: move.move }, onclick: () => choose(move) },
      el("span", { class: "text" }, move.text),
      el("span", { class: "notation", "aria-hidden": "true" }, move.move),
    ),
  );
}

async function show(number, { push = false } = {}) {
  const turn = ++view.turn;
  say($("puzzle-error"), "");
  if (!number) {
    say($("puzzle-error"), `There is no such puzzle: the puzzles are numbered 1 to ${view.list.length || "…"}.`);
    return;
  }
  let puzzle;
  try {
    puzzle = await api(`/api/puzzles/${number}`);
  } catch (error) {
    say($("puzzle-error"), `This puzzle cannot be shown: ${error.message}`);
    return;
  }
  if (turn !== view.turn) return;
  view.puzzle = puzzle;
  view.verdict = null;
  const level = $("level").value;
  const url = `/puzzles/${number}${level ? `?level=${level}` : ""}`;
  if (push) history.pushState({ number }, "", url);
  else history.replaceState({ number }, "", url);
  const done = solved().has(number) ? " (solved)" : "";
  $("title").textContent = `Puzzle ${number}${done}`;
  document.title = `Puzzle ${number} — pardon`;
  $("about").replaceChildren(levelWords(puzzle), " · ", chip(puzzle.colour, `${capitalise(puzzle.colour)} to move`));
  $("task").replaceChildren(taskText(puzzle), ...handCards(puzzle));
  $("card-text").textContent = puzzle.card_text ?? "";
  const big = $("big-card");
  big.textContent = puzzle.card ? (puzzle.card === "sorry" ? "S!" : puzzle.card) : "—";
  big.classList.toggle("none", !puzzle.card);
  $("moves").replaceChildren(...puzzle.moves.map(moveButton));
  $("verdict").hidden = true;
  $("said").textContent = "";
  $("progress").textContent = progressText();
  $("puzzle").hidden = false;
  if (view.geometry?.rules !== puzzle.rules) view.geometry = { rules: puzzle.rules, geometry: await loadGeometry(puzzle.rules) };
  if (turn === view.turn) drawPosition();
}

/** A new board with the puzzle's position, seen from the solver's side: a new one, so that an
 * animation still under way on the old one moves nothing that is seen. */
function drawPosition() {
  const puzzle = view.puzzle;
  view.board = createBoard($("board"), view.geometry.geometry, { seat: puzzle.colour });
  showPosition(view.board, puzzle.position);
  showCard(view.board, { card: puzzle.card, text: puzzle.card_text, pack: 0, discards: 0 });
  view.board.packLabel.textContent = view.board.discardLabel.textContent = ""; // a puzzle has no pile to count
}

/** An answer: the verdict, the move played out on the board, every move's chance. */
async function choose(move) {
  const puzzle = view.puzzle;
  const turn = ++view.turn;
  let verdict;
  try {
    verdict = await api(`/api/puzzles/${puzzle.number}/answer?move=${encodeURIComponent(move.move)}`);
  } catch (error) {
    say($("puzzle-error"), `The answer could not be checked: ${error.message}`);
    return;
  }
  if (turn !== view.turn) return; // another move chosen meanwhile, or another puzzle: that one is shown
  view.verdict = verdict;
  for (const button of $("moves").querySelectorAll("button")) {
    if (button.dataset.move === move.move) button.setAttribute("aria-current", "true");
    else button.removeAttribute("aria-current");
  }
  const kept = verdict.correct ? noteSolved(puzzle.number) : true;
  const head = verdict.correct ? "Right: the best move" : "Not the best move";
  const text = verdict.correct ? `${verdict.best_text}.` : `You chose: ${move.text}. The best is: ${verdict.best_text}.`;
  const why = `Better than ${verdict.correct ? "the next best" : "yours"}, ${verdict.compared_with}: ${verdict.reason}.`;
  $("verdict-head").textContent = head;
  $("verdict-text").textContent = text;
  $("verdict-reason").textContent = why;
  $("chances").replaceChildren(...verdict.chances.map((entry) => chanceRow(entry, verdict, move)));
  $("playouts").textContent = `Each move was judged by ${verdict.playouts} games played out after it.`;
  $("show-best").hidden = verdict.correct;
  $("verdict").hidden = false;
  $("said").textContent = `${head}. ${verdict.correct ? "" : `The best is: ${verdict.best_text}. `}${verdict.reason}.`;
  $("progress").textContent = progressText() + (kept ? "" : " (this browser keeps nothing: they are not remembered)");
  await playOut(move, turn);
  if (turn === view.turn) $("verdict").scrollIntoView({ block: "nearest" }); // once the move is seen on the board
}

function chanceRow(entry, verdict, mine) {
  const percent = `${Math.round(entry.chance * 100)}%`;
  const marks = [entry.move === verdict.best ? "best" : "", entry.move === mine.move ? "yours" : ""].filter(Boolean);
  return el(
    "li",
    { class: marks.length ? marks.join(" ") : undefined },
    el("span", { class: "bar", style: `width: ${Math.max(2, Math.round(entry.chance * 100))}%`, "aria-hidden": "true" }),
    el("span", { class: "text" }, `${percent}: ${entry.text}${marks.length ? ` (${marks.join(", ")})` : ""}`),
  );
}

/** The move played out on a fresh board, in sight. */
async function playOut(move, turn = ++view.turn) {
  drawPosition();
  $("board").scrollIntoView({ block: "nearest" });
  await animateDecision(view.board, view.puzzle.position, move.after, move.decision);
  return turn === view.turn;
}

async function start() {
  $("level").value = levelInQuery();
  try {
    await loadList();
  } catch (error) {
    say($("puzzle-error"), `The puzzles cannot be loaded: ${error.message}`);
    document.body.dataset.ready = "true";
    return;
  }
  const asked = numberInPath();
  const first = view.list.find((entry) => !solved().has(entry.number)) ?? view.list[0];
  await show(asked ?? first?.number ?? 1);
  $("next").addEventListener("click", () => show(neighbour(1), { push: true }));
  $("previous").addEventListener("click", () => show(neighbour(-1), { push: true }));
  $("level").addEventListener("change", async () => {
    await loadList();
    const open = view.list.find((entry) => !solved().has(entry.number)) ?? view.list[0];
    if (open) await show(open.number, { push: true });
  });
  $("show-best").addEventListener("click", () => {
    const best = view.puzzle.moves.find((move) => move.move === view.verdict?.best);
    if (best) playOut(best);
  });
  $("again").addEventListener("click", () => {
    view.turn++;
    drawPosition();
  });
  window.addEventListener("popstate", async () => {
    if ($("level").value !== levelInQuery()) {
      $("level").value = levelInQuery();
      await loadList();
    }
    const number = numberInPath();
    if (number !== null) show(number);
  });
  document.body.dataset.ready = "true";
}

start();
