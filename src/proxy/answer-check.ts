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

/**
 * True when `body` is the complete, successful answer of `tail` (its route: `/chat/completions`,
 * `/messages`, `/models`), so it may be kept and shared.
 */
export function completeAnswer(tail: string, body: Buffer): boolean {
  let a: unknown;
  try {
    a = JSON.parse(new TextDecoder('utf-8', { fatal: true }).decode(body));
  } catch {
    return false; // cut off mid-body, an SSE stream, or not text
  }
  if (!isObject(a)) return false;
  if (a.error !== undefined && a.error !== null) return false;
  if (a.object === 'error' || a.type === 'error') return false; // vLLM's and Anthropic's shapes
  const route = tail.split('?')[0]!;
  if (route.endsWith('/chat/completions')) return Array.isArray(a.choices) && a.choices.length > 0;
  if (route.endsWith('/messages')) return a.type === 'message' && Array.isArray(a.content);
  if (route.endsWith('/models')) return Array.isArray(a.data);
  return false;
}
