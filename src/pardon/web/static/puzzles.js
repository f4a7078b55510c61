/**
 * puzzles.js — the puzzles (/puzzles, /puzzles/{n}): a position and a card, find the best move.
 * The board is board.js's; the moves, the verdict and the coach's reason come from the server
 * (GET /api/puzzles…), so the page knows no rules.  The puzzles solved are kept in this browser.
 */
import { animateDecision, createBoard, loadGeometry, showCard, showPosition } from "/static/board.js";
import { api, capitalise, chip, el, say, store, stored } from "/static/site.js";

const SOLVED_KEY = "pardon.puzzlesSolved";
const $ = (id) => document.getElementById(id);
const view = { list: [], puzzle: null, board: null, rules: null, verdict: null };

function solved() {
  try {
    return new Set(JSON.parse(stored(SOLVED_KEY) ?? "[]"));
  } catch {
    return new Set();
  }
}

function noteSolved(number) {
  store(SOLVED_KEY, JSON.stringify([...solved().add(number)]));
}

function numberInPath() {
  const match = location.pathname.match(/^\/puzzles\/(\d+)/);
  return match ? Number(match[1]) : null;
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
  if (!puzzle.card) {
    const hand = puzzle.hand.map((card) => (card === "sorry" ? "Sorry!" : card)).join(", ");
    return `${colour} holds ${hand}. Choose the card to play and its move: which is best?`;
  }
  return `${colour} to play ${cardWords(puzzle.card)}. Which move is best?`;
}

function levelWords(puzzle) {
  return `${capitalise(puzzle.difficulty)} · ${puzzle.rules_name}`;
}

/** The puzzles of the chosen level, in order; the one after (or before) `number`. */
function neighbour(number, step) {
  const numbers = view.list.map((entry) => entry.number);
  if (!numbers.length) return null;
  const at = numbers.indexOf(number);
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
  say($("puzzle-error"), "");
  let puzzle;
  try {
    puzzle = await api(`/api/puzzles/${number}`);
  } catch (error) {
    say($("puzzle-error"), `This puzzle cannot be shown: ${error.message}`);
    return;
  }
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
  $("task").textContent = taskText(puzzle);
  $("card-text").textContent = puzzle.card_text ?? "";
  const big = $("big-card");
  big.textContent = puzzle.card ? (puzzle.card === "sorry" ? "S!" : puzzle.card) : "—";
  big.classList.toggle("none", !puzzle.card);
  $("moves").replaceChildren(...puzzle.moves.map(moveButton));
  $("verdict").hidden = true;
  $("progress").textContent = progressText();
  $("puzzle").hidden = false;
  if (view.rules !== puzzle.rules) {
    view.board = createBoard($("board"), await loadGeometry(puzzle.rules));
    view.rules = puzzle.rules;
  }
  showPosition(view.board, puzzle.position);
  showCard(view.board, { card: puzzle.card, text: puzzle.card_text, pack: 0, discards: 0 });
  view.board.packLabel.textContent = view.board.discardLabel.textContent = ""; // a puzzle has no pile to count
}

/** An answer: the verdict, the move played out on the board, every move's chance. */
async function choose(move) {
  const puzzle = view.puzzle;
  let verdict;
  try {
    verdict = await api(`/api/puzzles/${puzzle.number}/answer?move=${encodeURIComponent(move.move)}`);
  } catch (error) {
    say($("puzzle-error"), `The answer could not be checked: ${error.message}`);
    return;
  }
  view.verdict = verdict;
  for (const button of $("moves").querySelectorAll("button")) {
    button.toggleAttribute("aria-current", button.dataset.move === move.move);
  }
  if (verdict.correct) noteSolved(puzzle.number);
  $("verdict-head").textContent = verdict.correct ? "Right: the best move" : "Not the best move";
  $("verdict-text").textContent = verdict.correct
    ? `${verdict.best_text}.`
    : `You chose: ${move.text}. The best is: ${verdict.best_text}.`;
  $("verdict-reason").textContent = `${verdict.reason}.`;
  $("chances").replaceChildren(...verdict.chances.map((entry) => chanceRow(entry, verdict, move)));
  $("playouts").textContent = `Each move was judged by ${verdict.playouts} games played out after it.`;
  $("show-best").hidden = verdict.correct;
  $("verdict").hidden = false;
  $("progress").textContent = progressText();
  $("verdict").scrollIntoView({ block: "nearest" });
  await playOut(move);
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

async function playOut(move) {
  showPosition(view.board, view.puzzle.position);
  await animateDecision(view.board, view.puzzle.position, move.after, move.decision);
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
  $("next").addEventListener("click", () => show(neighbour(view.puzzle.number, 1), { push: true }));
  $("previous").addEventListener("click", () => show(neighbour(view.puzzle.number, -1), { push: true }));
  $("level").addEventListener("change", async () => {
    await loadList();
    const open = view.list.find((entry) => !solved().has(entry.number)) ?? view.list[0];
    if (open) await show(open.number, { push: true });
  });
  $("show-best").addEventListener("click", () => {
    const best = view.puzzle.moves.find((move) => move.move === view.verdict?.best);
    if (best) playOut(best);
  });
  $("again").addEventListener("click", () => showPosition(view.board, view.puzzle.position));
  window.addEventListener("popstate", () => {
    const number = numberInPath();
    if (number) show(number);
  });
  document.body.dataset.ready = "true";
}

start();
