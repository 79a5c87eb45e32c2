// A judge panel through `rubrica serve` over real HTTP loopback (issue 37): the process is
// started with `--judge a,b --judge c --quorum 2`, judge-b faulting on every call (HTTP 500).
// POST /v1/rewards answers every rollout ok, each judged criterion the mean of judge-a and
// judge-c with judge-b's fault on the record; a service started with --quorum 3 answers the
// same rollouts as grader faults, never as zeros taken for rewards.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PANEL_JUDGES, panelHandler } from '../score/panel-double.ts';
import { type ModelDouble, startModelDouble } from '../support/model-double.ts';
import { postJson, spawnServe, tempDir, writeRubrics } from './support.ts';

const dir = tempDir('serve-panel');
const rubrics = writeRubrics(dir, [['p', 'a bar']]);
const bar = (w: number) =>
  `\`\`\`svg\n<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 100 100"><rect width="${w}" height="100" fill="#000"/></svg>\n\`\`\``;
let double: ModelDouble;
beforeAll(async () => {
  double = await startModelDouble({ handler: panelHandler });
});
afterAll(() => double?.close());

type Leaf = {
  score: number | null;
  panel?: { judge: string; score: number | null; fault?: string }[];
};
type Result = { id: string; status: string; reward: number; criteria?: Leaf[] };

async function serveAndScore(quorum: string): Promise<Result[]> {
  const serve = await spawnServe(
    [
      '--rubrics',
      rubrics,
      '--judge',
      `${PANEL_JUDGES[0]},${PANEL_JUDGES[1]}`,
      '--judge',
      PANEL_JUDGES[2],
      '--quorum',
      quorum,
      '--judge-base-url',
      double.url,
      '--judge-retries',
      '0',
      '--no-cache',
      '--render-workers',
      '1',
    ],
    {},
    40_000,
  );
  try {
    const items = [30, 60].map((w, k) => ({ id: `r${k}`, prompt_id: 'p', completion: bar(w) }));
    const res = await postJson(`${serve.url}/v1/rewards`, { items });
    expect(res.status, serve.stderr()).toBe(200);
    return (res.json as { results: Result[] }).results;
  } finally {
    serve.child.kill('SIGTERM');
    await serve.exited;
  }
}

describe('serve with a judge panel', () => {
  it('answers while the quorum does, each judge on the record; below it, grader faults', async () => {
    const ok = await serveAndScore('2');
    expect(ok).toHaveLength(2);
    for (const r of ok) {
      expect(r.status).toBe('ok');
      expect(r.reward).toBeCloseTo(0.5, 9);
      const leaves = (r.criteria ?? []).filter((c) => c.panel);
      expect(leaves.length).toBeGreaterThan(0);
      for (const c of leaves) {
        expect(c.score).toBeCloseTo(0.5, 12);
        expect(c.panel!.map((p) => [p.judge, p.score, p.fault ?? null])).toEqual([
          [PANEL_JUDGES[0], 0.2, null],
          [PANEL_JUDGES[1], null, 'judge_error'],
          [PANEL_JUDGES[2], 0.8, null],
        ]);
      }
    }
    const strict = await serveAndScore('3');
    for (const r of strict) expect(r.status).toBe('grader_error');
  }, 90_000);
});
