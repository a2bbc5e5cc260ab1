// The games the start page offers: ids, titles and variant choices. This is a menu, not rules:
// what may be played always comes from the server's view.legal.

export const GAMES = [
  {
    id: "wish",
    title: "The Wish",
    blurb: "32 cards in 8 piles. Pair off top cards of equal rank until every pile is gone.",
    variant: [{ name: "mode", label: "Mode", options: [["standard", "Standard (3 face down)"], ["open", "Open (all face up)"]] }],
    actions: [],
  },
  {
    id: "patient-pairs",
    title: "Patient Pairs",
    blurb: "52 cards face up. Remove pairs of equal rank from the tops of the piles.",
    variant: [{ name: "piles", label: "Piles", options: [13, 12, 11, 10, 9, 8].map((n) => [n, String(n)]) }],
    actions: [],
  },
  {
    id: "spider",
    title: "Spider",
    blurb: "Two decks, ten columns. Build King to Ace in one suit; complete runs clear away.",
    variant: [{ name: "suits", label: "Suits", options: [[1, "1 suit"], [2, "2 suits"], [4, "4 suits"]] }],
    actions: ["deal", "undo"],
  },
  {
    id: "wizard",
    title: "Solitaire Wizard",
    blurb: "Seven magic suits. Wizards open the foundations; Spells, Potions and Luck bend the draw.",
    variant: [{
      name: "redeals",
      label: "Redeals",
      options: [[null, "Unlimited"], [3, "3"], [1, "1"], [0, "None"]],
    }],
    actions: ["deal", "recycle", "cast"],
  },
  {
    id: "wading-pool",
    title: "Wading Pool",
    blurb: "52 cards face up in 8 piles. Sort each suit into one King-to-Ace run.",
    variant: [],
    actions: [],
  },
];

export const gameInfo = (id) => GAMES.find((game) => game.id === id)
  ?? { id, title: id, blurb: "", variant: [], actions: [] };
