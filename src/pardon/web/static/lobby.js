/**
 * lobby.js — public games waiting for players, refreshed every few seconds; Join takes an open
 * seat (POST /api/games/{id}/join) and goes to it.  The newest games first, a page at a time:
 * "Show more games" adds the next page: the `next` URL of the last page read (GET /api/lobby?after=CURSOR&limit=M),
 * which goes on after the last game shown however the lobby changes meanwhile.  Under them, the
 * public games being played (GET /api/lobby/playing), each with a Watch link: a public game needs
 * no token to watch.
 */
import { api, capitalise, chip, el, levelName, localPath, noteMyGame, say, store, stored } from "/static/site.js";

const REFRESH_MS = 3000;
const MOST = 100; // the most games the server lists in one answer
const $ = (id) => document.getElementById(id);
let joining = false;
let loadFailed = false;

/** The games listed: `games` those shown, newest first; `wanted` how many the visitor asked to see
 * (0: the server's first page; a page more with each "Show more games"); `total` how many the
 * lobby has in all, `pageSize` the server's page (null: a server that does not say); `next` the URL
 * of the page after those shown (null: none). */
const lobby = { games: [], wanted: 0, total: null, pageSize: null, next: null };

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
  if (seat.kind === "bot") return el("span", { class: "badge joined" }, "Computer");
  const mine = seat.joining && !seat.taken ? myJoinedLink(game.id, seat.colour) : null;
  if (mine) return el("a", { class: "button primary", href: mine }, "Go to your seat"); // the first way there was lost
  if (seat.taken) return el("span", { class: "badge joined" }, "Taken");
  // Made for someone (the host, or a friend invited) who has not come yet: not taken yet.
  return el("span", { class: "badge waiting" }, seat.joining ? "Being joined" : "Not here yet");
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

/** Tell a screen reader only what changed: the games added and those gone, not the whole list.
 * The games the visitor asked for ("Show more games") are `asked`, said by `said`, not as new. */
function announceChanges(games, { asked = new Set(), said } = {}) {
  const now = new Map(games.map((game) => [game.id, gameTitle(game)]));
  if (shownGames !== null) {
    const added = [...now].filter(([id]) => !shownGames.has(id) && !asked.has(id)).map(([, title]) => title);
    const gone = [...shownGames.keys()].filter((id) => !now.has(id)).length;
    const words = said ? [said] : [];
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

/** `games` with those of `more` not among them added at the end (a page follows the games shown,
 * so none should come twice; this keeps it so whatever a server answers). */
function withMore(games, more) {
  const ids = new Set(games.map((game) => game.id));
  return [...games, ...more.filter((game) => !ids.has(game.id))];
}

/** The lobby's page at `next` (a page's `next` URL), `limit` games; the server's first page without them. */
function lobbyPage(next, limit) {
  if (next === undefined) return api("/api/lobby");
  const url = new URL(next, location.origin);
  url.searchParams.set("limit", limit);
  return api(url.pathname + url.search);
}

/** The server's total, or null from a server that does not page its lobby. */
function totalOf(answer) {
  return Number.isInteger(answer.total) ? answer.total : null;
}

/** The newest `wanted` games (at least the server's first page): the first page, then the
 * pages after it while fewer are in hand and the lobby has more. */
async function loadGames(wanted) {
  const first = await lobbyPage();
  let games = first.games;
  let total = totalOf(first);
  const pageSize = total === null ? null : Number.isInteger(first.limit) ? first.limit : Math.max(first.games.length, 1);
  let next = total === null ? null : (first.next ?? null);
  while (next && games.length < wanted) {
    const page = await lobbyPage(next, Math.min(MOST, wanted - games.length));
    games = withMore(games, page.games);
    total = totalOf(page) ?? total;
    next = page.next ?? null;
  }
  return { games, total, pageSize, next };
}

/** Show `games` in `box` as a list of cards, each made by `make` and brought up to date by
 * `update` in place, keyed by game id (a focused button or link on a card stays); `empty()` (of
 * class `emptyClass`) where there are none. */
function showCards(box, games, { empty, emptyClass, make, update }) {
  box.setAttribute("aria-busy", "false");
  if (!games.length) {
    if (!box.querySelector(`.${emptyClass}`)) box.replaceChildren(empty());
    return;
  }
  let list = box.querySelector("ul.games");
  if (!list) {
    list = el("ul", { class: "games" });
    box.replaceChildren(list);
  }
  reconcile(list, games, {
    key: (game) => game.id,
    keyOf: (card) => card.dataset.game,
    make: (game) => {
      const card = make(game);
      update(card, game);
      return card;
    },
    update,
  });
}

/** Draw the games: the cards are updated in place, keyed by game id, so that a focused Join
 * button stays; then how many there are, and the button for more. */
function showGames(games) {
  showCards($("games"), games, { empty: emptyNotice, emptyClass: "empty", make: gameCard, update: updateCard });
  showCount();
}

/** How many games there are in all, and a button for the next page while some are not shown. */
function showCount() {
  const shown = lobby.games.length;
  const total = lobby.total ?? shown; // a server that does not say: those it sent
  const games = (count) => `${count} public ${count === 1 ? "game is" : "games are"} waiting for players`;
  const count = $("lobby-count");
  count.hidden = total === 0;
  setText(count, total > shown ? `${games(total)}; the newest ${shown} are shown.` : `${games(total)}.`);
  const left = lobby.total === null || !lobby.next ? 0 : lobby.total - shown; // no next page: nothing more
  const button = $("show-more");
  if (left > 0) setText(button, `Show more games (${left} more)`);
  button.hidden = left <= 0;
}

function watchTitle(game) {
  return `${game.rules_name ?? capitalise(game.rules)} game · ${game.seats.length} players · move ${game.event}`;
}

function watchCard(game) {
  return el(
    "li",
    { class: "panel game-card", dataset: { game: game.id } },
    el("h3", {}, el("span", { id: `watch-${game.id}` }), el("span", { class: "badge joined" }, "Playing")),
    el("ul", { class: "seats-list", "aria-label": "Players" }),
    el(
      "a",
      { class: "button primary", href: `/play/${encodeURIComponent(game.id)}`, "aria-describedby": `watch-${game.id}` },
      "Watch",
    ),
  );
}

function updateWatchCard(card, game) {
  setText(card.querySelector(`[id="watch-${game.id}"]`), watchTitle(game));
  reconcile(card.querySelector(".seats-list"), game.seats, {
    key: (seat) => seat.colour,
    keyOf: (line) => line.dataset.colour,
    make: (seat) => el("li", { dataset: { colour: seat.colour } }, chip(seat.colour), " ", el("span", { class: "who" }, player(seat))),
    update: (line, seat) => setText(line.querySelector(".who"), player(seat)), // no seat of a game under way is open
  });
}

/** The games being played, updated in place (a focused Watch link stays), and how many there are. */
function showPlaying(answer) {
  const games = answer.games;
  const empty = () => el("p", { class: "notice" }, "No public game is being played just now.");
  showCards($("playing"), games, { empty, emptyClass: "notice", make: watchCard, update: updateWatchCard });
  const count = $("playing-count");
  const total = Number.isInteger(answer.total) ? answer.total : games.length;
  const words = `${total} public ${total === 1 ? "game is" : "games are"} being played`;
  count.hidden = total === 0;
  setText(count, total > games.length ? `${words}; the newest ${games.length} are shown.` : `${words}.`);
}

/** The games to watch; a server without them (an older one) leaves the section saying so. */
async function loadPlaying() {
  try {
    showPlaying(await api("/api/lobby/playing"));
  } catch (error) {
    $("playing").setAttribute("aria-busy", "false");
    setText($("playing"), `The games being played could not be loaded: ${error.message}`);
  }
}

async function load() {
  if (joining) return;
  let answer;
  try {
    answer = await loadGames(lobby.wanted);
  } catch (error) {
    say($("lobby-error"), `The lobby could not be loaded: ${error.message}`);
    loadFailed = true;
    return;
  }
  if (joining) return; // a Join pressed while the lobby was being asked for
  if (loadFailed) say($("lobby-error"), ""); // a refusal to join stays until the next try
  loadFailed = false;
  Object.assign(lobby, answer);
  announceChanges(lobby.games);
  showGames(lobby.games);
  await loadPlaying();
  $("updated").textContent = `Updated ${new Date().toLocaleTimeString()}; refreshes by itself.`;
}

/** The next page, added below the games shown (those shown stay as they are). */
async function loadMore() {
  if (joining || lobby.total === null || !lobby.next) return;
  const button = $("show-more");
  const focused = document.activeElement === button;
  let answer;
  try {
    answer = await lobbyPage(lobby.next, lobby.pageSize);
  } catch (error) {
    say($("lobby-error"), `More games could not be loaded: ${error.message}`);
    return;
  }
  if (joining) return;
  const before = new Set(lobby.games.map((game) => game.id));
  lobby.games = withMore(lobby.games, answer.games);
  lobby.total = totalOf(answer) ?? lobby.total;
  lobby.next = answer.next ?? null;
  lobby.wanted = Math.max(lobby.wanted, lobby.games.length); // the refreshes keep them all listed
  const added = lobby.games.filter((game) => !before.has(game.id));
  const said = `${added.length} more ${added.length === 1 ? "game" : "games"} shown.`;
  announceChanges(lobby.games, { asked: new Set(added.map((game) => game.id)), said });
  showGames(lobby.games);
  if (added.length && (focused || button.hidden)) {
    // the keyboard goes on to the first game added, where reading goes on
    const card = $("games").querySelector(`[data-game="${CSS.escape(added[0].id)}"]`);
    card.tabIndex = -1;
    card.focus();
  }
}

/* One load at a time, in turn: a refresh asked for while one is under way is not asked twice. */
let loading = Promise.resolve();
let refreshing = false;

function refresh() {
  if (refreshing) return loading;
  refreshing = true;
  loading = loading.then(load).finally(() => {
    refreshing = false;
  });
  return loading;
}

function showMore() {
  loading = loading.then(loadMore);
  return loading;
}

/** The seat this browser joined from the lobby, kept until its player comes: a Back pressed or a
 * page closed on the way to it would otherwise leave it kept for nobody for the grace time. */
const joinedKey = (id) => `pardon.joined.${id}`;

function myJoinedLink(id, colour) {
  const token = stored(`pardon.token.${id}`);
  if (!token || stored(joinedKey(id)) !== colour) return null;
  return `/play/${encodeURIComponent(id)}#token=${encodeURIComponent(token)}`;
}

function keepJoined(id, colour, token) {
  store(`pardon.token.${id}`, token); // what the game page reads when opened without its link
  store(joinedKey(id), colour);
  noteMyGame(id); // and the home page offers it under "Your games in progress"
}

async function join(id, colour, button) {
  joining = true;
  const focused = document.activeElement === button; // disabling it takes the focus away
  button.disabled = true;
  say($("lobby-error"), "");
  loadFailed = false;
  try {
    const name = $("my-name").value.trim();
    store(NAME_KEY, name);
    const joined = await api(`/api/games/${id}/join`, { json: { seat: colour, name } });
    keepJoined(id, colour, joined.token);
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
/** The name this browser joins by, kept for the next visit. */
const NAME_KEY = "pardon.lobbyName";
$("my-name").value = stored(NAME_KEY) ?? "";
$("refresh").addEventListener("click", refresh);
$("show-more").addEventListener("click", showMore);
refresh();
setInterval(refresh, REFRESH_MS);
