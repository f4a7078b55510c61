/**
 * game.js — the game page: a websocket to the server (docs/protocol.md), the board (board.js),
 * and the choice of a move among those the server sent.  It knows no rules: every legal move,
 * its pawn actions and paths, the other ways of making it, its words, the teams, and why a pawn
 * cannot move come from the server.
 *
 * This module draws the page (render) and starts it; the rest is in game/: app.js (the shared
 * state and names), connection.js (the websocket and its messages), turn.js and choices.js (the
 * turn, the hand and the choices), board-choice.js, tokens.js and play.js (choosing and making a
 * move), game-over.js (the end and the coach) and words.js (what the page says).
 */

import { showTurn } from "/static/board.js";
import { api } from "/static/site.js";
import { $, app, gameId, readToken, WAITS } from "/static/game/app.js";
import { ARROWS, moveCursor } from "/static/game/board-choice.js";
import { otherCards, renderChoices, setAutoPass } from "/static/game/choices.js";
import { connect, inSight, pingNow, reconnect, renderTitle, wake } from "/static/game/connection.js";
import {
  closeResult,
  openResult,
  rematch,
  renderGameOver,
  showHowItWent,
  stopReviewing,
} from "/static/game/game-over.js";
import { cancelSelection } from "/static/game/play.js";
import { renderCard, renderHand, renderSeats, renderTurn } from "/static/game/turn.js";

// --- rendering ---------------------------------------------------------------------------

export function render() {
  const state = app.state;
  renderTitle();
  showTurn(app.board, state.status === "playing" ? state.decider : null);
  renderSeats();
  renderTurn();
  renderHand(); // first: it settles which card of the hand is chosen, the card shown
  renderCard();
  renderChoices();
  renderGameOver();
}

// --- start -------------------------------------------------------------------------------

document.addEventListener("keydown", (event) => {
  if (ARROWS[event.key] && moveCursor(ARROWS[event.key])) {
    event.preventDefault();
    return;
  }
  if (event.key !== "Escape") return;
  if (!$("game-over").hidden) {
    closeResult();
    event.preventDefault();
  } else if (app.selection && (app.selection.pawn || app.selection.chosen.length || app.tokenChoice)) {
    const chosen = app.selection.chosen[0]?.[0] ?? app.selection.pawn; // the pawn the move began with
    cancelSelection();
    event.preventDefault();
    // the ring that had the focus is gone: the focus goes back to that pawn (else the first that can move)
    const pawn = chosen && app.board.svg.querySelector(`.pawn[tabindex][data-key="${CSS.escape(chosen)}"]`);
    const active = document.activeElement;
    if (pawn) pawn.focus({ preventScroll: true });
    else if (!active || active === document.body || !active.isConnected) {
      (app.board.svg.querySelector(".pawn.movable[tabindex]") ?? $("choices").querySelector("button"))?.focus({ preventScroll: true });
    }
  } else if (otherCards()) {
    // nothing half-made: back to the hand, which comes after the board in the page (Shift+Tab never reaches it)
    event.preventDefault();
    $("hand").querySelector(`button[data-card="${CSS.escape(app.card)}"]`)?.focus({ preventScroll: true });
  }
});
$("rematch").addEventListener("click", rematch);
$("after-rematch").addEventListener("click", rematch);
$("close-over").addEventListener("click", () => closeResult());
$("show-result").addEventListener("click", openResult);
$("how-it-went").addEventListener("click", showHowItWent);
$("back-to-end").addEventListener("click", () => {
  stopReviewing();
  $("coach-title").focus({ preventScroll: true });
});
$("auto-pass").addEventListener("change", (event) => setAutoPass(event.target.checked));
document.addEventListener("visibilitychange", inSight);
window.addEventListener("online", wake);
window.addEventListener("pageshow", (event) => event.persisted && wake());
setInterval(pingNow, WAITS.ping);
window.addEventListener("hashchange", () => {
  const token = readToken();
  if (token && token !== app.token) {
    app.token = token;
    app.lastEvent = 0;
    app.state = null;
    $("log").replaceChildren();
    reconnect();
  }
});

api(`/api/games/${encodeURIComponent(gameId)}`)
  .then((summary) => {
    app.hints = Boolean(summary?.hints);
    if (app.state) renderChoices();
  })
  .catch(() => {});
connect();
