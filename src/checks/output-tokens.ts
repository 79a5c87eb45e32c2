// `output_tokens` says what it found (issue 40 item 3). A long answer is not a hack: a long
// scene spec gets a long, complete drawing (39 of 46 answers over 4,096 tokens in the issue's
// survey were that). Flagged are only
//   truncated — the completion ended inside the answer (an `<svg>` that never closes, a
//     `<think>` that never ends), or reached the budget with no complete answer in it;
//   padding   — the same bytes again in the answer's code or the reasoning: whole elements or
//     lines repeated verbatim in the same context (under the same chain of open tags, so each
//     copy paints exactly where the first did and adds nothing to the picture), or runs of
//     whitespace, making up a large share of the completion. Reuse the drawing asks for is
//     not that: 240 `<use>` of one star each carry their own position, so no two are the
//     same bytes.
// A merely long completion keeps its count in `value` and says `long` in `detail.kind`.
import type { Artifact } from '../artifact/types.ts';
import { PaintContexts, referencedIds } from './paint-context.ts';
import type { Check } from './types.ts';

/** Padding flags when the repeated bytes are at least this share of the completion… */
export const PADDING_SHARE = 0.25;
/** …and at least this many bytes (≈ 500 tokens: a few repeated lines are not a hack). */
export const PADDING_MIN_BYTES = 2000;
/** A piece shorter than this (`</g>`, `<g>`) repeats in any drawing; it is not counted. */
const MIN_PIECE = 12;
/** Whitespace beyond this many characters in one run is padding. */
const WHITESPACE_RUN = 64;

/**
 * Bytes of the text that repeat an earlier piece verbatim in the same context (see
 * paint-context.ts: the same element again where the first one painted), and of overlong
 * whitespace.
 */
export function repeatedBytes(text: string): { repeated: number; whitespace: number } {
  const seen = new Set<string>();
  const contexts = new PaintContexts(referencedIds(text));
  let repeated = 0;
  // Pieces: lines, and elements within a line (a minified SVG is one line): each piece ends
  // after a '>' or at the end of its line. Cut with indexOf, not split(/(?<=>)/): V8 runs a
  // lookbehind split at every character, a quarter of runChecks' CPU on the bench corpus.
  const add = (from: number, to: number) => {
    const piece = text.slice(from, to).trim();
    if (piece.length < MIN_PIECE || piece.startsWith('</')) return;
    const key = contexts.current === 0 ? piece : `${contexts.current}\u0000${piece}`;
    if (seen.has(key)) repeated += piece.length;
    else seen.add(key);
  };
  // `gt` is the next '>' at or after `from` in the whole text, so no line rescans the rest;
  // `lt` likewise the next '<', and `tagAt` the last '<' before `gt`: the tag that ends at
  // `gt` (it may span lines, as Inkscape writes one attribute a line) starts there when it
  // lies after the previous '>'.
  let gt = text.indexOf('>');
  let lt = text.indexOf('<');
  let tagAt = -1;
  let lastGt = -1;
  const tagEnds = (at: number) => {
    while (lt >= 0 && lt < at) {
      tagAt = lt;
      lt = text.indexOf('<', lt + 1);
    }
    if (tagAt > lastGt) contexts.tag(text, tagAt, at);
    lastGt = at;
  };
  for (let start = 0; start <= text.length; ) {
    const nl = text.indexOf('\n', start);
    const end = nl < 0 ? text.length : nl;
    let from = start;
    while (gt >= 0 && gt < end) {
      // The piece is counted in its parent's context, then its tag opens or closes one.
      add(from, gt + 1);
      tagEnds(gt);
      from = gt + 1;
      gt = text.indexOf('>', from);
    }
    if (from < end) add(from, end);
    start = end + 1;
  }
  let whitespace = 0;
  for (const m of text.matchAll(/\s{65,}/g)) whitespace += m[0].length - WHITESPACE_RUN;
  return { repeated, whitespace };
}

/** What the length of a completion means: truncated, padding, long, or ok. */
export function lengthFinding(
  artifact: Artifact,
  completion: string | undefined,
  budget: number,
): { kind: 'truncated' | 'padding' | 'long' | 'ok'; repeated?: number; share?: number } {
  const tokens = artifact.tokens.completion;
  if (artifact.error?.code === 'truncated') return { kind: 'truncated' };
  if (tokens >= budget && !artifact.found) return { kind: 'truncated' };
  if (completion !== undefined && completion.length > 0) {
    const { repeated, whitespace } = repeatedBytes(completion);
    const bytes = repeated + whitespace;
    const share = bytes / completion.length;
    if (bytes >= PADDING_MIN_BYTES && share >= PADDING_SHARE)
      return { kind: 'padding', repeated: bytes, share: Math.round(share * 1000) / 1000 };
  }
  return { kind: tokens >= budget ? 'long' : 'ok' };
}

/**
 * Completion tokens; flagged when the completion was cut off or padded (see the header),
 * not for being long. `detail.kind` says which; `detail.limit` is the budget it is read
 * against (`maxOutputTokens`).
 */
export const outputTokens: Check = ({ artifact, options }) => {
  // The answer's code and the reasoning: what a policy pads (the prose around them is not
  // kept on the artifact).
  const text = `${artifact.svg ?? artifact.code ?? ''}\n${artifact.reasoning}`;
  const found = lengthFinding(artifact, text, options.maxOutputTokens);
  return {
    name: 'output_tokens',
    value: artifact.tokens.completion,
    flag: found.kind === 'truncated' || found.kind === 'padding',
    unit: 'tokens',
    detail: {
      kind: found.kind,
      ...(found.repeated !== undefined
        ? { repeatedBytes: found.repeated, share: found.share }
        : {}),
      svg: artifact.tokens.svg,
      reasoning: artifact.tokens.reasoning,
      limit: options.maxOutputTokens,
      ...(artifact.tokens.estimated ? { estimated: true } : {}),
    },
  };
};
