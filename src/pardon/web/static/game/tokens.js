/**
 * game/tokens.js — where the Fire or the Ice token goes, when the moves chosen differ only in that.
 */

import { clearMarks, markPawns, markPlaces, pawnPlace, setFocusable } from "/static/board.js";
import { $, app, choose, name } from "/static/game/app.js";
import { cancelButton, inView, moveButton, pawnActions, tokenActions } from "/static/game/choices.js";
import { play } from "/static/game/play.js";
import { announce, say } from "/static/game/words.js";

// --- the Fire and Ice tokens ------------------------------------------------------------------

/** Whether `moves` move the same pawns the same way and differ only in where a token goes. */
export function onlyTokensDiffer(moves) {
  if (moves.length < 2) return false;
  const pawnsOf = (move) => JSON.stringify(pawnActions(move).map((action) => [action.pawn, action.landing]).sort());
  return moves.every((move) => pawnsOf(move) === pawnsOf(moves[0])) && moves.some((move) => tokenActions(move).length);
}

const TOKEN_WORDS = {
  ice:
    "Before moving, the 1 puts the Ice on an opponent's pawn: that pawn cannot move or be moved until the Ice moves on, " +
    "and no pawn may land on its square.",
  fire:
    "You may put the Fire on one of your pawns: before each of your draws it may jump ahead to the next corner, " +
    "and when it reaches Home another of your pawns goes Home with it.",
};

/** Ask where the token goes: the pawns it may go on are marked on the board, and named on buttons. */
export function askToken(moves) {
  const kind = moves.flatMap(tokenActions)[0]?.kind ?? "fire";
  const byPawn = new Map();
  const byPlace = new Map();
  for (const move of moves) {
    const token = tokenActions(move).find((action) => action.kind === kind);
    if (!token?.pawn) continue;
    byPawn.set(token.pawn, move);
    byPlace.set(pawnPlace(token.pawn), move);
  }
  app.tokenChoice = { kind, moves, byPawn, byPlace };
  renderTokenChoice();
  // the focus is on a ring now: what the choice is, said aloud, not only written under the card
  announce(`${TOKEN_WORDS[kind]} Choose a marked pawn, or a button.`);
}

function tokenLabel(move, kind) {
  const token = tokenActions(move).find((action) => action.kind === kind);
  if (!token) return kind === "fire" ? "No Fire this time" : "Without the Ice";
  if (!token.pawn) return kind === "ice" ? "The Ice goes back to the centre" : "The Fire goes back to the centre";
  const [colour, where] = token.pawn.split(":");
  const whose = app.seats.includes(colour) ? "your" : `${name(colour)}'s`;
  const place = /^\d+$/.test(where) ? `on ${where}` : where === "start" ? "in Start" : `on ${where}`;
  return `${kind === "ice" ? "Ice" : "Fire"} on ${whose} pawn ${place}`;
}

export function renderTokenChoice() {
  const { kind, moves, byPawn } = app.tokenChoice;
  const choices = $("choices");
  choices.replaceChildren();
  $("prompt").textContent = `${TOKEN_WORDS[kind]} ${choose()} a marked pawn, or a button:`;
  for (const move of moves) choices.appendChild(moveButton(move, tokenLabel(move, kind), "primary"));
  choices.appendChild(cancelButton());
  clearMarks(app.board);
  markPawns(app.board, app.selection.chosen.map(([key]) => key), "selected");
  const keys = [...byPawn.keys()];
  markPawns(app.board, keys, "target");
  const marks = markPlaces(
    app.board,
    keys.map((key) => ({ key: pawnPlace(key), label: tokenLabel(byPawn.get(key), kind), cls: `token-mark ${kind}-mark` })),
  );
  setFocusable(app.board, keys, Object.fromEntries(keys.map((key) => [key, tokenLabel(byPawn.get(key), kind)])));
  (marks[0] ?? choices.querySelector("button"))?.focus({ preventScroll: true });
  inView(choices); // the buttons say each choice in words: on a phone they were under the screen
}

export function chooseToken(move) {
  if (!move) return say("Choose one of the marked pawns, or a button.");
  play(move);
}
