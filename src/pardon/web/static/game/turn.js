/**
 * game/turn.js — the card in play, the turn banner, the players and the hand; how the page names
 * a player, and whether the decision is this page's.
 */

import { showCard } from "/static/board.js";
import { hostTokenOf, levelName, seatLabel, seatToComputer } from "/static/site.js";
import { $, app, cardLabel, name } from "/static/game/app.js";
import { forgetHalfMove, keepHalfMove } from "/static/game/board-choice.js";
import { movableInView, renderChoices } from "/static/game/choices.js";
import { winnerText } from "/static/game/game-over.js";
import { say } from "/static/game/words.js";

// --- rendering: the card, the turn, the players and the hand ----------------------------

/** The card in play, on the board and beside it: the card drawn, or in a hand game the card
 * chosen from the hand (nothing is drawn there: the hand is what a player plays from). */
export function renderCard() {
  const { card: drawn, card_text: drawnText, status } = app.state;
  const chosen = drawn ? null : handCard();
  const card = status === "waiting" ? null : (drawn ?? chosen); // no card is shown before everyone is here
  const text = chosen ? app.state.hand_texts?.[chosen] : drawnText;
  showCard(app.board, { card, text, pack: app.state.pack, discards: app.state.discards.count });
  const big = $("big-card");
  big.textContent = card ? cardLabel(card) : "—";
  big.classList.toggle("none", !card);
  big.classList.toggle("long", cardLabel(card ?? "").length > 2);
  $("card-name").textContent = card ? `Card: ${cardLabel(card)}` : noCardWords();
  $("card-text").textContent = card ? (text ?? "") : "";
}

/** The card chosen from this page's hand while the decision is its own, else null. */
export const handCard = () => (app.state.position.hands && myDecision() && !handHidden() ? app.card : null);

/** What the card panel says with no card in play: a hand game never draws one before it is played. */
function noCardWords() {
  const state = app.state;
  if (state.status !== "playing") return "";
  if (!state.position.hands) return state.pack != null ? "No card drawn" : "";
  if (myDecision() && !handHidden()) return "No card chosen yet";
  return state.decider ? `${playerName(state.decider)} chooses a card from their hand` : "";
}

export function myDecision() {
  const state = app.state;
  return state.status === "playing" && state.moves.length > 0 && app.seats.includes(state.decider);
}

export function seatOf(colour) {
  return app.state?.seats.find((seat) => seat.colour === colour) ?? { colour, kind: "human", name: name(colour) };
}

/** A player as the page names them: a name typed in for the seat, with its colour; else the colour. */
export function playerName(colour) {
  const seat = seatOf(colour);
  return seat.kind === "bot" ? name(colour) : seatLabel(seat);
}

/** While the game waits, the host (the browser that made it, which keeps its token) may let a
 * computer play the seat of a friend who cannot come; everyone else is told whom it waits for. */
function renderNoShows() {
  const box = $("no-shows");
  const state = app.state;
  const missing = state.status === "waiting" ? state.seats.filter((seat) => !seat.taken) : [];
  const hostToken = missing.length ? hostTokenOf(state.game) : null;
  box.hidden = !hostToken;
  if (!hostToken) return box.replaceChildren();
  const shown = [...box.querySelectorAll("button")].map((button) => button.dataset.colour).join();
  if (shown === missing.map((seat) => seat.colour).join()) return; // as drawn: keep the focus where it is
  box.replaceChildren(
    ...missing.map((seat) => {
      const button = document.createElement("button");
      button.type = "button";
      button.dataset.colour = seat.colour;
      button.textContent = `Computer plays ${playerName(seat.colour)} instead`;
      button.addEventListener("click", () => handOver(button, seat.colour, hostToken));
      return button;
    }),
  );
}

async function handOver(button, colour, hostToken) {
  button.disabled = true;
  try {
    await seatToComputer(app.state.game, colour, hostToken); // the server then sends everyone the new state
    say("");
  } catch (failure) {
    button.disabled = false;
    say(`${playerName(colour)}'s seat could not be handed to the computer: ${failure.message}`);
  }
}

/** The partnership of `colour` in a partners game (its colours), else null. */
export function teamOf(colour) {
  return app.state.teams?.find((team) => team.includes(colour)) ?? null;
}

export function renderTurn() {
  const state = app.state;
  const banner = $("turn");
  const passDevice = $("pass-device");
  passDevice.hidden = true;
  banner.classList.remove("yours");
  renderNoShows();
  if (state.status === "waiting") {
    const missing = state.seats.filter((seat) => !seat.taken).map((seat) => playerName(seat.colour)); // not who came and went
    banner.textContent = missing.length ? `Waiting for ${missing.join(", ")} to join` : "Starting…";
    return;
  }
  if (state.status === "finished" || !state.decider) {
    banner.textContent = state.winner ? winnerText(state.winner) : "The game is over";
    return;
  }
  const decider = state.decider;
  const dot = `<span class="dot ${decider}" aria-hidden="true"></span>`;
  const words = document.createElement("span");
  if (myDecision()) {
    banner.classList.add("yours");
    words.textContent = app.seats.length > 1 ? `${playerName(decider)} to play` : `Your turn (${name(decider)})`;
    if (app.seats.length > 1 && app.passTo === decider && !handHidden()) { // a hidden hand's gate says it itself
      passDevice.hidden = false;
      passDevice.textContent = `Pass the device to ${playerName(decider)}`;
    }
  } else {
    const seat = seatOf(decider);
    const who =
      seat.kind === "bot" ? ` (computer, ${levelName(seat.level)})` : seat.computer_playing ? " (computer while away)" : "";
    words.textContent = `${playerName(decider)}'s turn${who}`;
  }
  banner.innerHTML = dot;
  banner.append(" ", words);
  const team = teamOf(decider);
  if (team) banner.append(teamWords(decider, team));
}

/** In a partners game, which team is playing, and, once a player's own pawns are all Home, that
 * they play their partner's: a family at one screen sees at once whose pawns move. */
function teamWords(decider, team) {
  const partner = team.find((colour) => colour !== decider);
  const line = document.createElement("span");
  line.className = "team-line";
  const pawns = app.state.position.pawns[decider] ?? [];
  const allHome = pawns.length > 0 && pawns.every((where) => where === "home");
  line.textContent = allHome
    ? `All ${name(decider)}'s pawns are Home: ${name(decider)} plays ${name(partner)}'s pawns for the team.`
    : `Team ${team.map(name).join(" and ")}`;
  return line;
}

export function renderSeats() {
  const state = app.state;
  const list = $("seats");
  list.replaceChildren();
  for (const seat of state.seats) {
    const item = document.createElement("li");
    item.dataset.colour = seat.colour;
    if (seat.colour === state.decider && state.status === "playing") item.classList.add("deciding");
    const mine = app.seats.length === 1 && app.seats.includes(seat.colour) ? " (you)" : "";
    let status = seat.kind === "bot" ? "" : seat.connected ? "here" : "not here";
    if (state.status === "waiting" && seat.kind !== "bot") {
      const missing = seat.joining ? "someone is joining from the lobby" : seat.open ? "open to anyone in the lobby" : "invited, not joined yet";
      status = seat.connected ? "joined" : seat.taken ? "joined, not here now" : missing;
    }
    if (seat.computer_playing && seat.kind !== "bot") status = "away: the computer plays";
    if (seat.kind === "hotseat" && app.seats.length > 1) status = "on this screen";
    else if (seat.windows > 1) status += ` · open in ${seat.windows} windows`; // a second tab, or a link passed on
    const home = (state.position.pawns[seat.colour] ?? []).filter((where) => where === "home").length;
    item.innerHTML = `<span class="dot ${seat.colour}" aria-hidden="true"></span> <span></span><span class="status"></span>`;
    item.children[1].textContent = `${seatLabel(seat)}${mine} · ${home} Home`;
    item.children[2].textContent = status;
    list.appendChild(item);
  }
  const teams = state.teams;
  $("teams").hidden = !teams;
  $("teams").textContent = teams
    ? `Partners: ${teams.map((team) => team.map(name).join(" and ")).join(" against ")}. A card may move either partner's pawns.`
    : "";
  const doubling = state.position.doubling;
  $("stake").textContent = doubling
    ? `Stake ×${doubling.stake}${doubling.out.length ? ` · out: ${doubling.out.map(name).join(", ")}` : ""}`
    : "";
}

/** On a hot-seat screen of several players with hands of cards, whether the hand on show must
 * stay face down: between turns, and at a player's turn until they say they hold the device. */
export function handHidden() {
  const state = app.state;
  if (!state.position.hands || app.seats.length < 2) return false;
  return !myDecision() || app.revealed !== state.decider;
}

export function renderHand() {
  const hands = app.state.position.hands;
  const viewer = app.state.viewer;
  const hidden = handHidden();
  const hand = hands && viewer && !hidden ? hands[viewer] : null;
  if (hidden) app.card = null;
  $("hand-wrap").hidden = !hand || hand.length === 0;
  $("hand-title").textContent = app.seats.length > 1 && viewer ? `${playerName(viewer)}'s hand` : "Your hand";
  $("hand").setAttribute("aria-label", $("hand-title").textContent);
  const box = $("hand");
  box.replaceChildren();
  if (!hand) return;
  const playable = new Set(myDecision() ? app.state.moves.map((move) => move.card) : []);
  if (app.card && !playable.has(app.card)) app.card = null;
  if (playable.size === 1) app.card = [...playable][0];
  for (const card of hand) {
    const button = document.createElement("button");
    button.type = "button";
    button.textContent = cardLabel(card);
    button.classList.toggle("long", cardLabel(card).length > 2);
    button.dataset.card = card;
    button.setAttribute("aria-label", `play the ${cardLabel(card)}`);
    button.setAttribute("aria-pressed", String(app.card === card));
    button.disabled = !playable.has(card);
    button.addEventListener("click", () => {
      forgetHalfMove(); // a move begun with another card is given up
      app.card = card;
      app.selection = null;
      app.tokenChoice = null;
      renderHand();
      renderCard();
      renderChoices();
      keepHalfMove(); // the card stays chosen across a reload
      // the card chosen, the keyboard goes on to its pawns (or its button: a discard, a pass)
      const next = app.board.svg.querySelector(".pawn.movable[tabindex]") ?? $("choices").querySelector("button");
      next?.focus({ preventScroll: true });
      movableInView(); // the hand is under the board: on a phone held upright the pawns were scrolled away
    });
    box.appendChild(button);
  }
}
