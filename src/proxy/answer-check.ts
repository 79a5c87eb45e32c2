// What the proxy may keep and share, and what it must only pipe through (issue 42). A kept
// answer is served for --ttl-s to every replica (and, with --cache redis://, every proxy),
// so a transient judge fault kept once becomes minutes of identical grader faults. Hence:
//  - A request is keepable only when the proxy reads it exactly as the judge server will:
//    plain UTF-8 JSON (no BOM; vLLM and SGLang also accept a BOM and UTF-16/32, which
//    JSON.parse would misread) whose `stream` is absent, null or `false`. pydantic's lax bool
//    streams on 1, "true", "yes", "on"…; anything but those three shapes is ambiguous here,
//    so it is piped through (answered, under the budget, never joined nor kept).
//  - An answer is kept only when it is a 200 whose body parses as the whole answer of its
//    route: a chat completion with `choices`, an Anthropic `message` with `content`, a model
//    list with `data` — never a body with a top-level `error` (overloaded gateways send
//    `{"error": …}` with a 200) or one cut short by the connection closing.

/** True when the request body is a plain non-streaming JSON call the proxy may key and keep. */
export function keepableRequest(body: Uint8Array): boolean {
  if (body.byteLength < 2) return false;
  // A BOM (UTF-8 EF BB BF, UTF-16/32 FE FF / FF FE) or a NUL among the first bytes (BOM-less
  // UTF-16/32, which Python's json.loads detects) means another encoding: not keepable.
  if (body[0] === 0xef || body[0] === 0xfe || body[0] === 0xff) return false;
  for (let i = 0; i < Math.min(4, body.byteLength); i++) if (body[i] === 0) return false;
  let parsed: unknown;
  try {
    parsed = JSON.parse(new TextDecoder('utf-8', { fatal: true }).decode(body));
  } catch {
    return false; // not JSON (or not UTF-8): the judge says what is wrong; never kept
  }
  if (parsed === null || typeof parsed !== 'object' || Array.isArray(parsed)) return false;
  const stream = (parsed as { stream?: unknown }).stream;
  return stream === undefined || stream === null || stream === false;
}

const isObject = (v: unknown): v is Record<string, unknown> =>
  v !== null && typeof v === 'object' && !Array.isArray(v);

/** What the proxy needs to know of one judge answer, read with a single parse. */
export interface AnswerFacts {
  /** The complete, successful answer of its route: it may be kept and shared. */
  complete: boolean;
  /** Tokens (input + output) its `usage` says it used, charged to --judge-tpm; 0 if none. */
  tokens: number;
}

/**
 * Parses `body`, the answer of `tail` (its route: `/chat/completions`, `/messages`, `/models`),
 * once. A judge answer can be tens of MB (--max-answer-mb): each parse holds the decoded text
 * and the parsed tree, so two parses per answer doubled the garbage the stated memory bound
 * has to absorb (docs/scale.md).
 */
export function answerFacts(tail: string, body: Buffer): AnswerFacts {
  let a: unknown;
  try {
    a = JSON.parse(new TextDecoder('utf-8', { fatal: true }).decode(body));
  } catch {
    return { complete: false, tokens: 0 }; // cut off mid-body, an SSE stream, or not text
  }
  if (!isObject(a)) return { complete: false, tokens: 0 };
  return { complete: isWholeAnswer(tail, a), tokens: usageTokens(a.usage) };
}

/** True when `body` is the complete, successful answer of `tail`. */
export const completeAnswer = (tail: string, body: Buffer): boolean =>
  answerFacts(tail, body).complete;

function isWholeAnswer(tail: string, a: Record<string, unknown>): boolean {
  if (a.error !== undefined && a.error !== null) return false;
  if (a.object === 'error' || a.type === 'error') return false; // vLLM's and Anthropic's shapes
  const route = tail.split('?')[0]!;
  if (route.endsWith('/chat/completions')) return Array.isArray(a.choices) && a.choices.length > 0;
  if (route.endsWith('/messages')) return a.type === 'message' && Array.isArray(a.content);
  if (route.endsWith('/models')) return Array.isArray(a.data);
  return false;
}

/** Tokens an OpenAI-shaped (`total_tokens`, prompt + completion) or Anthropic-shaped usage says. */
function usageTokens(u: unknown): number {
  if (!isObject(u)) return 0;
  const n = (k: string) => (typeof u[k] === 'number' ? (u[k] as number) : 0);
  return (
    n('total_tokens') ||
    n('prompt_tokens') + n('completion_tokens') ||
    n('input_tokens') + n('output_tokens')
  );
}
