/**
 * lobby.js — public games waiting for players, refreshed every few seconds; Join takes an open
 * seat (POST /api/games/{id}/join) and goes to it.
 */
import { api, capitalise, chip, el, levelName, localPath, say } from "/static/site.js";

const REFRESH_MS = 3000;
const $ = (id) => document.getElementById(id);
let joining = false;
let loadFailed = false;

/** Who plays a seat: a seat joined whose player has not come yet is offered again if they do not come soon. */
function player(seat) {
  if (seat.kind === "bot") return `computer (${levelName(seat.level)})`;
  if (seat.open) return "open seat";
  return seat.joining ? "someone is joining" : seat.name;
}

/** The seat's action: a Join button for an open seat, else a badge saying who has it. */
function seatAction(game, seat) {
  if (seat.open) {
    return el(
      "button",
      {
        type: "button",
        class: "primary",
        "aria-describedby": `title-${game.id}`, // the visible words are the name; the game describes it
        onclick: (event) => join(game.id, seat.colour, event.currentTarget),
      },
      `Join as ${capitalise(seat.colour)}`,
    );
  }
  const badge = seat.kind === "bot" ? "Computer" : seat.joining ? "Being joined" : "Taken";
  return el("span", { class: `badge ${seat.joining ? "waiting" : "joined"}` }, badge);
}

function seatLine(game, seat) {
  return el(
    "li",
    { dataset: { colour: seat.colour } },
    el("span", {}, chip(seat.colour), " ", el("span", { class: "who" }, player(seat))),
    seatAction(game, seat),
  );
}

/** Bring a seat's row up to date in place: a Join button still offered is the same button
 * (keyboard focus stays on it); only a row whose action changed gets a new one. */
function updateSeatLine(line, game, seat) {
  const who = line.querySelector(".who");
  if (who.textContent !== player(seat)) who.textContent = player(seat);
  const action = line.lastElementChild;
  const fresh = seatAction(game, seat);
  const same = action.tagName === fresh.tagName && action.className === fresh.className && action.textContent === fresh.textContent;
  if (!same) action.replaceWith(fresh);
}

function gameTitle(game) {
  return `${game.rules_name ?? capitalise(game.rules)} game · ${game.seats.length} players`;
}

function gameCard(game) {
  return el(
    "li",
    { class: "panel game-card", dataset: { game: game.id } },
    el("h2", {}, el("span", { id: `title-${game.id}` }), el("span", { class: "badge open" })),
    el("ul", { class: "seats-list", "aria-label": "Seats" }),
    el("p", { class: "hint" }),
  );
}

function setText(node, text) {
  if (node.textContent !== text) node.textContent = text;
}

/** Bring a game's card up to date in place, its seats keyed by colour. */
function updateCard(card, game) {
  setText(card.querySelector(`[id="title-${game.id}"]`), gameTitle(game));
  setText(card.querySelector(".badge.open"), `${game.seats.filter((seat) => seat.open).length} open`);
  setText(card.querySelector(".hint"), game.hints ? "Hints on request" : "No hints");
  reconcile(card.querySelector(".seats-list"), game.seats, {
    key: (seat) => seat.colour,
    keyOf: (line) => line.dataset.colour,
    make: (seat) => seatLine(game, seat),
    update: (line, seat) => updateSeatLine(line, game, seat),
  });
}

/** Make `list` hold one child per item, in the items' order, matched by key: a child whose key
 * is gone is removed, one still there is updated in place (so the keyboard focus stays on it),
 * and one for a new item is made. */
function reconcile(list, items, { key, keyOf, make, update }) {
  const keys = new Set(items.map(key));
  for (const child of [...list.children]) if (!keys.has(keyOf(child))) child.remove();
  const children = new Map([...list.children].map((child) => [keyOf(child), child]));
  inOrder(
    list,
    items.map((item) => {
      const child = children.get(key(item));
      if (!child) return make(item);
      update(child, item);
      return child;
    }),
  );
}

/** Put `children` in `list` in this order, moving only what is out of place (moving an element
 * out of the document and back would take the keyboard focus off it). */
function inOrder(list, children) {
  let previous = null;
  for (const child of children) {
    const wanted = previous ? previous.nextElementSibling : list.firstElementChild;
    if (wanted !== child) list.insertBefore(child, wanted);
    previous = child;
  }
}

let shownGames = null; // the ids and titles of the games shown: null before the first answer

/** Tell a screen reader only what changed: the games added and those gone, not the whole list. */
function announceChanges(games) {
  const now = new Map(games.map((game) => [game.id, gameTitle(game)]));
  if (shownGames !== null) {
    const added = [...now].filter(([id]) => !shownGames.has(id)).map(([, title]) => title);
    const gone = [...shownGames.keys()].filter((id) => !now.has(id)).length;
    const words = [];
    if (added.length) words.push(`New ${added.length === 1 ? "game" : "games"}: ${added.join("; ")}.`);
    if (gone) words.push(`${gone} ${gone === 1 ? "game has" : "games have"} gone from the lobby.`);
    if (words.length) $("lobby-news").textContent = words.join(" ");
  }
  shownGames = now;
}

function emptyNotice() {
  return el(
    "div",
    { class: "panel empty" },
    el("h2", {}, "No public games are waiting"),
    el("p", {}, "Create one and tick “Public”, or play the computer while you wait."),
    el("a", { class: "button primary", href: "/" }, "Start a game"),
  );
}

async function refresh() {
  if (joining) return;
  let lobby;
  try {
    lobby = await api("/api/lobby");
  } catch (error) {
    say($("lobby-error"), `The lobby could not be loaded: ${error.message}`);
    loadFailed = true;
    return;
  }
  if (joining) return; // a Join pressed while the lobby was being asked for
  if (loadFailed) say($("lobby-error"), ""); // a refusal to join stays until the next try
  loadFailed = false;
  const games = $("games");
  games.setAttribute("aria-busy", "false");
  announceChanges(lobby.games);
  if (!lobby.games.length) {
    if (!games.querySelector(".empty")) games.replaceChildren(emptyNotice());
  } else {
    // The cards are updated in place, keyed by game id, so that a focused Join button stays.
    let list = games.querySelector("ul.games");
    if (!list) {
      list = el("ul", { class: "games" });
      games.replaceChildren(list);
    }
    reconcile(list, lobby.games, {
      key: (game) => game.id,
      keyOf: (card) => card.dataset.game,
      make: (game) => {
        const card = gameCard(game);
        updateCard(card, game);
        return card;
      },
      update: updateCard,
    });
  }
  $("updated").textContent = `Updated ${new Date().toLocaleTimeString()}; refreshes by itself.`;
}

async function join(id, colour, button) {
  joining = true;
  const focused = document.activeElement === button; // disabling it takes the focus away
  button.disabled = true;
  say($("lobby-error"), "");
  loadFailed = false;
  try {
    const joined = await api(`/api/games/${id}/join`, { json: { seat: colour } });
    location.assign(localPath(joined.link));
  } catch (error) {
    say($("lobby-error"), `Could not join as ${capitalise(colour)}: ${error.message}`);
    button.disabled = false;
    if (focused) button.focus(); // still the seat's button: the cards are updated in place
    joining = false;
    refresh();
  }
}

window.addEventListener("pageshow", (event) => {
  if (!event.persisted || !joining) return;
  joining = false; // back from the seat joined (the back-forward cache): the lobby as it is now, its buttons live
  refresh();
});
$("refresh").addEventListener("click", refresh);
refresh();
setInterval(refresh, REFRESH_MS);
