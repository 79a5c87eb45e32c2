// Calibrated intervals end to end: `rubrica align --calibrate` fits the offset a hand
// computation gives from score records and studio-scale (0–100) ratings of two raters, then
// `rubrica score --calibration` and the reward service (`serve --calibration`) widen each
// expected-scoring interval by exactly that offset and say so on the record. A bad file or a
// clashing --interval-level is a usage error before any judge call.
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Calibration, parseCalibration } from '../../src/core/calibration.ts';
import type { ScoreRecord } from '../../src/core/record.ts';
import { createModelClient } from '../../src/models/client.ts';
import { startRewardService } from '../../src/server/service.ts';
import { postJson, writeRubrics } from '../server/support.ts';
import { fluentEmoji } from '../support/corpus.ts';
import { digitJudge, type ModelDouble, startModelDouble } from '../support/model-double.ts';
import { runCliInProcess } from '../support/run-cli.ts';
import { RULER_KEYS, rulerRubric } from './support/fixtures.ts';

let double: ModelDouble;
let dir: string;
const ICONS = fluentEmoji(3).map((c) => c.svg);

beforeAll(async () => {
  double = await startModelDouble({
    handler: digitJudge({
      shape: 'vllm',
      law: (k) => ({ [String(2 + (RULER_KEYS.indexOf(k as never) % 5))]: 0.6, '7': 0.3, '1': 0.1 }),
    }),
  });
  dir = mkdtempSync(join(tmpdir(), 'rubrica-calibration-'));
});
afterAll(() => double.close());

/** 40 judged records (intervals ±0.02 at level 0.8) and two raters' 0–100 ratings of each. */
function syntheticRun() {
  const recs: string[] = [];
  const ratings: string[] = [];
  const points: { lo: number; hi: number; h: number }[] = [];
  for (let i = 0; i < 40; i++) {
    const r = 0.2 + 0.015 * i;
    const a = (i * 37) % 100;
    const b = (i * 53 + 11) % 100;
    recs.push(
      JSON.stringify({
        id: `x${i}`,
        prompt_id: 'fox',
        reward_kind: 'ruler',
        reward: r,
        status: 'ok',
        interval: [r - 0.02, r + 0.02],
        interval_level: 0.8,
        provenance: { judge: 'vllm:judge-m', scoring: 'expected' },
      }),
    );
    ratings.push(JSON.stringify({ id: `x${i}`, score: a, rater: 'ann' }));
    ratings.push(JSON.stringify({ id: `x${i}`, score: b, rater: 'bob' }));
    points.push({ lo: r - 0.02, hi: r + 0.02, h: (a + b) / 200 });
  }
  // One unrated record: matched ones only.
  recs.push(JSON.stringify({ id: 'lonely', reward_kind: 'ruler', reward: 0.5, status: 'ok' }));
  return { recs, ratings, points };
}

async function fitFile(): Promise<{ cal: Calibration; expected: number; stderr: string }> {
  const { recs, ratings, points } = syntheticRun();
  const pred = join(dir, 'judged.jsonl');
  const human = join(dir, 'ratings.jsonl');
  writeFileSync(pred, `${recs.join('\n')}\n`);
  writeFileSync(human, `${ratings.join('\n')}\n`);
  const out = join(dir, 'cal.json');
  const res = await runCliInProcess([
    'align',
    '--pred',
    `j=${pred}`,
    '--human',
    human,
    '--calibrate',
    out,
    '--level',
    '0.7',
    '--confidence',
    '0',
  ]);
  expect(res.code, res.stderr).toBe(0);
  // Marginal rank ⌈41 · 0.7⌉ = 29 of the sorted max(lo − h, h − hi).
  const s = points.map((p) => Math.max(p.lo - p.h, p.h - p.hi)).sort((x, y) => x - y);
  return {
    cal: parseCalibration(readFileSync(out, 'utf8')),
    expected: s[28]!,
    stderr: res.stderr,
  };
}

const clamp01 = (x: number) => Math.min(1, Math.max(0, x));

describe('calibration', () => {
  it('align --calibrate: the hand-computed split-conformal offset, with provenance and a held-out report', async () => {
    const { cal, expected, stderr } = await fitFile();
    expect(cal.offset).toBeCloseTo(expected, 12);
    expect(cal).toMatchObject({
      level: 0.7,
      confidence: null,
      base_level: 0.8,
      rank: 29,
      n: 40,
      reward_kind: 'ruler',
      rating_scale: 'percent',
      judge: { judge: 'vllm:judge-m', scoring: 'expected' },
    });
    expect(cal.held_out?.n).toBe(40);
    expect(stderr).toMatch(/held out \(2-fold cross-fit, n 40\): coverage/);
    expect(stderr).toMatch(/left out: 1 judged without a rating/);
  });

  it('score and serve --calibration: each interval widened by the offset, at the calibration level', async () => {
    const { cal } = await fitFile();
    const calPath = join(dir, 'cal.json');
    const rubrics = join(dir, 'rubrics.jsonl');
    writeFileSync(rubrics, `${JSON.stringify(rulerRubric('fox', 'a red fox'))}\n`);
    const input = join(dir, 'rollouts.jsonl');
    writeFileSync(
      input,
      ICONS.map((svg, i) =>
        JSON.stringify({ id: `r${i}`, prompt_id: 'fox', completion: `\`\`\`svg\n${svg}\n\`\`\`` }),
      ).join('\n'),
    );
    const run = async (out: string, extra: string[]) => {
      const res = await runCliInProcess([
        'score',
        ...['--rubrics', rubrics, '--in', input, '--out', out],
        ...['--judge', 'vllm:judge-m', '--judge-base-url', double.url],
        ...['--judge-scoring', 'expected', '--no-cache', ...extra],
      ]);
      expect(res.code, res.stderr).toBe(0);
      return readFileSync(out, 'utf8')
        .split('\n')
        .filter(Boolean)
        .map((l) => JSON.parse(l) as ScoreRecord);
    };
    const own = await run(join(dir, 'own.jsonl'), ['--interval-level', '0.8']);
    const calibrated = await run(join(dir, 'cal.jsonl'), ['--calibration', calPath]);
    expect(calibrated).toHaveLength(3);
    calibrated.forEach((r, i) => {
      const o = own[i]!;
      expect(o.interval_calibrated).toBeUndefined();
      expect(o.interval![1]).toBeGreaterThan(o.interval![0]);
      expect(r.reward).toBe(o.reward);
      expect(r.interval_level).toBe(0.7);
      expect(r.interval_calibrated).toBe(true);
      expect(r.interval![0]).toBeCloseTo(clamp01(o.interval![0] - cal.offset), 12);
      expect(r.interval![1]).toBeCloseTo(clamp01(o.interval![1] + cal.offset), 12);
    });

    const server = await startRewardService({
      rubrics: writeRubrics(dir, [['fox', 'a red fox']]),
      judge: createModelClient('vllm:judge-m', { role: 'judge', baseUrl: double.url, env: {} }),
      judgeConcurrency: 2,
      reward: ['ruler'],
      mode: 'joint',
      judging: { scoring: 'expected', calibration: cal },
      renderWorkers: 1,
      cache: false,
      port: 0,
    });
    try {
      const res = await postJson(`${server.url}/v1/rewards`, {
        items: [{ id: 'r0', prompt_id: 'fox', completion: `\`\`\`svg\n${ICONS[0]}\n\`\`\`` }],
      });
      expect(res.status).toBe(200);
      const got = (res.json as { results: ScoreRecord[] }).results[0]!;
      expect(got.interval_calibrated).toBe(true);
      expect(got.interval_level).toBe(0.7);
      expect(got.interval![0]).toBeCloseTo(calibrated[0]!.interval![0], 12);
      expect(got.interval![1]).toBeCloseTo(calibrated[0]!.interval![1], 12);
    } finally {
      await server.close();
    }
  });

  it('a bad calibration file or a clashing --interval-level is a usage error (exit 2)', async () => {
    writeFileSync(join(dir, 'rollouts.jsonl'), `${JSON.stringify({ id: 'r', completion: 'x' })}\n`);
    const bad = join(dir, 'bad.json');
    writeFileSync(bad, JSON.stringify({ kind: 'rubrica.calibration', version: 1 }));
    const args = ['score', '--in', join(dir, 'rollouts.jsonl'), '--out', join(dir, 'never.jsonl')];
    args.push('--judge', 'vllm:judge-m');
    const res = await runCliInProcess([...args, '--calibration', bad]);
    expect(res.code).toBe(2);
    expect(res.stderr).toMatch(/--calibration: .*not a rubrica calibration/);
    await fitFile();
    const clash = await runCliInProcess([
      ...args,
      '--calibration',
      join(dir, 'cal.json'),
      '--interval-level',
      '0.9',
    ]);
    expect(clash.code).toBe(2);
    expect(clash.stderr).toMatch(/differs from the calibration's base level 0.8/);
  });

  it('align --fit-weights: writes weights for the --pred judges from human votes', async () => {
    // Ids other than a/b: a winner naming an id is read as that rollout.
    const ids = ['p', 'q', 'r', 's'];
    const good = join(dir, 'good.jsonl');
    const bad = join(dir, 'bad.jsonl');
    writeFileSync(good, ids.map((id, i) => JSON.stringify({ id, score: i / 3 })).join('\n'));
    writeFileSync(bad, ids.map((id, i) => JSON.stringify({ id, score: 1 - i / 3 })).join('\n'));
    const votes = join(dir, 'votes.jsonl');
    const pairs = [
      ['s', 'p'],
      ['p', 'r'],
      ['r', 'q'],
      ['q', 's'],
      ['s', 'r'],
      ['p', 'q'],
    ];
    // People prefer the later letter, as the good judge does.
    writeFileSync(
      votes,
      pairs.map(([a, b]) => JSON.stringify({ a, b, winner: a! > b! ? 'a' : 'b' })).join('\n'),
    );
    const out = join(dir, 'weights.json');
    const res = await runCliInProcess([
      'align',
      ...['--pred', `vllm:good=${good}`, '--pred', `vllm:bad=${bad}`],
      ...['--human', votes, '--fit-weights', out],
    ]);
    expect(res.code, res.stderr).toBe(0);
    const w = JSON.parse(readFileSync(out, 'utf8')) as { judges: string[]; weights: number[] };
    expect(w.judges).toEqual(['vllm:good', 'vllm:bad']);
    expect(w.weights[0]).toBeCloseTo(1, 6);
    expect(w.weights[1]).toBeCloseTo(0, 6);
    expect(res.stderr).toMatch(/panel weights \(6 votes, 0 left out\): vllm:good 1\.000/);
  });
});
