/**
 * replay.js — a finished game move by move (/replay/{id}): the board (board.js), the card of
 * each turn and the move in words, all computed by the server (GET /api/games/{id}/replay).
 */
import { animateDecision, createBoard, loadGeometry, showCard, showPosition } from "/static/board.js";
import { LETTERS, api, capitalise, chip, decodePart, el, say, seatLabel } from "/static/site.js";

const PLAY_MS = 1100;
const PLAY_ICON = "M7 4v16l13-8z";
const PAUSE_ICON = "M6 4h4v16H6zM14 4h4v16h-4z";
const $ = (id) => document.getElementById(id);
// `at`: the move the page names; `drawn`: the move the board shows, or null while a move is being animated.
const view = { replay: null, board: null, at: 0, timer: null, drawn: -1 };

function gameId() {
  const match = location.pathname.match(/^\/replay\/([^/]+)/);
  return match ? decodePart(match[1]) : "";
}

function cardLabel(card) {
  return card === "sorry" ? "Sorry!" : card;
}

function positionAt(index) {
  return index === 0 ? view.replay.start : view.replay.steps[index - 1].position;
}

/** Show move `index` (0: the start); one step forward is animated.  The move is announced once,
 * counter and all (`announce: false` where the focused slider reads out its own value). */
async function go(index, { animate = false, announce = true } = {}) {
  const steps = view.replay.steps;
  index = Math.max(0, Math.min(steps.length, index));
  const from = view.at;
  view.at = index;
  const step = index > 0 ? steps[index - 1] : null;
  const counter = `Move ${index} of ${steps.length}`;
  const description = step ? step.description : startText();
  const cardName = step ? cardWords(step) : "";
  $("counter").textContent = counter;
  $("slider").value = String(index);
  $("slider").setAttribute("aria-valuetext", `${counter}: ${description}`);
  $("description").textContent = description;
  $("card-name").textContent = cardName;
  if (announce) $("announce").textContent = `${counter}. ${cardName ? `${cardName}. ` : ""}${description}`;
  const big = $("big-card");
  big.textContent = step && step.card ? (step.card === "sorry" ? "S!" : step.card) : "—";
  big.classList.toggle("none", !(step && step.card));
  for (const button of $("steps").querySelectorAll("button")) button.removeAttribute("aria-current");
  if (index > 0) {
    const current = $("steps").children[index - 1].querySelector("button");
    current.setAttribute("aria-current", "step");
    keepInView($("steps"), current.parentElement);
  }
  const focused = document.activeElement;
  $("previous").disabled = $("first").disabled = index === 0;
  $("next").disabled = $("last").disabled = index === steps.length;
  if (focused?.disabled) {
    // The button pressed can go no further: the keyboard goes to the way back (or on).
    const other = index === 0 ? ["next", "play"] : ["previous", "play"];
    other.map($).find((button) => !button.disabled)?.focus();
  }
  showCard(view.board, {
    card: step ? step.card : null,
    text: step ? step.card_text : "",
    pack: step ? step.pack : view.replay.pack,
    discards: step ? step.discards : 0,
  });
  await draw(index, animate && index === from + 1 && step !== null);
}

/** The board brought to move `index`, one step forward animated.  Steps asked for while a move is
 * being animated only change the words: once it ends, the board is drawn at the move named then,
 * so that stepping quickly never leaves the board behind the counter. */
async function draw(index, animate) {
  if (view.drawn === null) return; // the animation under way draws view.at when it ends
  if (animate && view.drawn === index - 1) {
    view.drawn = null;
    const step = view.replay.steps[index - 1];
    try {
      await animateDecision(view.board, positionAt(index - 1), step.position, step.decision);
    } finally {
      view.drawn = index;
    }
  }
  while (view.drawn !== view.at) {
    view.drawn = view.at;
    await showPosition(view.board, positionAt(view.at));
  }
}

/** Scroll the move list (not the page) so that `item` shows. */
function keepInView(list, item) {
  const top = item.offsetTop; // the list is positioned: its items are measured from it
  if (top < list.scrollTop) list.scrollTop = top;
  else if (top + item.offsetHeight > list.scrollTop + list.clientHeight) list.scrollTop = top + item.offsetHeight - list.clientHeight;
}

/** The position before the first move, as it stands: every pawn in Start, or (the 1992 game) one
 * of each colour's on its start exit; a game begun from a position (a puzzle) as it is. */
function startText() {
  const first = view.replay.steps[0];
  const lines = Object.entries(view.replay.start.pawns);
  const outside = lines.map(([, pawns]) => pawns.filter((pawn) => pawn !== "start"));
  const players = view.board.geometry.players;
  const exit = lines.every(([colour], index) => outside[index].every((pawn) => pawn === players[colour].start_exit));
  let where = "";
  if (outside.every((out) => out.length === 0)) where = "every pawn in Start; ";
  else if (exit && outside.every((out) => out.length === 1)) where = "one pawn of each colour on its start exit, the others in Start; ";
  return first ? `The start: ${where}${capitalise(first.colour)} plays first.` : "The start.";
}

/** Whose card a step plays: drawn, or chosen from a hand (where "drew" would be wrong). */
function cardWords(step) {
  if (!step.card) return capitalise(step.colour);
  return view.replay.start.hands ? `${capitalise(step.colour)}'s card: ${cardLabel(step.card)}` : `${capitalise(step.colour)} drew ${cardLabel(step.card)}`;
}

/** The result: who won, who dropped out of a double, and the points (with the stake) where the game kept them. */
function resultText(replay) {
  if (!replay.winner) return "";
  const last = replay.steps.at(-1)?.position ?? replay.start;
  const parts = [`${winnerText(replay)} after ${replay.steps.length} moves.`];
  const doubling = last.doubling;
  if (doubling?.out.length) parts.push(`${doubling.out.map(capitalise).join(" and ")} dropped out of a double.`);
  if (last.scores) {
    const points = replay.seats.map((seat) => `${capitalise(seat.colour)} ${last.scores[seat.colour]}`).join(" · ");
    const stake = doubling?.stake > 1 ? ` (the game doubled: every score ×${doubling.stake})` : "";
    parts.push(`Points: ${points}${stake}.`);
  }
  return parts.join(" ");
}

function setPlaying(on) {
  clearInterval(view.timer);
  view.timer = null;
  const button = $("play");
  button.querySelector("path").setAttribute("d", on ? PAUSE_ICON : PLAY_ICON);
  button.setAttribute("aria-label", on ? "Pause" : "Play");
  if (!on) return;
  if (view.at >= view.replay.steps.length) go(0);
  view.timer = setInterval(() => {
    if (view.at >= view.replay.steps.length) setPlaying(false);
    else go(view.at + 1, { animate: true });
  }, PLAY_MS);
  go(view.at + 1, { animate: true });
}

function stepList() {
  return view.replay.steps.map((step, index) =>
    el(
      "li",
      {},
      el(
        "button",
        { type: "button", onclick: () => (setPlaying(false), go(index + 1)) },
        el("span", { class: "number" }, `${index + 1}.`),
        el("span", { class: `chip chip-${step.colour}` }, el("span", { class: "chip-disc", "aria-hidden": "true" }, LETTERS[step.colour])),
        el("span", { class: "text" }, step.description),
        el("span", { class: "notation", "aria-hidden": "true" }, step.move), // seen, not part of the name
      ),
    ),
  );
}

function onKey(event) {
  const target = event.target;
  if (target.closest("input, select, textarea, a")) return; // the slider moves itself
  if (target.tagName === "BUTTON" && (event.key === " " || event.key === "Enter")) return; // press the button
  const keys = {
    ArrowRight: () => go(view.at + 1, { animate: true }),
    ArrowLeft: () => go(view.at - 1),
    Home: () => go(0),
    End: () => go(view.replay.steps.length),
    " ": () => setPlaying(!view.timer),
  };
  const action = keys[event.key];
  if (!action || event.altKey || event.ctrlKey || event.metaKey) return;
  event.preventDefault();
  if (event.key !== " ") setPlaying(false);
  action();
}

/** Who won, as the game page says it: partners win together. */
function winnerText(replay) {
  const team = replay.teams?.find((colours) => colours.includes(replay.winner));
  return team ? `${team.map(capitalise).join(" and ")} win` : `${capitalise(replay.winner)} wins`;
}

async function start() {
  const id = gameId();
  try {
    view.replay = await api(`/api/games/${encodeURIComponent(id)}/replay`);
  } catch (error) {
    say($("replay-error"), `This game cannot be replayed: ${error.message}`);
    if (error.code === "not_finished") {
      $("replay-error").append(" ", el("a", { href: `/play/${id}` }, "Watch it live"));
    }
    document.body.dataset.ready = "true";
    return;
  }
  const replay = view.replay;
  $("title").textContent = `Replay: ${replay.rules_name}`;
  document.title = `Replay: ${replay.rules_name} — pardon`;
  $("players").replaceChildren(
    ...replay.seats.flatMap((seat, index) => [index ? " · " : "", chip(seat.colour, seatLabel(seat))]),
  );
  const record = $("record");
  record.href = `/api/games/${replay.id}/record`;
  record.hidden = false;
  $("result").textContent = resultText(replay);
  $("slider").max = String(replay.steps.length);
  $("steps").replaceChildren(...stepList());
  $("replay").hidden = false;
  try {
    view.board = createBoard($("board"), await loadGeometry(replay.rules));
  } catch (error) {
    say($("replay-error"), `The board could not be drawn: ${error.message}`);
    return;
  }
  $("first").addEventListener("click", () => (setPlaying(false), go(0)));
  $("previous").addEventListener("click", () => (setPlaying(false), go(view.at - 1)));
  $("next").addEventListener("click", () => (setPlaying(false), go(view.at + 1, { animate: true })));
  $("last").addEventListener("click", () => (setPlaying(false), go(replay.steps.length)));
  $("play").addEventListener("click", () => setPlaying(!view.timer));
  $("slider").addEventListener("input", () => (setPlaying(false), go(Number($("slider").value), { announce: false })));
  document.addEventListener("keydown", onKey);
  await go(0, { announce: false }); // the page opens quietly at the start
  document.body.dataset.ready = "true";
}

start();
