// A pairwise record's interval through the real pipeline (issue 37): a group of 6 bars judged
// in all pairs by a judge double that reads the quality from the pixels. Each relative record
// carries the bootstrap interval of its own reward (not the absolute record's point interval
// or its calibration), says what it is (`relative.interval_method`), and gets the same
// interval whichever order the group arrives in; a group of two claims none and says why.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { judgeClient, rulerRubric } from '../../test/score/support/fixtures.ts';
import { judgeByImage } from '../../test/server/support.ts';
import { type ModelDouble, startModelDouble } from '../../test/support/model-double.ts';
import { inkShare, pairwiseFirstBias } from '../../test/support/model-double-pairwise.ts';
import type { RolloutInput } from '../core/record.ts';
import { createRenderPool } from '../render/pool.ts';
import { createRolloutScorer } from './score.ts';
import type { InspectingScorer } from './types.ts';

const bar = (q: number) =>
  `\`\`\`svg\n<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 100 100"><rect width="${(10 + 80 * q).toFixed(3)}" height="100" fill="#000"/></svg>\n\`\`\``;
const qualityOf = async (url: string) =>
  Math.round(((await inkShare(url)) - 0.1) / 0.8 / 1e-3) * 1e-3;
const group = (id: string, qs: readonly number[]): RolloutInput[] =>
  qs.map((q, k) => ({ id: `${id}-${k}`, prompt_id: id, completion: bar(q) }));

const judge = pairwiseFirstBias({ quality: qualityOf, close: 0.3, single: judgeByImage() });
let double: ModelDouble;
const renderer = createRenderPool({ workers: 1 });
let scorer: InspectingScorer;
beforeAll(async () => {
  double = await startModelDouble({ handler: judge });
  scorer = await createRolloutScorer({
    rubrics: ['g6', 'g2'].map((id) => rulerRubric(id, `a bar for ${id}`)),
    judge: judgeClient(double.url, { maxRetries: 0 }),
    renderer,
    cache: false,
    judging: { judging: 'pairwise', pairs: 'all', intervalLevel: 0.8 },
  });
});
afterAll(async () => {
  await scorer?.close();
  await renderer.close();
  await double?.close();
});

describe('the interval of a pairwise record', () => {
  it('is the bootstrap interval of the relative reward, the same in any arrival order', async () => {
    const qs = [0.1, 0.9, 0.3, 0.7, 0.5, 0.2];
    const items = group('g6', qs);
    const a = await scorer.scoreBatch(items);
    const b = await scorer.scoreBatch([...items].reverse());
    const byId = new Map(b.map((r) => [r.id, r]));
    for (const r of a) {
      expect(r.status).toBe('ok');
      expect(r.relative).toMatchObject({
        interval_method: 'pair-bootstrap',
        interval_resamples: 200,
        fallback: false,
      });
      expect(r.interval_level).toBe(0.8);
      expect(r.interval_calibrated).toBeUndefined();
      const [lo, hi] = r.interval!;
      expect(lo).toBeLessThanOrEqual(r.reward);
      expect(hi).toBeGreaterThanOrEqual(r.reward);
      // Not the absolute judge's point interval [a, a]: a relative reward's own.
      expect(hi - lo).toBeGreaterThan(0);
      expect(byId.get(r.id)!.interval).toEqual(r.interval);
    }
  });

  it('a group of two claims no interval and says why', async () => {
    const recs = await scorer.scoreBatch(group('g2', [0.2, 0.8]));
    for (const r of recs) {
      expect(r.relative).toMatchObject({ interval_method: 'none', fallback: false });
      expect((r.relative as { interval_note?: string }).interval_note).toMatch(/1 compared pair/);
      expect(r.interval).toBeUndefined();
      expect(r.interval_level).toBeUndefined();
    }
  });
});
