// openScoringRun: a real render pool, a real SQLite cache file and a judge over loopback HTTP.
// A second run on the same cache answers from it without calling the judge; a scorer that
// cannot work as configured throws ScorerConfigError and closes the hybrid rewarder it was
// handed; cache false asks the judge every time.
import { existsSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { judgeClient, rulerRubric } from '../../test/score/support/fixtures.ts';
import { judgeByImage, scoreForImage } from '../../test/server/support.ts';
import { type ModelDouble, startModelDouble } from '../../test/support/model-double.ts';
import type { HybridRewarder } from '../reward/hybrid.ts';
import { ScorerConfigError } from './score.ts';
import { openScoringRun } from './scoring-run.ts';

const SVG =
  '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 64 64"><rect x="8" y="8" width="48" height="40" fill="#2a6"/></svg>';
const rollout = { id: 'r1', prompt_id: 'fox', completion: `\`\`\`svg\n${SVG}\n\`\`\`` };
const rubrics = [rulerRubric('fox', 'a red fox')];
const dir = mkdtempSync(join(tmpdir(), 'rubrica-scoring-run-'));

let double: ModelDouble;
beforeAll(async () => {
  double = await startModelDouble({ handler: judgeByImage() });
});
afterAll(() => double?.close());
beforeEach(() => double.reset());

describe('openScoringRun', () => {
  it('scores with the judge, writes the cache, and a second run answers from it', async () => {
    const cache = join(dir, 'cache.sqlite');
    const first = await openScoringRun({
      rubrics,
      judge: judgeClient(double.url),
      cache,
      renderer: 'resvg',
    });
    const a = await first.score(rollout).finally(() => first.close());
    expect(a).toMatchObject({ id: 'r1', status: 'ok', cached: false });
    expect(double.requests).toHaveLength(1);
    expect(a.reward).toBeCloseTo(scoreForImage(double.requests[0]!.images[0]!), 12);
    expect(existsSync(cache)).toBe(true);

    const second = await openScoringRun({ rubrics, judge: judgeClient(double.url), cache });
    const b = await second.score(rollout).finally(() => second.close());
    expect(b).toMatchObject({ id: 'r1', status: 'ok', cached: true, reward: a.reward });
    expect(double.requests).toHaveLength(1); // no second judge call
  });

  it('cache false neither reads nor writes answers: each run asks the judge', async () => {
    for (let i = 0; i < 2; i++) {
      const run = await openScoringRun({ rubrics, judge: judgeClient(double.url), cache: false });
      const r = await run.score(rollout).finally(() => run.close());
      expect(r).toMatchObject({ status: 'ok', cached: false });
    }
    expect(double.requests).toHaveLength(2);
  });

  it('a scorer that cannot work throws ScorerConfigError and closes the hybrid rewarder', async () => {
    let closed = 0;
    const hybrid = { close: async () => void closed++ } as unknown as HybridRewarder;
    await expect(
      openScoringRun({ reward: 'ruler', rubrics, cache: join(dir, 'c2.sqlite'), hybrid }),
    ).rejects.toBeInstanceOf(ScorerConfigError);
    expect(closed).toBe(1);
  });
});
