// The scoreboard page of `exactodds serve` (docs/page.md): plain ES2020 modules, no framework, no build step.
//
// This module holds the session and the commands; panels.js draws the server's answers (roads.js the roads), api.js
// asks the server. It drives the tracking API (POST /tracks, POST /tracks/{id}, GET /tracks/{id},
// DELETE /tracks/{id}: each asked by a path relative to the page's, so that the page works behind a proxy that
// serves it under a prefix) and shows each step the server answers. The server computes everything; the page only
// draws. Whatever the user types or the server says goes into the page as text (textContent), never as markup.
//
// State kept in the browser (localStorage, so that a reload resumes): the session's id, its header line, the
// settings it was started with (a session the server no longer has is started again with them, saying so), and
// the redo list (the commands undone, the last one resent by redo; a new command clears it).

import { api, csvText, download, percentText } from "./api.js";
import { drawHistory, drawStep } from "./panels.js";
import { measureRoads, resetRoads } from "./roads.js";

const $ = (id) => document.getElementById(id);
const STORE = "exactodds.page";
// The keys that deal a card (lower case), each with its rank: A, 2 to 9, T or 0 for a ten, J, Q, K.
const CARD_KEYS = new Map([["a", "A"], ["t", "T"], ["0", "T"], ["j", "J"], ["q", "Q"], ["k", "K"]]);
for (let n = 2; n <= 9; n += 1) CARD_KEYS.set(String(n), String(n));
const POLL_MS = 2000;  // the wall display follows a session typed elsewhere

/** What the page holds: the session, its last step, the coups, and the commands done and undone. */
const state = {
  id: null, header: "", settings: null, step: null, stepText: "", coups: [], done: [], redo: [],
  wall: false, shown: 0, renders: [], inflight: 0,
};

// --- messages -----------------------------------------------------------------------------------------------

function showError(text) {
  $("alert").textContent = text;
}

function clearError() {
  $("alert").textContent = "";
}

function notice(text) {
  $("notice").textContent = text;
}

// --- the browser's memory of the session --------------------------------------------------------------------

function remember() {
  const kept = { id: state.id, header: state.header, settings: state.settings, redo: state.redo };
  try {
    localStorage.setItem(STORE, JSON.stringify(kept));
  } catch (err) {
    // private mode or storage full: the page works, a reload just starts afresh
  }
}

function recall() {
  try {
    const kept = JSON.parse(localStorage.getItem(STORE) || "{}");
    return kept && typeof kept === "object" ? kept : {};
  } catch (err) {
    return {};
  }
}

// --- drawing -----------------------------------------------------------------------------------------------

/** Draw one step (panels.js), timed: the milliseconds of each drawing are kept for tests and benchmarks. */
function render(step) {
  const started = performance.now();
  state.step = step;
  if (step.header) state.header = step.header;
  drawStep(step, state.header, state.wall);
  const took = performance.now() - started;
  state.renders.push(took);
  if (state.renders.length > 2000) state.renders.splice(0, 1000);
  return took;
}

/** Draw the coups so far, from the first that changed. */
function renderHistory(coups) {
  const list = Array.isArray(coups) ? coups : [];
  drawHistory(state.coups, list);
  state.coups = list;
  state.shown = list.length;
}

// --- the session --------------------------------------------------------------------------------------------

/** Take a session the server knows: its id, its last step, its coups, the commands since the start (for undo). */
function adopt(id, data, settings) {
  state.id = id;
  state.settings = settings;
  state.done = data.session && Array.isArray(data.session.steps) ? [...data.session.steps] : [];
  if (!state.header && data.session) state.header = headerOf(data.session);
  show(data.step);
  renderHistory(data.coups);
  sessionReady();
}

/** The header line of a session this browser did not start (only the first step carries it): from its document. */
function headerOf(session) {
  const start = session.start || {};
  const counts = Object.values(start.counts || {});
  const cards = Number(start.cards) || 0;
  const decks = cards / 52;
  const standard = Number.isInteger(decks) && decks > 0 && counts.length === 13
    && counts.every((n) => n === 4 * decks);
  const shoe = standard ? `${decks} deck${decks > 1 ? "s" : ""} (${cards} cards)` : `${cards} cards`;
  return [shoe, session.rules].filter(Boolean).join(" · ");
}

function show(step) {
  state.stepText = JSON.stringify(step);
  render(step);
}

function sessionReady() {
  remember();
  $("end").disabled = false;
  $("redo").disabled = state.redo.length === 0;
  $("setup-box").open = false;
  const summary = state.settings ? describe(state.settings) : "";
  $("setup-summary").textContent = summary;
  const link = $("wall-link");
  link.href = `?wall=1&session=${encodeURIComponent(state.id)}`;
  link.hidden = false;
}

function describe(settings) {
  const bits = [`${settings.decks ?? "?"} decks`, settings.rules || "punto-banco"];
  if (settings.bets) bits.push(`${settings.bets.length} bets`);
  if (settings.bets_toml) bits.push("a bets file");
  if (settings.rebate) bits.push(`rebate ${settings.rebate}`);
  return bits.join(" · ");
}

/** The settings the form says (the keys of POST /tracks); a value is sent as typed, for the server to judge. */
function formSettings() {
  const settings = {};
  const decks = $("decks").value.trim();
  if (decks) settings.decks = /^\d+$/.test(decks) ? Number(decks) : decks;
  if ($("rules").value) settings.rules = $("rules").value;
  const bets = [...$("bets").selectedOptions].map((option) => option.value);
  if (bets.length) settings.bets = bets;
  const toml = $("bets-toml").value;
  if (toml.trim()) settings.bets_toml = toml;
  const rebate = $("rebate").value.trim();
  if (rebate) settings.rebate = rebate;
  return settings;
}

/** Start a new shoe with `settings` (the old session, if any, is ended on the server). */
async function start(settings) {
  const old = state.id;
  const data = await api("POST", "tracks", settings);
  if (old) api("DELETE", `tracks/${encodeURIComponent(old)}`).catch(() => {});
  state.header = data.step.header || "";
  state.redo = [];
  adopt(data.id, { step: data.step, coups: [], session: { steps: [] } }, settings);
  return data;
}

/** A reload: the session kept in the browser (or named by ?session=), or a new shoe if the server lost it. */
async function resume() {
  const kept = recall();
  const named = new URLSearchParams(location.search).get("session");
  const id = named || kept.id;
  if (!id) return false;
  const same = id === kept.id;
  state.header = same ? kept.header || "" : "";
  state.redo = same && Array.isArray(kept.redo) ? kept.redo.filter((line) => typeof line === "string") : [];
  try {
    const data = await api("GET", `tracks/${encodeURIComponent(id)}`);
    adopt(id, data, same ? kept.settings || null : null);
    notice(`Resumed the shoe of session ${id}: ${state.done.length} steps since its start.`);
    return true;
  } catch (err) {
    if (err.status !== 404) {
      showError(err.message);
      return false;
    }
    const settings = same && kept.settings ? kept.settings : formSettings();
    state.id = null;
    state.redo = [];
    if (named) {  // the address names the lost session: drop it, or every reload would start another shoe
      const url = new URL(location.href);
      url.searchParams.delete("session");
      history.replaceState(null, "", url);
    }
    try {
      await start(settings);
      showError(`${err.message} · so a new shoe was started (${describe(settings)}).`);
    } catch (again) {
      showError(`${err.message} · and no new shoe could be started: ${again.message}`);
    }
    return true;
  }
}

// --- commands -----------------------------------------------------------------------------------------------

let queue = Promise.resolve();
let generation = 0;  // raised by a refusal: the commands queued behind it are dropped, not sent

/** Run `work` (a request) after the commands already on their way, unless a refusal came in between. */
function enqueue(work) {
  const mine = generation;
  state.inflight += 1;
  queue = queue.then(() => (mine === generation ? work() : undefined)).finally(() => {
    state.inflight -= 1;
  });
  return queue;
}

/** Send one line to the session, after those already on their way (a blank line or a # comment: nothing to send). */
function send(line) {
  const command = String(line).trim();
  if (!command || command.startsWith("#")) return queue;
  return enqueue(() => step(command, false));
}

async function step(command, redo) {
  if (!state.id) {
    showError("no shoe is being tracked: start a new shoe first");
    generation += 1;
    return false;
  }
  const id = state.id;
  document.body.classList.add("busy");
  try {
    const answer = await api("POST", `tracks/${encodeURIComponent(id)}`, { command });
    clearError();
    await after(command, answer, redo);
    return true;
  } catch (err) {
    showError(err.message);
    generation += 1;
    if (redo) $("redo").disabled = state.redo.length === 0;
    return false;
  } finally {
    document.body.classList.remove("busy");
  }
}

/** What a command did to the page's lists: undo moves a command to the redo list, a new one clears it. */
async function after(command, answer, redo) {
  const word = command.toLowerCase();
  if (answer.quit) {
    localStorage.removeItem(STORE);
    state.id = null;
    $("setup-box").open = true;
    $("end").disabled = true;
    notice("The session has ended: start a new shoe.");
    return;
  }
  if (word === "undo") {
    const undone = state.done.pop();
    if (undone !== undefined) state.redo.push(undone);
  } else if (word !== "help" && word !== "?") {
    state.done.push(answer.command);
    if (!redo) state.redo = [];
  }
  $("redo").disabled = state.redo.length === 0;
  remember();
  show(answer);
  if ((answer.running ? answer.running.coups : 0) !== state.shown) await refreshHistory();
}

async function refreshHistory() {
  try {
    const data = await api("GET", `tracks/${encodeURIComponent(state.id)}`);
    renderHistory(data.coups);
  } catch (err) {
    showError(err.message);
  }
}

/** A promise of the moment every command sent so far is answered and drawn (for tests and benchmarks). */
function idle() {
  return queue.then(() => (state.inflight ? idle() : undefined));
}

function undo() {
  return send("undo");
}

/** Send again the last command undone: taken from the redo list when its turn comes, after the undos before it. */
function redo() {
  return enqueue(() => {
    const line = state.redo.pop();
    $("redo").disabled = state.redo.length === 0;
    return line === undefined ? false : step(line, true);
  });
}

// --- export -------------------------------------------------------------------------------------------------

function exportCoups(kind) {
  const name = `exactodds-coups-${state.id || "none"}`;
  if (kind === "csv") {
    download(`${name}.csv`, "text/csv", csvText(state.coups));
  } else {
    const data = { session: state.id, shoe: state.header, coups: state.coups };
    download(`${name}.json`, "application/json", JSON.stringify(data, null, 2) + "\n");
  }
}

// --- the setup form -----------------------------------------------------------------------------------------

async function loadRules() {
  const data = await api("GET", "rules");
  const options = data.rule_sets.map((rules) => {
    const option = new Option(rules.name, rules.name);
    option.title = rules.description;
    return option;
  });
  $("rules").replaceChildren(...options);
}

async function loadBets() {
  const chosen = new Set([...$("bets").selectedOptions].map((option) => option.value));
  const rules = $("rules").value;
  const data = await api("GET", `bets${rules ? `?rules=${encodeURIComponent(rules)}` : ""}`);
  const first = chosen.size === 0;
  const options = data.bets.map((bet) => {
    const option = new Option(bet.needs_suits ? `${bet.id} (needs suits)` : bet.id, bet.id);
    option.title = bet.description;
    option.disabled = Boolean(bet.needs_suits);
    option.selected = !option.disabled && (first ? Boolean(bet.default) : chosen.has(bet.id));
    return option;
  });
  $("bets").replaceChildren(...options);
}

async function readBetsFile() {
  const file = $("bets-file").files[0];
  if (file) $("bets-toml").value = await file.text();
}

// --- the keyboard and the buttons ---------------------------------------------------------------------------

function flash(card) {
  const button = document.querySelector(`[data-card="${card}"]`);
  if (!button) return;
  button.classList.add("pressed");
  setTimeout(() => button.classList.remove("pressed"), 150);
}

/** The rank keys deal, Backspace or U undoes, R or Ctrl+Shift+Z redoes: anywhere but in a box of text or a list. */
function onKey(event) {
  if (event.defaultPrevented || event.isComposing || event.repeat) return;  // a key held down deals one card
  if (event.target.closest && event.target.closest("input, textarea, select, [contenteditable]")) return;
  const key = event.key.toLowerCase();
  if ((event.ctrlKey || event.metaKey) && event.shiftKey && key === "z") {
    event.preventDefault();
    redo();
    return;
  }
  if (event.ctrlKey || event.metaKey || event.altKey) return;
  if (CARD_KEYS.has(key)) {
    event.preventDefault();
    flash(CARD_KEYS.get(key));
    send(CARD_KEYS.get(key));
  } else if (key === "backspace" || key === "u") {
    event.preventDefault();
    undo();
  } else if (key === "r") {
    event.preventDefault();
    redo();
  }
}

function setWall(on) {
  state.wall = on;
  document.body.classList.toggle("wall", on);
  $("wall-toggle").setAttribute("aria-pressed", String(on));
  $("wall-toggle").textContent = on ? "Leave the wall display" : "Wall display";
  const url = new URL(location.href);
  if (on) url.searchParams.set("wall", "1"); else url.searchParams.delete("wall");
  history.replaceState(null, "", url);
  resetRoads();
  if (state.step) render(state.step);
}

/** The wall display follows the session (typed on another screen): its last step, every few seconds. */
async function poll() {
  if (!state.wall || !state.id || document.hidden) return;
  const before = generation;
  const sent = queue;
  try {
    const data = await api("GET", `tracks/${encodeURIComponent(state.id)}`);
    if (sent !== queue || before !== generation) return;  // a command went out meanwhile: its answer is newer
    if (JSON.stringify(data.step) !== state.stepText) show(data.step);
    if (Array.isArray(data.coups) && data.coups.length !== state.coups.length) renderHistory(data.coups);
  } catch (err) {
    showError(err.message);
  }
}

function wire() {
  for (const button of document.querySelectorAll("[data-card]")) {
    button.addEventListener("click", () => send(button.dataset.card));
  }
  $("undo").addEventListener("click", undo);
  $("redo").addEventListener("click", redo);
  $("new-shoe").addEventListener("click", () => send("new shoe"));
  $("command-form").addEventListener("submit", async (event) => {
    event.preventDefault();
    const input = $("command");
    if (await send(input.value)) input.value = "";
  });
  $("setup").addEventListener("submit", async (event) => {
    event.preventDefault();
    try {
      await start(formSettings());
      clearError();
      notice("A new shoe: type the cards as they are dealt.");
      document.querySelector("[data-card]").focus();
    } catch (err) {
      showError(err.message);
    }
  });
  $("end").addEventListener("click", async () => {
    if (state.id) await api("DELETE", `tracks/${encodeURIComponent(state.id)}`).catch(() => {});
    localStorage.removeItem(STORE);
    state.id = null;
    $("end").disabled = true;
    $("setup-box").open = true;
    notice("The session has ended: start a new shoe.");
  });
  $("rules").addEventListener("change", () => loadBets().catch((err) => showError(err.message)));
  $("bets-file").addEventListener("change", () => readBetsFile().catch((err) => showError(err.message)));
  $("export-csv").addEventListener("click", () => exportCoups("csv"));
  $("export-json").addEventListener("click", () => exportCoups("json"));
  $("wall-toggle").addEventListener("click", () => setWall(!state.wall));
  document.addEventListener("keydown", onKey);
  let resizing = 0;
  window.addEventListener("resize", () => {
    clearTimeout(resizing);
    resizing = setTimeout(() => {
      measureRoads();
      if (state.step) render(state.step);
    }, 150);
  });
  setInterval(poll, POLL_MS);
}

async function main() {
  wire();
  const params = new URLSearchParams(location.search);
  setWall(params.get("wall") === "1");
  try {
    await loadRules();
    await loadBets();
  } catch (err) {
    showError(err.message);
  }
  const resumed = await resume();
  if (!resumed) $("start").focus();
  document.body.dataset.ready = "1";  // for tests and benchmarks: the page has its session, or its form
}

// For tests and benchmarks (and the curious, in the console): the page's state and entry points.
window.exactoddsPage = { state, render, send, undo, redo, idle, poll, csvText, percentText, ready: main() };
