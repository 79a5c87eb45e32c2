import { appendFile, mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fixtureComponents } from '../../test/support/score-record.ts';
import type { ChecksSummary, ScoreRecord } from '../core/record.ts';
import { compareRuns, formatComparison, pairwiseRuns, promptMeans } from './compare.ts';
import { loadRunDir, type RunDir } from './stats/run-dir.ts';
import { summarizeRun } from './summary.ts';
import type { EvalRecord } from './types.ts';

const CHECKS: ChecksSummary = {
  renders: true,
  blank: false,
  ink_coverage: 0.2,
  clipped: false,
  text_in_image: false,
  clutter: false,
  output_tokens: 400,
  svg_tokens: 300,
  dwt_stages: [],
  dwt_valid: false,
  values: {},
};

function score(
  reward: number,
  kind: ScoreRecord['reward_kind'] = 'universal',
  over: Partial<ScoreRecord> = {},
): ScoreRecord {
  return {
    id: 'x',
    prompt_id: null,
    reward,
    status: 'ok',
    reward_kind: kind,
    components: fixtureComponents(kind, reward),
    criteria: [{ key: 'k1', axis: 'semantic', weight: 5, score: reward }],
    checks: CHECKS,
    cached: false,
    usage: { calls: 1, inputTokens: 1, outputTokens: 1, costUsd: null, latencyMs: 1 },
    render_ms: 1,
    ...over,
  };
}

const failed = (reason: 'parse_error' | 'judge_error', renders: boolean) =>
  score(0, 'universal', {
    status: reason === 'judge_error' ? 'grader_error' : 'unscoreable',
    reason,
    criteria: [],
    checks: { ...CHECKS, renders },
  });

let n = 0;
function rec(run: string, prompt_id: string, scores: Record<string, ScoreRecord>): EvalRecord {
  return { id: `${run}-${n++}`, prompt_id, prompt: prompt_id, run, scores };
}

// Per-prompt mean rewards (universal):
//   base:  p1 (.5+.3)/2 = .4   p2 .6     p3 0 (parse error)   p4 .7
//   ruler: p1 .8               p2 .605   p3 .2                p5 .9
//   third: p1 .4 (judge error left out)  p2 .7   p3 .1
const BASE = [
  rec('base', 'p1', { universal: score(0.5) }),
  rec('base', 'p1', { universal: score(0.3) }),
  rec('base', 'p2', { universal: score(0.6) }),
  rec('base', 'p3', { universal: failed('parse_error', false) }),
  rec('base', 'p4', { universal: score(0.7) }),
];
const hybrid = (r: number) =>
  score(r, 'hybrid', {
    criteria: [
      { key: 'think', axis: 'structure', weight: 0.1, score: 1 },
      { key: 'semantic', axis: 'semantic', weight: 0.6, score: 0.5 },
    ],
  });
const RULER = [
  rec('ruler', 'p1', { universal: score(0.8), hybrid: hybrid(0.4) }),
  rec('ruler', 'p2', { universal: score(0.605), hybrid: hybrid(0.6) }),
  rec('ruler', 'p3', { universal: score(0.2), hybrid: hybrid(0.5) }),
  rec('ruler', 'p5', { universal: score(0.9), hybrid: hybrid(0.7) }),
];
const THIRD = [
  rec('third', 'p1', { universal: score(0.4) }),
  rec('third', 'p1', { universal: failed('judge_error', true) }),
  rec('third', 'p2', { universal: score(0.7) }),
  rec('third', 'p3', { universal: score(0.1) }),
];

const jsonl = (rs: unknown[]) => `${rs.map((r) => JSON.stringify(r)).join('\n')}\n`;

let root: string;
const dirs: Record<string, string> = {};

beforeAll(async () => {
  root = await mkdtemp(join(tmpdir(), 'rubrica-compare-'));
  for (const [name, records, withSummary] of [
    ['base', BASE, true],
    ['ruler', RULER, true],
    ['third', THIRD, false],
  ] as const) {
    const dir = join(root, name);
    dirs[name] = dir;
    await mkdir(dir);
    await writeFile(join(dir, 'results.jsonl'), jsonl([...records]));
    if (withSummary) {
      await writeFile(
        join(dir, 'summary.json'),
        JSON.stringify(summarizeRun(records, { resamples: 200 })),
      );
    }
  }
});

afterAll(async () => {
  await rm(root, { recursive: true, force: true });
});

async function load(name: string): Promise<RunDir> {
  const r = await loadRunDir(dirs[name]!);
  if ('code' in r) throw new Error(r.message);
  return r;
}

describe('promptMeans and pairwiseRuns', () => {
  it('averages per prompt, failures as 0, grader errors left out', () => {
    expect([...promptMeans(BASE, 'universal')]).toEqual([
      ['p1', 0.4],
      ['p2', 0.6],
      ['p3', 0],
      ['p4', 0.7],
    ]);
    expect(promptMeans(THIRD, 'universal').get('p1')).toBe(0.4);
  });

  it('counts win / tie / loss with the tie epsilon and the non-tie win rate', () => {
    const base = { label: 'base', means: promptMeans(BASE, 'universal') };
    const ruler = { label: 'ruler', means: promptMeans(RULER, 'universal') };
    // p1 .4 vs .8 loss; p2 .6 vs .605 tie (|Δ| ≤ .01); p3 0 vs .2 loss; p4, p5 unshared.
    expect(pairwiseRuns(base, ruler)).toEqual({
      a: 'base',
      b: 'ruler',
      prompts: 3,
      wins: 0,
      ties: 1,
      losses: 2,
      win_rate: 0,
      only_a: 1,
      only_b: 1,
      unjudged: [],
    });
    expect(pairwiseRuns(ruler, base)).toMatchObject({ wins: 2, ties: 1, losses: 0, win_rate: 1 });
    // With epsilon 0 the .005 gap decides p2 too.
    expect(pairwiseRuns(ruler, base, 0)).toMatchObject({ wins: 3, ties: 0, losses: 0 });
    // Every shared prompt tied: no non-tie win rate.
    expect(pairwiseRuns(base, base).win_rate).toBeNull();
  });
});

describe('compareRuns', () => {
  it('builds the paper-layout rows and all pairwise results', async () => {
    const runs = [await load('base'), await load('ruler'), await load('third')];
    expect(runs.map((r) => r.summary_source)).toEqual([
      'summary.json',
      'summary.json',
      'recomputed',
    ]);
    const c = compareRuns(runs);
    const [base, ruler, third] = c.rows;
    expect(c.rows.map((r) => r.run)).toEqual(['base', 'ruler', 'third']);
    // base: rendered .5 .3 .6 .7 → 2.1/4; all adds the parse error's 0 → 2.1/5; 4 of 5 rendered.
    expect(base!.score_rendered!.estimate).toBeCloseTo(0.525, 12);
    expect(base!.score_all!.estimate).toBeCloseTo(0.42, 12);
    expect(base!.render_success_rate).toBeCloseTo(0.8, 12);
    expect(base!.mean_tokens).toBe(400);
    expect(base!.axes.semantic).toBeCloseTo(0.525, 12);
    expect(base!.hybrid).toBeNull();
    expect(ruler!.hybrid!.reward).toBeCloseTo(0.55, 12);
    expect(ruler!.hybrid!.terms).toEqual({ think: 1, semantic: 0.5 });
    expect(c.hybrid_terms).toEqual(['think', 'semantic']);
    // third: the judge error is in n but not in the score: (.4 + .7 + .1) / 3.
    expect(third!.n).toBe(4);
    expect(third!.score_all!.estimate).toBeCloseTo(0.4, 12);
    expect(c.pairwise.map((p) => [p.a, p.b, p.wins, p.ties, p.losses])).toEqual([
      ['base', 'ruler', 0, 1, 2],
      ['base', 'third', 0, 1, 2], // p1 .4=.4 tie; p2 .6<.7; p3 0<.1
      ['ruler', 'third', 2, 0, 1], // p1 .8>.4; p2 .605<.7; p3 .2>.1
    ]);
    expect(c.pairwise[2]!.win_rate).toBeCloseTo(2 / 3, 12);
    const text = formatComparison(c);
    expect(text).toContain('rubric (rendered)');
    // Four prompts are fewer than a 95% CI needs: the mean is shown bare, and says why.
    expect(text).toContain('0.525 (n too small)');
    expect(text).not.toContain('0.525 [');
    expect(text).toContain('n too small: fewer prompts than a 95% CI needs');
    expect(text).toContain('80.0%');
    expect(text).toContain('ruler vs third');
    expect(text).toContain('66.7%');
    expect(text).toContain('summary recomputed from results.jsonl');
  });

  it('compares another reward and says which runs lack it', async () => {
    const c = compareRuns([await load('base'), await load('ruler')], { reward: 'hybrid' });
    expect(c.rows[0]!.n).toBe(0);
    expect(c.rows[1]!.score_all!.estimate).toBeCloseTo(0.55, 12);
    expect(c.pairwise[0]).toMatchObject({ prompts: 0, only_b: 4, win_rate: null });
    expect(formatComparison(c)).toContain('no "hybrid" scores in: base');
  });

  it('tells runs with the same name apart by directory', async () => {
    const a = await load('base');
    const c = compareRuns([a, { ...a, dir: `${a.dir}-copy` }]);
    expect(c.rows.map((r) => r.run)).toEqual([a.dir, `${a.dir}-copy`]);
  });
});

describe('compareRuns with a run nobody judged', () => {
  const many = (run: string, scoreOf: (i: number) => ScoreRecord): RunDir => {
    const records = Array.from({ length: 12 }, (_, i) =>
      rec(run, `p${i}`, { universal: scoreOf(i) }),
    );
    return {
      dir: `/runs/${run}`,
      label: run,
      records,
      summary: summarizeRun(records, { resamples: 200 }),
      summary_source: 'summary.json',
      issues: [],
    };
  };
  // The judge was down for "down": one prompt failed to parse (a rule-based 0), the rest were
  // never judged. "up" was judged on all twelve prompts.
  const down = many('down', (i) =>
    i === 0 ? failed('parse_error', false) : failed('judge_error', true),
  );
  const up = many('up', (i) => score(0.3 + i / 40));

  it('prints "not judged" for it, never a score of 0, and compares no prompt', () => {
    const c = compareRuns([up, down]);
    expect(c.rows[1]).toMatchObject({ unjudged: true, judged: 0, not_judged: 11, n: 12 });
    expect(c.rows[1]!.score_all!.estimate).toBeNull();
    expect(c.rows[0]).toMatchObject({ unjudged: false, judged: 12 });
    expect(c.pairwise[0]).toMatchObject({ prompts: 0, wins: 0, losses: 0, unjudged: ['down'] });
    const text = formatComparison(c);
    const downLine = text.split('\n').find((l) => l.startsWith('down '))!;
    expect(downLine).toContain('not judged');
    expect(downLine).not.toMatch(/0\.000/);
    expect(text).toContain('down: not judged (0 of 12 rollouts judged; 11 grader errors)');
    expect(text).toContain('not judged (down)');
    // Twelve prompts are enough for an interval on the judged run.
    const upLine = text.split('\n').find((l) => l.startsWith('up '))!;
    expect(upLine).toMatch(/0\.\d{3} \[0\.\d{3}, 0\.\d{3}\]/);
  });

  it('recomputes a summary.json written before `judged` was counted', async () => {
    const dir = join(root, 'old-summary');
    await mkdir(dir);
    await writeFile(join(dir, 'results.jsonl'), jsonl(down.records));
    const old = structuredClone(down.summary) as unknown as {
      rewards: Record<string, Record<string, unknown>>;
    };
    delete old.rewards.universal!.judged;
    await writeFile(join(dir, 'summary.json'), JSON.stringify(old));
    const loaded = (await loadRunDir(dir)) as RunDir;
    expect(loaded.summary_source).toBe('recomputed');
    expect(compareRuns([loaded]).rows[0]!.unjudged).toBe(true);
  });
});

describe('compareRuns by prompt set', () => {
  const mk = (run: string, rewards: Record<string, number>): RunDir => {
    const records = Object.entries(rewards).map(([p, r]) => rec(run, p, { universal: score(r) }));
    return {
      dir: `/runs/${run}`,
      label: run,
      records,
      summary: summarizeRun(records, { resamples: 50 }),
      summary_source: 'summary.json',
      issues: [],
    };
  };
  const x = mk('x', { 'icon/1': 0.5, 'icon/2': 0.5, 'ill/1': 0.2 });
  const y = mk('y', { 'icon/1': 0.7, 'icon/2': 0.4, 'ill/1': 0.6 });

  it('adds one comparison per set when the runs span several', () => {
    const c = compareRuns([x, y]);
    expect(c.set).toBeNull();
    // icon/1 .5<.7 loss, icon/2 .5>.4 win, ill/1 .2<.6 loss.
    expect(c.pairwise[0]).toMatchObject({ wins: 1, ties: 0, losses: 2 });
    expect(Object.keys(c.sets)).toEqual(['icon', 'ill']);
    expect(c.sets.icon!.pairwise[0]).toMatchObject({ wins: 1, losses: 1, win_rate: 0.5 });
    expect(c.sets.ill!.pairwise[0]).toMatchObject({ wins: 0, losses: 1, prompts: 1 });
    expect(c.sets.icon!.rows[0]!.score_all!.estimate).toBeCloseTo(0.5, 12);
    expect(c.sets.ill!.rows[1]!.score_all!.estimate).toBeCloseTo(0.6, 12);
    const text = formatComparison(c);
    expect(text).toContain('reward: universal, all prompts');
    expect(text).toContain('== prompt set icon ==');
    expect(text).toContain('reward: universal, prompt set ill');
  });

  it('compares one set on request, and has no per-set blocks for a single set', () => {
    const only = compareRuns([x, y], { set: 'ill' });
    expect(only.set).toBe('ill');
    expect(only.sets).toEqual({});
    expect(only.rows.map((r) => r.n)).toEqual([1, 1]);
    expect(compareRuns([x, y], { set: 'nope' }).rows[0]!.n).toBe(0);
    const one = mk('z', { 'icon/1': 0.1 });
    expect(compareRuns([one, one]).sets).toEqual({});
  });
});

describe('loadRunDir', () => {
  it('recomputes a stale summary and reports bad lines', async () => {
    const dir = join(root, 'stale');
    await mkdir(dir);
    await writeFile(join(dir, 'results.jsonl'), jsonl(BASE.slice(0, 2)));
    await writeFile(join(dir, 'summary.json'), JSON.stringify(summarizeRun(BASE.slice(0, 2))));
    expect(((await loadRunDir(dir)) as RunDir).summary_source).toBe('summary.json');
    await appendFile(
      join(dir, 'results.jsonl'),
      `${JSON.stringify(BASE[2])}\n{"id":1}\nnot json\n`,
    );
    const r = (await loadRunDir(dir)) as RunDir;
    expect(r.summary_source).toBe('recomputed');
    expect(r.summary.records).toBe(3);
    expect(r.issues.map((i) => [i.line, i.code])).toEqual([
      [4, 'bad_shape'],
      [5, 'bad_json'],
    ]);
  });

  it('is an error value when results.jsonl is missing', async () => {
    expect(await loadRunDir(join(root, 'nowhere'))).toMatchObject({ code: 'no_results' });
  });
});
