/**
 * game/connection.js — the websocket to the server (docs/protocol.md): connecting, a connection
 * that died without a word, and the messages that come, each shown.
 */

import { animateDecision, clearMarks, createBoard, loadGeometry, setFocusable, showPosition } from "/static/board.js";
import { render } from "/static/game.js";
import { noteMyGame } from "/static/site.js";
import { $, ANSWERS, app, gameId, name, WAITS } from "/static/game/app.js";
import { clickPawn, clickPlace, showWhy } from "/static/game/board-choice.js";
import { becauseOf, logText, rememberAutoPass } from "/static/game/choices.js";
import { endReview } from "/static/game/game-over.js";
import { hintAnswered, SAME_TAP_MS, showHint } from "/static/game/play.js";
import { handHidden, myDecision, playerName, renderSeats, renderTurn } from "/static/game/turn.js";
import { announce, log, say } from "/static/game/words.js";

// --- token and connection ----------------------------------------------------------------

export function connect() {
  const scheme = location.protocol === "https:" ? "wss" : "ws";
  const socket = new WebSocket(`${scheme}://${location.host}/ws/games/${encodeURIComponent(gameId)}`);
  app.socket = socket;
  socket.addEventListener("open", () => {
    if (app.socket !== socket) return; // given up for a newer one
    app.retry = 0;
    setConnection("Connected", false);
    const hello = { type: "hello", since: app.lastEvent };
    if (app.token) hello.token = app.token;
    socket.send(JSON.stringify(hello));
  });
  socket.addEventListener("message", (event) => {
    if (app.socket !== socket) return; // a connection given up for dead that spoke after all: the new one's sync says it
    const message = JSON.parse(event.data);
    heard(message); // now, not once the animations queued before it are over
    app.queue = app.queue.then(() => handle(message)).catch((error) => console.error(error));
  });
  socket.addEventListener("close", (event) => {
    if (app.socket !== socket) return;
    stopWaiting();
    app.pending = false;
    app.hintAsked = null; // an answer on its way is lost with the connection
    if ([4401, 4404, 1008, 1011].includes(event.code)) { // bad token, no game, protocol broken, game broken
      app.closedForGood = true;
      setConnection("Not connected", true);
      if (app.state) $("turn").textContent = closedWhy(event.code);
      else showClosed(event.code); // no game was ever shown: no empty board, only why, and the way home
      return;
    }
    const delay = Math.min(5000, 400 * 2 ** app.retry++);
    const busy = event.code === 1013; // too many connections now, or this page fell behind
    setConnection(busy ? "The server is busy — trying again…" : "Connection lost — reconnecting…", true);
    app.retryTimer = setTimeout(connect, delay);
  });
}

function closedWhy(code) {
  if (code === 4404) return "There is no such game.";
  if (code === 4401) return "This link does not open a seat of this game.";
  return app.lastError ? `The server closed the connection: ${app.lastError}` : "The server closed the connection.";
}

/** The page when there is no game to show (no such game, a link that opens no seat): why, plainly, and a link home. */
function showClosed(code) {
  $("game").hidden = true;
  $("closed").hidden = false;
  $("closed-why").textContent = closedWhy(code);
  $("closed-help").textContent =
    code === 4404
      ? "The link may be mistyped or cut short, or the game has been removed."
      : code === 4401
        ? "The link may be mistyped or cut short. Ask whoever sent it for the link again."
        : "Try again in a moment, or start another game.";
  document.title = `${closedWhy(code)} — pardon`;
}

export function reconnect() {
  const old = app.socket;
  app.socket = null;
  stopWaiting();
  clearTimeout(app.retryTimer); // one new connection, not a second when the retry comes
  old?.close();
  connect();
}

/** Whether the message went (a connection is open). */
export function send(message) {
  if (app.socket?.readyState !== WebSocket.OPEN) return false;
  app.socket.send(JSON.stringify(message));
  return true;
}

// --- a connection that died without a word --------------------------------------------------
// A socket whose network went away (a phone asleep, Wi-Fi to mobile data) may never fire its
// close event: the page would say "Connected" and wait for ever for the answer to a move.  So
// every move and hint waits a while for its answer, a ping goes now and then, and the page opens
// a new connection when it comes back into sight; the sync (hello with `since`) does the rest.

/** Wait for the answer to `what` ("move", "hint", "pong"); none in time means the connection is dead. */
export function expectAnswer(what) {
  clearTimeout(app.waits.get(what));
  app.waits.set(what, setTimeout(noAnswer, WAITS[what]));
}

function answered(what) {
  clearTimeout(app.waits.get(what));
  app.waits.delete(what);
}

function stopWaiting() {
  for (const what of [...app.waits.keys()]) answered(what);
}

/** A message came: the connection lives, and the waits it answers are over. */
function heard(message) {
  answered("pong");
  for (const what of ANSWERS[message.type] ?? []) answered(what);
}

/** Nothing came back in time: say so, and connect again.  A move sent may not have arrived: the
 * sync says whether it did (see madeAgain), and a move half made stays as it was. */
function noAnswer() {
  if (app.closedForGood) return;
  if (app.waits.has("move")) app.unanswered = app.state?.event ?? null; // whichever wait ran out first
  app.pending = false;
  hintAnswered();
  const text = "No answer from the server: reconnecting…";
  say(text);
  app.refusal = { text, event: -1 }; // the state of the next connection clears it
  setConnection("No answer — reconnecting…", true);
  reconnect();
}

/** After a reconnect for a move that had no answer: if the game is still at that move, it never
 * arrived, and the player is asked to make it again. */
function madeAgain(state) {
  const event = app.unanswered;
  app.unanswered = null;
  if (event === null || state.event !== event || !myDecision()) return;
  const text = "Connected again. Your move was not made: make it again.";
  say(text);
  app.refusal = { text, event };
}

/** Now and then while the page is in sight: a ping, unless an answer is awaited already. */
export function pingNow() {
  if (document.visibilityState === "hidden" || app.closedForGood || app.waits.size) return;
  if (send({ type: "ping" })) expectAnswer("pong");
}

/** The page is in sight again (a phone woke up), the network is back, or Back brought the page
 * from the browser's cache: its connection may have died meanwhile without a word, so a new one
 * is opened, and its sync brings the game up to date. */
export function wake() {
  app.hiddenAt = null;
  if (app.closedForGood || document.visibilityState === "hidden") return;
  if (app.socket?.readyState === WebSocket.CONNECTING) return; // a new one is on its way already
  reconnect();
}

/** Out of sight, or back: a page back after a while connects again (its line may have died
 * meanwhile); one back from a glance at another tab only pings, so that the other players do
 * not see its seat leave and come back. */
export function inSight() {
  if (document.visibilityState === "hidden") {
    app.hiddenAt ??= performance.now();
    return;
  }
  const away = app.hiddenAt === null ? Infinity : performance.now() - app.hiddenAt;
  app.hiddenAt = null;
  if (away >= WAITS.wake) wake();
  else pingNow();
}

function setConnection(text, offline) {
  const node = $("connection");
  node.textContent = text;
  node.classList.toggle("offline", offline);
}

// --- messages ----------------------------------------------------------------------------

async function handle(message) {
  switch (message.type) {
    case "welcome":
      app.role = message.role;
      app.seats = message.seats;
      if (app.seats.length) noteMyGame(gameId); // the home page offers it again until it is over
      if (app.lastError && $("message").textContent === app.lastError) say(""); // a refusal before this connection
      app.lastError = null;
      return;
    case "sync":
      for (const event of message.events) log(logText(event.text ?? `${name(event.colour)}: ${event.move}`, event.event, event.colour));
      if (app.autoPassed === message.state.event) {
        // a pass by itself that this new connection has not heard of was lost with the old one
        // (never sent, or never stored): pass again, rather than wait for it for ever
        clearTimeout(app.autoPassTimer);
        app.autoPassed = null;
      }
      return show(message.state, null);
    case "event":
      return show(message.state, message.state.last ?? message.decision);
    case "state":
      return show(message.state, null);
    case "presence":
      if (app.state) {
        app.state.seats = message.seats;
        renderSeats();
        renderTurn();
      }
      return;
    case "hint":
      return showHint(message);
    case "why":
      return showWhy(message);
    case "error":
      return showError(message);
    default:
      return;
  }
}

async function show(state, decision) {
  const before = app.state;
  const focused = focusedControl(); // the same turn drawn again (a reconnect): the focus comes back to it
  if (app.reviewing !== null) endReview(); // the board is drawn anew just below
  app.ready = false;
  app.state = state;
  app.lastEvent = state.event;
  app.pending = false;
  if (state.decider !== before?.decider) {
    app.turnShownAt = performance.now();
    app.passTo = state.decider; // "Pass the device to …" until they act
  }
  for (const move of state.moves) move.shownAt = state.event; // a button knows the decision it was drawn for
  if (before && state.event !== before.event) {
    // a decision since, heard live or in a sync after a reconnect: nothing half-made of the one before
    // stands (a split 7 begun on a phone that slept while another tab played), nor the card chosen
    app.selection = null;
    app.tokenChoice = null;
    app.card = null;
  }
  if (app.refusal && state.event > app.refusal.event) {
    // the game has moved on since: what was said of an earlier move no longer applies
    if ($("message").textContent === app.refusal.text) say("");
    app.refusal = null;
  }
  madeAgain(state);
  await ensureBoard(state);
  // until the new state is drawn, no pawn is a Tab stop: one left from the decision before would
  // say "can move" (or why not) of a turn that is over
  setFocusable(app.board, []);
  if (decision && before && state.last && state.event === before.event + 1) {
    clearMarks(app.board);
    app.selection = null;
    app.tokenChoice = null;
    if (app.autoPassed === before.event) rememberAutoPass(state.event);
    const text = logText(state.last.text, state.event, state.last.colour);
    log(text);
    announce(spokenDecision(state.last, text));
    await animateDecision(app.board, before.position, state.position, state.last);
  } else {
    await showPosition(app.board, state.position);
  }
  if (app.state !== state) return; // a newer state came while animating
  render();
  if (before && state.event === before.event) restoreFocus(focused);
  keepFocus();
  announceTurn();
  const settling = sameTapLeft(); // a tap now would still be the last player's double tap
  if (settling > 0) setTimeout(() => app.state === state && (app.ready = true), settling);
  else app.ready = true;
}

/** How long a tap is still taken for the last player's double tap (see play), in ms; 0 if not. */
export function sameTapLeft() {
  if (app.seats.length < 2 || app.turnShownAt <= app.sentAt) return 0;
  return Math.max(0, SAME_TAP_MS - (performance.now() - app.sentAt));
}

/** A decision as the live region says it: a pawn of this page's player sent back is said so, plainly. */
function spokenDecision(last, text) {
  if (app.seats.length !== 1 || app.seats.includes(last.colour)) return text;
  const mine = (last.bumps ?? []).filter((key) => app.seats.includes(key.split(":")[0])).length;
  if (!mine) return text;
  const pawns = mine > 1 ? `${mine} of your pawns` : "your pawn";
  // the bump said once: "(sends Red back to Start)" becomes "(bumped your pawn: sends Red back to Start)"
  const sends = /\((sends [^()]* back to Start)\)/;
  if (sends.test(text)) return text.replace(sends, `(bumped ${pawns}: $1)`);
  return `${text}. ${playerName(last.colour)} bumped ${pawns} back to Start.`;
}

/** When the decision becomes this page's, the live region says so, with the card to play: a
 * player who does not see the board hears it is their turn, and what they drew. */
function announceTurn() {
  const state = app.state;
  if (!myDecision() || app.announced === state.event) return;
  app.announced = state.event;
  const who = app.seats.length > 1 ? `${playerName(state.decider)} to play` : "Your turn";
  let what = "";
  if (handHidden()) what = `pass the device to ${playerName(state.decider)}.`;
  else if (state.stage === "answering") what = `${name(state.position.turn)} doubled the stakes: accept, or drop out.`;
  else if (state.stage !== "card") what = "draw your card.";
  else if (state.card && state.moves.every((move) => move.pass)) {
    what = `you drew ${cardWords(state.card)}, and no pawn can use it${becauseOf(state.card)}.`;
  } else if (state.card) what = `you drew ${cardWords(state.card)}. ${state.card_text ?? ""}`.trim();
  else if (state.position.hands) what = "choose a card from your hand.";
  // a hidden hand's gate: the player to pass the device to is named once
  announce(handHidden() ? `Pass the device to ${playerName(state.decider)}.` : `${who}: ${what}`);
}

const cardWords = (card) => (card === "sorry" ? "a Sorry! card" : `${["8", "11"].includes(card) ? "an" : "a"} ${card}`);

/** What has the keyboard's focus among the controls a redraw makes anew: a pawn (by key), a
 * card of the hand, a move's button; null if none of them. */
function focusedControl() {
  const active = document.activeElement;
  if (!active || active === document.body) return null;
  if (active.classList?.contains("pawn")) return { pawn: active.dataset.key };
  if (active.closest?.("#hand") && active.dataset.card) return { card: active.dataset.card };
  if (active.closest?.("#choices")) return { choice: active.dataset.move ?? null, id: active.id || null, text: active.textContent };
  return null;
}

/** Give the focus back to the control it was on before the page was drawn again, if it is still there. */
function restoreFocus(focused) {
  const active = document.activeElement;
  if (!focused || (active && active !== document.body)) return;
  let target = null;
  if (focused.pawn) target = app.board.svg.querySelector(`.pawn[tabindex][data-key="${CSS.escape(focused.pawn)}"]`);
  else if (focused.card) target = $("hand").querySelector(`button[data-card="${CSS.escape(focused.card)}"]:not([disabled])`);
  else {
    const buttons = [...$("choices").querySelectorAll("button")];
    target =
      buttons.find((button) => focused.id && button.id === focused.id) ??
      buttons.find((button) => focused.choice && button.dataset.move === focused.choice) ??
      buttons.find((button) => button.textContent === focused.text) ??
      null;
  }
  target?.focus({ preventScroll: true });
}

/** A move made from the board or the buttons takes its control away: the focus, which would
 * fall to the top of the page, goes to the banner that says whose turn it is now. */
function keepFocus() {
  const active = document.activeElement;
  if (!app.keepFocus || (active && active !== document.body)) return;
  app.keepFocus = false;
  if (!$("game-over").hidden) return;
  $("turn").focus({ preventScroll: true });
}

/** The colour whose side is at the bottom: the seat this page plays (its first), else the first seat. */
function seatAtBottom(state) {
  return app.seats[0] ?? state.seats[0]?.colour ?? "red";
}

async function ensureBoard(state) {
  const seat = seatAtBottom(state);
  if (app.board && app.boardRules === state.rules && app.board.seat === seat) return;
  const geometry = await loadGeometry(state.rules);
  app.board = createBoard($("board"), geometry, { onPawn: clickPawn, onPlace: clickPlace, seat });
  app.boardRules = state.rules;
}

/** The page's heading says the game in words, its rules and its players; the game's id is in
 * sight in it, but not read out (a screen reader's heading list says the game, not a code). */
export function renderTitle() {
  const state = app.state;
  const players = state.seats.map((seat) => {
    const mine = app.seats.length === 1 && app.seats.includes(seat.colour) ? " (you)" : "";
    return `${playerName(seat.colour)}${seat.kind === "bot" ? " (computer)" : mine}`;
  });
  const list = players.length > 1 ? `${players.slice(0, -1).join(", ")} and ${players.at(-1)}` : players.join("");
  const title = $("game-title");
  const rules = `Sorry! · ${state.rules_name ?? state.rules}`;
  if (title.dataset.said !== `${rules}|${list}|${state.game}`) {
    title.dataset.said = `${rules}|${list}|${state.game}`;
    title.textContent = `${rules} · game ${state.game}`;
    title.setAttribute("aria-label", `${rules}: ${list}`);
  }
}

function showError(message) {
  app.pending = false;
  hintAnswered();
  app.lastError = message.message;
  const event = message.event ?? app.state?.event ?? 0;
  if (message.code === "stale" || message.code === "bad_event") {
    say("The game moved on: catching up…", true);
    app.refusal = { text: "The game moved on: catching up…", event: -1 }; // the next state shown clears it
    reconnect();
    return;
  }
  say(message.message);
  app.refusal = { text: message.message, event };
  if (app.state) render();
}
