// The race room socket (/ws/races/<id>): the race's public view and every racer's progress, never a
// card. It is the game socket's link (socket.js: tickets, backoff, heartbeat, offline handling) with a
// handler table of its own. Frames carry versions of two kinds: the race log's (s2c.race) and each
// racer's game's (s2c.race_progress): the newest of each is kept, anything older dropped.

import { parseJson } from "./json.js";
import { GameLink } from "./socket.js";

export function createRaceState(raceId) {
  return {
    raceId,
    role: null, // "racer" | "spectator", from the first snapshot
    version: -1, // the race log's version of `race`
    race: null, // the public race view
    progress: new Map(), // player -> the newest s2c.race_progress
    clockOffsetMs: 0, // server clock minus this browser's, from the snapshot's now_ms
    pending: null, // (the game link's heartbeat reads it: a race socket never has a move in flight)
    connection: "connecting",
  };
}

/** The server's clock now, as well as this browser can tell. */
export const serverNow = (state) => Date.now() + state.clockOffsetMs;

const HANDLERS = {
  "s2c.race_snapshot"(link, msg) {
    const state = link.state;
    state.role = msg.role;
    state.clockOffsetMs = msg.now_ms - Date.now();
    state.version = msg.version;
    state.race = msg.race;
    link.attempt = 0;
    link.unavailable = 0;
    link.setConnection("online");
    link.changed("snapshot");
  },
  "s2c.race"(link, msg) {
    if (msg.version <= link.state.version) return; // stale: a newer view is shown
    link.state.version = msg.version;
    link.state.race = msg.race;
    link.changed("race");
  },
  "s2c.race_progress"(link, msg) {
    const known = link.state.progress.get(msg.player);
    if (known && known.version >= msg.version) return;
    link.state.progress.set(msg.player, msg);
    link.changed("progress");
  },
  "s2c.error"(link, msg) {
    link.notice(msg.message || `Server error (${msg.code})`, "error");
    if (msg.code === "unavailable") link.askAgainLater();
  },
  "s2c.pong"() {},
};

export class RaceLink extends GameLink {
  frames = []; // every frame received, in order: read by tests (window.race) to check no card ever came
  receive(data) {
    this.lastFrameAt = performance.now();
    let msg;
    try {
      msg = parseJson(data); // the revealed seed is 64 bits: kept exact
    } catch {
      return;
    }
    this.frames.push(msg);
    HANDLERS[msg?.type]?.(this, msg);
  }
}
