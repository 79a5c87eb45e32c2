// `rubrica serve --reward prisma,direct`: the PrismaForge reward and its holistic baseline from
// a real serve process over loopback HTTP, with a rubrics file holding prisma lines and
// loopback judges answering as their schema allows. The service answers both rewards from one
// render, in request order, and a rollout with no SVG is a rule-based zero, not a fault.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { postJson, spawnServe } from '../server/support.ts';
import { fluentEmoji } from '../support/corpus.ts';
import { type ModelDouble, schemaAnswerer, startModelDouble } from '../support/model-double.ts';
import { prismaRubric } from './fixtures.ts';

let double: ModelDouble;
const dir = mkdtempSync(join(tmpdir(), 'prisma-serve-'));

beforeAll(async () => {
  double = await startModelDouble({ models: ['m'] });
  double.script(schemaAnswerer({ seed: 9 }).handler);
});
afterAll(() => double.close());

interface Result {
  id: string;
  reward: number;
  status: string;
  reason?: string;
  reward_kind: string;
  rewards: Record<string, { reward: number; status: string }>;
}

describe('rubrica serve --reward prisma,direct', () => {
  it('answers both rewards per rollout over HTTP', async () => {
    const rubrics = join(dir, 'rubrics.jsonl');
    writeFileSync(
      rubrics,
      [prismaRubric('p1', 'a smiling face'), prismaRubric('p2', 'a red apple')]
        .map((r) => JSON.stringify(r))
        .join('\n'),
    );
    const serve = await spawnServe([
      '--rubrics',
      rubrics,
      '--reward',
      'prisma,direct',
      '--judge',
      'openai-compatible:m',
      '--judge-base-url',
      double.url,
      '--no-cache',
    ]);
    try {
      const icons = fluentEmoji(2).map((c) => c.svg);
      const items = [
        { id: 'a', prompt_id: 'p1', completion: `\`\`\`svg\n${icons[0]}\n\`\`\`` },
        { id: 'b', prompt_id: 'p2', completion: `\`\`\`svg\n${icons[1]}\n\`\`\`` },
        { id: 'c', prompt_id: 'p2', completion: 'I cannot draw that.' },
      ];
      const r = await postJson(`${serve.url}/v1/rewards`, { items });
      expect(r.status, JSON.stringify(r.json)).toBe(200);
      const results = (r.json as { results: Result[] }).results;
      expect(results.map((x) => x.id)).toEqual(['a', 'b', 'c']);
      for (const x of results.slice(0, 2)) {
        expect(x.reward_kind).toBe('prisma');
        expect(x.rewards.prisma?.status, JSON.stringify(x)).toBe('ok');
        expect(x.rewards.direct?.status).toBe('ok');
        expect(x.reward).toBe(x.rewards.prisma?.reward);
        expect(x.reward).toBeGreaterThanOrEqual(0);
        expect(x.reward).toBeLessThanOrEqual(1);
      }
      const none = results[2]!;
      expect(none.status).toBe('unscoreable');
      expect(none.reward).toBe(0);
      expect(double.requests.length).toBeGreaterThan(0);
    } finally {
      serve.child.kill('SIGTERM');
      await serve.exited;
    }
  }, 180_000);
});
