// completion text → Artifact: the SVG the model meant as its answer (the last complete
// <svg>…</svg> outside its reasoning), the reasoning, Drawing-with-Thought stages and token
// counts. Never throws on any input; a missing answer is an error value (no_svg, truncated).
import { type ArtifactErrorCode, type ErrorValue, makeError } from '../core/errors.ts';
import { dwtReport } from './dwt.ts';
import { type Segment, splitFences } from './fences.ts';
import { maskSvgComments } from './mask-comments.ts';
import { asciiLower, findAnswerTags, type Span, splitReasoning } from './regions.ts';
import { prologStart, scanSvgs } from './svg-scan.ts';
import { countTokensWithParts, type TokenCount } from './tokens.ts';
import type { Artifact, ArtifactSource } from './types.ts';

interface Candidate extends Span {
  seg: Segment;
  /** Start of the <svg> tag itself (the span may begin earlier, at an XML prolog). */
  svgStart: number;
  inAnswerTag: boolean;
  /** Wrapped in inline-code backticks inside prose. */
  mention: boolean;
}

/** Everything extractArtifact finds except token counts (no tokenizer needed). */
export type ArtifactLocation = Omit<Artifact, 'tokens'>;

/**
 * Pulls the answer SVG, reasoning and DwT stages out of a completion, with Qwen token
 * counts. Async only because counting runs in the native tokenizer off the main thread;
 * never rejects.
 * @example
 * ```ts
 * const a = await extractArtifact(completion);
 * console.log(a.found, a.svg, a.error?.code, a.dwt.valid, a.tokens.completion);
 * ```
 */
export async function extractArtifact(
  completion: string,
  /** The completion's locateArtifact result, when the caller already has it. */
  located?: ArtifactLocation,
): Promise<Artifact> {
  const text = typeof completion === 'string' ? completion : '';
  const found = located ?? locateArtifact(text);
  const tokens = await countAll(text, found.svg ?? found.code, found.reasoning);
  return { ...found, tokens };
}

/** The synchronous part of extractArtifact: where the answer is, without token counts. */
export function locateArtifact(completion: string): ArtifactLocation {
  const text = typeof completion === 'string' ? completion : '';
  // Comments inside a drawing cannot open reasoning or close a fence (mask-comments.ts).
  const lower = maskSvgComments(asciiLower(text));
  const regions = splitReasoning(lower);
  const answerTags = findAnswerTags(lower, regions.answer);

  const candidates: Candidate[] = [];
  let unclosedAt = -1;
  let tag = 0; // candidates come in document order, so one pointer walks the answer tags
  for (const span of regions.answer) {
    // Each span and segment is searched as its own string: a search that fails must stop at
    // the region's end, or many small regions would each rescan the rest of the text.
    const spanText = lower.slice(span.start, span.end);
    for (const local of splitFences(spanText, { start: 0, end: spanText.length })) {
      const seg = { ...local, start: local.start + span.start, end: local.end + span.start };
      const scan = scanSvgs(lower.slice(seg.start, seg.end));
      for (const rel of scan.complete) {
        const el = { start: rel.start + seg.start, end: rel.end + seg.start };
        while (tag < answerTags.length && answerTags[tag]!.end < el.end) tag++;
        const t = answerTags[tag];
        const inAnswerTag = t !== undefined && t.start <= el.start && el.end <= t.end;
        // `<svg></svg>` in inline code in prose is a mention ("an empty `<svg/>` shows
        // nothing"), not a drawing: it only counts when there is nothing else.
        const mention = seg.kind === 'prose' && text[el.start - 1] === '`' && text[el.end] === '`';
        candidates.push({
          start: el.start,
          end: el.end,
          svgStart: el.start,
          seg,
          inAnswerTag,
          mention,
        });
      }
      if (scan.unclosedAt !== -1 && unclosedAt === -1) unclosedAt = scan.unclosedAt + seg.start;
    }
  }

  // An <answer> block is the model's declared answer: prefer it over SVGs outside it.
  const tagged = candidates.filter((c) => c.inAnswerTag);
  const drawings = candidates.filter((c) => !c.mention);
  const chosen = (tagged.length > 0 ? tagged : drawings.length > 0 ? drawings : candidates).at(-1);
  if (chosen) chosen.start = prologStart(lower, chosen.seg, chosen.svgStart);

  const reasoning = regions.reasoning.map((s) => text.slice(s.start, s.end)).join('\n\n');
  const svg = chosen ? text.slice(chosen.start, chosen.end) : undefined;
  const dwt = dwtOf(text, regions.reasoning, regions.answer, reasoning, chosen);

  if (chosen) {
    const source = sourceOf(lower, chosen);
    return { found: true, svg, source, reasoning, dwt };
  }
  let error: ErrorValue<ArtifactErrorCode> = makeError(
    'no_svg',
    'the completion contains no <svg> element',
  );
  if (unclosedAt !== -1) {
    error = makeError('truncated', 'an <svg> element is never closed: no </svg> (out of tokens?)');
  } else if (regions.unclosedThink) {
    error = makeError('truncated', 'the completion ends inside its <think> reasoning');
  } else if (text.trim() === '') {
    error = makeError('no_svg', 'the completion is empty');
  } else if (
    regions.reasoning.some((s) => scanSvgs(lower.slice(s.start, s.end)).complete.length > 0)
  ) {
    error = makeError('no_svg', 'the only <svg> is inside the reasoning, which is not an answer');
  }
  return { found: false, error, reasoning, dwt };
}

/** How the answer was delimited; an <answer> tag wins over a fence inside it. */
function sourceOf(lower: string, c: Candidate): ArtifactSource {
  const seg = c.seg;
  if (c.inAnswerTag) return 'answer_tag';
  if (seg.kind === 'fence') {
    const lang = seg.lang ?? '';
    if (lang.includes('svg')) return 'fence_svg';
    if (lang === 'xml') return 'fence_xml';
    if (lang === 'html' || lang === 'htm' || lang === 'xhtml') return 'fence_html';
    return 'fence_bare';
  }
  const head = lower.slice(seg.start, c.svgStart);
  if (head.includes('<html') || head.includes('<body') || head.includes('<!doctype html')) {
    return 'html_page';
  }
  return 'inline';
}

/**
 * DwT stages are looked for in the reasoning; when it holds none (or there is no <think>
 * block), in the answer prose before the SVG, where Reason-SVG's format writes them.
 */
function dwtOf(
  text: string,
  reasoningSpans: Span[],
  answerSpans: Span[],
  reasoning: string,
  chosen: Candidate | undefined,
) {
  const fromReasoning = dwtReport(
    reasoning,
    chosen !== undefined && reasoningSpans.every((s) => s.end <= chosen.start),
  );
  if (fromReasoning.stages.length > 0) return fromReasoning;
  const end = chosen ? chosen.start : text.length;
  const prose = answerSpans
    .filter((s) => s.start < end)
    .map((s) => text.slice(s.start, Math.min(s.end, end)))
    .join('\n');
  return dwtReport(prose, chosen !== undefined);
}

async function countAll(text: string, svg: string | undefined, reasoning: string) {
  // The answer (and a single reasoning block) are substrings of the completion: counted
  // from its one encoding, not encoded again (tokens.ts).
  const { whole: c, parts } = await countTokensWithParts(text, [svg ?? '', reasoning]);
  const [s, r] = parts as [TokenCount, TokenCount];
  const estimated = c.estimated || s.estimated || r.estimated;
  return {
    completion: c.tokens,
    svg: s.tokens,
    reasoning: r.tokens,
    ...(estimated ? { estimated } : {}),
  };
}
