// The race page, race.html, routed by hash: "#/" create a race or join one by its code, "#/join/<code>"
// a join link (the server's /race/<code> lands here), "#/r/<race id>" the race room. The room follows
// the race socket through its phases (lobby and countdown, the race, the results), for a racer and for
// a spectator alike: the socket says which one this player is, the server decides everything.

import { mountAccount } from "./account.js";
import { ApiError, identity } from "./api.js";
import { installCardSprite } from "./cards.js";
import { loadCatalog } from "./games.js";
import { escapeHtml } from "./html.js";
import { sentence, toast } from "./notice.js";
import { joinByCode, raceSocketUrl } from "./race-api.js";
import { RaceLink, createRaceState } from "./race-link.js";
import { mountCreate, mountLobby } from "./race-lobby.js";
import { mountRace } from "./race-page.js";
import { mountResults } from "./race-results.js";
import { learnNames } from "./race-text.js";

const app = document.getElementById("app");
const PHASE_OF = { lobby: "lobby", countdown: "lobby", started: "race", ended: "results", final: "results" };
const MOUNT = { lobby: mountLobby, race: mountRace, results: mountResults };
let leavePage = () => {};
let routeCount = 0;

function setConnection(status) {
  const el = document.getElementById("connection");
  // As on the play page: nothing shown without a live connection; a lost one is news, not an alarm.
  const text = { idle: "", connecting: "Connecting…", online: "Connected",
    reconnecting: "Offline — connecting…", failed: "Not connected to this race" }[status] ?? status;
  el.dataset.connection = status;
  el.querySelector(".text").textContent = text;
}

function announce(text) {
  const el = document.getElementById("announcer");
  el.textContent = "";
  requestAnimationFrame(() => { el.textContent = text; });
}

const errorText = (error) => (error instanceof ApiError ? sentence(error.message) : String(error));

function showProblem(title, text) {
  app.innerHTML = `<section class="panel race-problem"><h1>${escapeHtml(title)}</h1><p class="reason"></p>
    <p><a href="race.html#/">Create or join a race</a></p></section>`;
  app.querySelector(".reason").textContent = text;
}

/** The race room: one race socket, and the view of the race's phase mounted anew when the phase changes. */
function openRoom(raceId, me) {
  app.innerHTML = `<section class="race-room" data-race-id="${escapeHtml(raceId)}"><p class="hint">Joining the race room…</p></section>`;
  const holder = app.querySelector(".race-room");
  const state = createRaceState(raceId);
  const ctx = { state, me, toast, announce, errorText, go: (hash) => { location.hash = hash; } };
  let phase = null;
  let shown = null;
  const show = () => {
    const race = state.race;
    if (!race) return;
    const next = PHASE_OF[race.status] ?? "results";
    holder.dataset.status = race.status;
    holder.dataset.role = state.role;
    if (next !== phase) {
      shown?.leave();
      phase = next;
      holder.dataset.phase = next;
      holder.replaceChildren();
      shown = MOUNT[next](holder, ctx);
    }
    shown.update();
    const racers = [...race.racers.map((r) => r.player), ...(race.standings ?? []).map((s) => s.player)];
    learnNames(racers).then((learnt) => { if (learnt && shown) shown.update(); });
  };
  const link = new RaceLink(state, {
    url: () => raceSocketUrl(raceId),
    onChange: show,
    onNotice: (text, kind) => {
      if (!state.race) showProblem("No race here", sentence(text));
      else toast(sentence(text), kind);
    },
    onConnection: setConnection,
  });
  // Read-only handle for tests and the curious: what the race socket said, frame by frame.
  ctx.resync = () => link.sync();
  window.race = { state, link };
  link.open();
  return () => {
    link.close();
    shown?.leave();
    delete window.race;
  };
}

async function joinLinkPage(code, current) {
  try {
    const view = await joinByCode(code);
    if (current()) location.replace(`#/r/${encodeURIComponent(view.race_id)}`);
  } catch (error) {
    if (current()) showProblem("Could not join this race", errorText(error));
  }
  return () => {};
}

async function route() {
  leavePage();
  leavePage = () => {};
  const mine = ++routeCount; // a newer hash change while this page loads wins
  const current = () => mine === routeCount;
  let leave = () => {};
  try {
    const { player_id: me } = await identity();
    await loadCatalog().catch(() => null); // without it a game shows by its id
    if (!current()) return;
    const room = location.hash.match(/^#\/r\/([^/]+)$/);
    const join = location.hash.match(/^#\/join\/([^/]+)$/);
    if (room) leave = openRoom(decodeURIComponent(room[1]), me);
    else if (join) leave = await joinLinkPage(decodeURIComponent(join[1]), current);
    else {
      setConnection("idle");
      leave = await mountCreate(app, { me, toast, errorText, current, go: (hash) => { location.hash = hash; } });
    }
  } catch (error) {
    if (current()) showProblem("The race page did not load", errorText(error));
  }
  if (!current()) {
    leave();
    return;
  }
  leavePage = leave;
  app.focus({ preventScroll: true });
}

installCardSprite();
window.addEventListener("hashchange", route);
mountAccount({ onChange: () => route() });
route();
