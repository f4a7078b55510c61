/**
 * home.js — the first page: play the computer (defaults chosen: one click on the big button),
 * a hot-seat game on this screen, or an online game with invite links and live seat status.
 * Rule-free: the presets, their player counts and the levels come from the server.
 */
import {
  COLOURS,
  api,
  capitalise,
  chip,
  copyField,
  el,
  forget,
  forgetMyGame,
  levelName,
  localPath,
  myGames,
  noteMyGame,
  ONLINE_GAME_KEY as ONLINE_KEY,
  savedOnlineGame,
  say,
  seatLabel,
  seatToComputer,
  store,
} from "/static/site.js";

/** The usual colours for each number of players; a chosen colour the usual ones lack replaces one. */
const USUAL = { 1: ["red"], 2: ["red", "yellow"], 3: ["red", "blue", "yellow"], 4: ["red", "blue", "yellow", "green"] };
const OPPOSITE = { red: "yellow", yellow: "red", blue: "green", green: "blue" };
const POLL_MS = 1500;

const page = {
  presets: [],
  levels: [],
  defaultLevel: "expectimax",
  preset: null,
  quickPlayers: 4,
  quickColour: "red",
  hotseatCount: 2,
  onlineCount: 2,
  poll: null,
  doublingAbout: null, // what the page says of doubling where it can be played
  // What was chosen and typed in each seat row ({kind, name, level}), by colour: a row drawn
  // again (another preset, another number of seats, another colour) gets it back, and a seat
  // taken away and added again too.
  seatChoices: { hotseat: new Map(), online: new Map() },
};

const $ = (id) => document.getElementById(id);

/** The buttons disabled while their game is created: given back when this page is shown again
 * from the back-forward cache (Back from the game), as it was left. */
const creating = new Set();

function busy(button) {
  button.disabled = true;
  creating.add(button);
}

function free(button) {
  button.disabled = false;
  creating.delete(button);
}

window.addEventListener("pageshow", (event) => {
  if (!event.persisted) return;
  for (const button of creating) button.disabled = false;
  creating.clear();
});

function colourOrder(colours) {
  return [...colours].sort((a, b) => COLOURS.indexOf(a) - COLOURS.indexOf(b));
}

/** The colours of a game of `count` players in which the first player wants `mine`. */
export function coloursFor(count, mine) {
  const usual = USUAL[count];
  if (!mine || usual.includes(mine)) return usual;
  if (count === 2) return colourOrder([mine, OPPOSITE[mine]]);
  return colourOrder([mine, ...usual.slice(0, count - 1)]);
}

/** A row of radio buttons styled as a segmented control.  Drawn again with the same choices
 * (the change of one of them redraws the form) it is left as it is, only the one checked set,
 * so that the radio the arrow keys moved to keeps the keyboard focus. */
function segmented(container, name, options, chosen, onChange) {
  const inputs = [...container.querySelectorAll(`input[type=radio][name="${name}"]`)];
  const same =
    inputs.length === options.length &&
    options.every(({ value, label }, index) => inputs[index].value === String(value) && inputs[index].dataset.label === label);
  const hadFocus = container.contains(document.activeElement);
  if (same) {
    for (const input of inputs) input.checked = input.value === String(chosen);
  } else {
    container.replaceChildren(
      ...options.map(({ value, label, content }) => {
        const id = `${name}-${value}`;
        const input = el("input", { type: "radio", name, id, value, checked: String(value) === String(chosen), dataset: { label } });
        return el("span", { class: "segment" }, input, el("label", { for: id }, content ?? label));
      }),
    );
    // Focus on a radio of the group redrawn goes back to the one checked, not to the page.
    if (hadFocus) (container.querySelector("input:checked") ?? container.querySelector("input"))?.focus();
  }
  container.onchange = (event) => {
    const option = options.find(({ value }) => event.target.name === name && String(value) === event.target.value);
    if (option) onChange(option.value);
  };
}

function levelOptions(select, chosen) {
  select.replaceChildren(
    ...page.levels.map((level) =>
      el("option", { value: level.name, selected: level.name === chosen }, levelName(level.name)),
    ),
  );
}

function levelAbout(name) {
  const level = page.levels.find((item) => item.name === name);
  if (!level) return "";
  const about = `${levelName(level.name)}: ${level.description}.`;
  return level.default ? `${about} Recommended.` : about;
}

/** Doubling (Point Scoring Sorry!) can be played by two or more, in a game not scored otherwise:
 * it brings the 1939 points with it, which would replace a preset's own (Adult's 1992 points). */
function canDouble(players) {
  return Math.max(...page.preset.players) > 1 && players !== 1 && !page.preset.points;
}

/** What the Doubling box says: what doubling is, or why this game cannot have it. */
function doublingAbout(players) {
  page.doublingAbout ??= $("doubling-about").textContent; // the page's own words, before any change
  if (page.preset.points) {
    return `— not with ${capitalise(page.preset.name)} rules: doubling goes with the 1939 points, and these games are scored by their own points.`;
  }
  if (!canDouble(players)) return "— not in the solo challenge: doubling needs two or more players.";
  return page.doublingAbout;
}

/** The rules options a family may add to a preset: each shown where the preset lacks it. */
const RULE_OPTIONS = [
  {
    id: "opt-points",
    text: "scoring=1939",
    name: "Point Scoring",
    label: "Point Scoring Sorry! (1939): the game is scored in points",
    shown: (preset) => !preset.points && Math.max(...preset.players) > 1,
  },
  {
    id: "opt-leave-start",
    text: "leave_start=forward-count",
    name: "any forward card leaves Start",
    label: "Any forward card brings a pawn out of Start (2013)",
    shown: (preset) => preset.leave_start === "circle",
  },
  {
    id: "opt-sorry-4",
    text: "sorry_forward_4=true",
    name: "Sorry! or forward 4",
    label: "A Sorry! may instead move one of your pawns forward 4 (2013)",
    shown: (preset) => !preset.sorry_forward_4,
  },
  {
    id: "opt-diamonds",
    text: "board=diamonds",
    name: "the older board's diamonds",
    label: "The older board, with a diamond on each short slide (as drawn in 1939; play is the same)",
    shown: (preset) => preset.board !== "diamonds",
  },
  {
    id: "opt-split-any",
    text: "partner_split=any",
    name: "a 7 split among any team pawns",
    label: "Partners may split a 7 among any number of the team's pawns (1992 sheet)",
    shown: (preset) => preset.partners,
  },
];

/** The rules options ticked (and offered for this preset), for a game of `players`. */
function chosenOptions(players) {
  const chosen = RULE_OPTIONS.filter((option) => option.shown(page.preset) && $(option.id)?.checked);
  if (players === 1) return chosen.filter((option) => option.id !== "opt-points");
  return chosen;
}

/** The rules of a new game: the preset, with the options ticked and doubling if it is (and can be played). */
function rulesText(players) {
  const doubling = $("doubling").checked && canDouble(players);
  const options = chosenOptions(players).map((option) => option.text);
  if (doubling) options.push(...(options.includes("scoring=1939") ? [] : ["scoring=1939"]), "doubling=true");
  return options.length ? `${page.preset.name}(${options.join(",")})` : page.preset.name;
}

function rulesName() {
  const names = chosenOptions(2).map((option) => option.name);
  if ($("doubling").checked && canDouble(2)) names.push("doubling");
  return `${capitalise(page.preset.name)}${names.length ? ` with ${names.join(", ")}` : ""}`;
}

function renderRuleOptions() {
  const ticked = new Set(RULE_OPTIONS.filter((option) => $(option.id)?.checked).map((option) => option.id));
  $("rule-options").replaceChildren(
    ...RULE_OPTIONS.filter((option) => option.shown(page.preset)).map((option) => {
      const box = el("input", { type: "checkbox", id: option.id, checked: ticked.has(option.id) });
      box.addEventListener("change", () => {
        showRulesName();
        renderSummary();
      });
      return el("label", { class: "check" }, box, el("span", {}, option.label));
    }),
  );
}

// --- play against the computer ------------------------------------------------------------

function renderQuick() {
  const preset = page.preset;
  if (!preset.players.includes(page.quickPlayers)) page.quickPlayers = Math.max(...preset.players);
  $("preset-about").textContent = `${capitalise(preset.description)}.`;
  segmented(
    $("players"),
    "players",
    preset.players.map((count) => ({ value: count, label: count === 1 ? "1 (solo)" : String(count) })),
    page.quickPlayers,
    (count) => {
      page.quickPlayers = count;
      renderQuick();
    },
  );
  segmented(
    $("colour"),
    "colour",
    COLOURS.map((colour) => ({ value: colour, label: capitalise(colour), content: chip(colour) })),
    page.quickColour,
    (colour) => {
      moveSeatChoices("hotseat", page.hotseatCount, page.quickColour, colour);
      moveSeatChoices("online", page.onlineCount, page.quickColour, colour);
      page.quickColour = colour;
      renderSummary();
      showMyColour();
      renderHotseat();
      renderOnline();
    },
  );
  const alone = page.quickPlayers === 1;
  $("level").disabled = alone;
  $("doubling").disabled = !canDouble(page.quickPlayers);
  $("doubling-about").textContent = doublingAbout(page.quickPlayers);
  $("level-about").textContent = alone ? "The solo challenge has no computer players." : levelAbout($("level").value);
  $("play").textContent = alone ? "Play the solo challenge" : "Play against the computer";
  renderSummary();
}

function renderSummary() {
  const count = page.quickPlayers;
  const others = count - 1;
  const level = levelName($("level").value);
  const partner = OPPOSITE[page.quickColour];
  const against =
    others === 0
      ? "alone"
      : page.preset.partners
        ? `with ${capitalise(partner)} (computer, ${level}) as your partner, against 2 computer players`
        : `against ${others} computer player${others > 1 ? "s" : ""} (${level})`;
  const rules = rulesName();
  $("quick-summary").textContent = `${rules} rules, you play ${capitalise(page.quickColour)} ${against}.`.replace(
    / with (.*) rules,/,
    " rules with $1,",
  );
}

async function startQuick(event) {
  event.preventDefault();
  const button = $("play");
  say($("quick-error"), "");
  busy(button);
  try {
    const colours = coloursFor(page.quickPlayers, page.quickColour);
    const level = $("level").value;
    const seats = colours.map((colour) =>
      colour === page.quickColour ? { colour, kind: "human" } : { colour, kind: "bot", level },
    );
    const rules = rulesText(page.quickPlayers);
    const game = await api("/api/games", { json: { rules, seats, hints: page.preset.hints } });
    const mine = game.seats.find((seat) => seat.colour === page.quickColour);
    location.assign(`/play/${game.id}#token=${mine.token}`);
  } catch (error) {
    say($("quick-error"), `The game could not be created: ${error.message}`);
    free(button);
  }
}

// --- seats of the hot-seat and online games ------------------------------------------------

function countOptions(container, name, chosen, onChange) {
  const counts = page.preset.players.filter((count) => count >= 2);
  const choices = counts.length ? counts : page.preset.players;
  if (!choices.includes(chosen)) chosen = choices.includes(2) ? 2 : choices[0];
  segmented(
    container,
    name,
    choices.map((count) => ({ value: count, label: String(count) })),
    chosen,
    onChange,
  );
  return chosen;
}

/** The colours of the seat rows of a game of `count`, in the order of play: the creator's row
 * has the colour chosen under "Your colour", the others the usual colours without it, as in a
 * game against the computer (coloursFor). */
function rowColours(count) {
  return coloursFor(count, page.quickColour);
}

/** The creator's colour changes from `from` to `to`: what was chosen and typed in the rows of a
 * form of `count` seats goes with the people, not the colours.  The creator's row moves to `to`;
 * every other row keeps its colour if the game still has it, else takes a colour left free (the
 * one the creator gave up, say), so that no name typed is lost. */
function moveSeatChoices(prefix, count, from, to) {
  if (from === to) return;
  const memory = page.seatChoices[prefix];
  const before = coloursFor(count, from).filter((colour) => colour !== from);
  const after = coloursFor(count, to).filter((colour) => colour !== to);
  const free = after.filter((colour) => !before.includes(colour));
  const moves = new Map([[from, to], ...before.map((colour) => [colour, after.includes(colour) ? colour : free.shift()])]);
  // The rows not shown (a smaller game now) go along too, each to a colour of its own, so that
  // nothing typed in them is written over: they keep their colour where it is left free.
  const taken = new Set(moves.values());
  const unused = COLOURS.filter((colour) => !taken.has(colour));
  const hidden = COLOURS.filter((colour) => !moves.has(colour));
  for (const colour of hidden.filter((colour) => unused.includes(colour))) moves.set(colour, colour);
  const left = unused.filter((colour) => ![...moves.values()].includes(colour));
  for (const colour of hidden.filter((colour) => !moves.has(colour))) moves.set(colour, left.shift());
  const kept = new Map(COLOURS.map((colour) => [colour, memory.get(colour)]));
  memory.clear();
  for (const [colour, target] of moves) if (kept.get(colour)) memory.set(target, kept.get(colour));
}

/** One seat's row: its colour, who plays it, a name, and a level for a computer.  What was chosen
 * and typed in the row of this colour before (page.seatChoices) is given back. */
function seatRow(prefix, colour, kinds, defaultKind, namePlaceholder, { mine = false } = {}) {
  const memory = page.seatChoices[prefix];
  const kept = memory.get(colour) ?? {};
  const chosenKind = kinds.some(([value]) => value === kept.kind) ? kept.kind : defaultKind;
  const chosenLevel = page.levels.some((level) => level.name === kept.level) ? kept.level : page.defaultLevel;
  const kindId = `${prefix}-${colour}-kind`;
  const nameId = `${prefix}-${colour}-name`;
  const levelId = `${prefix}-${colour}-level`;
  const noteId = `${prefix}-${colour}-open`;
  const kind = el(
    "select",
    { id: kindId, "aria-label": `Who plays ${capitalise(colour)}` },
    ...kinds.map(([value, label]) => el("option", { value, selected: value === chosenKind }, label)),
  );
  const name = el("input", {
    id: nameId,
    type: "text",
    maxlength: 40,
    placeholder: namePlaceholder,
    autocomplete: "off",
    "aria-label": `${capitalise(colour)}'s name`,
  });
  name.value = kept.name ?? "";
  const level = el("select", { id: levelId, "aria-label": `${capitalise(colour)}'s computer level` });
  levelOptions(level, chosenLevel);
  // A friend's seat of a public game is an open seat: whoever joins it names it, not this form.
  const note = el("span", { class: "hint open-note", id: noteId }, "Open to anyone in the lobby, under their own name");
  const row = el("div", { class: "seat-row", dataset: { colour, ...(mine ? { mine: "true" } : {}) } }, chip(colour), kind, name, level, note);
  const friend = kind.querySelector("option[value=human]");
  const update = () => {
    const bot = kind.value === "bot";
    const open = isOpenSeat(prefix, mine, kind.value);
    if (friend) friend.textContent = isOpenSeat(prefix, mine, "human") ? "Open seat (lobby)" : "Friend (link)";
    name.hidden = bot || open; // the name typed stays, for the seat made a friend's again
    level.hidden = !bot;
    note.hidden = !open;
    if (open) kind.setAttribute("aria-describedby", noteId);
    else kind.removeAttribute("aria-describedby");
  };
  const remember = () => memory.set(colour, { kind: kind.value, name: name.value, level: level.value });
  kind.addEventListener("change", update);
  row.addEventListener("change", remember);
  row.addEventListener("input", remember);
  row.update = update;
  update();
  return row;
}

/** Whether a seat of this kind is left open to anyone: a friend's seat of a public online game. */
function isOpenSeat(prefix, mine, kind) {
  return prefix === "online" && !mine && kind === "human" && $("online-public").checked;
}

function renderHotseat() {
  page.hotseatCount = countOptions($("hotseat-count"), "hotseat-count", page.hotseatCount, (count) => {
    page.hotseatCount = count;
    renderHotseat();
  });
  const kinds = [
    ["hotseat", "Player here"],
    ["bot", "Computer"],
  ];
  const colours = rowColours(page.hotseatCount);
  const others = colours.filter((colour) => colour !== page.quickColour);
  $("hotseat-seats").replaceChildren(
    ...colours.map((colour) => {
      const mine = colour === page.quickColour;
      const number = mine ? 1 : others.indexOf(colour) + 2; // you and the next are at the screen; the computer plays the rest
      return seatRow("hotseat", colour, kinds, number <= 2 ? "hotseat" : "bot", mine ? "Your name" : `Player ${number}`, { mine });
    }),
  );
  hintsOption($("hotseat-hints"));
}

function renderOnline() {
  page.onlineCount = countOptions($("online-count"), "online-count", page.onlineCount, (count) => {
    page.onlineCount = count;
    renderOnline();
  });
  const rows = rowColours(page.onlineCount).map((colour) =>
    colour === page.quickColour
      ? seatRow("online", colour, [["me", "You"]], "me", "Your name", { mine: true })
      : seatRow(
          "online",
          colour,
          [
            ["human", "Friend (link)"],
            ["bot", "Computer"],
          ],
          "human",
          "Friend's name (optional)",
        ),
  );
  $("online-seats").replaceChildren(...rows);
  hintsOption($("online-hints"));
}

/** Public ticked or not: the friends' seats become open seats, or invitations again. */
function showOpenSeats() {
  for (const row of $("online-seats").querySelectorAll(".seat-row")) row.update();
}

function hintsOption(box) {
  box.disabled = !page.preset.hints;
  if (!page.preset.hints) box.checked = false;
  box.parentElement.title = page.preset.hints ? "" : "These rules have no hints (hands of cards)";
}

/** The seats a seat editor describes, as the API takes them; with `open`, a friend's seat is
 * left open to anyone instead, without a name (whoever joins it plays it, under their own). */
function seatsOf(container, { open = false } = {}) {
  return [...container.querySelectorAll(".seat-row")].map((row) => {
    const colour = row.dataset.colour;
    const [kindBox, levelBox] = row.querySelectorAll("select");
    const kind = kindBox.value;
    if (kind === "bot") return { colour, kind, level: levelBox.value };
    if (open && kind === "human") return { colour, kind: "open" };
    const seat = { colour, kind: kind === "me" ? "human" : kind };
    const name = row.querySelector("input").value.trim();
    if (name) seat.name = name;
    return seat;
  });
}

async function startHotseat(event) {
  event.preventDefault();
  const error = $("hotseat-error");
  say(error, "");
  const seats = seatsOf($("hotseat-seats"));
  if (!seats.some((seat) => seat.kind === "hotseat")) {
    say(error, "Choose at least one player on this screen (or play against the computer above).");
    return;
  }
  const button = event.submitter || event.target.querySelector("button[type=submit]");
  busy(button);
  try {
    const game = await api("/api/games", {
      json: { rules: rulesText(seats.length), seats, hints: $("hotseat-hints").checked },
    });
    location.assign(localPath(game.host_link));
  } catch (failure) {
    say(error, `The game could not be created: ${failure.message}`);
    free(button);
  }
}

// --- online game and its lobby panel --------------------------------------------------------

async function startOnline(event) {
  event.preventDefault();
  const error = $("online-error");
  say(error, "");
  const isPublic = $("online-public").checked;
  // Your seat is yours; in a public game the friends' seats are left open to anyone in the lobby.
  const seats = seatsOf($("online-seats"), { open: isPublic });
  const myColour = $("online-seats").querySelector(".seat-row[data-mine]").dataset.colour;
  const button = event.submitter || event.target.querySelector("button[type=submit]");
  busy(button);
  try {
    const game = await api("/api/games", {
      json: { rules: rulesText(seats.length), seats, public: isPublic, hints: $("online-hints").checked },
    });
    // storage off: the links are shown until the page is left
    store(ONLINE_KEY, JSON.stringify({ game, colour: myColour, isPublic }));
    // and the game is one of this browser's: "Create another online game" no longer loses it
    const mine = game.seats.find((seat) => seat.colour === myColour);
    if (mine?.token) store(`pardon.token.${game.id}`, mine.token);
    noteMyGame(game.id);
    showGameLobby(game, myColour, isPublic);
  } catch (failure) {
    say(error, `The game could not be created: ${failure.message}`);
  } finally {
    free(button);
  }
}

/** A friend's seat in the invite list: "Blue — Cleo", or the colour alone when no name was given
 * (the server then names the seat by its colour). */
function inviteName(seat) {
  const colour = capitalise(seat.colour);
  return seat.name && seat.name.toLowerCase() !== seat.colour ? `${colour} — ${seat.name}` : colour;
}

function showGameLobby(game, myColour, isPublic, { focus = true } = {}) {
  const panel = $("game-lobby");
  const mine = game.seats.find((seat) => seat.colour === myColour);
  const friends = game.seats.filter((seat) => seat.link && seat.colour !== myColour);
  const open = game.seats.filter((seat) => seat.open);
  const computers = game.seats.filter((seat) => seat.kind === "bot");
  const alone = game.seats.length === 1; // the solo challenge: no other seat at all
  const badges = {};
  const handOvers = {};
  const badge = (colour) => (badges[colour] = el("span", { class: "badge waiting", dataset: { colour } }, "Waiting"));
  const handOver = (seat) => (handOvers[seat.colour] = handOverButton(game, seat, badges, handOvers));
  panel.replaceChildren(
    el("h3", { id: "game-lobby-title" }, "Your game is ready"),
    el(
      "p",
      { class: "game-status", id: "game-status", role: "status" },
      alone ? "The game starts when you go to your seat." : "Waiting for players to join. The game starts when every seat is taken.",
    ),
    el("p", {}, othersSaid(friends, open, computers)),
    ...(friends.length && onlyThisComputer(friends[0].link) ? [localLinksNote()] : []),
    el(
      "ul",
      { class: "invites" },
      ...friends.map((seat) =>
        el(
          "li",
          { class: "invite", dataset: { colour: seat.colour } },
          el("div", { class: "invite-head" }, chip(seat.colour, inviteName(seat)), badge(seat.colour)),
          copyField(seat.link, `${capitalise(seat.colour)}'s invite link`),
          handOver(seat),
        ),
      ),
      ...open.map((seat) =>
        el(
          "li",
          { class: "invite", dataset: { colour: seat.colour } },
          el("div", { class: "invite-head" }, chip(seat.colour, `${capitalise(seat.colour)} — open to anyone in the lobby`), badge(seat.colour)),
          handOver(seat),
        ),
      ),
      ...computers.map((seat) =>
        el(
          "li",
          { class: "invite", dataset: { colour: seat.colour } },
          computerHead(seat.colour, seat.name, badges),
        ),
      ),
    ),
    el(
      "div",
      { class: "my-seat" },
      el("div", { class: "invite-head" }, chip(mine.colour, `You play ${capitalise(mine.colour)}`), badge(mine.colour)),
      el("a", { class: "button primary", id: "go-to-seat", href: localPath(mine.link) }, "Go to my seat"),
    ),
    el("h4", {}, "Spectators"),
    el("p", { class: "hint" }, isPublic ? "A public game can be watched by anyone; it is listed in the lobby." : "Anyone with this link can watch."),
    copyField(game.spectator_link, "spectator link"),
    el("p", {}, el("button", { type: "button", id: "another-online", onclick: closeGameLobby }, "Create another online game")),
  );
  panel.hidden = false;
  $("online").hidden = true;
  if (focus) {
    // taller than a phone's screen: the browser scrolled it to its middle, "Your game is ready" above the top
    panel.focus({ preventScroll: true });
    panel.scrollIntoView({ block: "start" });
  }
  clearInterval(page.poll);
  const refresh = () => refreshSeats(game.id, badges, handOvers);
  page.poll = setInterval(refresh, POLL_MS);
  refresh();
}

/** What the panel says of the seats besides yours: true of every game, the solo challenge too. */
function othersSaid(friends, open, computers) {
  if (friends.length) return "Send each friend their own link (it is their seat: keep it between you):";
  if (open.length) {
    return computers.length
      ? "The other seats are open to anyone in the lobby, or played by the computer."
      : "The other seats are open to anyone in the lobby.";
  }
  if (computers.length) return "Every other seat is a computer player.";
  return "You play alone: the solo challenge has no other seat.";
}

/** Whether a link leads only to this computer (the page was opened at localhost): a friend
 * elsewhere would find nothing there. */
function onlyThisComputer(link) {
  const host = new URL(link, location.href).hostname;
  return host === "localhost" || host.startsWith("127.") || host === "[::1]" || host === "::1";
}

function localLinksNote() {
  return el(
    "p",
    { class: "alert", id: "local-links" },
    "These links lead to this computer only (localhost): a friend elsewhere cannot open them. " +
      "Start the server with pardon serve --host 0.0.0.0 and open this page at the network address it prints, " +
      "or give the server its public address with --public-url.",
  );
}

/** A computer seat in the game's panel: "Blue — Computer (Hard)", marked Computer. */
function computerHead(colour, name, badges) {
  const badge = (badges[colour] = el("span", { class: "badge joined", dataset: { colour } }, "Computer"));
  return el("div", { class: "invite-head" }, chip(colour, `${capitalise(colour)} — ${name}`), badge);
}

/** For a friend who cannot come: a computer plays their seat, so the others need not wait. */
function handOverButton(game, seat, badges, handOvers) {
  const colour = capitalise(seat.colour);
  const button = el("button", { type: "button", class: "hand-over" }, `Computer plays ${colour} instead`);
  button.addEventListener("click", async () => {
    const focused = document.activeElement === button; // disabling it takes the focus away
    button.disabled = true;
    try {
      const summary = await seatToComputer(game.id, seat.colour, game.host_token);
      const given = summary.seats.find((item) => item.colour === seat.colour);
      const row = button.closest("li");
      row.replaceChildren(computerHead(seat.colour, given.name, badges));
      delete handOvers[seat.colour];
      say($("game-status"), `${colour} is played by the computer (${levelName(given.level)}) now: their link opens no seat any more.`, "ok");
      if (focused) {
        // The button is gone: the keyboard stays on the seat's row, which now says who plays it.
        row.tabIndex = -1;
        row.focus();
      }
    } catch (failure) {
      button.disabled = false;
      if (focused) button.focus();
      say($("game-status"), `${colour} could not be handed to the computer: ${failure.message}`);
    }
  });
  return button;
}

/** Back to the online form; the game stays, its links sent are still good. */
function closeGameLobby() {
  clearInterval(page.poll);
  forgetOnlineGame();
  $("game-lobby").hidden = true;
  $("online").hidden = false;
  $("online").querySelector("button[type=submit]").focus();
}

function forgetOnlineGame() {
  forget(ONLINE_KEY);
}

/** The online game created here before a reload, or the tab closed, shown again while it waits for players. */
async function restoreGameLobby() {
  const saved = savedOnlineGame();
  if (!saved) return;
  try {
    const summary = await api(`/api/games/${encodeURIComponent(saved.game.id)}`);
    if (summary.status !== "waiting") return forgetOnlineGame(); // under way: its players have their seats
  } catch (error) {
    if (error.status === 404) forgetOnlineGame(); // expired
    return;
  }
  showGameLobby(saved.game, saved.colour, saved.isPublic, { focus: false }); // the page opens at its top
}

async function refreshSeats(id, badges, handOvers) {
  let summary;
  try {
    summary = await api(`/api/games/${id}`);
  } catch (error) {
    $("game-status").textContent = `Seat status unavailable: ${error.message}`;
    return;
  }
  for (const seat of summary.seats) {
    const badge = badges[seat.colour];
    if (!badge) continue;
    const waiting = seat.joining ? "Joining…" : "Waiting"; // joined from the lobby, not come yet
    badge.textContent = seat.kind === "bot" ? "Computer" : seat.taken ? "Joined" : waiting;
    badge.className = `badge ${seat.taken ? "joined" : "waiting"}`;
    if (handOvers[seat.colour]) handOvers[seat.colour].hidden = seat.taken; // a friend who came keeps their seat
  }
  const status = $("game-status");
  if (summary.status === "playing") {
    status.textContent = "Every seat has its player: the game is on. Go to your seat!";
    clearInterval(page.poll);
  } else if (summary.status === "finished") {
    status.textContent = "This game is over.";
    clearInterval(page.poll);
  }
}

// --- games in progress ----------------------------------------------------------------------

/** The games this browser has a seat of that are still going, each with a link back to it: a
 * hot-seat game put down, or a game left by mistake, is one click away. */
async function renderMyGames() {
  const ids = myGames();
  if (!ids.length) return;
  const found = await Promise.all(ids.map((id) => api(`/api/games/${encodeURIComponent(id)}`).catch((error) => error)));
  const going = [];
  found.forEach((summary, index) => {
    if (summary instanceof Error) {
      if (summary.status === 404) forgetMyGame(ids[index]); // expired, or another server's
    } else if (summary.status === "finished") {
      forgetMyGame(summary.id);
    } else {
      going.push(summary);
    }
  });
  $("my-games").hidden = !going.length;
  $("my-games-list").replaceChildren(...going.map(myGameItem));
}

function myGameItem(summary) {
  const players = summary.seats.map((seat) => seatLabel(seat)).join(", ");
  const moves = summary.event === 0 ? "just begun" : `${summary.event} ${summary.event === 1 ? "move" : "moves"} in`;
  const where = summary.status === "waiting" ? "waiting for players" : moves;
  return el(
    "li",
    { dataset: { game: summary.id } },
    el("span", {}, `${summary.rules_name}: ${players} (${where})`),
    el("a", { class: "button primary", href: `/play/${encodeURIComponent(summary.id)}` }, "Continue"),
  );
}

// --- start ------------------------------------------------------------------------------------

function showRulesName() {
  for (const label of document.querySelectorAll(".rules-name")) label.textContent = rulesName();
}

/** The hot-seat and online forms say whose colour their creator's row has, and where to change it. */
function showMyColour() {
  for (const label of document.querySelectorAll(".my-colour")) label.textContent = capitalise(page.quickColour);
}

function choosePreset(name) {
  page.preset = page.presets.find((preset) => preset.name === name) || page.presets[0];
  renderRuleOptions();
  showRulesName();
  showMyColour();
  renderQuick();
  renderHotseat();
  renderOnline();
}

async function start() {
  try {
    [page.presets, page.levels] = await Promise.all([api("/api/presets"), api("/api/levels/described")]);
  } catch (error) {
    say($("quick-error"), `The game options could not be loaded: ${error.message}`);
    $("play").disabled = true;
    return;
  }
  page.defaultLevel = (page.levels.find((level) => level.default) || page.levels[0]).name;
  $("preset").replaceChildren(
    ...page.presets.map((preset) => el("option", { value: preset.name }, capitalise(preset.name))),
  );
  levelOptions($("level"), page.defaultLevel);
  $("preset").addEventListener("change", () => choosePreset($("preset").value));
  $("level").addEventListener("change", () => {
    $("level-about").textContent = levelAbout($("level").value);
    renderSummary();
  });
  $("doubling").addEventListener("change", () => {
    showRulesName();
    renderSummary();
  });
  $("quick").addEventListener("submit", startQuick);
  $("hotseat").addEventListener("submit", startHotseat);
  $("online").addEventListener("submit", startOnline);
  $("online-public").addEventListener("change", showOpenSeats);
  choosePreset("classic");
  await Promise.all([restoreGameLobby(), renderMyGames()]);
  document.body.dataset.ready = "true";
}

start();
