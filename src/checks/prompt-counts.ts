// How many things a prompt asks to be drawn, read only where the prompt counts things: a
// number (digits, number words, a range) followed by a countable noun ("240 stars", "two
// hundred lanterns", "20-30 birds", "hundreds of fireflies", "a dozen eggs"), or a grid's
// sides followed by the grid ("a 20 by 20 grid", "a 12x12 chessboard"). Every other number
// is not a count: angles ("~45°"), years and eras ("2022-era", "in 1920"), sizes ("500x700",
// "800 pixels wide"), numbers inside a quoted viewBox or attribute, times, percentages.
// Reading those as counts raised the clutter allowance to thousands and hid real piles.

/** Number words and their values; compounds ("two hundred", "twenty-five") are summed/multiplied. */
const UNITS: Record<string, number> = {
  one: 1, two: 2, three: 3, four: 4, five: 5, six: 6, seven: 7, eight: 8, nine: 9, ten: 10,
  eleven: 11, twelve: 12, thirteen: 13, fourteen: 14, fifteen: 15, sixteen: 16, seventeen: 17,
  eighteen: 18, nineteen: 19, twenty: 20, thirty: 30, forty: 40, fifty: 50, sixty: 60,
  seventy: 70, eighty: 80, ninety: 90, dozen: 12,
}; // biome-ignore format: a table
const SCALES: Record<string, number> = { hundred: 100, thousand: 1000 };
/** Plural number words that stand for "many" of a noun after "of": "hundreds of stars". */
const VAGUE: Record<string, number> = { dozens: 60, scores: 60, hundreds: 300, thousands: 3000 };

/**
 * Words after a number that make it a measure, not a count of drawn things: units of length,
 * angle, time, money, resolution, and the words of a size ("wide", "tall", "long").
 */
const MEASURES =
  /^(?:px|pixels?|pt|points?|em|ems|rem|dpi|ppi|cm|mm|km|m|meters?|metres?|inches?|in|ft|feet|foot|yards?|miles?|degrees?|deg|rad|radians?|percent|per|%|years?|yr|months?|weeks?|days?|hours?|hrs?|minutes?|mins?|seconds?|secs?|ms|am|pm|o|bc|ad|bce|ce|th|st|nd|rd|dollars?|euros?|pounds?|cents?|kg|g|lbs?|tons?|bits?|bytes?|kb|mb|gb|fps|hz|k|wide|tall|high|long|deep|thick|times|x|by|to|and|or|era|style|styled|edition|version|model|series|century|centuries|width|height|size|canvas|viewbox|resolution|aspect|ratio|colou?rs?|shades?|steps?|levels?|sides?|sided|layers?|frames?|seconds?)$/;

/** Nouns a grid's sides are followed by. */
const GRID_NOUNS =
  /^(?:grids?|boards?|chessboards?|checkerboards?|arrays?|matri(?:x|ces)|mosaics?|tilings?|tiles?|cells?|squares?|lattices?|panels?|windows?|pixels?|blocks?|icons?|dots?|pattern|table|tables|layout)$/;

/** Irregular plurals a count may precede. */
const IRREGULAR =
  /^(?:people|persons|men|women|children|mice|geese|sheep|fish|deer|teeth|feet|leaves|loaves|knives|wolves|calves|halves|shelves|elves|dice|cacti|fungi|oxen|moose|bison|salmon|trout|aircraft|series|species)$/;

/** Words that can stand between a count and its noun: "240 small yellow stars". */
const LINK =
  /^(?:of|the|small|tiny|big|large|little|identical|different|tall|short|bright|colou?red|red|orange|yellow|green|blue|purple|pink|white|black|grey|gray|brown|golden|silver|wooden|glowing|floating|falling|flying|round|square|paper|jelly|hot|air|more|other|separate|distinct|evenly|spaced|randomly|placed|scattered|individual|[a-z]+-[a-z]+)$/;

/** Short words ending in s that are not plurals. */
const NOT_PLURAL =
  /^(?:was|has|is|its|this|his|hers|yes|us|gas|bus|as|plus|less|thus|across|towards?)$/;

function plural(w: string): boolean {
  if (IRREGULAR.test(w)) return true;
  if (NOT_PLURAL.test(w)) return false;
  return w.length > 2 && w.endsWith('s') && !/(?:ss|us|is|ous)$/.test(w);
}

type Tok = { w: string; pre: string };

/** Words of the prompt with the characters before each, quoted attributes removed. */
function tokens(prompt: string): Tok[] {
  // Markup or code in a prompt ('viewBox="0 0 800 600"', width='500') holds numbers that are
  // not counts; so does a "viewBox 0 0 800 600" written out.
  const text = prompt
    .toLowerCase()
    .replace(/<[^<>]*>/g, ' ; ')
    .replace(/(?<![\w:-])[\w:-]+\s*=\s*(?:"[^"]*"|'[^']*'|\S+)/g, ' ; ')
    .replace(/viewbox\W*(?:-?[\d.]+[\s,]*){1,4}/g, ' ; ');
  const out: Tok[] = [];
  const re = /[a-z]+(?:-[a-z]+)*|\d[\d,]*(?:\.\d+)?/g;
  let last = 0;
  for (const m of text.matchAll(re)) {
    out.push({ w: m[0], pre: text.slice(last, m.index) });
    last = m.index + m[0].length;
  }
  out.push({ w: '', pre: text.slice(last) });
  return out;
}

/** Only spaces between two tokens: punctuation ("45°", "2022-era", "12:30") breaks a count. */
const plain = (t: Tok | undefined) => t !== undefined && /^\s+$/.test(t.pre);

/** A number starting at token i: its value and the index after it, or null. */
function numberAt(toks: Tok[], i: number): { value: number; next: number } | null {
  const t = toks[i]!;
  if (/^\d/.test(t.w)) {
    if (!/^\d{1,3}(?:,\d{3})*$|^\d+$/.test(t.w)) return null; // decimals are measures
    return { value: Number(t.w.replace(/,/g, '')), next: i + 1 };
  }
  let total = 0;
  let current = 0;
  let j = i;
  for (; j < toks.length; j++) {
    if (j > i && !plain(toks[j]) && !(toks[j]!.pre === '-' || toks[j]!.pre.trim() === '')) break;
    const parts = toks[j]!.w.split('-');
    let ok = true;
    for (const p of parts) {
      if (UNITS[p] !== undefined) current += UNITS[p]!;
      else if (SCALES[p] !== undefined) {
        current = Math.max(1, current) * SCALES[p]!;
        if (SCALES[p]! >= 1000) {
          total += current;
          current = 0;
        }
      } else if (p === 'and' && j > i && current > 0) {
        // "two hundred and forty"
      } else ok = false;
    }
    if (!ok) break;
  }
  if (j === i) return null;
  return { value: total + current, next: j };
}

/** The noun a count at `next` counts, within a few linking words, or null. */
function countedNoun(toks: Tok[], next: number): string | null {
  for (let k = next, steps = 0; k < toks.length && steps < 4; k++, steps++) {
    const t = toks[k]!;
    if (!plain(t)) return null;
    if (MEASURES.test(t.w)) return null;
    if (plural(t.w)) return t.w;
    if (!LINK.test(t.w)) return null;
  }
  return null;
}

/**
 * The largest number of things the prompt asks for, or null when it counts nothing: counts
 * followed by a countable noun, ranges ("20-30 birds", "20 to 30 birds": the upper end),
 * grids ("a 20 by 20 grid" → 400), "a dozen eggs", "hundreds of stars".
 */
export function askedCount(prompt: string): number | null {
  const toks = tokens(prompt);
  let best: number | null = null;
  const take = (v: number) => {
    if (v > 0 && v <= 1_000_000) best = Math.max(best ?? 0, v);
  };
  for (let i = 0; i < toks.length - 1; i++) {
    const w = toks[i]!.w;
    // A number glued to a word before it ("v2", "mp3") or after a sign ("~45", "#3", "$20").
    if (/[\w~#$€£@/.]$/.test(toks[i]!.pre) && /\d/.test(w[0] ?? '')) continue;
    if (VAGUE[w] !== undefined) {
      if (toks[i + 1]?.w === 'of' && countedNoun(toks, i + 2)) take(VAGUE[w]!);
      continue;
    }
    const n = numberAt(toks, i);
    if (!n) continue;
    let { value, next } = n;
    // A grid or a range: "20x30", "20 by 20", "20×20"; "20-30", "20 to 30".
    const sep = toks[next];
    if (sep) {
      const glue = sep.pre.trim();
      const times =
        ((sep.w === 'x' || sep.w === 'by') && glue === '') ||
        (['×', '*'].includes(glue) && /^\d/.test(sep.w));
      if (times) {
        const second = numberAt(toks, sep.w === 'x' || sep.w === 'by' ? next + 1 : next);
        if (second) {
          // Sides count cells only when a grid follows; "500x700" alone is a size.
          if (gridNoun(toks, second.next)) take(value * second.value);
          i = second.next - 1;
          continue;
        }
      }
      if ((glue === '-' || glue === '–') && /^\d/.test(sep.w)) {
        const second = numberAt(toks, next);
        if (second) {
          value = Math.max(value, second.value);
          next = second.next;
        }
      } else if (sep.w === 'to' && plain(sep) && toks[next + 1]) {
        const second = numberAt(toks, next + 1);
        if (second) {
          value = Math.max(value, second.value);
          next = second.next;
        }
      }
    }
    if (countedNoun(toks, next)) take(value);
    i = next - 1;
  }
  return best;
}

/** The grid word right after a grid's sides ("grid", "chessboard"), plural or not. */
function gridNoun(toks: Tok[], k: number): string | null {
  for (let s = 0; s < 3 && k + s < toks.length; s++) {
    const t = toks[k + s]!;
    if (!plain(t)) return null;
    if (GRID_NOUNS.test(t.w)) return t.w;
    if (MEASURES.test(t.w)) return null;
  }
  return null;
}
