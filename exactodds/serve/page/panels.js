// The panels of the page drawn from the server's answers (docs/page.md): one step's running figures, roads (drawn by
// roads.js) and ask road, the next coup's odds, each bet's EV and the cards left; and the coups so far. Every text
// goes in as textContent; the exact fractions go in the cells' titles (the tooltips) and data-value attributes.

import { percentText } from "./api.js";
import { drawAsk, drawRoads, ROADS } from "./roads.js";

const $ = (id) => document.getElementById(id);
export const WINNERS = { banker: "Banker", player: "Player", tie: "Tie" };
const RANKS = ["A", "2", "3", "4", "5", "6", "7", "8", "9", "T", "J", "Q", "K"];  // the order of the shoe's counts

/** A cell of a table row as text, with the exact value in its title (the tooltip) when there is one. */
function cell(row, text, exact, tag = "td") {
  const element = document.createElement(tag);
  element.textContent = text;
  if (exact) element.title = exact;
  row.appendChild(element);
  return element;
}

/** Draw one step under the shoe's header line; `wall`: the wall display's larger cells. */
export function drawStep(step, header, wall) {
  $("shoe-line").textContent = header;
  const running = step.running || {};
  const wins = running.wins || {};
  const parts = [`coup ${(running.coups || 0) + 1}`];
  for (const [side, name] of Object.entries(WINNERS)) if (side in wins) parts.push(`${name} ${wins[side]}`);
  parts.push(`dealt ${running.dealt ?? 0} (burned ${running.burned ?? 0})`, `left ${running.left ?? "—"}`);
  $("running").textContent = parts.join(" · ");
  $("in-progress").textContent = running.in_progress ? `Coup in progress: ${running.in_progress}` : "";
  $("message").textContent = step.message || "";
  const boxes = Object.fromEntries(ROADS.map(({ key }) => [key, $(`road-${key}`)]));
  drawRoads(step.roads, boxes, wall ? 40 : 22);
  drawAsk($("ask"), step.ask, step.ask_odds, wall ? 24 : 14);
  drawNext(step.next);
  drawBets(step.bets || []);
  drawLeft(step.left);
}

function drawNext(next) {
  for (const row of $("next").tBodies[0].rows) {
    const figure = next ? next[row.dataset.winner] : null;
    const td = row.cells[1];
    td.textContent = figure ? figure.percent : "—";
    td.dataset.value = figure ? figure.probability : "";
    if (figure) td.title = figure.probability; else td.removeAttribute("title");
  }
}

function drawBets(bets) {
  const body = $("bets-table").tBodies[0];
  const rebate = bets.some((bet) => bet.rebate);
  $("rebate-head").hidden = !rebate;
  const rows = [];
  for (const bet of bets) {
    const row = document.createElement("tr");
    row.dataset.bet = bet.id;
    row.className = bet.favourable ? "favourable" : "";
    cell(row, bet.id, null, "th").scope = "row";
    const ev = cell(row, (bet.ev.startsWith("-") ? "" : "+") + bet.ev_percent, bet.ev);
    ev.dataset.value = bet.ev;
    ev.tabIndex = 0;
    if (rebate) {
      const text = bet.rebate ? percentText(bet.rebate.ev) : "";
      cell(row, text && !text.startsWith("-") ? `+${text}` : text, bet.rebate ? bet.rebate.ev : null);
    }
    cell(row, bet.favourable ? "◀ favourable" : "");
    rows.push(row);
  }
  body.replaceChildren(...rows);
}

function drawLeft(left) {
  const counts = left ? left.counts : {};
  // By rank, A to K (an object's own order puts the keys "2" to "9" first).
  const items = RANKS.filter((rank) => rank in counts).map((rank) => {
    const n = counts[rank];
    const item = document.createElement("li");
    item.dataset.rank = rank;
    const name = document.createElement("span");
    name.className = "rank";
    name.textContent = rank;
    const count = document.createElement("span");
    count.className = "n";
    count.textContent = String(n);
    item.append(name, " ", count);
    return item;
  });
  $("left").replaceChildren(...items);
  $("left-total").textContent = left ? `(${left.cards})` : "";
}

/** The coups so far (GET /tracks/{id}'s "coups"), newest last: the rows from the first coup that differs from
 * `drawn` (the coups drawn before) redrawn, the list scrolled to the latest. */
export function drawHistory(drawn, coups) {
  const same = (a, b) => a.coup === b.coup && a.text === b.text && a.winner === b.winner;
  let kept = 0;
  while (kept < drawn.length && kept < coups.length && same(drawn[kept], coups[kept])) kept += 1;
  const body = $("history").tBodies[0];
  while (body.rows.length > kept) body.lastElementChild.remove();
  const rows = coups.slice(body.rows.length).map((coup) => {
    const row = document.createElement("tr");
    row.className = coup.winner;
    cell(row, String(coup.coup));
    cell(row, WINNERS[coup.winner] || String(coup.winner));
    cell(row, coup.text);
    return row;
  });
  body.append(...rows);
  $("history-count").textContent = `(${coups.length})`;
  const box = $("history").parentElement;
  box.scrollTop = box.scrollHeight;
}
