// The hybrid reward on real rendered pictures, scored by the real CLIP path on a tiny
// CLIP-shaped model: term arithmetic, unrenderable and scorer-failure statuses, R_think's
// structure proxy, λ overrides, and the per-rollout adapter's batching.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type TinyClipSpec, writeTinyClip } from '../../test/scorers/support/tiny-clip.ts';
import { inspectCompletion } from '../inspect/inspect.ts';
import type { Inspection } from '../inspect/types.ts';
import { createRenderPool } from '../render/pool.ts';
import type { Renderer } from '../render/types.ts';
import { parseAestheticHead } from '../scorers/aesthetic-head.ts';
import { type ClipModel, loadClipModel } from '../scorers/clip-model.ts';
import { createClipSemanticScorer, createLaionAestheticScorer } from '../scorers/clip-scorers.ts';
import type { ImageScorer } from '../scorers/types.ts';
import {
  checkHybridConfig,
  createHybridRewarder,
  type HybridConfig,
  scoreHybrid,
  thinkTerm,
} from './hybrid.ts';

const spec: TinyClipSpec = {
  words: {
    a: [0.2, 0.2, 0.2, 0],
    red: [1, 0, 0, 0],
    circle: [0.3, 0.3, 0.3, 0.2],
    blue: [0, 0, 1, 0],
  },
  hidden: 4,
  dim: 4,
  textProjection: [1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1],
  visionProjection: [1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1],
  imageSize: 32,
  imageMean: [0.5, 0.5, 0.5],
  imageStd: [0.5, 0.5, 0.5],
};

const STAGES = [
  'Concept Sketching',
  'Canvas Planning',
  'Shape Decomposition',
  'Coordinate Calculation',
  'Styling and Colouring',
  'Final Assembly',
];
const dwt = (n: number) =>
  STAGES.slice(0, n)
    .map((s, i) => `## ${i + 1}. ${s}\nNotes for this stage.`)
    .join('\n');
const RED_SVG =
  '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 100 100"><circle cx="50" cy="50" r="40" fill="#e53935"/></svg>';
const fenced = (svg: string) => `\`\`\`svg\n${svg}\n\`\`\``;

let dir: string;
let model: ClipModel;
let renderer: Renderer;
let semantic: ImageScorer;
let aesthetic: ImageScorer;
beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'rubrica-hybrid-'));
  model = await loadClipModel({ model: writeTinyClip(join(dir, 'clip'), spec) });
  renderer = createRenderPool({ workers: 1 });
  semantic = createClipSemanticScorer(model);
  const head = parseAestheticHead({ w: [2, 2, 2, 2], b: 5 });
  if (!head.ok) throw new Error(head.error.message);
  aesthetic = createLaionAestheticScorer(model, head.head);
});
afterAll(async () => {
  await renderer?.close();
  await model?.close();
  rmSync(dir, { recursive: true, force: true });
});

type HybridItem = { id: string; prompt_id: string; prompt: string | null; inspection: Inspection };

async function items(...completions: [string, string | null][]): Promise<HybridItem[]> {
  return Promise.all(
    completions.map(async ([completion, prompt], i) => ({
      id: `r${i}`,
      prompt_id: 'p',
      prompt,
      inspection: await inspectCompletion(completion, { prompt: prompt ?? undefined, renderer }),
    })),
  );
}

describe('scoreHybrid', () => {
  it('sums λ-weighted terms, each reported as a criterion', async () => {
    const its = await items([`${dwt(6)}\n${fenced(RED_SVG)}`, 'a red circle']);
    const config: HybridConfig = { semantic, aesthetic };
    const [rec] = await scoreHybrid(its, config);
    const png = its[0]!.inspection.render!.ok ? its[0]!.inspection.render!.png : Buffer.alloc(0);
    const [cos] = await semantic.score([png], ['a red circle']);
    const [aes] = await aesthetic.score([png], ['a red circle']);
    if (!cos?.ok || !aes?.ok) throw new Error('scorers failed');
    const aes01 = Math.min(1, Math.max(0, (aes.value - 1) / 9));
    expect(rec).toMatchObject({ status: 'ok', reward_kind: 'hybrid' });
    expect(rec!.reward).toBeCloseTo(0.1 * 1 + 0.1 * 1 + 0.6 * cos.value + 0.2 * aes01, 10);
    expect(rec!.criteria.map((c) => [c.key, c.weight, c.source])).toEqual([
      ['think', 0.1, 'check'],
      ['render', 0.1, 'check'],
      ['semantic', 0.6, 'scorer'],
      ['aesthetic', 0.2, 'scorer'],
    ]);
    expect(rec!.criteria[2]!.score).toBeCloseTo(cos.value, 10);
    expect(rec!.criteria[3]!.rationale).toContain('on 1–10');
    expect(rec!.tree?.children.map((c) => c.weight)).toEqual([0.1, 0.1, 0.6, 0.2]);
  });

  it('measures unrenderable rollouts: 0 image terms, keeps λt·R_think, says why in the render term', async () => {
    const its = await items(
      [`${dwt(6)}\nI could not finish the drawing.`, 'a red circle'],
      [
        `${dwt(3)}\n\`\`\`svg\n<svg xmlns="http://www.w3.org/2000/svg"><circle r="3"`,
        'a red circle',
      ],
      [fenced('<svg xmlns="http://www.w3.org/2000/svg"><rect></svg>'), 'a red circle'],
    );
    const recs = await scoreHybrid(its, { semantic, aesthetic });
    // The render term measures rendering, so these are scored (ok), not rule-based zeros.
    expect(recs.map((r) => r.status)).toEqual(['ok', 'ok', 'ok']);
    expect(recs.map((r) => r.criteria.find((c) => c.key === 'render')!.rationale)).toEqual([
      expect.stringContaining('no_svg'),
      expect.stringContaining('truncated'),
      expect.stringContaining('parse_error'),
    ]);
    expect(recs[0]!.reward).toBeCloseTo(0.1, 10); // six stages, no SVG: R_think = 1
    expect(recs[1]!.reward).toBeCloseTo(0.1 * 0.5, 10);
    expect(recs[2]!.reward).toBe(0);
    for (const r of recs) {
      expect(r.criteria.find((c) => c.key === 'semantic')!.score).toBe(0);
      expect(r.criteria.find((c) => c.key === 'render')!.score).toBe(0);
    }
  });

  it('marks a scorer failure scorer_error with reward 0, never a bad drawing', async () => {
    const broken: ImageScorer = {
      name: 'http:hpsv2',
      score: async (images) =>
        images.map(() => ({
          ok: false as const,
          error: { code: 'timeout' as const, message: 'no answer' },
        })),
    };
    const [rec] = await scoreHybrid(await items([fenced(RED_SVG), 'a red circle']), {
      semantic,
      aesthetic: broken,
    });
    expect(rec).toMatchObject({ status: 'grader_error', reason: 'scorer_error', reward: 0 });
    expect(rec!.message).toContain('http:hpsv2 failed (timeout');
    expect(rec!.criteria.find((c) => c.key === 'aesthetic')!.score).toBeNull();
    expect(rec!.criteria.find((c) => c.key === 'semantic')!.score).not.toBeNull();
    const [noPrompt] = await scoreHybrid(await items([fenced(RED_SVG), null]), {
      semantic,
      aesthetic,
    });
    expect(noPrompt).toMatchObject({ status: 'unscoreable', reason: 'no_rubric' });
  });

  it('normalises by Σλ and switches a term off with λ = 0', async () => {
    const its = await items([fenced(RED_SVG), 'a red circle']);
    const [rec] = await scoreHybrid(its, { semantic, lambdas: { aesthetic: 0, think: 0.2 } });
    const [cos] = await semantic.score(
      [(its[0]!.inspection.render as { png: Buffer }).png],
      ['a red circle'],
    );
    if (!cos?.ok) throw new Error('scorer failed');
    expect(rec!.reward).toBeCloseTo((0.2 * 0 + 0.1 * 1 + 0.6 * cos.value) / 0.9, 10);
    expect(rec!.criteria.find((c) => c.key === 'aesthetic')).toMatchObject({
      weight: 0,
      score: null,
    });
  });

  it('refuses a configuration that cannot score', () => {
    expect(checkHybridConfig({ semantic })).toContain('aesthetic term needs a scorer');
    expect(checkHybridConfig({ aesthetic })).toContain('semantic term needs a scorer');
    expect(checkHybridConfig({ semantic, aesthetic, lambdas: { think: -1 } })).toContain('≥ 0');
    expect(
      checkHybridConfig({ lambdas: { think: 0, render: 0, semantic: 0, aesthetic: 0 } }),
    ).toContain('> 0');
    expect(checkHybridConfig({ lambdas: { semantic: 0, aesthetic: 0 } })).toBeNull();
  });
});

describe('R_think', () => {
  const report = (
    stages: string[],
    over: Partial<{ valid: boolean; beforeSvg: boolean; ordered: boolean }> = {},
  ) => ({
    stages: stages as never,
    complete: stages.length === 6,
    ordered: over.ordered ?? true,
    beforeSvg: over.beforeSvg ?? true,
    valid: over.valid ?? false,
  });
  it('grades the longest run of stages in canonical order; binary mode wants a valid DwT', () => {
    const all = [
      'concept_sketching',
      'canvas_planning',
      'shape_decomposition',
      'coordinate_calculation',
      'styling_and_colouring',
      'final_assembly',
    ];
    expect(thinkTerm(report(all, { valid: true }), true).score).toBe(1);
    expect(thinkTerm(report(all.slice(0, 3)), true).score).toBe(0.5);
    // Out of order: concept, assembly, canvas, shapes → longest ordered run is 3.
    expect(
      thinkTerm(report([all[0]!, all[5]!, all[1]!, all[2]!], { ordered: false }), true).score,
    ).toBe(0.5);
    expect(thinkTerm(report(all.slice(0, 4), { beforeSvg: false }), true).score).toBe(0);
    expect(thinkTerm(report(all.slice(0, 5)), true, 'binary').score).toBe(0);
    expect(thinkTerm(report([]), true).score).toBe(0);
  });
});

describe('createHybridRewarder', () => {
  /** A semantic-only rewarder whose scorer records the size of every batch it gets. */
  const countingRewarder = () => {
    const calls: number[] = [];
    const counting: ImageScorer = {
      name: 'clip',
      score: (images, prompts) => {
        calls.push(images.length);
        return semantic.score(images, prompts);
      },
    };
    const rewarder = createHybridRewarder(
      { semantic: counting, lambdas: { aesthetic: 0 } },
      { windowMs: 50 },
    );
    return { calls, rewarder };
  };

  it('batches rollouts that arrive together into one scorer call', async () => {
    const { calls, rewarder } = countingRewarder();
    const its = await items(
      ...Array.from({ length: 5 }, (_, i): [string, string] => [
        fenced(RED_SVG.replace('#e53935', `#e5393${i}`)),
        'a red circle',
      ]),
    );
    const results = await Promise.all(its.map((it) => rewarder.score(it.inspection, it.prompt)));
    expect(calls).toEqual([5]);
    expect(results.every((r) => r.status === 'ok' && r.criteria.length === 4)).toBe(true);
    await rewarder.close();
  });

  it("a rollout's abort ends its own wait, not the batch it joined", async () => {
    const { calls, rewarder } = countingRewarder();
    const [a, b] = await items(
      [fenced(RED_SVG), 'a red circle'],
      [fenced(RED_SVG), 'a red circle'],
    );
    const abort = new AbortController();
    const pa = rewarder.score(a!.inspection, a!.prompt, abort.signal);
    const pb = rewarder.score(b!.inspection, b!.prompt);
    abort.abort();
    const [ra, rb] = await Promise.all([pa, pb]);
    expect(ra).toMatchObject({ status: 'grader_error', reason: 'scorer_error' });
    expect(ra.message).toContain('aborted');
    expect(rb.status).toBe('ok');
    expect(calls).toEqual([2]);
    await rewarder.close();
  });
});
