// Ghost races. On a revealed daily, "Race the best replay" starts a practice game on its deal
// (POST …/ghost: unranked, its log marked with the ghost); the play page then shows the ghost beside
// the board: the best verified attempt's progress (moves, cards left) at its recorded times, counted
// against the player's own clock from the player's first look. The server sends counts only
// (GET /api/games/{id}/ghost); the player's own count is read off the view's piles, nothing judged.

import { confirmAbandon } from "./abandon.js";
import { ApiError, identity } from "./api.js";
import { attr, failedText, whileBusy } from "./busy.js";
import { escapeHtml } from "./html.js";
import { sentence, toast } from "./notice.js";
import { formatTime } from "./render.js";
import { elapsedNow } from "./state.js";

const HOME_KINDS = new Set(["foundation", "cleared"]);
const TICK_MS = 200;
const STATUS_TEXT = { in_play: "playing", won: "won", stuck: "stuck", resigned: "resigned" };
const plural = (n, word) => `${n} ${word}${n === 1 ? "" : "s"}`;

async function call(method, path) {
  const { token } = await identity();
  const response = await fetch(path, { method, headers: { Authorization: `Bearer ${token}` } });
  const body = await response.json().catch(() => ({}));
  if (!response.ok) throw new ApiError(response.status, body.message ?? `HTTP ${response.status}`, body.code ?? "");
  return body;
}

const challengePath = (key) => `/api/dailies/${String(key).split("/").map(encodeURIComponent).join("/")}`;

/** The button where a revealed daily with a verified win is listed (the hub's past cards, the leaderboard). */
export function ghostButtonHtml(info, counts) {
  if (info.status !== "final" || !counts?.wins) return "";
  return `<button type="button" class="ghost-start" data-ghost-race="${escapeHtml(info.challenge)}"
    aria-label="Race the best replay of this challenge (practice, unranked)">Race the best replay</button>`;
}

/** Clicks on those buttons, anywhere under `root`: ask first (a practice game resigns one), start, open.
 * One start at a time per challenge (busy.js): a second game would resign the first. */
export function installGhostButtons(root) {
  root.addEventListener("click", async (event) => {
    const button = event.target.closest("[data-ghost-race]");
    if (!button) return;
    const key = button.dataset.ghostRace;
    try {
      await whileBusy(root, attr("data-ghost-race", key), async () => {
        if (!(await confirmAbandon("a ghost race on this daily's deal"))) return false;
        const game = await call("POST", `${challengePath(key)}/ghost`);
        location.href = `./#/play/${encodeURIComponent(game.id)}`;
        return true;
      });
    } catch (error) {
      toast(failedText("The ghost race did not start", error), "error");
    }
  });
}

/** The last point of the ghost's line at or before `t` ms of its clock. */
export function ghostStepAt(points, t) {
  let k = 0;
  while (k + 1 < points.length && points[k + 1].elapsed_ms <= t) k += 1;
  return k;
}

/** Cards still in play (not on a foundation, not cleared away or removed): the race's measure. */
function cardsLeft(view) {
  let left = 0;
  for (const pile of view?.piles ?? []) if (!HOME_KINDS.has(pile.kind)) left += pile.down + pile.cards.length;
  return left;
}

function laneHtml(lane, label) {
  return `<div class="ghost-lane" data-lane="${lane}"><span class="label">${label}</span>
    <span class="track"><span class="fill"></span></span><span class="figures"></span></div>`;
}

function setLane(lane, left, total, text) {
  lane.querySelector(".fill").style.width = `${total ? (100 * (total - left)) / total : 0}%`;
  lane.querySelector(".figures").textContent = text;
}

function verdictText(line, state, ghostDone) {
  const status = state.view?.status;
  const ghostTime = formatTime(line.time_ms);
  if (status === "won") {
    const gap = formatTime(Math.abs(line.time_ms - state.elapsedMs));
    return state.elapsedMs < line.time_ms ? `You beat the ghost by ${gap}.`
      : state.elapsedMs === line.time_ms ? "A dead heat with the ghost." : `The ghost was faster by ${gap}.`;
  }
  if (status && status !== "in_progress") return `The ghost won in ${ghostTime} with ${line.moves} moves.`;
  return ghostDone ? `The ghost finished in ${ghostTime} with ${line.moves} moves.` : "The ghost is playing.";
}

function ensureStyles() {
  if (document.querySelector('link[href$="css/ghost.css"]')) return;
  const link = document.createElement("link");
  link.rel = "stylesheet";
  link.href = "css/ghost.css";
  document.head.append(link);
}

/** The play page's hook: for a ghost race, the ghost's panel over the board, kept in step. */
export function mountGhost(app, summary, state) {
  if (!summary.ghost) return () => {};
  ensureStyles();
  const panel = document.createElement("aside");
  panel.className = "panel ghost-race";
  panel.setAttribute("aria-label", "Ghost race");
  panel.innerHTML = `<h2>Ghost race <span class="badge kind">practice · unranked</span></h2>
    <p class="ghost-who">Loading the best verified replay…</p>
    <div class="ghost-lanes">${laneHtml("ghost", "Ghost")}${laneHtml("you", "You")}</div>
    <p class="ghost-verdict" aria-live="polite"></p>`;
  app.querySelector(".play-head")?.after(panel);
  let timer = null;
  let stopped = false;
  const handle = { line: null, step: 0, t: 0 };
  window.ghost = handle; // read-only, for tests and the curious
  const draw = () => {
    const line = handle.line;
    const t = state.view ? elapsedNow(state) : 0;
    const k = ghostStepAt(line.points, t);
    const point = line.points[k];
    Object.assign(handle, { step: k, t });
    const total = line.points[0].cards_home + line.points[0].cards_left; // one deal: the player's too
    setLane(panel.querySelector("[data-lane=ghost]"), point.cards_left, total,
      `${plural(point.moves, "move")} · ${plural(point.cards_left, "card")} left · ${STATUS_TEXT[point.status] ?? point.status}`);
    const left = state.view ? cardsLeft(state.view) : total;
    setLane(panel.querySelector("[data-lane=you]"), left, total, `${plural(state.view?.moves ?? 0, "move")} · ${plural(left, "card")} left`);
    panel.dataset.ghostStep = String(k);
    panel.dataset.ahead = left < point.cards_left ? "you" : left > point.cards_left ? "ghost" : "even";
    const verdict = verdictText(line, state, k === line.points.length - 1);
    const shown = panel.querySelector(".ghost-verdict");
    if (shown.textContent !== verdict) shown.textContent = verdict;
  };
  call("GET", `/api/games/${encodeURIComponent(summary.id)}/ghost`).then((line) => {
    if (stopped) return;
    handle.line = line;
    panel.querySelector(".ghost-who").innerHTML = `Against the best verified replay:
      <strong>${escapeHtml(line.name ?? "a player")}</strong>, ${escapeHtml(line.moves)} moves in ${escapeHtml(formatTime(line.time_ms))}
      (<a href="replay.html?game=${encodeURIComponent(line.game_id)}">watch it</a>). Its moves come at their recorded times,
      counted from your first look.`;
    draw();
    timer = setInterval(draw, TICK_MS);
  }).catch((error) => {
    if (!stopped) panel.querySelector(".ghost-who").textContent = `The ghost could not be loaded: ${sentence(error.message)}`;
  });
  return () => {
    stopped = true;
    clearInterval(timer);
    panel.remove();
    if (window.ghost === handle) delete window.ghost;
  };
}
