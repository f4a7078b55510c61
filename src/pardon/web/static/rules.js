/**
 * rules.js — the rules of one preset (/rules/{name}): its options beside the classic game's,
 * then the sections of docs/rules.md that apply, rendered (and escaped) by the server.
 */
import { api, capitalise, decodePart, el, say } from "/static/site.js";

const $ = (id) => document.getElementById(id);

function presetFromPath() {
  const match = location.pathname.match(/^\/rules\/([^/]+)\/?$/);
  return match ? decodePart(match[1]) : "classic";
}

function html(markup) {
  // The server escapes the docs' text and writes only simple tags: safe to insert.
  const holder = document.createElement("div");
  holder.innerHTML = markup;
  return [...holder.childNodes];
}

function optionsTable(rules) {
  const rows = rules.options.map((row) =>
    el(
      "tr",
      { class: row.value !== row.classic ? "changed" : null },
      el("td", {}, el("code", {}, row.option)),
      el("td", {}, el("strong", {}, String(row.value))),
      el("td", {}, String(row.classic)),
      el("td", {}, row.help),
    ),
  );
  return el(
    "div",
    // a table wider than a phone scrolls sideways: a keyboard reaches it, and its name says which
    { class: "table-wrap", tabindex: "0", role: "region", "aria-label": `The options of ${rules.name}` },
    el(
      "table",
      {},
      el("caption", { class: "visually-hidden" }, `The options of ${rules.name}; highlighted rows differ from the classic game`),
      el(
        "thead",
        {},
        el("tr", {}, ...["option", "here", "classic", "what it does"].map((text) => el("th", { scope: "col" }, text))),
      ),
      el("tbody", {}, ...rows),
    ),
  );
}

function show(rules) {
  const players = rules.players.length === 1 && rules.players[0] === 1 ? "1 player" : `${rules.players.join(", ")} players`;
  const changed = rules.options.filter((row) => row.value !== row.classic).length;
  const body = [
    el("h1", { id: "top" }, `Rules: ${capitalise(rules.name)}`),
    el("p", { class: "lede" }, `${capitalise(rules.description)}.`),
    el(
      "ul",
      { class: "facts" },
      el("li", {}, players),
      el("li", {}, changed ? `${changed} option${changed > 1 ? "s differ" : " differs"} from classic` : "The classic options"),
    ),
  ];
  const toc = [];
  for (const section of rules.sections) {
    const heading = section.level <= 2 ? "h2" : "h3";
    body.push(el(heading, { id: section.id }, ...html(titleHtml(section.title))));
    body.push(...html(section.html));
    toc.push(el("li", { class: section.level > 2 ? "sub" : null }, el("a", { href: `#${section.id}` }, section.title.replace(/`/g, ""))));
  }
  body.push(el("h2", { id: "options" }, "Every option of this edition"), optionsTable(rules));
  toc.push(el("li", {}, el("a", { href: "#options" }, "Every option")));
  $("rules-body").replaceChildren(...body);
  $("toc").replaceChildren(...toc);
  $("rules-text").setAttribute("aria-busy", "false");
  document.title = `Rules: ${capitalise(rules.name)} — pardon`;
  const target = location.hash && document.getElementById(location.hash.slice(1));
  if (target) target.scrollIntoView();
  else window.scrollTo(0, 0); // another edition opens at its top, not where the last one was read
}

function titleHtml(title) {
  // Headings of the docs mark option names as `code`.
  const escaped = title.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;");
  return escaped.replace(/`([^`]+)`/g, "<code>$1</code>");
}

let latest = 0; // the newest load; an older answer arriving late is dropped

/** Show the rules of edition `name`; `announce`: say so to a screen reader (another edition
 * chosen: the page changes away from the focused box, silently otherwise). */
async function load(name, { announce = false } = {}) {
  const ticket = ++latest;
  say($("rules-error"), "");
  try {
    const rules = await api(`/api/rules/${encodeURIComponent(name)}`);
    if (ticket !== latest) return;
    show(rules);
    if (announce) $("rules-news").textContent = `Showing the rules of ${capitalise(rules.name)}`;
  } catch (error) {
    if (ticket !== latest) return;
    say($("rules-error"), `These rules could not be shown: ${error.message}`);
    $("rules-body").replaceChildren(el("p", {}, el("a", { href: "/rules/classic" }, "Read the classic rules")));
  }
}

async function start() {
  let name = presetFromPath();
  let presets = [];
  try {
    presets = await api("/api/presets");
  } catch (error) {
    say($("rules-error"), `The editions could not be loaded: ${error.message}`);
  }
  const names = presets.map((preset) => preset.name);
  if (!names.includes(name) && names.includes(name.toLowerCase())) {
    name = name.toLowerCase(); // /rules/CLASSIC is the classic rules
    history.replaceState({}, "", `/rules/${name}${location.hash}`);
  }
  const select = $("preset");
  // no edition of that name: the box offers them all, none chosen, so that choosing any shows it
  const none = names.includes(name) || !names.length ? [] : [el("option", { value: "", disabled: true, selected: true }, "Choose an edition")];
  select.replaceChildren(
    ...none,
    ...presets.map((preset) => el("option", { value: preset.name, selected: preset.name === name }, capitalise(preset.name))),
  );
  // The arrow keys on the closed box change the edition at each press: the first change of one
  // visit to the box makes a history entry, the next ones replace it, so that Back goes to the
  // edition read before, not through each one passed on the way.  A choice made in the opened
  // list (a click) is a visit of its own.
  let pushed = false;
  const newVisit = () => (pushed = false);
  select.addEventListener("blur", newVisit);
  select.addEventListener("pointerdown", newVisit);
  select.addEventListener("change", () => {
    const path = `/rules/${select.value}`;
    if (pushed) history.replaceState({}, "", path);
    else history.pushState({}, "", path);
    pushed = document.activeElement === select;
    load(select.value, { announce: true });
  });
  window.addEventListener("popstate", () => {
    if (presetFromPath() === select.value) return; // a contents link moves within the edition shown
    select.value = presetFromPath();
    pushed = false;
    load(presetFromPath(), { announce: true });
  });
  // a narrow screen shows the rules first, their contents folded under "Contents"; a wide one beside them
  const narrow = matchMedia("(max-width: 760px)");
  const fold = () => ($("toc-box").open = !narrow.matches);
  narrow.addEventListener("change", fold);
  fold();
  await load(name);
  document.body.dataset.ready = "true";
}

start();
