// JSON with the server's 64-bit integers kept exact. A deal's seed is a 64-bit number: JavaScript's
// numbers hold integers exactly only up to 2^53, so JSON.parse would show (and send back) a rounded
// seed, which deals another deal. Integers beyond that are read as their digits (a string), and a
// BigInt is written as a bare JSON number.

// JSON.parse hands a reviver the number's source text in current browsers; older ones get the
// fallback, which quotes the long integers of "seed" fields before parsing.
let sourceText = false;
JSON.parse("1", (key, value, context) => {
  sourceText = context?.source === "1";
  return value;
});
const LONG_SEED = /("seed"\s*:\s*)(-?\d{16,})/g;

function exact(key, value, context) {
  return typeof value === "number" && !Number.isSafeInteger(value) && /^-?\d+$/.test(context?.source ?? "")
    ? context.source : value;
}

export function parseJson(text) {
  return sourceText ? JSON.parse(text, exact) : JSON.parse(text.replace(LONG_SEED, '$1"$2"'));
}

/** JSON.stringify that writes a BigInt as the number it is (a seed the player typed, digit for digit). */
export function stringifyJson(value) {
  const digits = [];
  const text = JSON.stringify(value, (key, v) => (typeof v === "bigint" ? `\u0000${digits.push(String(v)) - 1}\u0000` : v));
  return text.replace(/"\\u0000(\d+)\\u0000"/g, (_, i) => digits[Number(i)]);
}
