// A report-size corpus shaped like the run (30 prompts × 10 models, hard prompts):
// each drawing is a scene of three Fluent Emoji (MIT) on a background — a flat colour, a
// gradient, or, for every third drawing, a full-frame feTurbulence texture, the worst case
// for thumbnail size. Completions carry a prose preamble and the SVG; the judge's six
// rationales are seeded pseudo-English, distinct per rollout, so compression is not flattered.
// Some rollouts fail (no SVG, truncated) and some were not judged, as in a real run.
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import sharp from 'sharp';
import type { ChecksSummary, ScoreRecord } from '../../src/core/record.ts';
import { statusOf } from '../../src/core/status.ts';
import { emptyUsage } from '../../src/core/usage.ts';
import { seededRandom } from '../../src/eval/stats/prng.ts';
import type { EvalRecord } from '../../src/eval/types.ts';
import { fluentEmoji } from '../support/corpus.ts';
import { fixtureComponents } from '../support/score-record.ts';

const WORDS = (
  'the drawing shows a clear subject with shapes that read well at small size but the colour ' +
  'balance is uneven and some details are lost where the outline meets the background texture ' +
  'prompt asks for labels which are present though one leader line points at the wrong part ' +
  'composition centred proportions plausible light source consistent shadow missing style flat ' +
  'gradient smooth edges crisp text legible arrow overlaps horizon tilted sky warm'
).split(' ');

const CRITERIA: [string, string, number][] = [
  ['concept_recognisability', 'semantic', 5],
  ['prompt_fidelity', 'semantic', 5],
  ['composition_and_layout', 'visual', 5],
  ['colour_and_contrast', 'visual', 4],
  ['craft_and_detail', 'style', 5],
  ['style_coherence', 'style', 5],
];

function prose(random: () => number, words: number): string {
  const out: string[] = [];
  for (let i = 0; i < words; i++) out.push(WORDS[Math.floor(random() * WORDS.length)]!);
  return `${out.join(' ')}.`;
}

function background(i: number): string {
  if (i % 3 === 0)
    return `<filter id="t${i}"><feTurbulence type="fractalNoise" baseFrequency="${0.02 + (i % 7) * 0.01}" numOctaves="3" seed="${i}"/><feColorMatrix values="0 0 0 0 ${(i % 5) / 5} 0 0 0 0 0.6 0 0 0 0 0.4 0 0 0 0.9 0"/></filter><rect width="96" height="96" filter="url(#t${i})"/>`;
  if (i % 3 === 1)
    return `<linearGradient id="g${i}" x2="0" y2="1"><stop offset="0" stop-color="hsl(${(i * 37) % 360},70%,80%)"/><stop offset="1" stop-color="#ffffff"/></linearGradient><rect width="96" height="96" fill="url(#g${i})"/>`;
  return `<rect width="96" height="96" fill="hsl(${(i * 53) % 360},40%,92%)"/>`;
}

/** A 96×96 scene: background and three emoji at different places and sizes. */
function scene(i: number, icons: { svg: string }[]): string {
  const inner = (k: number) => {
    const svg = icons[(i * 3 + k) % icons.length]!.svg;
    return svg.slice(svg.indexOf('>') + 1, svg.lastIndexOf('</svg>'));
  };
  return `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 96 96" width="512" height="512">${background(i)}<g transform="translate(8 40) scale(1.6)">${inner(0)}</g><g transform="translate(56 10) scale(1.1)">${inner(1)}</g><g transform="translate(60 60) scale(0.9)">${inner(2)}</g></svg>`;
}

function checks(renders: boolean, tokens: number): ChecksSummary {
  return {
    renders,
    blank: false,
    ink_coverage: renders ? 1 : null,
    clipped: renders ? false : null,
    text_in_image: false,
    clutter: false,
    output_tokens: tokens,
    svg_tokens: Math.round(tokens * 0.9),
    dwt_stages: [],
    dwt_valid: false,
    values: {},
  };
}

export interface ScaleCorpus {
  records: EvalRecord[];
  /** Distinct drawings rendered into `dir/images`. */
  pictures: number;
}

/**
 * `n` rollouts over prompts of 10 samples; rollout i draws picture i % `pictures`. Every 25th
 * has no SVG, every 40th is truncated, every 12th was not judged; the rest are scored.
 */
export async function buildScaleCorpus(
  dir: string,
  n: number,
  pictures = Math.min(n, 300),
): Promise<ScaleCorpus> {
  await mkdir(join(dir, 'images'), { recursive: true });
  const icons = fluentEmoji(900);
  const svgs = Array.from({ length: pictures }, (_, i) => scene(i, icons));
  for (let i = 0; i < pictures; i++) {
    const png = await sharp(Buffer.from(svgs[i]!))
      .resize(512, 512)
      .flatten({ background: '#ffffff' })
      .png()
      .toBuffer();
    await writeFile(join(dir, 'images', `d${i}.png`), png);
  }
  const random = seededRandom(7);
  const records: EvalRecord[] = [];
  for (let i = 0; i < n; i++) {
    const p = Math.floor(i / 10);
    const promptId = `hard/${String(p).padStart(4, '0')}`;
    const id = `${promptId}#m${i % 10}`;
    const pic = i % pictures;
    const svg = svgs[pic]!;
    const tokens = Math.round(svg.length / 3.2) + 150;
    const preamble = prose(random, 60);
    let score: ScoreRecord;
    const failure = i % 25 === 24 ? 'no_svg' : i % 40 === 39 ? 'truncated' : null;
    if (failure) {
      score = {
        id,
        prompt_id: promptId,
        reward: 0,
        status: statusOf(failure),
        reason: failure,
        message: failure === 'no_svg' ? 'no <svg> element in the answer' : 'the SVG is not closed',
        reward_kind: 'universal',
        components: fixtureComponents('universal', 0, 'unscoreable'),
        criteria: [],
        checks: checks(false, tokens),
        cached: false,
        usage: emptyUsage(),
        render_ms: null,
      };
    } else if (i % 12 === 11) {
      score = {
        id,
        prompt_id: promptId,
        reward: 0,
        status: 'grader_error',
        reason: 'judge_error',
        message: 'judge returned HTTP 503',
        reward_kind: 'universal',
        components: fixtureComponents('universal', 0, 'grader_error'),
        criteria: [],
        checks: checks(true, tokens),
        cached: false,
        usage: emptyUsage(),
        render_ms: 20,
      };
    } else {
      const scores = CRITERIA.map(() => Math.round(random() * 20) / 20);
      const w = CRITERIA.reduce((a, c) => a + c[2], 0);
      const reward = scores.reduce((a, s, k) => a + s * CRITERIA[k]![2], 0) / w;
      score = {
        id,
        prompt_id: promptId,
        reward,
        status: 'ok',
        reward_kind: 'universal',
        components: fixtureComponents('universal', reward),
        criteria: CRITERIA.map(([key, axis, weight], k) => ({
          key,
          axis,
          weight,
          score: scores[k]!,
          rationale: prose(random, 28 + Math.floor(random() * 20)),
          source: 'judge',
        })),
        checks: checks(true, tokens),
        cached: false,
        usage: { calls: 1, inputTokens: 1400, outputTokens: 380, costUsd: null, latencyMs: 2100 },
        render_ms: 20,
      };
    }
    const completion =
      failure === 'no_svg'
        ? `${preamble}\n${prose(random, 200)}`
        : failure === 'truncated'
          ? `${preamble}\n\`\`\`svg\n${svg.slice(0, Math.floor(svg.length / 2))}`
          : `${preamble}\n\`\`\`svg\n${svg}\n\`\`\``;
    const record: EvalRecord = {
      id,
      prompt_id: promptId,
      prompt: `a labelled scene ${p}: ${prose(random, 14)}`,
      run: 'scale',
      scores: { universal: score },
      completion,
    };
    if (score.checks.renders) record.image = `images/d${pic}.png`;
    records.push(record);
  }
  return { records, pictures };
}
