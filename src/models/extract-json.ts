// Finds the JSON value in a model's text answer: drops <think> blocks, prefers ```json fences,
// then the first balanced {…} (then […]) that parses. Never throws, and stays linear in the
// text length: every search is a forward scan and at most MAX_TRIES candidates are parsed.

export type ExtractedJson =
  | { ok: true; value: unknown; from: 'whole' | 'fence' | 'embedded' }
  | { ok: false; reason: string };

const MAX_TRIES = 32;

/**
 * Removes reasoning: every `<think>…</think>` block, everything before a stray `</think>`
 * (chat templates often put the opening tag in the prompt), and an unclosed `<think>` to the end.
 */
export function stripThinking(text: string): string {
  const lower = text.toLowerCase();
  const pieces: string[] = [];
  let i = 0;
  let open = -2; // cached next positions, recomputed only when passed (keeps the scan linear)
  let close = -2;
  while (i < text.length) {
    if (open !== -1 && open < i) open = lower.indexOf('<think>', i);
    if (close !== -1 && close < i) close = lower.indexOf('</think>', i);
    if (close !== -1 && (open === -1 || close < open)) {
      pieces.length = 0; // a closing tag with no opening: what came before was reasoning
      i = close + '</think>'.length;
      continue;
    }
    if (open === -1) {
      pieces.push(text.slice(i));
      break;
    }
    pieces.push(text.slice(i, open));
    if (close === -1) break; // unclosed <think>: the rest is reasoning
    i = close + '</think>'.length;
  }
  return pieces.join('');
}

function tryParse(s: string): { ok: true; value: unknown } | { ok: false } {
  try {
    return { ok: true, value: JSON.parse(s) };
  } catch {
    return { ok: false };
  }
}

/** Index of the bracket closing the one at `start`, skipping strings; -1 if never closed. */
function balancedEnd(s: string, start: number): number {
  let depth = 0;
  let inString = false;
  let escaped = false;
  for (let i = start; i < s.length; i++) {
    const ch = s[i];
    if (inString) {
      if (escaped) escaped = false;
      else if (ch === '\\') escaped = true;
      else if (ch === '"') inString = false;
    } else if (ch === '"') inString = true;
    else if (ch === '{' || ch === '[') depth++;
    else if (ch === '}' || ch === ']') {
      depth--;
      if (depth === 0) return i;
    }
  }
  return -1;
}

/** The first balanced value opening with `opener` that parses; at most `budget.n` tries. */
function embedded(s: string, opener: '{' | '[', budget: { n: number }) {
  let from = 0;
  while (budget.n > 0) {
    const start = s.indexOf(opener, from);
    if (start === -1) return undefined;
    budget.n--;
    const end = balancedEnd(s, start);
    const parsed = end === -1 ? undefined : tryParse(s.slice(start, end + 1));
    if (parsed?.ok) return parsed;
    // The value may start later, even inside this candidate: `{see {"a":1}}`, `{ {"a":1}`.
    from = start + 1;
  }
  return undefined;
}

/** Contents of ``` fenced blocks, in order (a missing closing fence runs to the end). */
function fences(s: string): string[] {
  const out: string[] = [];
  let i = s.indexOf('```');
  while (i !== -1 && out.length < 8) {
    const lineEnd = s.indexOf('\n', i + 3);
    if (lineEnd === -1) break;
    const close = s.indexOf('```', lineEnd + 1);
    out.push(s.slice(lineEnd + 1, close === -1 ? s.length : close));
    if (close === -1) break;
    i = s.indexOf('```', close + 3);
  }
  return out;
}

/**
 * The JSON value in a model's answer: the whole answer, else a fenced block, else the first
 * object or array embedded in the text, with any `<think>` reasoning ignored. Not found is a
 * value with the reason, never a throw.
 */
export function extractJson(text: string): ExtractedJson {
  // An answer that is one JSON value as a whole (what a guided decoder writes) is taken as
  // it is, before any <think> stripping: its strings may well contain "</think>" or fences.
  const raw = text.trim();
  if (raw[0] === '{' || raw[0] === '[') {
    const whole = tryParse(raw);
    if (whole.ok) return { ok: true, value: whole.value, from: 'whole' };
  }
  const s = stripThinking(text).trim();
  if (s === '') return { ok: false, reason: 'empty answer (nothing outside <think>)' };
  if (s[0] === '{' || s[0] === '[') {
    const whole = tryParse(s);
    if (whole.ok) return { ok: true, value: whole.value, from: 'whole' };
  }
  const budget = { n: MAX_TRIES };
  for (const block of fences(s)) {
    const inner = block.trim();
    const direct = tryParse(inner);
    if (direct.ok && typeof direct.value === 'object' && direct.value !== null) {
      return { ok: true, value: direct.value, from: 'fence' };
    }
    const found = embedded(inner, '{', budget) ?? embedded(inner, '[', budget);
    if (found) return { ok: true, value: found.value, from: 'fence' };
  }
  const found = embedded(s, '{', budget) ?? embedded(s, '[', budget);
  if (found) return { ok: true, value: found.value, from: 'embedded' };
  return { ok: false, reason: 'no JSON object found in the answer' };
}
