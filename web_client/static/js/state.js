// The client's state for one game: the server's view and its version, the move in flight, the
// player's current selection. The view's `legal` list is the only source of what may be played:
// this module maps legal intents to (source, target) pairs and knows no rules of any game.

export const ACTION_TYPES = ["deal", "recycle", "cast", "undo", "finish", "resign"];

export function createState(gameId) {
  return {
    gameId,
    role: null, // "player" | "spectator" once the first snapshot arrived
    version: -1,
    view: null,
    seed: null,
    dealNumber: null, // the deal's number once the player may know it (a casual game: at once)
    deal: null,
    elapsedMs: 0,
    elapsedAt: 0, // performance.now() when elapsedMs was received: the clock ticks locally from there
    pending: null, // {frame, sentAt}: the one move sent and not yet answered
    selection: null, // {pile, count, card}: the chosen source of a move
    connection: "connecting",
    moveSeq: 0,
  };
}

/**
 * Take a snapshot, an update or an acceptance. Each carries the game after a move either whole (`snapshot`:
 * version, view, time, and the seed and deal once ended) or as a `delta` against the version before it
 * (docs/protocol.md); an acceptance of a retried move carries neither. A snapshot frame is always taken. A
 * whole update or acceptance is taken when newer; a delta only when its base is the version held: an older
 * one is stale (ignored), one that does not follow is a gap (the caller resyncs with c2s.sync).
 */
export function receiveView(state, msg, isSnapshot) {
  if (msg.delta) return receiveDelta(state, msg.delta);
  const snapshot = msg.snapshot;
  if (!snapshot) return "none";
  if (!isSnapshot && snapshot.version <= state.version) return "stale";
  state.version = snapshot.version;
  state.view = snapshot.view;
  if (isSnapshot && msg.role) state.role = msg.role;
  // Revealed by the server only once the game has ended (won or abandoned), on snapshots and updates.
  state.seed = snapshot.seed ?? null;
  state.dealNumber = snapshot.deal_number ?? null;
  state.deal = snapshot.deal ?? null;
  took(state, snapshot.elapsed_ms);
  return "applied";
}

function receiveDelta(state, delta) {
  if (delta.version <= state.version) return "stale";
  if (!state.view || delta.base !== state.version) return "gap";
  state.version = delta.version;
  state.view = appliedDelta(state.view, delta);
  took(state, delta.elapsed_ms); // (the seed, deal and number stay: a delta goes only while they cannot change)
  return "applied";
}

/** The view a delta stands for, made from the one at its base: the changed piles cut and extended, the
 * legal list's indices read from the old list, the info, buttons and notes replaced only when sent. */
export function appliedDelta(view, delta) {
  const cuts = new Map(delta.piles.map((cut) => [cut.id, cut]));
  const piles = view.piles.map((pile) => {
    const cut = cuts.get(pile.id);
    return cut ? { ...pile, down: cut.down, cards: pile.cards.slice(0, cut.keep).concat(cut.cards) } : pile;
  });
  const legal = delta.legal.map((entry) => (typeof entry === "number" ? view.legal[entry] : entry));
  const next = { ...view, status: delta.status, moves: delta.moves, undos: delta.undos, piles, legal };
  for (const field of ["info", "actions", "notes"]) if (field in delta) next[field] = delta[field];
  return next;
}

function took(state, elapsedMs) {
  state.elapsedMs = elapsedMs ?? 0;
  state.elapsedAt = performance.now();
  state.selection = null;
}

/** Server time in ms, ticking locally between messages while the game runs. */
export function elapsedNow(state, now = performance.now()) {
  if (!state.view || state.view.status !== "in_progress") return state.elapsedMs;
  return state.elapsedMs + Math.max(0, now - state.elapsedAt);
}

export const canPlay = (state) => state.role === "player" && state.view !== null && state.pending === null;

/** Start a move: returns the c2s.move frame, or null while another move is in flight. */
export function beginMove(state, move) {
  if (state.pending) return null;
  state.moveSeq += 1;
  const moveId = `${Date.now().toString(36)}-${state.moveSeq}-${Math.random().toString(36).slice(2, 8)}`;
  const frame = { type: "c2s.move", move_id: moveId, version: state.version, move };
  state.pending = { frame, sentAt: performance.now() };
  state.selection = null;
  return frame;
}

export function settleMove(state, moveId) {
  if (state.pending && state.pending.frame.move_id === moveId) state.pending = null;
}

const pileOfIndex = (index) => `t${index}`;

/** Every legal intent seen as a move from a source to a target pile. Actions are left out. */
export function legalMoves(view) {
  const moves = [];
  for (const intent of view?.legal ?? []) {
    if (intent.type === "move") {
      moves.push({ src: intent.src, dst: intent.dst, count: intent.count ?? 1, card: null, intent });
    } else if (intent.type === "pair") {
      // A pair has no direction: either pile may be chosen first.
      moves.push({ src: pileOfIndex(intent.a), dst: pileOfIndex(intent.b), count: 1, card: null, intent });
      moves.push({ src: pileOfIndex(intent.b), dst: pileOfIndex(intent.a), count: 1, card: null, intent });
    } else if (intent.type === "luck") {
      moves.push({ src: "stock", dst: intent.dst, count: 1, card: intent.card, intent });
    }
  }
  return moves;
}

export const legalAction = (view, type) => (view?.legal ?? []).find((intent) => intent.type === type) ?? null;

/** The server's word on a button: {type, available, code, reason}, or null when the game has no such action now. */
export const actionOf = (view, type) => (view?.actions ?? []).find((action) => action.type === type) ?? null;

/** Moves that start at the selection (a pile, optionally a depth or a stock card). */
export function movesFromSelection(view, selection) {
  if (!selection) return [];
  return legalMoves(view).filter((m) => m.src === selection.pile
    && (selection.card === null || m.card === selection.card));
}

export function isSource(view, pileId, card = null) {
  return legalMoves(view).some((m) => m.src === pileId && (card === null || m.card === card));
}

/** Target pile ids of the selection, for highlighting. */
export function targetsOf(view, selection) {
  return new Set(movesFromSelection(view, selection).map((m) => m.dst));
}

/**
 * The intent for selection -> target. With several legal counts, the one the player picked
 * (by clicking a card at that depth) wins; otherwise the largest group, which is what players
 * usually mean when they point at a whole pile.
 */
export function intentFor(view, selection, dst) {
  const candidates = movesFromSelection(view, selection).filter((m) => m.dst === dst);
  if (!candidates.length) return null;
  const exact = candidates.find((m) => m.count === selection.count);
  if (exact) return exact.intent;
  return candidates.reduce((best, m) => (m.count > best.count ? m : best)).intent;
}

/** Counts (group sizes) the selected pile may move, ascending: for keyboard adjustment. */
export function countsFrom(view, pileId) {
  const counts = new Set(legalMoves(view).filter((m) => m.src === pileId && m.card === null).map((m) => m.count));
  return [...counts].sort((a, b) => a - b);
}

export function pileById(view, id) {
  return view?.piles.find((pile) => pile.id === id) ?? null;
}
