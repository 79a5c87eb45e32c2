// Splits a completion into reasoning and answer regions: <think>…</think> blocks (also a
// lone </think> whose opener lives in the chat template, as with Qwen3 and DeepSeek-R1)
// are reasoning; everything else is where the answer may be. All positions index the
// original completion; searches run on an ASCII-lowercased copy of the same length, so tag
// matching is case-insensitive without any regex that could backtrack.

export interface Span {
  start: number;
  end: number;
}

export interface Regions {
  /** Reasoning spans (tag contents, without the tags), in order. */
  reasoning: Span[];
  /** Answer spans: the completion minus reasoning and the think tags. */
  answer: Span[];
  /** A <think> that was never closed: the completion ended while reasoning. */
  unclosedThink: boolean;
}

/** Lowercases A–Z only, so every index stays valid for the original string. */
export function asciiLower(text: string): string {
  return text.replace(/[A-Z]+/g, (m) => m.toLowerCase());
}

const OPEN = '<think>';
const CLOSE = '</think>';

export function splitReasoning(lower: string): Regions {
  const reasoning: Span[] = [];
  const answer: Span[] = [];
  let pos = 0;
  let unclosedThink = false;
  const firstOpen = lower.indexOf(OPEN);
  const firstClose = lower.indexOf(CLOSE);
  // Lone </think>: the opener was part of the prompt, so everything before it is reasoning.
  if (firstClose !== -1 && (firstOpen === -1 || firstClose < firstOpen)) {
    reasoning.push({ start: 0, end: firstClose });
    pos = firstClose + CLOSE.length;
  }
  while (pos < lower.length) {
    const open = lower.indexOf(OPEN, pos);
    if (open === -1) break;
    answer.push({ start: pos, end: open });
    const close = lower.indexOf(CLOSE, open + OPEN.length);
    if (close === -1) {
      reasoning.push({ start: open + OPEN.length, end: lower.length });
      unclosedThink = true;
      pos = lower.length;
      break;
    }
    reasoning.push({ start: open + OPEN.length, end: close });
    pos = close + CLOSE.length;
  }
  if (pos < lower.length) answer.push({ start: pos, end: lower.length });
  return {
    reasoning,
    answer: answer.filter((s) => s.end > s.start),
    unclosedThink,
  };
}

/** Every index where `needle` occurs, in one left-to-right pass. */
export function allIndexes(haystack: string, needle: string): number[] {
  const out: number[] = [];
  let i = haystack.indexOf(needle);
  while (i !== -1) {
    out.push(i);
    i = haystack.indexOf(needle, i + needle.length);
  }
  return out;
}

/**
 * `<answer>…</answer>` blocks inside the answer spans (an unclosed one runs to its span's
 * end). Tag positions are collected once, so many spans cost no rescans.
 */
export function findAnswerTags(lower: string, spans: Span[]): Span[] {
  const opens = allIndexes(lower, '<answer>');
  const closes = allIndexes(lower, '</answer>');
  const out: Span[] = [];
  let oi = 0;
  let ci = 0;
  for (const span of spans) {
    while (oi < opens.length) {
      const open = opens[oi]!;
      if (open >= span.end) break;
      oi++;
      if (open < span.start) continue;
      const inner = open + '<answer>'.length;
      while (ci < closes.length && closes[ci]! < inner) ci++;
      const close = ci < closes.length && closes[ci]! <= span.end ? closes[ci]! : span.end;
      out.push({ start: inner, end: close });
      // Openers inside this block belong to it.
      while (oi < opens.length && opens[oi]! < close) oi++;
    }
  }
  return out;
}
