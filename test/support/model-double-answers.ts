// Replies the test double can give, and helpers to build them: a JSON answer, an answer that
// fills the JSON Schema the client sent (handy for judges: one entry per rubric item), and a
// handler that picks its reply by looking at the prompt text.
import type { DoubleRequest } from './model-double-request.ts';

export interface DoubleUsage {
  inputTokens: number;
  outputTokens: number;
}

/** Every reply may wait `delayMs` before it is sent (or before the fault happens). */
interface Delay {
  delayMs?: number;
}

/** A normal answer: the assistant's text. */
export interface ContentReply extends Delay {
  content: string;
  /** Tokens to report; by default about one token per four characters. */
  usage?: DoubleUsage;
  /** `length` makes the answer look truncated. Default `stop`. */
  finishReason?: 'stop' | 'length';
  /** OpenAI-compatible only: sent as `message.reasoning_content` (vLLM's reasoning parser). */
  reasoning?: string;
  /**
   * OpenAI-compatible only: `choices[0].logprobs` exactly as given (null included); the key
   * is left out when undefined (Ollama's shape). See model-double-logprobs.ts.
   */
  logprobs?: unknown;
  /** OpenAI-compatible only: sent as `system_fingerprint`. */
  systemFingerprint?: string;
  /**
   * Send the scores as written even to a judge asked for one digit (model-double-grid.ts
   * otherwise reads a score in [0,1] as a 0.01-grid answer and rewrites it to digits).
   */
  asWritten?: boolean;
}

/** An HTTP error (429, 500, …) with optional headers such as `retry-after`. */
export interface StatusReply extends Delay {
  status: number;
  headers?: Record<string, string>;
  /** Body text; by default a protocol-shaped JSON error. */
  body?: string;
}

/** Never answers; the connection stays open until the client gives up or the double closes. */
export interface HangReply extends Delay {
  hang: true;
}

/** A 200 response whose body is exactly this text (e.g. malformed JSON). */
export interface RawReply extends Delay {
  raw: string;
  status?: number;
}

export type DoubleReply = ContentReply | StatusReply | HangReply | RawReply;

export type DoubleHandler = (req: DoubleRequest) => DoubleReply | Promise<DoubleReply>;

/** A reply whose text is `value` as JSON. */
export function jsonAnswer(
  value: unknown,
  extra: Omit<ContentReply, 'content'> = {},
): ContentReply {
  return { content: JSON.stringify(value), ...extra };
}

type Schema = Record<string, unknown>;

/**
 * What to put at a leaf of the schema; `path` is the property path, e.g. ['items', 0, 'score'].
 * Return undefined for the default: `true`, `"text for <path>"`, or 3/4 of a number's range.
 */
export type LeafFiller = (
  kind: 'string' | 'number' | 'integer' | 'boolean',
  path: (string | number)[],
  schema: Schema,
) => unknown;

const defaultLeaf: LeafFiller = (kind, path, schema) => {
  if (kind === 'boolean') return true;
  if (kind === 'string') return `text for ${path.join('.') || 'root'}`;
  const min = typeof schema.minimum === 'number' ? schema.minimum : 0;
  const max = typeof schema.maximum === 'number' ? schema.maximum : min + 1;
  return kind === 'integer' ? Math.ceil(min) : min + (max - min) * 0.75;
};

function resolveRef(root: Schema, ref: string): Schema {
  // Only local refs (#/$defs/x, #/definitions/x): that is what zod's toJSONSchema emits.
  let node: unknown = root;
  for (const key of ref.replace(/^#\/?/, '').split('/')) {
    if (key === '') continue;
    node = (node as Schema | undefined)?.[key];
  }
  return (node ?? {}) as Schema;
}

const DIGITS = '[0,1,2,3,4,5,6,7,8,9]';

/**
 * A value that satisfies `schema` (objects get every property, arrays `minItems` or one
 * element, enums their first value, numeric enums the member nearest the leaf's number);
 * `leaf` decides strings, numbers and booleans.
 *
 * A judge's one-digit score (the enum 0–9 of expected/auto scoring) is filled on the 0.01
 * grid by default: the leaf sees a number in [0,1] (default 0.75) and the value is kept as
 * it is, for the double to rewrite into a digit with logprobs whose expectation is that score
 * (model-double-grid.ts) — so fixtures written for the grid keep their meaning. `digits:
 * 'as-written'` treats the enum like any other (a filler that chooses digits).
 */
export function fillSchema(
  schema: Schema,
  leaf: LeafFiller = defaultLeaf,
  opts: { digits?: 'grid' | 'as-written' } = {},
): unknown {
  const walk = (s: Schema, path: (string | number)[], depth: number): unknown => {
    if (depth > 32) return null;
    if (typeof s.$ref === 'string') return walk(resolveRef(schema, s.$ref), path, depth + 1);
    if ('const' in s) return s.const;
    // A judge's one-digit score is always a `score` field (src/judge/schema.ts): a count
    // offered as 0…9 (PrismaForge's satisfied_count over nine criteria) is not a score.
    if (
      opts.digits !== 'as-written' &&
      JSON.stringify(s.enum) === DIGITS &&
      path[path.length - 1] === 'score'
    ) {
      const grid: Schema = { type: 'number', minimum: 0, maximum: 1 };
      const want = Number(leaf('number', path, grid) ?? defaultLeaf('number', path, grid));
      return Math.min(1, Math.max(0, want));
    }
    if (Array.isArray(s.enum) && s.enum.length > 0 && s.enum.every((v) => typeof v === 'number')) {
      // A number offered as a list (the judge's 0.01 score grid): the leaf's number, snapped
      // to the nearest member, so fillers that choose scores keep working.
      const want = Number(leaf('number', path, s) ?? defaultLeaf('number', path, s));
      const members = s.enum as number[];
      return members.reduce((a, b) => (Math.abs(b - want) < Math.abs(a - want) ? b : a));
    }
    if (Array.isArray(s.enum)) return s.enum[0];
    const alt = (s.anyOf ?? s.oneOf) as Schema[] | undefined;
    if (Array.isArray(alt) && alt.length > 0) return walk(alt[0]!, path, depth + 1);
    const type = Array.isArray(s.type) ? s.type.find((t) => t !== 'null') : s.type;
    if (type === 'object' || (type === undefined && s.properties)) {
      const out: Record<string, unknown> = {};
      const props = (s.properties ?? {}) as Record<string, Schema>;
      for (const [k, v] of Object.entries(props)) out[k] = walk(v, [...path, k], depth + 1);
      return out;
    }
    if (type === 'array') {
      const n = typeof s.minItems === 'number' ? Math.max(1, s.minItems) : 1;
      const item = (s.items ?? {}) as Schema;
      return Array.from({ length: n }, (_, i) => walk(item, [...path, i], depth + 1));
    }
    if (type === 'string' || type === 'number' || type === 'integer' || type === 'boolean') {
      return leaf(type, path, s) ?? defaultLeaf(type, path, s);
    }
    return null;
  };
  return walk(schema, [], 0);
}

/** Answers with `fillSchema` applied to the schema the request carried (400-ish error if none). */
export function schemaAnswer(leaf?: LeafFiller): DoubleHandler {
  return (req) => {
    if (!req.schema) return { status: 400, body: '{"error":{"message":"no schema in request"}}' };
    return jsonAnswer(fillSchema(req.schema, leaf));
  };
}

export interface PromptRoute {
  /** Substring or pattern looked for in the request's text, or a predicate. */
  when: string | RegExp | ((req: DoubleRequest) => boolean);
  reply: DoubleReply | DoubleHandler;
}

/** A handler that takes the first route whose `when` matches the request text. */
export function routeByPrompt(routes: PromptRoute[], fallback?: DoubleReply | DoubleHandler) {
  return (req: DoubleRequest): DoubleReply | Promise<DoubleReply> => {
    for (const r of routes) {
      const hit =
        typeof r.when === 'string'
          ? req.text.includes(r.when)
          : r.when instanceof RegExp
            ? r.when.test(req.text)
            : r.when(req);
      if (hit) return typeof r.reply === 'function' ? r.reply(req) : r.reply;
    }
    if (fallback === undefined) {
      return { status: 404, body: '{"error":{"message":"no route matched the prompt"}}' };
    }
    return typeof fallback === 'function' ? fallback(req) : fallback;
  };
}
