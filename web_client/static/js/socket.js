// The game's websocket: one handler table for the s2c.* messages, the version kept in the state,
// a c2s.sync on any gap, and automatic reconnects with capped, jittered backoff. Every (re)connect
// asks for a new one-use ticket first (`url()`): the token never goes in a URL. A next game may be
// asked for over the open socket (`newGame`): the socket, moved to it, is then handed to the new game's
// link (`adopt`), with no new handshake, ticket or GET of its summary.

import { parseJson, stringifyJson } from "./json.js";
import { beginMove, receiveView, settleMove } from "./state.js";

const BACKOFF_MS = [250, 500, 1000, 2000, 4000, 8000];
const PING_EVERY_MS = 15000;
const SILENCE_LIMIT_MS = 40000; // no frame at all for this long: the connection is dead
const RESEND_AFTER_MS = 5000; // an unanswered move is sent again (the server dedupes by move_id)
const FATAL_CLOSE_CODES = new Set([4401, 4403, 4404]); // refused ticket or token, forbidden, no such game
const NEW_GAME_WAIT_MS = 6000; // a c2s.new_game unanswered by then: given up, the caller goes over HTTP
// After `unavailable` the game may have been made and the socket moved to it: the same request is sent
// again on the same socket after each of these pauses (the server answers a repeat with the game the
// first one made, or makes it now). Only when every repeat is unavailable too does the caller go over HTTP.
const NEW_GAME_AGAIN_MS = [300, 1200];
// A c2s.new_game's outcome the socket cannot tell: the caller may as well make the game over HTTP.
const UNKNOWN_OUTCOMES = new Set(["unavailable", "closed", "timeout"]);

/** A new game the socket did not make: the server's `code` and `message`. `overHttp` when nothing is known
 * to have happened (no open socket, no answer, the store away): the caller makes the game over HTTP. */
export class LinkRefusal extends Error {
  constructor(code, message) {
    super(message);
    this.code = code;
    this.overHttp = UNKNOWN_OUTCOMES.has(code);
  }
}

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
  "s2c.new_game"(link, msg) {
    link.movedTo(msg);
  },
  "s2c.error"(link, msg) {
    // A new game's refusal names its request; one refused unread names none: while a new game is asked
    // for, that one is taken as its answer too.
    if (link.asked && (msg.request_id == null || msg.request_id === link.asked.requestId)) {
      link.newGameRefused(msg);
      return;
    }
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
    this.asked = null; // {requestId, promise, resolve, reject, timer}: the c2s.new_game awaiting its answer
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
    this.wire(ws);
    ws.onopen = () => this.beat();
  }

  /** Take over a socket another link handed over (`newGame`), already moved to this link's game: in place
   * of open(). Its s2c.new_game frame `first` is this game's first snapshot; the frames that came while
   * no link held the socket follow it, and a close meanwhile reconnects (with a ticket for this game). */
  adopt(parked, first) {
    const ws = parked.ws;
    this.wire(ws);
    this.beat();
    HANDLERS["s2c.snapshot"](this, { role: first.role, snapshot: first.snapshot });
    for (const data of parked.frames) this.receive(data);
    if (parked.closed) this.dropped(ws, parked.closed);
  }

  wire(ws) {
    this.ws = ws;
    ws.onmessage = (event) => this.receive(event.data);
    ws.onclose = (event) => this.dropped(ws, event);
  }

  /** The socket is open: the heartbeat starts (and finds a silent connection). */
  beat() {
    this.lastFrameAt = performance.now();
    clearInterval(this.timers.ping);
    this.timers.ping = setInterval(() => this.heartbeat(), PING_EVERY_MS);
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
    this.giveUpAsking("closed", "the connection dropped");
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
    this.ws.send(stringifyJson(frame)); // (a seed the player typed may be a BigInt)
    return true;
  }

  /**
   * Ask for a new game over this socket (c2s.new_game: what POST /api/games makes). Resolves with the
   * s2c.new_game frame plus `socket`, the socket moved to the new game and handed over: this link is done
   * with it, and the new game's link `adopt`s it. Rejects with a LinkRefusal: the server's refusal, or,
   * marked `overHttp`, no open socket, no answer in time, or the store away (`unavailable` to the request
   * and to each of its repeats).
   */
  newGame({ game, variant = null, seed = null }) {
    if (this.asked) return this.asked.promise; // one request at a time: a second click waits for the first
    if (this.stopped || this.state.connection !== "online" || this.ws?.readyState !== WebSocket.OPEN) {
      return Promise.reject(new LinkRefusal("closed", "not connected"));
    }
    const asked = { requestId: requestId(), repeats: 0 };
    asked.frame = { type: "c2s.new_game", request_id: asked.requestId, game, variant, seed };
    asked.promise = new Promise((resolve, reject) => Object.assign(asked, { resolve, reject }));
    this.asked = asked;
    this.sendAsked();
    return asked.promise;
  }

  /** Send the c2s.new_game asked for (again), and wait for its answer for a while. */
  sendAsked() {
    const asked = this.asked;
    clearTimeout(asked.timer);
    // No answer: the socket may or may not have moved; dropped, it reconnects to this link's game.
    asked.timer = setTimeout(() => {
      this.giveUpAsking("timeout", "the server did not answer");
      this.ws?.close(4000, "no answer to a new game");
    }, NEW_GAME_WAIT_MS);
    if (!this.send(asked.frame)) this.giveUpAsking("closed", "not connected");
  }

  movedTo(msg) {
    const asked = this.asked;
    if (!asked || msg.request_id !== asked.requestId) {
      // On a game this link did not ask for (it cannot tell which): a new socket shows its own game again.
      this.ws?.close(4000, "moved to a game not asked for");
      return;
    }
    this.settleAsking();
    asked.resolve({ ...msg, socket: this.release() });
  }

  newGameRefused(msg) {
    const asked = this.asked;
    if (msg.code === "unavailable" && asked.repeats < NEW_GAME_AGAIN_MS.length) {
      const pause = NEW_GAME_AGAIN_MS[asked.repeats];
      asked.repeats += 1;
      clearTimeout(asked.timer); // (until it is sent again: then the wait for its answer starts anew)
      asked.timer = setTimeout(() => this.sendAsked(), pause * (0.8 + Math.random() * 0.4));
      return;
    }
    this.giveUpAsking(msg.code, msg.message || `Server error (${msg.code})`);
    // The store did not answer, again and again: the game may be made and the socket already moved to it
    // (the server may fail after the move). Dropped, the socket reconnects to the game this link shows.
    if (msg.code === "unavailable") this.ws?.close(4000, "a new game's outcome is unknown");
  }

  settleAsking() {
    clearTimeout(this.asked?.timer);
    this.asked = null;
  }

  giveUpAsking(code, message) {
    const asked = this.asked;
    if (!asked) return;
    this.settleAsking();
    asked.reject(new LinkRefusal(code, message));
  }

  /** Let go of the open socket without closing it, and stop: the frames that come until a link adopts
   * it are kept for that link, in order, and so is a close. */
  release() {
    const ws = this.ws;
    const parked = { ws, frames: [], closed: null, close: () => ws.close(1000, "leaving the game") };
    ws.onmessage = (event) => parked.frames.push(event.data);
    ws.onclose = (event) => { parked.closed = event; };
    ws.onopen = null;
    this.ws = null;
    this.stop();
    return parked;
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

  /** No more timers, reconnects or answers; the socket, if any, is left as it is. */
  stop() {
    this.stopped = true;
    this.giveUpAsking("left", "the game was left"); // (not "closed": its page has gone, nothing to fall back to)
    window.removeEventListener("online", this.onOnline);
    window.removeEventListener("offline", this.onOffline);
    Object.values(this.timers).forEach((t) => { clearTimeout(t); clearInterval(t); });
  }

  close() {
    this.stop();
    this.ws?.close(1000, "leaving the game");
    this.ws = null;
    this.setConnection("idle");
  }
}

/** A request id the server dedupes by (crypto.randomUUID needs a secure context; this does not). */
function requestId() {
  return Array.from(crypto.getRandomValues(new Uint8Array(16)), (b) => b.toString(16).padStart(2, "0")).join("");
}
