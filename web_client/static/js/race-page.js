// The race in progress: my own board (the play page's modules: state, socket, render, input) and
// every racer's progress bar and status; a spectator sees the bars only. My game opens at the start
// signal, when the race view first carries its id (the server refuses it before then anyway).

import { socketUrl } from "./api.js";
import { glide, refuse } from "./feedback.js";
import { attachInput } from "./input.js";
import { serverNow } from "./race-link.js";
import { renderProgress } from "./race-progress.js";
import { raceTitle, timeText } from "./race-text.js";
import { renderBoard, renderClock, renderStatus } from "./render.js";
import { GameLink } from "./socket.js";
import { ACTION_TYPES, actionOf, canPlay, createState, legalAction } from "./state.js";

const ACTION_LABELS = { deal: "Deal", recycle: "Recycle", cast: "Cast", undo: "Undo", finish: "Finish", resign: "Resign" };
const ACTION_KEYS = { d: "deal", r: "recycle", c: "cast", u: "undo", f: "finish" };

function boardSkeleton(container) {
  container.innerHTML = `
    <div class="play race-play">
      <div class="play-head">
        <p class="status" role="status" aria-live="off">
          <span data-status="state"></span> · <span data-status="moves"></span> ·
          <span class="clock">time <span data-status="time">0:00</span></span>
          <span data-status="info"></span><span data-status="role" class="role"></span>
        </p>
        <div class="actions" role="toolbar" aria-label="Game actions">
          ${ACTION_TYPES.map((type) => `<button type="button" data-action="${type}" aria-describedby="race-why-${type}" hidden>${ACTION_LABELS[type]}</button>
            <span id="race-why-${type}" class="visually-hidden" data-why="${type}"></span>`).join("")}
        </div>
      </div>
      <div class="board" id="board" aria-label="My board"></div>
    </div>`;
  return { board: container.querySelector("#board"), status: container.querySelector(".status"),
    actions: container.querySelector(".actions") };
}

/** My game of the race's deal: played exactly as on the play page, with what the server lists. */
function mountMyBoard(container, gameId, ctx) {
  const parts = boardSkeleton(container);
  const state = createState(gameId);
  const renderActions = () => { // as on the play page: the server's view.actions, with its reasons
    for (const button of parts.actions.querySelectorAll("[data-action]")) {
      const type = button.dataset.action;
      const action = actionOf(state.view, type);
      button.hidden = action === null;
      button.disabled = !action?.available || !canPlay(state);
      const reason = action && !action.available ? action.reason : "";
      if (reason) button.title = reason;
      else button.removeAttribute("title");
      parts.actions.querySelector(`[data-why="${type}"]`).textContent = reason ? `Not available: ${reason}` : "";
      button.textContent = type === "resign" && button.dataset.confirm ? "Really resign?" : ACTION_LABELS[type];
    }
  };
  const render = () => {
    glide(parts.board, () => renderBoard(parts.board, state));
    renderStatus(parts.status, state);
    renderActions();
  };
  const link = new GameLink(state, {
    url: () => socketUrl(gameId),
    onChange: render,
    onNotice: (text, kind) => { ctx.toast(text, kind); ctx.announce(text); },
    onConnection: (status) => { container.dataset.connection = status; },
  });
  const input = {
    state, render, announce: ctx.announce,
    refuse: (text) => { ctx.announce(text); refuse(parts.board, text); },
    send: (intent) => { if (!link.sendMove(intent)) ctx.announce("Wait: the last move is still on its way."); },
  };
  attachInput(input, parts.board);
  const act = (type) => {
    if (!canPlay(state) || !actionOf(state.view, type)?.available) return;
    const intent = legalAction(state.view, type) ?? { type }; // finish: offered, never in legal
    const button = parts.actions.querySelector(`[data-action=${type}]`);
    if (type === "resign" && !button.dataset.confirm) { // a second press within 4 s confirms
      button.dataset.confirm = "1";
      setTimeout(() => { delete button.dataset.confirm; render(); }, 4000);
      render();
      return;
    }
    delete button.dataset.confirm;
    input.send(intent);
  };
  parts.actions.addEventListener("click", (event) => {
    const type = event.target.closest("[data-action]")?.dataset.action;
    if (type) act(type);
  });
  const onKey = (event) => {
    if (event.target.closest("input, select, textarea, dialog") || event.altKey || event.metaKey) return;
    const key = event.key.toLowerCase();
    const type = event.ctrlKey ? (key === "z" ? "undo" : null) : ACTION_KEYS[key];
    if (type && actionOf(state.view, type)?.available) {
      event.preventDefault();
      act(type);
    }
  };
  let resizeTimer = null;
  const onResize = () => {
    clearTimeout(resizeTimer);
    resizeTimer = setTimeout(render, 100);
  };
  document.addEventListener("keydown", onKey);
  window.addEventListener("resize", onResize);
  const clock = setInterval(() => renderClock(parts.status, state), 250);
  window.arena = { state, link }; // the play page's read-only handle, for tests
  render();
  link.open();
  return () => {
    link.close();
    clearInterval(clock);
    document.removeEventListener("keydown", onKey);
    window.removeEventListener("resize", onResize);
    delete window.arena;
  };
}

export function mountRace(holder, ctx) {
  const { state: raceState, me } = ctx;
  holder.innerHTML = `
    <section class="race-live" aria-labelledby="race-title">
      <div class="race-head">
        <h1 id="race-title"></h1>
        <p class="race-clock">Time left <strong data-race-left></strong></p>
      </div>
      <ol class="race-progress" aria-label="Every racer's progress"></ol>
      <div class="race-mine"></div>
    </section>`;
  const el = (selector) => holder.querySelector(selector);
  let leaveBoard = null;
  const tick = () => {
    const deadline = raceState.race?.deadline_ms;
    if (deadline != null) el("[data-race-left]").textContent = timeText(Math.max(0, deadline - serverNow(raceState)));
  };
  const update = () => {
    const race = raceState.race;
    el("#race-title").textContent = `Race · ${raceTitle(race)}`;
    renderProgress(el(".race-progress"), raceState, me);
    const seat = race.racers.find((r) => r.player === me);
    if (!seat && !leaveBoard) {
      el(".race-mine").innerHTML = '<p class="panel hint race-watching">You are watching: the cards stay hidden until the race is over.</p>';
    } else if (seat?.game_id && !leaveBoard) {
      leaveBoard = mountMyBoard(el(".race-mine"), seat.game_id, ctx);
      ctx.announce("Go! The race has started.");
    }
    tick();
  };
  const timer = setInterval(tick, 500);
  return {
    update,
    leave: () => {
      clearInterval(timer);
      leaveBoard?.();
    },
  };
}
