// The game's websocket: one handler table for the s2c.* messages, the version kept in the state,
// a c2s.sync on any gap, and automatic reconnects with capped, jittered backoff. Every (re)connect
// asks for a new one-use ticket first (`url()`): the token never goes in a URL.

import { parseJson } from "./json.js";
import { beginMove, receiveView, settleMove } from "./state.js";

const BACKOFF_MS = [250, 500, 1000, 2000, 4000, 8000];
const PING_EVERY_MS = 15000;
const SILENCE_LIMIT_MS = 40000; // no frame at all for this long: the connection is dead
const RESEND_AFTER_MS = 5000; // an unanswered move is sent again (the server dedupes by move_id)
const FATAL_CLOSE_CODES = new Set([4401, 4403, 4404]); // refused ticket or token, forbidden, no such game

const HANDLERS = {
  "s2c.snapshot"(link, msg) {
    receiveView(link.state, msg, true);
    link.attempt = 0;
    link.unavailable = 0;
    link.setConnection("online");
    link.resendPending();
    link.changed("snapshot");
  },
  "s2c.update"(link, msg) {
    const result = receiveView(link.state, msg, false);
    if (result === "gap") link.sync();
    else if (result === "applied") link.changed("update");
  },
  "s2c.accepted"(link, msg) {
    settleMove(link.state, msg.move_id);
    // One frame per move: the acceptance carries the game after it (no s2c.update follows for this
    // socket). A retry of a move this socket showed carries none; should the version still be behind,
    // ask if the update does not come; a delta that does not follow what is held: ask at once.
    if (receiveView(link.state, msg, false) === "gap") link.sync();
    else if (msg.version > link.state.version) link.syncSoon();
    link.changed("accepted"); // (the new view is drawn with it; "accepted" is what sounds the move)
  },
  "s2c.rejected"(link, msg) {
    settleMove(link.state, msg.move_id);
    if (msg.version !== link.state.version) link.sync();
    link.notice(msg.message || `Move rejected (${msg.code})`, "error");
    link.changed("rejected");
  },
  "s2c.error"(link, msg) {
    link.notice(msg.message || `Server error (${msg.code})`, "error");
    // The server is overloaded or its store away; the socket stays open: ask again after a backoff.
    if (msg.code === "unavailable") link.askAgainLater();
  },
  "s2c.pong"() {},
};

export class GameLink {
  /** `url()` resolves to the websocket address with a fresh ticket (each one opens one socket). */
  constructor(state, { url, onChange, onNotice, onConnection }) {
    Object.assign(this, { state, url, onChange, onNotice, onConnection });
    this.ws = null;
    this.attempt = 0;
    this.unavailable = 0; // s2c.error unavailable answers in a row
    this.stopped = false;
    this.timers = {};
    this.lastFrameAt = 0;
    this.onOnline = () => this.reconnectNow();
    // Offline: the socket may linger half-open for a long time; drop it now and say so.
    this.onOffline = () => this.ws?.close(4000, "the browser is offline");
    window.addEventListener("online", this.onOnline);
    window.addEventListener("offline", this.onOffline);
  }

  async open() {
    if (this.stopped) return;
    this.setConnection(this.attempt ? "reconnecting" : "connecting");
    const opening = {};
    this.opening = opening; // a later open() wins over one still waiting for its ticket
    let url;
    try {
      url = await this.url();
    } catch {
      if (!this.stopped && this.opening === opening) this.retryLater(); // no ticket now: as a dropped socket
      return;
    }
    if (this.stopped || this.opening !== opening) return;
    const ws = new WebSocket(url);
    this.ws = ws;
    ws.onmessage = (event) => this.receive(event.data);
    ws.onclose = (event) => this.dropped(ws, event);
    ws.onopen = () => {
      this.lastFrameAt = performance.now();
      clearInterval(this.timers.ping);
      this.timers.ping = setInterval(() => this.heartbeat(), PING_EVERY_MS);
    };
  }

  receive(data) {
    this.lastFrameAt = performance.now();
    let msg;
    try {
      msg = parseJson(data); // a seed in the frame is 64 bits: kept exact
    } catch {
      return; // not ours to answer: the server speaks JSON only
    }
    const handler = HANDLERS[msg?.type];
    if (handler) handler(this, msg);
  }

  dropped(ws, event) {
    if (ws !== this.ws) return; // an old socket replaced by a newer one
    clearInterval(this.timers.ping);
    this.ws = null;
    if (this.stopped) return;
    if (FATAL_CLOSE_CODES.has(event.code)) {
      this.setConnection("failed");
      this.notice(event.reason || "The server refused this game.", "error");
      return;
    }
    this.retryLater();
  }

  retryLater() {
    const base = BACKOFF_MS[Math.min(this.attempt, BACKOFF_MS.length - 1)];
    this.attempt += 1;
    this.setConnection("reconnecting");
    clearTimeout(this.timers.retry);
    this.timers.retry = setTimeout(() => this.open(), base * (0.8 + Math.random() * 0.4));
  }

  reconnectNow() {
    if (this.stopped || (this.ws && this.ws.readyState <= WebSocket.OPEN)) return;
    // (An open() still waiting for its ticket is overtaken by this one.)
    clearTimeout(this.timers.retry);
    this.open();
  }

  heartbeat() {
    if (performance.now() - this.lastFrameAt > SILENCE_LIMIT_MS) {
      this.ws?.close(4000, "silent connection");
      return;
    }
    this.send({ type: "c2s.ping" });
    const pending = this.state.pending;
    if (pending && performance.now() - pending.sentAt > RESEND_AFTER_MS) this.resendPending();
  }

  send(frame) {
    if (this.ws?.readyState !== WebSocket.OPEN) return false;
    this.ws.send(JSON.stringify(frame));
    return true;
  }

  /** Send an intent. False when a move is already in flight. */
  sendMove(move) {
    const frame = beginMove(this.state, move);
    if (!frame) return false;
    this.send(frame); // if the socket is down, the frame goes out after the reconnect
    this.changed("pending");
    return true;
  }

  resendPending() {
    const pending = this.state.pending;
    if (pending && this.send(pending.frame)) pending.sentAt = performance.now();
  }

  sync() {
    this.send({ type: "c2s.sync", version: Math.max(0, this.state.version) });
  }

  /** After `unavailable`: a snapshot again (the first one may be what failed); its handler resends the move
   * in flight, which the server dedupes by move_id. */
  askAgainLater() {
    const base = BACKOFF_MS[Math.min(this.unavailable, BACKOFF_MS.length - 1)];
    this.unavailable += 1;
    clearTimeout(this.timers.again);
    this.timers.again = setTimeout(() => this.sync(), base * (0.8 + Math.random() * 0.4));
  }

  syncSoon() {
    clearTimeout(this.timers.sync);
    const expected = this.state.version;
    this.timers.sync = setTimeout(() => {
      if (this.state.version === expected) this.sync();
    }, 1000);
  }

  setConnection(status) {
    this.state.connection = status;
    this.onConnection?.(status);
  }

  changed(reason) {
    this.onChange?.(reason);
  }

  notice(text, kind) {
    this.onNotice?.(text, kind);
  }

  close() {
    this.stopped = true;
    window.removeEventListener("online", this.onOnline);
    window.removeEventListener("offline", this.onOffline);
    Object.values(this.timers).forEach((t) => { clearTimeout(t); clearInterval(t); });
    this.ws?.close(1000, "leaving the game");
    this.ws = null;
    this.setConnection("idle");
  }
}
