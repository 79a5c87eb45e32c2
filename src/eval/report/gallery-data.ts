// The gallery as data, not markup: report.html carries one JSON object describing every
// rollout (scores, status, criteria, flags, thumbnail) and the script draws only the page
// of cards in view, so 10,000 rollouts cost a JSON parse, not 10,000 cards in the DOM.
// The long texts (completions, judge rationales) are gzip-compressed into one base64 blob
// the page unpacks the first time someone opens one; pictures are interned so identical
// thumbnails are stored once. Nothing here is HTML: the script sets text with textContent.
import { gzipSync } from 'node:zlib';
import { token } from '../../core/html-escape.ts';
import type { ScoreRecord } from '../../core/record.ts';
import { locateDomainCode } from '../../domains/extract.ts';
import type { EvalRecord } from '../types.ts';
import { type Outcome, outcomeOf, REASON_LABELS, statusLabel } from './outcome.ts';

/** Completions longer than this are cut in the report (the full text is in results.jsonl). */
export const MAX_COMPLETION_CHARS = 8000;

/**
 * A non-SVG rollout's code, shown beside its picture, is cut here (it is also inside the
 * completion, so in the gzip blob it costs little more than a back-reference).
 */
export const MAX_CODE_CHARS = 4000;

/** One reward of one rollout: [reward or null when not judged, outcome, status message]. */
export type KindScore = [number | null, Outcome, string] | null;

export interface GalleryRollout {
  id: string;
  /** Index into `prompts`. */
  p: number;
  /** Outcome and reason token under the primary reward (filters, colour). */
  o: Outcome;
  r: string;
  /** Status label shown on the card. */
  st: string;
  /** One entry per kind in `kinds`. */
  k: KindScore[];
  /** Primary reward's criteria: [index into `keys`, score or null]. */
  c: [number, number | null][];
  /** Check flags shown as chips. */
  f: string[];
  /** Output tokens. */
  t: number;
  /** Index into `images`, or -1 when there is no picture. */
  i: number;
  /** Kinds (indexes) that have judge rationales in the text blob. */
  w: number[];
  /** Non-SVG rollouts: the domain, whose code (text blob, third entry) the card shows. */
  d?: string;
}

export interface GalleryData {
  kinds: string[];
  /** `means` is the header text; `mean` per kind (failures 0, not judged left out) orders prompts by difficulty. */
  prompts: { id: string; text: string; means: string; mean: (number | null)[] }[];
  /** Interned criteria: [key, axis, weight]. */
  keys: [string, string, number][];
  reasons: Record<string, string>;
  /** FILTER_FLAGS: the chips the flag filter knows ("no flag" means none of these). */
  flags: string[];
  images: string[];
  rollouts: GalleryRollout[];
}

/**
 * Per rollout: [completion as shown, per kind: [[key, score, rationale]], and for a non-SVG
 * rollout its code as shown ('' when none was found)].
 */
export type GalleryText =
  | [string, [string, number | null, string][][]]
  | [string, [string, number | null, string][][], string];

/**
 * The check flags the gallery can be filtered by, as the chips name them (in this order).
 * DwT chips are shown but are no flag of a problem, so they are not in this list.
 */
export const FILTER_FLAGS = ['text in image', 'clutter', 'blank', 'clipped'] as const;

/** The flag filter's value for rollouts with none of FILTER_FLAGS. */
export const NO_FLAG = '-none';

/** The chips of one rollout's card: its check flags, then its DwT stages. */
export function flagsOf(s: ScoreRecord): string[] {
  const c = s.checks;
  const out: string[] = [];
  if (c.text_in_image) out.push('text in image');
  if (c.clutter) out.push('clutter');
  if (c.blank) out.push('blank');
  if (c.clipped) out.push('clipped');
  if (c.dwt_valid) out.push('DwT');
  else if ((c.dwt_stages?.length ?? 0) > 0) out.push(`DwT ${c.dwt_stages.length}/6`);
  return out;
}

/** A prompt's mean reward under `kind`: failures count 0, rollouts not judged are left out. */
function promptMean(records: EvalRecord[], kind: string): number | null {
  const values = records
    .map((r) => r.scores[kind])
    .filter((s): s is ScoreRecord => s !== undefined && outcomeOf(s) !== 'not_judged')
    .map((s) => (Number.isFinite(s.reward) ? s.reward : 0));
  return values.length > 0 ? values.reduce((a, b) => a + b, 0) / values.length : null;
}

function meanReward(records: EvalRecord[], kind: string): string {
  const scored = records.map((r) => r.scores[kind]).filter((s) => s?.status === 'ok');
  if (scored.length === 0) return '';
  const mean = scored.reduce((a, s) => a + (s?.reward ?? 0), 0) / scored.length;
  return `${kind} mean ${mean.toFixed(3)} over ${scored.length} scored of ${records.length}`;
}

function capped(text: string, max: number): string {
  if (text.length <= max) return text;
  return `${text.slice(0, max)}\n… (${text.length - max} more characters in results.jsonl)`;
}

const shownCompletion = (text: string) => capped(text, MAX_COMPLETION_CHARS);

/** The code of a non-SVG rollout as the card shows it: the block its domain would render. */
function shownCode(r: EvalRecord): string {
  if (!r.domain || r.domain === 'svg') return '';
  const found = locateDomainCode(r.completion ?? '', r.domain);
  return found.found ? capped(found.code, MAX_CODE_CHARS) : '';
}

export interface GalleryInput {
  records: EvalRecord[];
  prompts?: { id: string; prompt: string }[];
  kinds: string[];
  images: Map<string, string>;
}

/** Long because it is one pass turning records into the compact rows the script reads. */
export function buildGallery(input: GalleryInput): { data: GalleryData; text: GalleryText[] } {
  const promptIndex = new Map<string, number>();
  const prompts: { id: string; text: string }[] = [];
  const byPrompt = new Map<string, EvalRecord[]>();
  const addPrompt = (id: string, text: string) => {
    if (promptIndex.has(id)) return;
    promptIndex.set(id, prompts.length);
    prompts.push({ id, text });
    byPrompt.set(id, []);
  };
  for (const p of input.prompts ?? []) addPrompt(p.id, p.prompt);
  const keyIndex = new Map<string, number>();
  const keys: [string, string, number][] = [];
  const imageIndex = new Map<string, number>();
  const images: string[] = [];
  const reasons: Record<string, string> = { ok: 'scored' };
  const rollouts: GalleryRollout[] = [];
  const text: GalleryText[] = [];

  for (const r of input.records) {
    const present = input.kinds.filter((k) => r.scores[k]);
    const primary = present[0] ? r.scores[present[0]] : undefined;
    if (!primary) continue;
    addPrompt(r.prompt_id, r.prompt);
    byPrompt.get(r.prompt_id)!.push(r);
    const reason = primary.status === 'ok' ? 'ok' : (primary.reason ?? 'unscoreable');
    reasons[token(reason)] =
      reason === 'ok' ? 'scored' : (REASON_LABELS[reason as keyof typeof REASON_LABELS] ?? reason);
    const c: [number, number | null][] = (primary.criteria ?? []).map((x) => {
      const k = `${x.key}\u0000${x.axis}\u0000${x.weight}`;
      let i = keyIndex.get(k);
      if (i === undefined) {
        i = keys.length;
        keyIndex.set(k, i);
        keys.push([x.key, x.axis, x.weight]);
      }
      return [i, x.score !== null && Number.isFinite(x.score) ? x.score : null];
    });
    const uri = input.images.get(r.id);
    let img = -1;
    if (uri) {
      img = imageIndex.get(uri) ?? images.length;
      if (img === images.length) {
        imageIndex.set(uri, img);
        images.push(uri);
      }
    }
    const k: KindScore[] = input.kinds.map((kind) => {
      const s = r.scores[kind];
      if (!s) return null;
      const o = outcomeOf(s);
      return [
        o === 'not_judged' ? null : s.reward,
        o,
        s.status === 'ok' ? '' : (s.message ?? statusLabel(s)),
      ];
    });
    const why = input.kinds.map((kind) =>
      (r.scores[kind]?.criteria ?? [])
        .filter((x) => x.rationale)
        .map((x): [string, number | null, string] => [x.key, x.score, x.rationale ?? '']),
    );
    rollouts.push({
      id: r.id,
      p: promptIndex.get(r.prompt_id)!,
      o: outcomeOf(primary),
      r: token(reason),
      st: statusLabel(primary),
      k,
      c,
      f: flagsOf(primary),
      t: primary.checks?.output_tokens ?? 0,
      i: img,
      w: why.flatMap((list, i) => (list.length > 0 ? [i] : [])),
      ...(r.domain && r.domain !== 'svg' ? { d: r.domain } : {}),
    });
    const completion = shownCompletion(r.completion ?? '');
    text.push(r.domain && r.domain !== 'svg' ? [completion, why, shownCode(r)] : [completion, why]);
  }
  const data: GalleryData = {
    kinds: input.kinds,
    prompts: prompts.map((p) => {
      const list = byPrompt.get(p.id) ?? [];
      const means = input.kinds
        .map((k) => meanReward(list, k))
        .filter(Boolean)
        .join(' · ');
      return { ...p, means, mean: input.kinds.map((k) => promptMean(list, k)) };
    }),
    keys,
    reasons,
    flags: [...FILTER_FLAGS],
    images,
    rollouts,
  };
  return { data, text };
}

/** JSON safe inside a <script> element: no "<" can close it or open a comment. */
export function scriptJson(value: unknown): string {
  return JSON.stringify(value)
    .replace(/</g, '\\u003c')
    .replace(/\u2028/g, '\\u2028')
    .replace(/\u2029/g, '\\u2029');
}

/** The text blob: gzip of the JSON, base64 (the page unpacks it with DecompressionStream). */
export function packText(text: GalleryText[]): string {
  return gzipSync(Buffer.from(JSON.stringify(text))).toString('base64');
}
