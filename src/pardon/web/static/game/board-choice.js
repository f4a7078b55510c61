/**
 * game/board-choice.js — choosing a move on the board: its pawns and places, the keyboard's
 * cursor, and a move half made, kept across a reload.
 */

import {
  clearMarks,
  markCursor,
  markPawns,
  markPlaces,
  pawnPlace,
  placeKey,
  setFocusable,
  tokenWords,
} from "/static/board.js";
import { forget, store, stored } from "/static/site.js";
import { $, app, cardLabel, gameId, name, startAgain, touch } from "/static/game/app.js";
import {
  cancelButton,
  inView,
  landingPlace,
  moveButton,
  moveText,
  openMoves,
  pawnActions,
  pawnChosenPrompt,
  routesOf,
  tokenActions,
} from "/static/game/choices.js";
import { send } from "/static/game/connection.js";
import { play, seatField } from "/static/game/play.js";
import { askToken, chooseToken, onlyTokensDiffer } from "/static/game/tokens.js";
import { handHidden, myDecision, playerName, renderCard, renderHand } from "/static/game/turn.js";
import { announce, note, say } from "/static/game/words.js";

// --- choosing a move on the board ---------------------------------------------------------

/** The pawn actions of a route still to choose, given the parts chosen so far. */
function remaining(route, chosen) {
  const used = new Set(chosen.map(([pawn]) => pawn));
  return route.actions.filter((action) => !used.has(action.pawn));
}

function movablePawns() {
  const { chosen, candidates } = app.selection;
  const keys = new Set();
  for (const route of candidates) for (const action of remaining(route, chosen)) keys.add(action.pawn);
  return [...keys];
}

export function markSelection() {
  if (!app.board || !app.selection || app.tokenChoice) return;
  clearMarks(app.board);
  const { chosen } = app.selection;
  const movable = movablePawns();
  const unplayable = unplayablePawns(movable);
  const cannot = (key) => (chosen.length ? restOfMove(key) : `cannot move with the ${cardLabel(app.card ?? app.state.card)}`);
  const labels = Object.fromEntries([
    ...unplayable.map((key) => [key, `${describeKey(key)}: ${cannot(key)}`]),
    ...movable.map((key) => [key, `${describeKey(key)}: can move`]),
  ]);
  markPawns(app.board, movable, "movable");
  markPawns(app.board, chosen.map(([pawn]) => pawn), "selected");
  if (app.selection.pawn) {
    markPawns(app.board, [app.selection.pawn], "selected");
    const places = destinations(app.selection.pawn);
    const marks = markPlaces(app.board, places);
    const targets = places.filter((place) => place.targetPawn).map((place) => place.targetPawn);
    markPawns(app.board, targets, "target");
    // a pawn to switch with, or to bump with the Sorry!: named by what choosing it does
    for (const place of places) if (place.targetPawn) labels[place.targetPawn] = targetLabel(place);
    setFocusable(app.board, [...movable, ...targets], labels, unplayable);
    marks[0]?.focus({ preventScroll: true });
  } else {
    setFocusable(app.board, movable, labels, unplayable);
  }
}

/** Why `key` takes no part in the rest of a move begun, as a player says it: in a split 7 the pawn
 * just moved has had its share, and another must move the rest; after the Fire pawn reached Home,
 * another goes straight Home with it. */
function restOfMove(key) {
  const { chosen, candidates } = app.selection;
  const card = app.card ?? app.state.card;
  if (app.state.why_not?.[card]?.[key]) return `cannot move with the ${cardLabel(card)}`; // at all: Enter says why
  const rest = candidates.flatMap((route) => remaining(route, chosen));
  const bonus = rest.length > 0 && rest.every((action) => action.kind === "bonus-home");
  const counts = new Set(rest.map((action) => action.steps));
  const left = counts.size === 1 ? [...counts][0] : null; // the count still to move, the same whichever pawn takes it
  const done = chosen.find(([pawn]) => pawn === key);
  if (done && bonus) return "is Home with the Fire: another of your pawns goes straight Home with it";
  if (bonus) return "cannot go straight Home with the Fire pawn";
  if (done) {
    const part = candidates.flatMap((route) => route.actions).find((action) => action.pawn === key && landingPlace(action) === done[1]);
    if (part?.steps != null && left != null) {
      return `moved ${part.steps} already with this ${cardLabel(card)}: the other ${left} must move another pawn`;
    }
    return `has made its part of this ${cardLabel(card)}: the rest must move another pawn`;
  }
  return left != null ? `cannot move the other ${left} of this ${cardLabel(card)}` : "cannot take the rest of the move";
}

/** The player's pawns that cannot move with the card in play: Tab reaches them too (marked
 * aria-disabled), so that a player without a mouse may ask why not, as a click does.  None
 * before a card is drawn or chosen. */
function unplayablePawns(movable) {
  const state = app.state;
  if (state.stage !== "card" || !(app.card ?? state.card)) return [];
  const colours = new Set([state.decider, ...pawnsOfMoves()]); // a partner's too, where a move may move theirs
  const keys = new Set();
  for (const colour of colours) {
    for (const where of state.position.pawns[colour] ?? []) {
      if (where !== "home") keys.add(`${colour}:${where}`); // a pawn Home never moves: no Tab stop to ask why
    }
  }
  for (const key of movable) keys.delete(key);
  return [...keys];
}

function describeKey(key) {
  const [colour, where] = key.split(":");
  const held = tokenWords(app.state?.position, key); // ", frozen by the Ice"
  if (where === "start") return `${name(colour)} pawn in Start${held}`;
  if (where === "home") return `${name(colour)} pawn at Home${held}`;
  return `${name(colour)} pawn on ${where}${held}`;
}

/** A place a pawn lands on, as said: "10", "S2", "Home", "Start". */
const landingWords = (landing) => (landing === "home" ? "Home" : landing === "start" ? "Start" : String(landing));

/** What choosing the pawn a move switches with or bumps does, said on that pawn. */
function targetLabel(place) {
  const [colour, where] = place.targetPawn.split(":");
  const whose = app.seats.includes(colour) && app.seats.length === 1 ? "your" : `${name(colour)}'s`;
  const spot = /^\d+$/.test(where) ? `on ${where}` : where === "start" ? "in Start" : `on ${where}`;
  const held = tokenWords(app.state?.position, place.targetPawn);
  if (place.action.kind === "switch") return `Switch with ${whose} pawn ${spot}${held}`;
  if (place.action.kind === "sorry") return `Bump ${whose} pawn ${spot}${held} with the Sorry!`;
  return `${place.label}${held}`;
}

/** The places a pawn may go now: one per landing, labelled with what happens there. */
function destinations(pawn) {
  const { chosen, candidates } = app.selection;
  const byPlace = new Map();
  for (const route of candidates) {
    for (const action of remaining(route, chosen)) {
      if (action.pawn !== pawn) continue;
      const key = landingPlace(action);
      const entry = byPlace.get(key) ?? { key, routes: [], action };
      entry.routes.push(route);
      byPlace.set(key, entry);
    }
  }
  return [...byPlace.values()].map((entry) => {
    const action = entry.action;
    const badge =
      action.kind === "switch" ? "switch" : action.kind === "sorry" ? "Sorry!" : action.steps != null ? signed(action.steps) : "";
    const moves = new Set(entry.routes.map((route) => route.move.move));
    const complete = entry.routes.every((route) => route.own && remaining(route, chosen).length === 1);
    const label =
      complete && moves.size === 1 && !tokenActions(entry.routes[0].move).length
        ? moveText(entry.routes[0].move)
        : `${describeKey(pawn)} to ${landingWords(action.landing)}${action.slide ? ", then slides" : ""}${partOf(action)}`;
    return { key: entry.key, label, badge, action, targetPawn: action.target ?? null, cls: action.slide ? "slide-mark" : "" };
  });
}

/** The share of the card a part of a split move takes (", 6 of the 7"), or "". */
function partOf(action) {
  const card = app.card ?? app.state.card;
  return action.kind === "step" && action.steps > 0 && card === "7" ? `, ${action.steps} of the 7` : "";
}

const signed = (steps) => (steps < 0 ? `−${-steps}` : `${steps}`);

/** A click on the board by someone with no seat: told they watch, even while a move is drawn. */
function watcherClicked() {
  if (!app.state || app.seats.length) return false;
  note("You are watching this game.");
  return true;
}

export function clickPawn(key) {
  if (!app.state || watcherClicked()) return;
  // a card no pawn can use, passed by itself in a moment: nothing can be chosen, but a player may still ask why
  if (app.pending && app.autoPassed === app.state.event && myDecision()) return whyNot(key);
  if (app.pending) return;
  const selection = app.selection;
  if (!myDecision()) {
    const state = app.state;
    if (state.status === "playing" && state.decider) note(`It is ${name(state.decider)}'s turn, not yours.`);
    return;
  }
  if (handHidden()) return note(`Show ${playerName(app.state.decider)}'s hand first.`);
  if (app.tokenChoice) return chooseToken(app.tokenChoice.byPawn.get(key));
  if (selection?.pawn) {
    const targeted = destinations(selection.pawn).find((dest) => dest.targetPawn === key);
    const reached = targeted?.key ?? destinationAt(selection.pawn, pawnPlace(key));
    if (reached) return chooseDestination(reached);
  }
  if (selection && movablePawns().includes(key)) {
    selection.pawn = key;
    say("");
    if (!selection.chosen.length) $("prompt").textContent = pawnChosenPrompt();
    markSelection();
    return;
  }
  const [colour] = key.split(":");
  if (selection?.pawn && !pawnsOfMoves().has(colour)) return cannotReach(selection, pawnPlace(key)); // an opponent's pawn
  whyNot(key);
}

/** The destination of ``pawn`` that pointing at ``place`` chooses: a marked square, or the end
 * of the one slide that carries the pawn there (where the pawn ends up); null if none. */
function destinationAt(pawn, place) {
  const dests = destinations(pawn);
  if (dests.some((dest) => dest.key === place)) return place;
  const slidTo = dests.filter((dest) => dest.action.slide && placeKey(dest.action.colour, dest.action.to) === place);
  return slidTo.length === 1 ? slidTo[0].key : null;
}

function whyNot(key) {
  const state = app.state;
  const card = app.card ?? state.card;
  const reasons = (card && state.why_not[card]) || {};
  if (reasons[key]) return say(`Why not? ${reasons[key]}.`);
  const [colour] = key.split(":");
  if (colour !== state.decider && !pawnsOfMoves().has(colour)) {
    // on a screen of several players "you" is whoever holds it: name the player to move
    const playing = app.seats.length > 1 ? `it is ${playerName(state.decider)}'s turn` : `you play ${name(state.decider)}`;
    return say(`That is ${name(colour)}'s pawn: ${playing}.`);
  }
  if (app.selection?.chosen.length) return say(`That pawn ${restOfMove(key)}.`);
  if (!card && state.position.hands) return say("Choose a card from your hand first.");
  if (!card) return say("Draw a card first.");
  return say(`That pawn cannot use the ${cardLabel(card)} now.`);
}

function pawnsOfMoves() {
  const colours = new Set();
  for (const move of app.state.moves) for (const action of pawnActions(move)) colours.add(action.colour);
  return colours;
}

export function clickPlace(place) {
  if (watcherClicked() || app.pending || !app.state || !myDecision() || !app.selection) return;
  if (app.tokenChoice) {
    const move = app.tokenChoice.byPlace.get(place);
    return move ? chooseToken(move) : say("Choose one of the marked pawns, or a button.");
  }
  const selection = app.selection;
  if (selection.pawn) {
    const reached = destinationAt(selection.pawn, place);
    return reached ? chooseDestination(reached) : cannotReach(selection, place);
  }
  const pawnHere = movablePawns().find((key) => pawnPlace(key) === place);
  if (pawnHere) return clickPawn(pawnHere);
  say("Choose one of your marked pawns first.");
}

/** A square the chosen pawn cannot reach: say so at once, and ask the server why (the rules
 * live there), unless part of a split 7 is made already (what is left of it says why). */
function cannotReach(selection, place) {
  const otherwise = touch() && !selection.chosen.length ? "another pawn" : startAgain(); // Cancel shows once a part is made
  const text = `That is not a square this pawn can reach. Choose a marked square, or ${otherwise}.`;
  say(text);
  const card = app.card ?? app.state.card;
  if (selection.chosen.length || !card) return;
  const [colour] = selection.pawn.split(":");
  const to = place.startsWith("sq:") ? `${colour}:${place.slice(3)}` : place;
  app.whyAsked = { event: app.state.event, pawn: selection.pawn, to, text, otherwise };
  send({ type: "why", event: app.state.event, card, pawn: selection.pawn, to, ...seatField() });
}

/** The server's answer to "why can this pawn not go there?", if the question still stands. */
export function showWhy(message) {
  const asked = app.whyAsked;
  app.whyAsked = null;
  const still = asked && message.event === app.state?.event && message.pawn === app.selection?.pawn && message.to === asked.to;
  if (!still || !message.reason || $("message").textContent !== asked.text) return;
  say(`That pawn cannot go there: ${message.reason}. Choose a marked square, or ${asked.otherwise}.`);
}

const distinctMoves = (routes) => [...new Map(routes.map((route) => [route.move.move, route.move])).values()];

/** What is left to do once part of a move is made: the rest of a split 7, or the pawn that goes
 * Home with the Fire pawn.  The same words whenever the page is drawn (a reload makes the part again). */
export function halfMovePrompt() {
  if (onlyBonusLeft()) return "The Fire pawn is Home: choose another of your pawns to go straight Home with it.";
  return `Split 7: now move another pawn the rest of the way (${startAgain()} to start again).`;
}

/** Whether what is left is the pawn sent Home with the Fire pawn (not the rest of a split 7). */
function onlyBonusLeft() {
  const { chosen, candidates } = app.selection;
  return candidates.every((route) => remaining(route, chosen).every((action) => action.kind === "bonus-home"));
}

function chooseDestination(place) {
  const selection = app.selection;
  const pawn = selection.pawn;
  const chosen = [...selection.chosen, [pawn, place]];
  const candidates = selection.candidates.filter((route) =>
    remaining(route, selection.chosen).some((action) => action.pawn === pawn && landingPlace(action) === place),
  );
  const complete = distinctMoves(candidates.filter((route) => remaining(route, chosen).length === 0));
  const partial = candidates.filter((route) => remaining(route, chosen).length > 0);
  if (complete.length === 1 && !partial.length) return play(complete[0]);
  app.selection = { chosen, candidates: partial.length ? partial : candidates, pawn: null };
  keepHalfMove(); // a reload asks again where the token goes, or which of these
  if (!partial.length && onlyTokensDiffer(complete)) return askToken(complete);
  if (!partial.length || complete.length) {
    // the same pawns to the same squares in more than one way: let the player name it
    const choices = $("choices");
    choices.replaceChildren();
    $("prompt").textContent = partial.length ? "Play this alone, or move another pawn:" : "Which of these?";
    for (const move of complete) choices.appendChild(moveButton(move, moveText(move), "primary"));
    choices.appendChild(cancelButton());
    clearMarks(app.board);
    markPawns(app.board, chosen.map(([key]) => key), "selected");
    if (partial.length) markSelection();
    choices.querySelector("button")?.focus({ preventScroll: true });
    inView(choices); // every one of them, not only the first: on a phone they may be under the screen
    return;
  }
  $("prompt").textContent = halfMovePrompt();
  say("");
  $("choices").replaceChildren(cancelButton()); // as a later render has it: a phone has no Escape key to start again
  markSelection();
  const first = movablePawns();
  if (first.length === 1) {
    app.selection.pawn = first[0];
    markSelection(); // the one pawn's first ring takes the focus
  } else {
    // the focus, on a ring that is gone, goes to the first pawn that can take the rest (else Cancel)
    const next = first.length ? app.board.svg.querySelector(".pawn.movable[tabindex]") : null;
    (next ?? $("choices").querySelector("button"))?.focus({ preventScroll: true });
  }
  announce(onlyBonusLeft() ? $("prompt").textContent : halfMadeWords(pawn, place, partial, chosen));
}

/** What is said once the first part of a split is made: "Moved 6 of the 7: now move another pawn 1." */
function halfMadeWords(pawn, place, partial, chosen) {
  const card = app.card ?? app.state.card;
  const part = partial.flatMap((route) => route.actions).find((action) => action.pawn === pawn && landingPlace(action) === place);
  const counts = new Set(partial.flatMap((route) => remaining(route, chosen)).map((action) => action.steps));
  const left = counts.size === 1 ? [...counts][0] : null;
  const moved = part?.steps != null ? `Moved ${part.steps} of the ${cardLabel(card)}` : "First part made";
  const rest = left != null ? `now move another pawn ${left}` : "now move another pawn the rest of the way";
  return `${moved}: ${rest} (${startAgain()} to start again).`;
}

// --- the keyboard's cursor: "why can't this pawn go there?" without a mouse ---------------------
// With a pawn chosen, the arrow keys move a cursor square by square along the pawn's way (right
// and down forward, left and up back); on a marked place the ring itself takes the focus, and
// Enter on any other asks why not, as a click there does.

export const ARROWS = { ArrowRight: 1, ArrowDown: 1, ArrowLeft: -1, ArrowUp: -1 };

/** The next place along the way of a pawn of `colour` from `place`, forward (1) or back (-1). */
function wayStep(place, colour, direction) {
  const geometry = app.board.geometry;
  const length = geometry.track.length;
  const player = geometry.players[colour];
  const [first, second] = place.split(":");
  if (first === "sq") {
    const square = Number(second);
    if (direction > 0 && square === player.entrance) return `${colour}:S1`;
    return `sq:${(square + direction + length) % length}`;
  }
  if (second === "start") return direction > 0 ? `sq:${player.start_exit}` : null;
  if (second === "home") return direction > 0 ? null : `${colour}:S${player.safety.length}`;
  const index = Number(second.slice(1)) + direction;
  if (index < 1) return `sq:${player.entrance}`;
  return index > player.safety.length ? `${colour}:home` : `${colour}:S${index}`;
}

function placeWords(place) {
  const [first, second] = place.split(":");
  if (first === "sq") return `Square ${second}`;
  if (second === "home") return `${name(first)} Home`;
  if (second === "start") return `${name(first)} Start`;
  return `${name(first)} Safety Zone ${second}`;
}

/** Move the cursor one place along the chosen pawn's way; whether there was a pawn to move it for. */
export function moveCursor(direction) {
  const selection = app.selection;
  const active = document.activeElement;
  if (!app.board || !selection?.pawn || app.tokenChoice || app.pending || !myDecision()) return false;
  if (!active?.closest?.("#board")) return false;
  const [colour] = selection.pawn.split(":");
  const from = active.classList.contains("mark") ? active.dataset.place : pawnPlace(selection.pawn);
  const next = wayStep(from, colour, direction);
  if (!next) return true;
  const ring = app.board.svg.querySelector(`.mark:not(.cursor-mark)[data-place="${CSS.escape(next)}"]`);
  if (ring) {
    app.board.svg.querySelector(".cursor-mark")?.remove();
    ring.focus({ preventScroll: true });
  } else {
    markCursor(app.board, next, `${placeWords(next)}: not a place this pawn can go. Enter asks why not.`);
  }
  return true;
}

// --- a move half made, across a reload ---------------------------------------------------------
// A split 7 (or the Fire pawn's partner) is made in parts; a reload, or a phone that drops the
// page, once threw away the part made.  The parts are kept for this tab and this decision only.

const halfKey = () => `pardon.half.${gameId}`;

export function keepHalfMove() {
  const chosen = app.selection?.chosen ?? [];
  const card = app.state.position.hands ? app.card : null; // the card chosen from a hand: its parts are its moves
  if (chosen.length || card) {
    store(halfKey(), JSON.stringify({ event: app.state.event, seat: app.state.decider, chosen, card }), { session: true });
  }
}

export function forgetHalfMove() {
  forget(halfKey(), { session: true });
}

/** Make again the parts kept for this very decision, as if clicked; whether there were any. */
export function resumeHalfMove() {
  let kept = null;
  try {
    kept = JSON.parse(stored(halfKey(), { session: true }) ?? "null");
  } catch {
    kept = null;
  }
  if (!kept || kept.event !== app.state.event || kept.seat !== app.state.decider || !Array.isArray(kept.chosen)) return false;
  forgetHalfMove(); // made again below, and kept again if it still stands
  if (kept.card && app.state.position.hands && app.state.moves.some((move) => move.card === kept.card)) {
    app.card = kept.card; // the card chosen from the hand, chosen again
    app.selection = { chosen: [], candidates: routesOf(openMoves()), pawn: null };
    renderHand();
    renderCard();
    keepHalfMove();
  }
  if (!kept.chosen.length) return false;
  for (const part of kept.chosen) {
    const [pawn, place] = Array.isArray(part) ? part : [];
    if (app.selection) app.selection.pawn = pawn;
    if (!app.selection || !destinations(pawn).some((dest) => dest.key === place)) {
      app.selection = { chosen: [], candidates: routesOf(openMoves()), pawn: null }; // no longer a way: start afresh
      return false;
    }
    chooseDestination(place);
    if (app.pending || !app.selection) return true;
  }
  return true;
}
