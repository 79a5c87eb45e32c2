// Arbitrary values a JSON Schema allows, from a seed: what a model under guided decoding
// (vLLM/SGLang structured outputs, Ollama `format`) may legally write and nothing else. Free
// strings are any text the schema admits — empty, whitespace only, quotes, backslashes, NUL,
// emoji, "</think>", fences — numbers anywhere in their bounds (the bounds themselves
// included), arrays any allowed length, enums and consts any member, optional properties
// present or not, and extra properties wherever `additionalProperties` is not false. A
// schema keyword this walker does not understand throws, so a test never passes because a
// constraint was silently ignored.

type Schema = Record<string, unknown>;
export type Rng = () => number;

/** mulberry32: small, seedable, good enough to pick values. */
export function seededRng(seed: number): Rng {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** FNV-1a of a string, to derive a per-request seed from what the request says. */
export function hashString(s: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < s.length; i++) {
    h ^= s.charCodeAt(i);
    h = Math.imul(h, 0x01000193) >>> 0;
  }
  return h;
}

/** Keywords that only annotate; everything else must be understood below. */
const ANNOTATIONS = new Set(['$schema', '$id', 'title', 'description', 'default', 'examples']);
const UNDERSTOOD = new Set([
  ...ANNOTATIONS,
  '$ref',
  '$defs',
  'definitions',
  'type',
  'const',
  'enum',
  'anyOf',
  'oneOf',
  'properties',
  'required',
  'additionalProperties',
  'items',
  'prefixItems',
  'minItems',
  'maxItems',
  'minLength',
  'maxLength',
  'minimum',
  'maximum',
  'exclusiveMinimum',
  'exclusiveMaximum',
]);

/** Characters a tokenizer can emit inside a JSON string that often break naive handling. */
const ODD_CHARS = [
  '"',
  '\\',
  '\n',
  '\t',
  '\r',
  '\u0000',
  '/',
  '<',
  '>',
  '{',
  '}',
  '`',
  'é',
  '💥',
  ' ',
];
const ODD_TOKENS = ['</think>', '<think>', '```json', '```', '</svg>', '{"a":1}', '\\u0000'];
const LETTERS = 'abcdefghijklmnopqrstuvwxyz';

const pick = <T>(rng: Rng, xs: readonly T[]): T => xs[Math.floor(rng() * xs.length)]!;
const int = (rng: Rng, lo: number, hi: number) => lo + Math.floor(rng() * (hi - lo + 1));

function randomWord(rng: Rng): string {
  let w = '';
  for (let i = int(rng, 1, 9); i > 0; i--) w += pick(rng, [...LETTERS]);
  return w;
}

/** A string of exactly `len` code points (JSON Schema lengths count code points). */
function randomString(rng: Rng, len: number): string {
  if (len > 0 && rng() < 0.15)
    return Array.from({ length: len }, () => pick(rng, [' ', '\n', '\t'])).join('');
  const out: string[] = [];
  while (out.length < len) {
    const r = rng();
    const piece =
      r < 0.55
        ? randomWord(rng)
        : r < 0.75
          ? ' '
          : r < 0.92
            ? pick(rng, ODD_CHARS)
            : pick(rng, ODD_TOKENS);
    out.push(...Array.from(piece));
  }
  return out.slice(0, len).join('');
}

function randomNumber(rng: Rng, s: Schema, integer: boolean): number {
  const lo =
    typeof s.minimum === 'number'
      ? s.minimum
      : typeof s.exclusiveMinimum === 'number'
        ? s.exclusiveMinimum
        : undefined;
  const hi =
    typeof s.maximum === 'number'
      ? s.maximum
      : typeof s.exclusiveMaximum === 'number'
        ? s.exclusiveMaximum
        : undefined;
  const loOpen = typeof s.minimum !== 'number' && lo !== undefined;
  const hiOpen = typeof s.maximum !== 'number' && hi !== undefined;
  const a = lo ?? (hi !== undefined ? hi - 1e6 : -1e6);
  const b = hi ?? a + 2e6;
  for (let tries = 0; tries < 100; tries++) {
    const r = rng();
    // The bounds themselves are the values a lax converter gets wrong: try them often.
    let x = r < 0.15 ? a : r < 0.3 ? b : a + rng() * (b - a);
    if (integer) x = Math.round(x);
    if (x < a || x > b || (loOpen && x === a) || (hiOpen && x === b)) continue;
    return x;
  }
  throw new Error(`schema-random: no ${integer ? 'integer' : 'number'} in ${JSON.stringify(s)}`);
}

function resolveRef(root: Schema, ref: string): Schema {
  if (!ref.startsWith('#')) throw new Error(`schema-random: remote $ref ${ref}`);
  let node: unknown = root;
  for (const key of ref.slice(1).split('/').filter(Boolean)) node = (node as Schema)[key];
  if (typeof node !== 'object' || node === null) throw new Error(`schema-random: bad $ref ${ref}`);
  return node as Schema;
}

/** Any JSON value (for unconstrained places and extra properties). */
function anyValue(rng: Rng, depth: number): unknown {
  const r = rng();
  if (depth > 2 || r < 0.2) return randomString(rng, int(rng, 0, 12));
  if (r < 0.35) return randomNumber(rng, {}, false);
  if (r < 0.45) return rng() < 0.5;
  if (r < 0.55) return null;
  if (r < 0.75) return Array.from({ length: int(rng, 0, 3) }, () => anyValue(rng, depth + 1));
  return Object.fromEntries(
    Array.from({ length: int(rng, 0, 3) }, () => [randomWord(rng), anyValue(rng, depth + 1)]),
  );
}

/** A value `schema` allows, chosen by `rng`. */
export function randomInstance(schema: Schema, rng: Rng): unknown {
  const walk = (s: Schema | boolean, depth: number): unknown => {
    if (s === true) return anyValue(rng, 0);
    if (s === false) throw new Error('schema-random: the schema allows nothing here');
    if (depth > 40) throw new Error('schema-random: schema too deep');
    for (const k of Object.keys(s)) {
      if (!UNDERSTOOD.has(k)) throw new Error(`schema-random: keyword "${k}" not understood`);
    }
    if (typeof s.$ref === 'string') return walk(resolveRef(schema, s.$ref), depth + 1);
    if ('const' in s) return s.const;
    if (Array.isArray(s.enum)) return pick(rng, s.enum);
    const alt = (s.anyOf ?? s.oneOf) as Schema[] | undefined;
    if (Array.isArray(alt)) return walk(pick(rng, alt), depth + 1);
    const type = Array.isArray(s.type)
      ? pick(rng, s.type as string[])
      : (s.type as string | undefined);
    if (type === undefined && !s.properties && !s.items) return anyValue(rng, 0);
    if (type === 'object' || (type === undefined && s.properties)) {
      const props = (s.properties ?? {}) as Record<string, Schema>;
      const required = new Set((s.required ?? []) as string[]);
      const out: Record<string, unknown> = {};
      for (const [k, v] of Object.entries(props)) {
        if (required.has(k) || rng() < 0.5) out[k] = walk(v, depth + 1);
      }
      const extra = s.additionalProperties;
      if (extra !== false) {
        for (let i = int(rng, 0, 2); i > 0; i--) {
          const k = `x_${randomWord(rng)}`;
          if (!(k in props))
            out[k] =
              extra === undefined || extra === true
                ? anyValue(rng, 1)
                : walk(extra as Schema, depth + 1);
        }
      }
      return out;
    }
    if (type === 'array') {
      const prefix = (s.prefixItems ?? []) as Schema[];
      const min = typeof s.minItems === 'number' ? s.minItems : 0;
      const max = typeof s.maxItems === 'number' ? s.maxItems : Math.max(min, prefix.length) + 4;
      const n = int(rng, Math.max(min, 0), max);
      return Array.from({ length: n }, (_, i) =>
        i < prefix.length
          ? walk(prefix[i]!, depth + 1)
          : walk((s.items ?? true) as Schema | boolean, depth + 1),
      );
    }
    if (type === 'string') {
      const min = typeof s.minLength === 'number' ? s.minLength : 0;
      const max = typeof s.maxLength === 'number' ? s.maxLength : min + 40;
      // Empty and minimal strings are where "non-empty" rules live: pick them often.
      const r = rng();
      const len = r < 0.2 ? min : int(rng, min, max);
      return randomString(rng, len);
    }
    if (type === 'number' || type === 'integer') return randomNumber(rng, s, type === 'integer');
    if (type === 'boolean') return rng() < 0.5;
    if (type === 'null') return null;
    throw new Error(`schema-random: cannot build a value for ${JSON.stringify(s).slice(0, 200)}`);
  };
  return walk(schema, 0);
}
