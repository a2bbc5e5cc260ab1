// The statistics page, stats.html: my finished games per game and variant (played, won, lost, win
// rate, streaks, best and average moves and times) and my daily streak, as GET /api/players/me/stats
// folds them from my games' logs. Games show in the catalogue's order, titled by it.

import { currentAccount, mountAccount } from "./account.js";
import { ApiError, myStats } from "./api.js";
import { gameInfo, loadCatalog, presetTitle } from "./games.js";
import { escapeHtml } from "./html.js";
import { sentence } from "./notice.js";
import { formatTime } from "./render.js";

const app = document.getElementById("app");

const dash = "–";
const time = (ms) => (ms == null ? dash : formatTime(ms));
const number = (n, digits = 0) => (n == null ? dash : Number(n).toFixed(digits));
const percent = (rate) => (rate == null ? dash : `${Math.round(rate * 100)}%`);
const days = (n) => `${n} ${n === 1 ? "day" : "days"}`;

const COLUMNS = [
  ["Played", (r) => r.played], ["Won", (r) => r.won], ["Lost", (r) => r.lost],
  ["Win rate", (r) => percent(r.win_rate)], ["Streak", (r) => r.current_streak], ["Best streak", (r) => r.best_streak],
  ["Best moves", (r) => number(r.best_moves)], ["Average moves", (r) => number(r.average_moves, 1)],
  ["Best time", (r) => time(r.best_time_ms)], ["Average time", (r) => time(r.average_time_ms)],
];

function rowHtml(row) {
  const title = gameInfo(row.game).title;
  return `<tr data-game="${escapeHtml(row.game)}" data-variant="${escapeHtml(row.variant)}">
    <th scope="row" data-label="Game">${escapeHtml(title)} <span class="preset">${escapeHtml(presetTitle(row.game, row.variant))}</span></th>
    ${COLUMNS.map(([label, value]) => `<td data-label="${escapeHtml(label)}">${escapeHtml(value(row))}</td>`).join("")}
  </tr>`;
}

function render(stats, games) {
  const order = new Map(games.map((game, i) => [game.id, i]));
  const rows = [...stats.rows].sort((a, b) => (order.get(a.game) ?? 1e9) - (order.get(b.game) ?? 1e9)
    || a.variant.localeCompare(b.variant));
  const who = currentAccount()?.name;
  app.innerHTML = `<section class="panel stats-page">
      <h1>My statistics</h1>
      <p class="sub">${who ? `Signed in as <strong>${escapeHtml(who)}</strong>` : "As this browser's guest"}:
        every game once it is over (a resigned game counts as lost).</p>
      <p class="daily-streak" data-daily-streak="${escapeHtml(stats.daily_streak)}">Daily streak:
        <strong>${escapeHtml(days(stats.daily_streak))}</strong> (best ${escapeHtml(days(stats.best_daily_streak))})</p>
      ${rows.length ? `<table class="stats">
        <thead><tr><th scope="col">Game</th>${COLUMNS.map(([label]) => `<th scope="col">${escapeHtml(label)}</th>`).join("")}</tr></thead>
        <tbody>${rows.map(rowHtml).join("")}</tbody>
      </table>` : '<p class="hint">No finished game yet: the figures count games once they are over.</p>'}
      <p><a href="./">Back to today's challenges</a></p>
    </section>`;
}

async function load() {
  let stats;
  let games = [];
  try {
    games = await loadCatalog().catch(() => []); // without it a game shows by its id
    stats = await myStats();
  } catch (error) {
    app.innerHTML = '<section class="panel"><h1>My statistics</h1><p class="reason"></p></section>';
    app.querySelector(".reason").textContent = `Your statistics could not be loaded: ${
      sentence(error instanceof ApiError ? error.message : String(error))}`;
    return;
  }
  render(stats, games);
}

mountAccount({ onChange: load }).then(load);
