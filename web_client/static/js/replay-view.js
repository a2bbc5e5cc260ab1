// The replay page's DOM: the skeleton, the move list with each move's server time, the status line
// and the board of the current step (drawn by render.js, the play page's own renderer).

import { markStripStep, renderStrip, summaryHtml, VERDICT_TEXT } from "./analysis.js";
import { escapeHtml } from "./html.js";
import { describeMove } from "./moves.js";
import { formatTime, renderBoard } from "./render.js";
import { SPEEDS } from "./replay-player.js";

const STATUS_TEXT = { in_progress: "In play", won: "Won", lost: "No moves left", abandoned: "Resigned" };

// Drawn, not font glyphs: not every system font has the media-control symbols.
const icon = (path) => `<svg class="icon" viewBox="0 0 16 16" aria-hidden="true" focusable="false"><path d="${path}"/></svg>`;
export const ICONS = {
  first: icon("M3 2h2v12H3zM14 2v12L6 8z"),
  back: icon("M12 2v12L4 8z"),
  forward: icon("M4 2v12l8-6z"),
  end: icon("M11 2h2v12h-2zM2 2v12l8-6z"),
};

const KEYS = `
  <details class="panel help"><summary>Keyboard</summary>
    <dl>
      <dt>← →</dt><dd>one move back, one forward</dd>
      <dt>Space</dt><dd>play or pause</dd>
      <dt>Home, End</dt><dd>the deal, the last move</dd>
    </dl>
    <p>Cards with a dotted frame were face down for the player at that point: the replay shows every card.</p>
  </details>`;

export function skeleton(root, data, title) {
  const last = data.steps.length - 1;
  const id = encodeURIComponent(data.game_id);
  root.innerHTML = `
    <section class="replay">
      <div class="replay-head">
        <h1 class="game-title">${escapeHtml(title)}: replay</h1>
        <p class="status" data-state="${escapeHtml(data.status)}">
          <span class="outcome">${escapeHtml(STATUS_TEXT[data.status] ?? data.status)}</span> ·
          ${escapeHtml(data.moves)} moves${data.time_ms == null ? "" : ` · ${formatTime(data.time_ms)} (server time)`}
          · deal number ${escapeHtml(data.seed)}</p>
        <div class="replay-links">
          <button type="button" class="share">Share this move</button>
          <a class="button-link download" href="/api/games/${id}/replay" download="${escapeHtml(data.game_id)}.replay.json">Download the replay file</a>
        </div>
      </div>
      <div class="controls" role="toolbar" aria-label="Replay controls">
        <button type="button" data-control="first" aria-label="The deal (Home)" title="The deal (Home)">${ICONS.first}</button>
        <button type="button" data-control="back" aria-label="One move back (←)" title="One move back (←)">${ICONS.back}</button>
        <button type="button" data-control="play" class="primary play" aria-label="Play (Space)">▶ Play</button>
        <button type="button" data-control="forward" aria-label="One move forward (→)" title="One move forward (→)">${ICONS.forward}</button>
        <button type="button" data-control="end" aria-label="The last move (End)" title="The last move (End)">${ICONS.end}</button>
        <label class="speed">Speed
          <select name="speed">${SPEEDS.map((s) => `<option value="${s}" ${s === 1 ? "selected" : ""}>${s}×</option>`).join("")}</select>
        </label>
        <span class="position" aria-live="off"></span>
      </div>
      <input type="range" class="scrub" min="0" max="${last}" step="1" value="0" aria-label="Move">
      <div class="analysis">
        <div class="strip" role="img" data-steps="${last + 1}"></div>
        <div class="summary">${summaryHtml(data)}</div>
      </div>
      <div class="replay-body">
        <div class="board" id="board" aria-label="${escapeHtml(title)} board at the step shown"></div>
        <div class="panel moves">
          <h2>Moves</h2>
          <ol class="move-list" start="0">${data.steps.map((step, k) => moveItem(data, step, k)).join("")}</ol>
        </div>
      </div>
      ${KEYS}
    </section>`;
  renderStrip(root.querySelector(".strip"), data.analysis);
  return {
    board: root.querySelector("#board"),
    controls: root.querySelector(".controls"),
    play: root.querySelector("[data-control=play]"),
    speed: root.querySelector("select[name=speed]"),
    position: root.querySelector(".position"),
    scrub: root.querySelector(".scrub"),
    strip: root.querySelector(".strip"),
    summary: root.querySelector(".summary"),
    list: root.querySelector(".move-list"),
    share: root.querySelector(".share"),
  };
}

function moveItem(data, step, k) {
  const { text, label } = describeMove(step);
  const verdict = data.analysis?.verdicts[k];
  const previous = k > 0 ? data.steps[k - 1].at_ms : null;
  const gap = previous != null && step.at_ms != null ? ` (+${gapText(step.at_ms - previous)})` : "";
  const clock = step.elapsed_ms == null ? "" : formatTime(step.elapsed_ms);
  const when = step.at_ms == null ? "" : new Date(step.at_ms).toISOString();
  const mark = verdict ? `<span class="verdict v-${escapeHtml(verdict)}" title="${escapeHtml(VERDICT_TEXT[verdict] ?? verdict)}">
    <span class="visually-hidden">, ${escapeHtml(VERDICT_TEXT[verdict] ?? verdict)}</span></span>` : "";
  const noReturn = data.analysis?.point_of_no_return === "found" && data.analysis.lost_at === k
    ? '<span class="no-return-badge">point of no return</span>' : "";
  return `<li data-step="${k}"><button type="button" data-seek="${k}" aria-label="${k === 0 ? "" : `move ${k}: `}${escapeHtml(label)}">
      <span class="number">${k === 0 ? "" : `${k}.`}</span> <span class="what">${escapeHtml(text)}</span>${mark}${noReturn}
      <time class="when" datetime="${escapeHtml(when)}" title="server time ${escapeHtml(when)}">${escapeHtml(clock)}${escapeHtml(gap)}</time>
    </button></li>`;
}

/** The time since the entry before: "840 ms", "3.2 s", "1:05". */
function gapText(ms) {
  if (ms < 1000) return `${ms} ms`;
  return ms < 60_000 ? `${(ms / 1000).toFixed(1)} s` : formatTime(ms);
}

/** Show `player.step`: the board, the scrub bar, the strip, the list, the controls. */
export function renderStep(parts, data, player) {
  const step = data.steps[player.step];
  const state = { view: step.view, role: "spectator", selection: null, pending: null };
  renderBoard(parts.board, state, { revealed: true, unseen: new Set(step.hidden) });
  const last = data.steps.length - 1;
  const { text } = describeMove(step);
  parts.position.textContent = player.step === 0 ? `The deal · ${last} moves` : `Move ${player.step} of ${last}`;
  parts.scrub.value = String(player.step);
  parts.scrub.setAttribute("aria-valuetext", player.step === 0 ? "the deal" : `move ${player.step} of ${last}: ${text}`);
  parts.play.textContent = player.playing ? "⏸ Pause" : "▶ Play";
  parts.play.setAttribute("aria-label", player.playing ? "Pause (Space)" : "Play (Space)");
  parts.play.dataset.playing = player.playing ? "1" : "";
  parts.speed.value = String(player.speed);
  for (const [control, disabled] of [["first", player.step === 0], ["back", player.step === 0],
    ["forward", player.step === last], ["end", player.step === last]]) {
    parts.controls.querySelector(`[data-control=${control}]`).disabled = disabled;
  }
  markStripStep(parts.strip, player.step);
  const current = parts.list.querySelector('[aria-current="step"]');
  current?.removeAttribute("aria-current");
  const item = parts.list.querySelector(`li[data-step="${player.step}"]`);
  item?.setAttribute("aria-current", "step");
  keepInView(parts.list, item);
}

/** Scroll the move list (only the list, never the page) so the current move shows. */
function keepInView(list, item) {
  if (!item) return;
  const top = item.offsetTop - list.offsetTop;
  if (top < list.scrollTop) list.scrollTop = top;
  else if (top + item.offsetHeight > list.scrollTop + list.clientHeight) {
    list.scrollTop = top + item.offsetHeight - list.clientHeight;
  }
}
