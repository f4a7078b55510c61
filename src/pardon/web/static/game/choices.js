/**
 * game/choices.js — the choices of a decision: what the player is asked, the buttons, the list of
 * all legal moves, and passing automatically when no pawn can move.
 */

import { clearMarks, markPawns, markPlaces, placeKey, setFocusable } from "/static/board.js";
import { store, stored, typedName } from "/static/site.js";
import {
  $,
  app,
  AUTO_PASS_KEY,
  AUTO_PASS_MS,
  cardLabel,
  choose,
  gameId,
  name,
  PAWN_KINDS,
  TOKEN_KINDS,
  touch,
} from "/static/game/app.js";
import { halfMovePrompt, markSelection, resumeHalfMove } from "/static/game/board-choice.js";
import { askHint, cancelSelection, hintable, markHint, play } from "/static/game/play.js";
import { renderTokenChoice } from "/static/game/tokens.js";
import { handCard, handHidden, myDecision, playerName, renderCard, renderHand, seatOf } from "/static/game/turn.js";

// --- rendering: the choices -------------------------------------------------------------

/** The moves now open to a choice: all of them, or those of the card chosen from a hand. */
export function openMoves() {
  if (!myDecision()) return [];
  const moves = app.state.moves;
  if (app.state.position.hands && app.state.stage === "card") {
    return app.card ? moves.filter((move) => move.card === app.card) : [];
  }
  return moves;
}

/** The moves the list of all legal moves shows: those of the card in play; in a hand game before
 * a card is chosen, those of every card of the hand (each names its card), not none. */
export function listedMoves() {
  const open = openMoves();
  const state = app.state;
  return !open.length && myDecision() && state.position.hands && state.stage === "card" ? state.moves : open;
}

export const pawnActions = (move) => move.actions.filter((action) => PAWN_KINDS.has(action.kind));
export const tokenActions = (move) => move.actions.filter((action) => TOKEN_KINDS.has(action.kind));
export const landingPlace = (action) => placeKey(action.colour, action.landing ?? action.to);

/** Every way of making each move by its pawns: the move's own, then the others the server lists
 * (a split 7 with the outcome of another): {move, actions}. */
export function routesOf(moves) {
  const routes = [];
  for (const move of moves) {
    const own = pawnActions(move);
    if (!own.length) continue;
    routes.push({ move, actions: own, own: true });
    for (const way of move.ways ?? []) routes.push({ move, actions: way, own: false });
  }
  return routes;
}

function buttonLabel(move) {
  const kinds = move.actions.map((action) => action.kind);
  if (kinds.includes("double")) return "Double the stakes";
  if (kinds.includes("accept")) return "Accept the double";
  if (kinds.includes("drop")) return "Drop out";
  if (!move.actions.length && app.state.stage !== "card") return "Draw a card";
  if (move.pass) return app.state.position.hands ? `Discard the ${cardLabel(move.card)}` : "Pass";
  if (!move.actions.length) return "Draw a card";
  return moveText(move);
}

/** What the player is asked once a pawn is chosen: its places are marked on the board. */
export const pawnChosenPrompt = () => `Now ${choose().toLowerCase()} a marked place to move it there, or another pawn.`;

/** What the player is asked, in words, before any pawn is chosen. */
function promptFor(moves, routes, buttons) {
  const state = app.state;
  const kinds = new Set(moves.flatMap((move) => move.actions.map((action) => action.kind)));
  if (state.stage === "answering") {
    const stake = state.position.doubling?.stake ?? 1;
    const counts = stake > 1 ? `×${2 * stake} (×${stake} until now)` : "double";
    return `${name(state.position.turn)} doubled the stakes: accept, and every score of this game counts ${counts}; or drop out, and score nothing for this game.`;
  }
  if (state.stage !== "card") {
    const fire = routes.length ? `Your Fire pawn may first jump ahead to the next corner (${choose().toLowerCase()} it). ` : "";
    const double = kinds.has("double") ? "Double the stakes before you draw, or draw your card." : "Draw your card.";
    return fire + double;
  }
  const deadHand = state.position.hands && state.moves.every((move) => move.pass);
  if (deadHand && !app.card) return "No card in your hand can be used: choose one to discard, and draw another.";
  if (state.position.hands && !app.card) return "Choose a card from your hand.";
  if (deadHand && buttons.some((move) => move.pass)) {
    return `No card in your hand can be used: discard the ${cardLabel(app.card)}, or choose another card to discard.`;
  }
  if (routes.length) {
    const pass = buttons.some((move) => move.pass) ? ", or pass" : "";
    const back = otherCards() && !touch() ? " (Escape: choose another card)" : ""; // a tap on another card does it
    return `${choose()} a pawn to see where it can go${pass}.${back}`;
  }
  if (buttons.some((move) => move.pass)) {
    return `${noPawnCanUse(app.card ?? state.card)} Your turn is over: press Pass.`;
  }
  return "Your decision:";
}

/** That no pawn can use `card`, and why. */
const noPawnCanUse = (card) => `No pawn can use the ${cardLabel(card)}${becauseOf(card)}.`;

/** Why no pawn can use `card`, from the server's reasons for each pawn (" — …"), or "" if it gave none.
 * A family new to the game learns the rule that stops them, not only that they are stopped. */
export function becauseOf(card) {
  const reasons = Object.entries(app.state.why_not?.[card] ?? {});
  const moving = reasons.filter(([key]) => !key.endsWith(":home")); // a pawn Home is no news
  const said = alikeMerged([...new Set((moving.length ? moving : reasons).map(([, why]) => why))]);
  return said.length ? ` — ${said.join("; ")}` : "";
}

/** Reasons that differ only in one number said once, the numbers together: "it is 1 from Home,
 * not 3; it is 2 from Home, not 3" becomes "they are 1 and 2 from Home, not 3". */
export function alikeMerged(reasons) {
  const groups = new Map();
  for (const why of reasons) {
    const shape = why.replace(/\d+/g, "#");
    groups.set(shape, [...(groups.get(shape) ?? []), why]);
  }
  return [...groups.values()].flatMap((alike) => (alike.length === 1 ? alike : numbersTogether(alike)));
}

/** Reasons of one shape, grouped by all their numbers but one (the one that makes the fewest
 * groups: "from Home" where "not 3" is shared), each group said once. */
function numbersTogether(alike) {
  const numbers = alike.map((why) => why.match(/\d+/g));
  let best = null;
  for (let slot = 0; slot < numbers[0].length; slot++) {
    const parts = new Map();
    alike.forEach((_, index) => {
      const key = numbers[index].filter((__, other) => other !== slot).join();
      parts.set(key, [...(parts.get(key) ?? []), index]);
    });
    if (!best || parts.size < best.parts.size) best = { slot, parts };
  }
  return [...best.parts.values()].map((group) =>
    group.length === 1 ? alike[group[0]] : saidTogether(alike[group[0]], group.map((index) => numbers[index][best.slot]), best.slot),
  );
}

/** `why` with its number in `slot` replaced by all of `values` ("1 and 2"), said of several pawns. */
function saidTogether(why, values, slot) {
  const sorted = [...new Set(values.map(Number))].sort((a, b) => a - b);
  const listed = `${sorted.slice(0, -1).join(", ")} and ${sorted[sorted.length - 1]}`;
  let index = -1;
  const together = why.replace(/\d+/g, (number) => (++index === slot ? listed : number));
  return together.replace(/\bit is\b/, "they are").replace(/^a pawn needs\b/, "pawns need");
}

export function renderChoices() {
  const choices = $("choices");
  choices.replaceChildren();
  clearMarks(app.board);
  const moves = openMoves();
  const mine = myDecision();
  $("moves-panel").hidden = !mine;
  $("auto-pass-row").hidden = !app.seats.length || app.state.status !== "playing"; // a choice for the game under way
  $("auto-pass").checked = autoPassOn();
  if (!mine) {
    setFocusable(app.board, []);
    // someone with no seat is told at once that they watch, not only once they click a pawn
    $("prompt").textContent = app.seats.length || app.state.status === "finished" ? "" : "You are watching this game.";
    app.selection = null;
    app.tokenChoice = null;
    app.revealed = null; // the next player on this screen shows their hand when they hold the device
    renderMoveList([]);
    return;
  }
  if (handHidden()) return renderHandGate();
  if (app.tokenChoice) return renderTokenChoice();
  const routes = routesOf(moves);
  if (!app.selection) {
    app.selection = { chosen: [], candidates: routes, pawn: null };
    if (resumeHalfMove()) return renderMoveList(listedMoves());
  }
  const selection = app.selection;
  const buttons = moves.filter((move) => !pawnActions(move).length);
  if (selection.chosen.length) {
    $("prompt").textContent = halfMovePrompt();
  } else if (selection.pawn) {
    $("prompt").textContent = pawnChosenPrompt();
  } else {
    $("prompt").textContent = promptFor(moves, routes, buttons);
  }
  if (passByItself(moves)) return markSelection(); // the pawns say why none can move, not what the last card allowed
  if (!selection.chosen.length) {
    for (const move of buttons) {
      const button = choices.appendChild(moveButton(move, buttonLabel(move), move.pass ? "" : "primary"));
      if (buttonLabel(move) === "Draw a card") button.dataset.draw = "";
    }
  } else {
    choices.appendChild(cancelButton());
  }
  if (moves.length === 1 && !selection.chosen.length) {
    const only = moves[0];
    if (pawnActions(only).length) choices.prepend(moveButton(only, `Play: ${moveText(only)}`, "primary confirm"));
    const first = choices.querySelector("button");
    first?.focus({ preventScroll: true });
    inView(first); // the one thing to do: on a tablet held upright it sat below the screen
    app.focusedEvent = app.state.event;
  }
  if (app.hints && hintable() && !selection.chosen.length) {
    const hint = document.createElement("button");
    hint.type = "button";
    hint.id = "hint";
    markHint(hint, app.hintAsked === app.state.event);
    hint.addEventListener("click", askHint);
    choices.appendChild(hint);
  }
  markSelection();
  focusFirstPawn();
  renderMoveList(listedMoves());
}

/** A hot-seat turn with a hand of cards: nothing of the hand shows until its player has the device. */
function renderHandGate() {
  const who = playerName(app.state.decider);
  $("moves-panel").hidden = true;
  setFocusable(app.board, []);
  app.selection = null;
  app.tokenChoice = null;
  renderMoveList([]);
  $("prompt").textContent = `Pass the device to ${who}. ${who}: show your hand once nobody else can see the screen.`;
  const show = document.createElement("button");
  show.type = "button";
  show.id = "show-hand";
  show.className = "primary";
  show.textContent = `Show ${who}'s hand`;
  show.addEventListener("click", () => {
    app.revealed = app.state.decider;
    app.passTo = null; // they hold the device now
    app.focusedEvent = null;
    renderHand();
    renderCard();
    renderChoices();
    focusFirstCard();
    // the hand is what to tap next, unless its one card is chosen already: then its pawns are
    handCard() ? movableInView() : inView($("hand-wrap"));
  });
  $("choices").replaceChildren(show);
  const active = document.activeElement;
  if (!active || active === document.body || active.closest("#board, #choices, #hand, #turn")) show.focus({ preventScroll: true });
  inView(show);
}

/** Bring `element` on screen if it is off it (not at all if it is on screen already). */
export function inView(element) {
  if (offScreen(element)) element.scrollIntoView({ block: "nearest" });
}

function offScreen(element) {
  const box = element?.getBoundingClientRect();
  return Boolean(box) && (box.bottom > window.innerHeight || box.top < 0);
}

/** Bring the pawns that can move on screen, with the board round them, if any of them is off it. */
export function movableInView() {
  const movable = [...app.board.svg.querySelectorAll(".pawn.movable")];
  if (!movable.some(offScreen)) return;
  $("board").scrollIntoView({ block: "nearest" });
  inView(movable.find(offScreen)); // a board taller than the screen
}

/** In a hand game, the first card that can be played takes the focus at the start of a decision. */
function focusFirstCard() {
  if (!app.card) firstPlayableCard()?.focus({ preventScroll: true });
}

const firstPlayableCard = () => $("hand").querySelector("button:not([disabled])");

/** At the start of a decision with pawns to choose from, the focus goes to the first of them:
 * a keyboard player presses Enter at once rather than Tab through the page. */
function focusFirstPawn() {
  if (app.focusedEvent === app.state.event || !app.selection || app.selection.chosen.length || app.selection.pawn) return;
  const active = document.activeElement;
  const elsewhere = active && active !== document.body && !active.closest("#board, #choices, #game-over, #turn");
  if (elsewhere) return; // the player is busy with something else on the page: leave them there
  // before the draw, the Draw button comes first: the Fire pawn's jump is optional, a Tab away
  const draw = app.state.stage !== "card" ? $("choices").querySelector("button[data-draw]") : null;
  const pawn = app.board.svg.querySelector(".pawn.movable[tabindex]");
  const card = app.state.position.hands && !app.card ? firstPlayableCard() : null;
  if (!pawn && !card && !draw) return;
  app.focusedEvent = app.state.event;
  (draw ?? card ?? pawn).focus({ preventScroll: true }); // a hand game begins with the choice of a card
  // the page may still be scrolled down to the last turn's button: the pawns to tap come back in sight
  if (!draw && !card) movableInView();
}

/** Whether a card of a hand is chosen and another could be chosen instead (on this player's turn). */
export const otherCards = () =>
  Boolean(app.state?.position.hands && app.card && myDecision() && app.state.stage === "card") &&
  new Set(app.state.moves.map((move) => move.card)).size > 1;

// --- passing automatically ------------------------------------------------------------------

/** Whether this page passes by itself when no pawn can move: the player's choice, else on, in
 * every kind of game (a lone Pass is no choice: a hot-seat table clicked it a fifth of its turns). */
function autoPassOn() {
  const chosen = app.autoPass ?? stored(AUTO_PASS_KEY); // the choice made on this page stands, stored or not
  return chosen !== "off";
}

/** The decisions this page passed by itself, kept for the game in this tab: a reload's log says so too. */
function autoPassedDecisions() {
  try {
    const decisions = JSON.parse(stored(`pardon.autoPassed.${gameId}`, { session: true }) ?? "[]");
    return Array.isArray(decisions) ? decisions : [];
  } catch {
    return []; // not what this page wrote
  }
}

/** With storage off, the log says it now, and forgets it on a reload. */
export function rememberAutoPass(decision) {
  store(`pardon.autoPassed.${gameId}`, JSON.stringify([...autoPassedDecisions(), decision]), { session: true });
}

/** A decision's line in the log; one this page passed by itself says so. */
export function logText(text, decision, colour) {
  const named = byName(text, colour);
  return autoPassedDecisions().includes(decision) ? `${named} — passed automatically` : named;
}

/** A decision's words with its player named as the page names them ("Papa (Yellow) plays a 3"),
 * where a name was given for the seat; the server's words name the colour alone. */
export function byName(text, colour) {
  if (!colour || !app.state) return text;
  const plain = name(colour);
  const named = playerName(colour);
  const led = named !== plain && text.startsWith(`${plain} `) ? `${named}${text.slice(plain.length)}` : text;
  const called = (written) => typedName(seatOf(written.toLowerCase())) || written;
  return led.replace(WINNERS, (_, first, second, verb) => `${[first, second].filter(Boolean).map(called).join(" and ")} ${verb}`);
}

/** A move's words, its player named as the page names them. */
export const moveText = (move) => byName(move.text, app.state.decider);

/** Who wins, as the server's words say it ("Yellow wins", "Red and Yellow win"). */
const WINNERS = /\b(Red|Blue|Yellow|Green)(?: and (Red|Blue|Yellow|Green))? (wins?)\b/;

export function setAutoPass(on) {
  app.autoPass = on ? "on" : "off";
  store(AUTO_PASS_KEY, app.autoPass); // with storage off, kept for this page only
  if (!app.state) return;
  if (!on && app.autoPassed === app.state.event && app.pending) {
    app.autoPassed = null; // a pass about to happen by itself waits for the player after all
    app.pending = false;
  }
  renderChoices();
}

/** A card that no pawn can use, with passing automatically on: say so, pass after a moment. */
function passByItself(moves) {
  const state = app.state;
  const only = moves.length === 1 ? moves[0] : null;
  if (!only?.pass || state.stage !== "card" || !autoPassOn()) return false;
  if (new Set(state.moves.map((move) => move.card)).size > 1) return false; // which card to discard is a choice
  $("prompt").textContent = `${noPawnCanUse(only.card ?? state.card)} Your turn is over: passing automatically.`;
  app.pending = true; // nothing else can be done meanwhile (the same state shown again stays so)
  if (app.autoPassed === state.event) return true;
  app.autoPassed = state.event;
  const event = state.event;
  app.autoPassTimer = setTimeout(() => {
    if (app.state.event !== event || !myDecision()) return;
    app.pending = false;
    if (!autoPassOn()) {
      // turned off meanwhile: the player passes with the button
      app.autoPassed = null;
      renderChoices();
      return;
    }
    play(only);
  }, AUTO_PASS_MS);
  return true;
}

export function moveButton(move, label, cls) {
  const button = document.createElement("button");
  button.type = "button";
  button.textContent = label;
  button.className = cls;
  button.title = moveText(move);
  button.dataset.move = move.move;
  button.addEventListener("click", () => play(move));
  return button;
}

export function cancelButton() {
  const cancel = document.createElement("button");
  cancel.type = "button";
  cancel.textContent = "Cancel";
  cancel.addEventListener("click", cancelSelection);
  return cancel;
}

export function renderMoveList(moves) {
  const list = $("moves");
  list.replaceChildren();
  $("move-count").textContent = String(moves.length);
  const chances = app.hinted && app.hinted.event === app.state.event ? app.hinted.chances : null;
  const ordered = chances ? [...moves].sort((a, b) => (chances[b.move] ?? 0) - (chances[a.move] ?? 0)) : moves;
  for (const move of ordered) {
    const item = document.createElement("li");
    const button = document.createElement("button");
    button.type = "button";
    button.textContent = moveText(move);
    button.dataset.move = move.move;
    if (chances && move.move in chances) {
      button.classList.add("hinted");
      button.dataset.chance = `${Math.round(chances[move.move] * 100)}% to win`;
    }
    button.addEventListener("click", () => play(move));
    button.addEventListener("focus", () => preview(move));
    button.addEventListener("mouseenter", () => preview(move));
    button.addEventListener("blur", markSelection);
    button.addEventListener("mouseleave", markSelection);
    item.appendChild(button);
    list.appendChild(item);
  }
}

export function preview(move) {
  clearMarks(app.board);
  const actions = pawnActions(move);
  markPawns(app.board, actions.map((action) => action.pawn), "selected");
  markPlaces(app.board, actions.map((action) => ({ key: landingPlace(action), label: moveText(move), cls: "preview" })));
}
