/**
 * game/play.js — sending the move chosen, starting a choice again, and hints.
 */

import { $, app } from "/static/game/app.js";
import { forgetHalfMove } from "/static/game/board-choice.js";
import { listedMoves, moveText, openMoves, preview, renderChoices, renderMoveList } from "/static/game/choices.js";
import { expectAnswer, sameTapLeft, send } from "/static/game/connection.js";
import { myDecision } from "/static/game/turn.js";
import { say } from "/static/game/words.js";

// --- making the move chosen, starting again, and hints ----------------------------------

export function cancelSelection() {
  forgetHalfMove();
  app.selection = null;
  app.tokenChoice = null;
  say("");
  renderChoices();
}

export function seatField() {
  return app.seats.length > 1 ? { seat: app.state.decider } : {};
}

/** On a screen of several players, a tap this soon after this screen's last move, once the turn
 * has passed to another, is the last player's double tap, not the next player's choice. */
export const SAME_TAP_MS = 600;

export function play(move) {
  if (app.pending || !myDecision()) return;
  // a button drawn for a decision before this one (a double tap landing as the turn moves on)
  // plays nothing, though the same words may be a move now
  if (move.shownAt !== app.state.event) return;
  if (sameTapLeft() > 0) return;
  if (app.socket?.readyState !== WebSocket.OPEN) {
    // nothing would go: say so, rather than wait for an answer that cannot come
    const text = "Not connected: that move was not sent. Make it again once the connection is back.";
    say(text);
    app.refusal = { text, event: -1 }; // the state of the next connection clears it
    return;
  }
  app.pending = true;
  app.passTo = null;
  app.sentAt = performance.now();
  forgetHalfMove();
  say("");
  app.keepFocus = Boolean(document.activeElement?.closest?.("#board, #choices, #hand, #moves"));
  if (send({ type: "move", move: move.move, event: app.state.event, ...seatField() })) expectAnswer("move");
  if (app.keepFocus && document.activeElement?.closest?.("#board")) {
    // the rings and pawns are redrawn: the focus waits on the banner that says whose turn it is
    app.keepFocus = false;
    $("turn").focus({ preventScroll: true });
  }
}

/** Ask the server for a hint; the button waits, disabled, until the answer (or a refusal) comes. */
/** Whether a hint has something to rank: the moves of the card drawn, or in a hand game those of
 * every card of the hand (whichever card is chosen, the hint weighs them all). */
export function hintable() {
  const state = app.state;
  if (state.position.hands && state.stage === "card") return state.moves.length > 1;
  return Boolean(state.card) && openMoves().length > 1;
}

export function askHint() {
  if (app.hintAsked === app.state.event || !myDecision()) return;
  app.hintAsked = app.state.event;
  markHint($("hint"), true);
  if (send({ type: "hint", event: app.state.event, ...seatField() })) expectAnswer("hint");
}

export function hintAnswered() {
  if (app.hintAsked === null) return;
  app.hintAsked = null;
  markHint($("hint"), false);
}

/** The Hint button while its question waits for an answer: one question at a time, since a
 * second click would only ask again (aria-disabled keeps the focus on it). */
export function markHint(button, asking) {
  if (!button) return;
  button.setAttribute("aria-disabled", String(asking));
  button.textContent = asking ? "Hint: thinking…" : "Hint";
}

export function showHint(message) {
  hintAnswered();
  const chances = Object.fromEntries(message.moves.map((move) => [move.move, move.chance]));
  app.hinted = { event: message.event, chances };
  const best = message.moves[0];
  const move = app.state.moves.find((candidate) => candidate.move === best?.move);
  if (move) {
    say(hintWords(move, best, message), true);
    $("moves-details").open = true;
    preview(move);
  }
  renderMoveList(listedMoves());
}

/** A hint in words: the best move and its chance, with the coach's reason; where other moves
 * are as good to the percent, it says so, and names them, rather than call one of them best. */
export function hintWords(move, best, message) {
  const percent = (chance) => Math.round(chance * 100);
  const tied = message.moves
    .slice(1)
    .filter((other) => percent(other.chance) === percent(best.chance))
    .map((other) => app.state.moves.find((candidate) => candidate.move === other.move))
    .filter(Boolean)
    .map(moveText);
  if (tied.length) {
    const others = tied.length === 1 ? tied[0] : `${tied.slice(0, -1).join(", ")} or ${tied[tied.length - 1]}`;
    return `Hint: ${moveText(move)}, or just as good, ${others} (each ${percent(best.chance)}% to win).`;
  }
  const why = typeof message.reason === "string" && message.reason ? `. ${message.reason}` : "";
  return `Hint: ${moveText(move)} (${percent(best.chance)}% to win)${why}`;
}
