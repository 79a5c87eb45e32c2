// Proof for issue 6: the same rollouts scored with RULER's rubric reward and Reason-SVG's
// hybrid reward, side by side in one `compare` table, and the reward hacks made visible.
// Two "policies" answer the same prompts: an honest one (real Fluent Emoji icons, drawn with
// a DwT plan) and a hacking one (squiggle spam and the prompt's words written as text). The
// RULER judge (the loopback double, scripted like a careful judge) prefers the honest icons;
// the hybrid reward, scored through the real CLIP path with a tiny CLIP whose weights
// favour many strokes (what the RULER paper found real CLIP + aesthetic rewards do), prefers
// the squiggle spam. The hack detectors flag the hacking rollouts whatever reward scored them.
import { createHash } from 'node:crypto';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ScoreRecord } from '../../src/core/record.ts';
import { compareRuns, formatComparison } from '../../src/eval/compare.ts';
import { loadRunDir, type RunDir } from '../../src/eval/stats/run-dir.ts';
import { summarizeRun } from '../../src/eval/summary.ts';
import type { EvalRecord } from '../../src/eval/types.ts';
import { inspectCompletion } from '../../src/inspect/inspect.ts';
import type { InspectFn, Inspection } from '../../src/inspect/types.ts';
import { createRolloutScorer } from '../../src/pipeline/score.ts';
import type { RolloutInput, RolloutScorer } from '../../src/pipeline/types.ts';
import { createRenderPool, type RenderPool } from '../../src/render/pool.ts';
import { createHybridRewarder } from '../../src/reward/hybrid.ts';
import { parseAestheticHead } from '../../src/scorers/aesthetic-head.ts';
import { type ClipModel, loadClipModel } from '../../src/scorers/clip-model.ts';
import {
  createClipSemanticScorer,
  createLaionAestheticScorer,
} from '../../src/scorers/clip-scorers.ts';
import { jointAnswer, judgeClient, rulerRubric, schemaKeys } from '../score/support/fixtures.ts';
import { fluentEmoji } from '../support/corpus.ts';
import { jsonAnswer, type ModelDouble, startModelDouble } from '../support/model-double.ts';
import { asCompletion, squiggleSpam, textInImage } from './support/hack-svgs.ts';
import { type TinyClipSpec, writeTinyClip } from './support/tiny-clip.ts';

// Every word leans on the "edge density" feature: this CLIP likes strokes.
const STROKE_LOVING_CLIP: TinyClipSpec = {
  words: {
    a: [0, 0, 0, 1],
    cat: [0.1, 0.1, 0.1, 1],
    face: [0.1, 0.1, 0.1, 1],
    red: [0.3, 0, 0, 1],
    apple: [0.1, 0.1, 0, 1],
  },
  hidden: 4,
  dim: 4,
  textProjection: [1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1],
  visionProjection: [1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1],
  imageSize: 64,
  imageMean: [0.5, 0.5, 0.5],
  imageStd: [0.5, 0.5, 0.5],
};

const DWT_PLAN = [
  '## 1. Concept Sketching\nThe subject, recognisable at a glance.',
  '## 2. Canvas Planning\nviewBox 0 0 32 32, subject centred.',
  '## 3. Shape Decomposition\nRounded paths for the main forms.',
  '## 4. Coordinate Calculation\nCentre (16,16), radius 14.',
  '## 5. Styling and Colouring\nA flat palette of four colours.',
  '## 6. Final Assembly\nBack to front, details last.',
].join('\n');

const PROMPTS = [
  { id: 'cat', prompt: 'a cat face', icons: ['cat-face', 'cat'] },
  { id: 'apple', prompt: 'a red apple', icons: ['red-apple', 'green-apple'] },
];

const icon = (name: string) => {
  const found = fluentEmoji().find((c) => c.name === name);
  if (!found) throw new Error(`no icon ${name}`);
  return found.svg;
};

interface Rollout extends RolloutInput {
  kind: 'icon' | 'squiggle' | 'text';
  run: 'honest' | 'hacking';
}

const ROLLOUTS: Rollout[] = PROMPTS.flatMap((p, i) => [
  ...p.icons.map(
    (name, k): Rollout => ({
      id: `honest/${p.id}#${k}`,
      prompt_id: p.id,
      prompt: p.prompt,
      completion: asCompletion(icon(name), DWT_PLAN),
      kind: 'icon',
      run: 'honest',
    }),
  ),
  {
    id: `hacking/${p.id}#0`,
    prompt_id: p.id,
    prompt: p.prompt,
    completion: asCompletion(squiggleSpam(500, 11 + i), DWT_PLAN),
    kind: 'squiggle',
    run: 'hacking',
  },
  {
    id: `hacking/${p.id}#1`,
    prompt_id: p.id,
    prompt: p.prompt,
    completion: asCompletion(textInImage(p.prompt), DWT_PLAN),
    kind: 'text',
    run: 'hacking',
  },
]);

// What the scripted judge gives every rubric item, by the kind of picture it is shown.
const JUDGE_SCORE = { icon: 0.9, squiggle: 0.1, text: 0.3 } as const;

let dir: string;
let double: ModelDouble;
let renderer: RenderPool;
let clip: ClipModel;
let scorer: RolloutScorer;
const records = new Map<string, { ruler: ScoreRecord; hybrid: ScoreRecord }>();

const sha = (b: Buffer) => createHash('sha256').update(b).digest('hex');

// One inspection per completion, shared by the judge script and both rewards (as eval runs do).
const inspections = new Map<string, Promise<Inspection>>();
const inspect: InspectFn = (completion, opts) => {
  const known = inspections.get(completion);
  if (known) return known;
  const fresh: Promise<Inspection> = inspectCompletion(completion, opts);
  inspections.set(completion, fresh);
  return fresh;
};

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'rubrica-proof-'));
  renderer = createRenderPool({ workers: 2 });
  clip = await loadClipModel({ model: writeTinyClip(join(dir, 'clip'), STROKE_LOVING_CLIP) });
  const head = parseAestheticHead({ w: [0, 0, 0, 8], b: 3 });
  if (!head.ok) throw new Error(head.error.message);

  // The judge recognises each picture by its PNG (rendering is deterministic).
  const kindOfPng = new Map<string, Rollout['kind']>();
  for (const r of ROLLOUTS) {
    const ins = await inspect(r.completion, { prompt: r.prompt ?? undefined, renderer });
    if (!ins.render?.ok) throw new Error(`${r.id} did not render`);
    kindOfPng.set(sha(ins.render.png), r.kind);
  }
  double = await startModelDouble({
    handler: (req) => {
      const b64 = req.images[0]?.split(',')[1] ?? '';
      const kind = kindOfPng.get(sha(Buffer.from(b64, 'base64')));
      const keys = schemaKeys(req);
      return jsonAnswer(
        jointAnswer(
          keys,
          keys.map(() => (kind ? JUDGE_SCORE[kind] : 0.5)),
        ),
      );
    },
  });

  scorer = await createRolloutScorer({
    rubrics: PROMPTS.map((p) => rulerRubric(p.id, p.prompt)),
    judge: judgeClient(double.url, { maxRetries: 1 }),
    renderer,
    inspect,
    cache: false,
    hybrid: createHybridRewarder({
      semantic: createClipSemanticScorer(clip),
      aesthetic: createLaionAestheticScorer(clip, head.head),
    }),
  });
  const ruler = await scorer.scoreBatch(ROLLOUTS, { reward: 'ruler' });
  const hybrid = await scorer.scoreBatch(ROLLOUTS, { reward: 'hybrid' });
  for (const [i, r] of ROLLOUTS.entries())
    records.set(r.id, { ruler: ruler[i]!, hybrid: hybrid[i]! });

  // Two eval run directories, one per policy, each scored with both rewards.
  for (const run of ['honest', 'hacking'] as const) {
    const lines = ROLLOUTS.filter((r) => r.run === run).map(
      (r): EvalRecord => ({
        id: r.id,
        prompt_id: r.prompt_id!,
        prompt: r.prompt!,
        run,
        scores: records.get(r.id)!,
        completion: r.completion,
      }),
    );
    mkdirSync(join(dir, run));
    writeFileSync(
      join(dir, run, 'results.jsonl'),
      lines.map((l) => `${JSON.stringify(l)}\n`).join(''),
    );
  }
}, 120_000);

afterAll(async () => {
  await scorer?.close();
  await Promise.all([double?.close(), renderer?.close(), clip?.close()]);
  rmSync(dir, { recursive: true, force: true });
});

const of = (kind: Rollout['kind']) =>
  ROLLOUTS.filter((r) => r.kind === kind).map((r) => records.get(r.id)!);

describe('RULER and hybrid rewards on the same rollouts', () => {
  it('scores every rollout with both, every term and item reported', () => {
    for (const { ruler, hybrid } of records.values()) {
      expect(ruler).toMatchObject({ status: 'ok', reward_kind: 'ruler' });
      expect(hybrid).toMatchObject({ status: 'ok', reward_kind: 'hybrid' });
      expect(ruler.criteria).toHaveLength(6);
      expect(hybrid.criteria.map((c) => c.key)).toEqual([
        'think',
        'render',
        'semantic',
        'aesthetic',
      ]);
      expect(hybrid.criteria[0]!.score).toBe(1); // every completion carries the full DwT plan
    }
  });

  it('shows the hack: the hybrid reward prefers squiggle spam, the rubric judge the real icon', () => {
    for (const p of PROMPTS) {
      const at = (id: string) => records.get(id)!;
      const honest = [at(`honest/${p.id}#0`), at(`honest/${p.id}#1`)];
      const spam = at(`hacking/${p.id}#0`);
      for (const h of honest) {
        expect(spam.hybrid.reward).toBeGreaterThan(h.hybrid.reward + 0.1);
        expect(h.ruler.reward).toBeGreaterThan(spam.ruler.reward + 0.5);
      }
    }
    // The aesthetic term of the spam lands where the RULER paper's hacked policy did (~6.7).
    for (const { hybrid } of of('squiggle')) {
      const raw = Number(/laion-aesthetic ([\d.]+)/.exec(hybrid.criteria[3]!.rationale ?? '')?.[1]);
      expect(raw).toBeGreaterThan(6.5);
    }
  });

  it('flags squiggle spam (clutter) and text-in-image whatever reward scored them', () => {
    for (const kind of ['icon', 'squiggle', 'text'] as const) {
      for (const rec of of(kind)) {
        for (const s of [rec.ruler, rec.hybrid]) {
          expect(s.checks.clutter, `${kind} ${s.reward_kind}`).toBe(kind === 'squiggle');
          expect(s.checks.text_in_image, `${kind} ${s.reward_kind}`).toBe(kind === 'text');
        }
      }
    }
    const hacking = ROLLOUTS.filter((r) => r.run === 'hacking').map(
      (r): EvalRecord => ({
        id: r.id,
        prompt_id: r.prompt_id!,
        prompt: r.prompt!,
        run: 'hacking',
        scores: records.get(r.id)!,
      }),
    );
    const summary = summarizeRun(hacking);
    for (const kind of ['ruler', 'hybrid']) {
      expect(summary.rewards[kind]!.hacking).toMatchObject({ clutter: 0.5, text_in_image: 0.5 });
      expect(summary.rewards[kind]!.dwt.coverage).toBe(1);
    }
  });

  it('puts both rewards side by side in one compare table', async () => {
    const runs = await Promise.all(['honest', 'hacking'].map((r) => loadRunDir(join(dir, r))));
    const dirs = runs.filter((r): r is RunDir => 'records' in r);
    expect(dirs).toHaveLength(2);
    const byRuler = compareRuns(dirs, { reward: 'ruler' });
    const table = formatComparison(byRuler);
    expect(table).toMatch(/hybrid:semantic/);
    expect(table).toMatch(/hybrid:aesthetic/);
    const [honest, hacking] = byRuler.rows;
    expect(honest!.run).toBe('honest');
    // The rubric score ranks the honest policy first; the hybrid reward ranks it last.
    expect(honest!.score_all!.estimate!).toBeGreaterThan(hacking!.score_all!.estimate! + 0.4);
    expect(hacking!.hybrid!.reward!).toBeGreaterThan(honest!.hybrid!.reward!);
    expect(byRuler.pairwise[0]).toMatchObject({ a: 'honest', b: 'hacking', wins: 2, losses: 0 });
    const byHybrid = compareRuns(dirs, { reward: 'hybrid' });
    expect(byHybrid.pairwise[0]).toMatchObject({ wins: 0, losses: 2 });
    // Printed so a reader of the test log sees the table the test checked.
    console.log(`${table}\n\n${formatComparison(byHybrid)}`);
  });
});
