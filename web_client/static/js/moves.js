// A logged move in words, for the replay's move list: from the intent the server sent and the cards
// it named. Names piles the way the board's labels do; decides nothing about whether a move was legal.

import { cardLabel, rankMark } from "./cards.js";

const SUIT_MARKS = { hearts: "♥", diamonds: "♦", spades: "♠", clubs: "♣" };

/** "Q♥" for the French suits, "7 fire" for the others: short enough for a list on a phone. */
export function shortCard(card) {
  const mark = SUIT_MARKS[card.suit];
  return mark ? `${rankMark(card.rank)}${mark}` : `${rankMark(card.rank)} ${card.suit}`;
}

/** "pile 4" for t3, "foundation 1" for f0, "waste", "stock". */
export function pileName(id) {
  const match = /^([tf])(\d+)$/.exec(String(id));
  if (!match) return String(id);
  return `${match[1] === "t" ? "pile" : "foundation"} ${Number(match[2]) + 1}`;
}

function group(cards, count) {
  if (!cards.length) return `${count} card${count === 1 ? "" : "s"}`;
  return cards.length === 1 ? shortCard(cards[0]) : `${shortCard(cards[0])}…${shortCard(cards[cards.length - 1])}`;
}

/**
 * {text, label}: a short text for the list and a full sentence for a screen reader, for the step's
 * `move` and `cards`. The deal (no move) is "The deal".
 */
export function describeMove(step) {
  const move = step.move;
  const cards = step.cards ?? [];
  const full = cards.map(cardLabel).join(" and ");
  if (!move) return { text: "The deal", label: "The deal, before any move" };
  switch (move.type) {
    case "pair":
      return {
        text: cards.length === 2 ? `${shortCard(cards[0])} + ${shortCard(cards[1])}` : `pile ${move.a + 1} + pile ${move.b + 1}`,
        label: `paired ${full || `the tops of piles ${move.a + 1} and ${move.b + 1}`}`,
      };
    case "move": {
      const what = group(cards, move.count ?? 1);
      return {
        text: `${what} → ${pileName(move.dst)}`, // where it came from is on the board and in the label
        label: `moved ${full || what} from ${pileName(move.src)} to ${pileName(move.dst)}`,
      };
    }
    case "luck":
      return {
        text: `${group(cards, 1)} from the stock → ${pileName(move.dst)}`,
        label: `picked ${full || "a card"} out of the stock onto ${pileName(move.dst)}`,
      };
    case "deal":
      return { text: cards.length ? `Deal (${cards.length})` : "Deal", label: cards.length ? `dealt ${full}` : "dealt" };
    case "recycle":
      return { text: "Recycle", label: "turned the waste over into the stock" };
    case "cast":
      return { text: "Cast", label: "cast a spell" };
    case "undo":
      return { text: "Undo", label: "took the last move back" };
    case "resign":
      return { text: "Resign", label: "gave the game up" };
    default:
      return { text: String(move.type), label: String(move.type) };
  }
}
