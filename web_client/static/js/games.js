// The games this server plays, as GET /api/catalog describes them: ids, titles, blurbs, the named
// variants (presets) a menu offers and the action buttons. This is a menu, not rules: what may be
// played always comes from the server's view.legal. No game is named in this client.

let loading = null;
let byId = new Map();

/** The catalogue's games in menu order; fetched once per page load (again after a failure). */
export function loadCatalog() {
  loading ??= fetch("/api/catalog")
    .then((response) => {
      if (!response.ok) throw new Error(`the game list did not load (${response.status})`);
      return response.json();
    })
    .then((catalog) => {
      byId = new Map(catalog.games.map((game) => [game.id, game]));
      return catalog.games;
    })
    .catch((error) => {
      loading = null;
      throw error;
    });
  return loading;
}

/** One game's entry; a game the catalogue does not know is shown by its id, with no buttons. */
export const gameInfo = (id) => byId.get(id)
  ?? { id, title: id, blurb: "", presets: [], default_variant: {}, actions: [], has_undo: false };

/** A variant as a new game is asked for with it: without its null ("the default") fields. */
export const withoutDefaults = (variant) =>
  Object.fromEntries(Object.entries(variant ?? {}).filter(([, v]) => v !== null));

/** The index of the preset a menu selects first: the game's default variant. */
export function defaultPreset(game) {
  const same = (variant) => JSON.stringify(variant) === JSON.stringify(game.default_variant);
  return Math.max(0, game.presets.findIndex((preset) => same(preset.variant)));
}

/** A variant as the server writes it in challenge keys and statistics ("suits=2"): fields sorted by
 * name, each value in the server's (Python's) spelling, so a preset is found from either form. */
export function variantText(variant) {
  const spell = (v) => (v === null ? "None" : v === true ? "True" : v === false ? "False" : String(v));
  return Object.keys(variant ?? {}).sort().map((name) => `${name}=${spell(variant[name])}`).join(",");
}

/** The title of the game's preset with this variant (an object or its text); else the text itself. */
export function presetTitle(gameId, variant) {
  const text = typeof variant === "string" ? variant : variantText(variant);
  const preset = gameInfo(gameId).presets.find((p) => variantText(p.variant) === text);
  return preset ? preset.title : text.replaceAll("=", " ").replaceAll(",", ", ");
}
