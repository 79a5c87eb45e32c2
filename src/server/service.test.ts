// startRewardService and closeOnSignal without the CLI: the real scorer (render pool,
// inspection, SQLite cache) behind a real port, a judge double over loopback HTTP, the rubrics
// log line, readiness from the judge, clean failure on a port in use, and shutdown on a signal.
import { EventEmitter } from 'node:events';
import { existsSync } from 'node:fs';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  judgeByImage,
  postJson,
  scoreForImage,
  tempDir,
  writeRubrics,
} from '../../test/server/support.ts';
import { type ModelDouble, startModelDouble } from '../../test/support/model-double.ts';
import { createModelClient } from '../models/client.ts';
import { ScorerConfigError } from '../pipeline/score.ts';
import type { HybridRewarder } from '../reward/hybrid.ts';
import { ServerConfigError } from './config-error.ts';
import { closeOnSignal, type RewardServiceOptions, startRewardService } from './service.ts';

const SVG =
  '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 64 64"><circle cx="32" cy="32" r="20" fill="#d52"/></svg>';
const completion = `Here it is:\n\`\`\`svg\n${SVG}\n\`\`\``;

let double: ModelDouble;
const dir = tempDir('service');
const rubrics = writeRubrics(dir, [['fox', 'a red fox']]);

beforeAll(async () => {
  double = await startModelDouble({ handler: judgeByImage() });
});
afterAll(() => double?.close());

function logged() {
  const lines: Record<string, unknown>[] = [];
  const stream = { write: (s: string) => lines.push(JSON.parse(s)) };
  return { lines, logger: pino({ level: 'info' }, stream) };
}

function options(extra: Partial<RewardServiceOptions> = {}): RewardServiceOptions {
  return {
    rubrics,
    judge: createModelClient('openai-compatible:test-judge', {
      role: 'judge',
      baseUrl: double.url,
      env: {},
      maxRetries: 1,
    }),
    judgeConcurrency: 4,
    reward: ['ruler'],
    mode: 'joint',
    renderWorkers: 1,
    cache: join(dir, `cache-${Math.random().toString(36).slice(2)}.sqlite`),
    port: 0,
    ...extra,
  };
}

describe('startRewardService', () => {
  it('serves real rewards from the rubrics file, says which rubrics it loaded, and is ready', async () => {
    const { lines, logger } = logged();
    const opts = options({ logger });
    const server = await startRewardService(opts);
    try {
      expect(lines.find((l) => l.msg === 'rubrics loaded')).toMatchObject({
        file: rubrics,
        kept: 1,
        dropped: 1,
        unreadable: 0,
      });
      const res = await postJson(`${server.url}/v1/rewards`, {
        items: [
          { id: 'a', prompt_id: 'fox', completion },
          { id: 'b', prompt_id: 'nope', completion },
        ],
      });
      expect(res.status).toBe(200);
      const [a, b] = (res.json as { results: Record<string, unknown>[] }).results;
      expect(a).toMatchObject({ id: 'a', status: 'ok' });
      // The judge double scores by the picture: the reward is the score it chose for this PNG.
      const png = double.requests.at(-1)!.images[0]!;
      expect(a!.reward).toBeCloseTo(scoreForImage(png), 12);
      expect(b).toMatchObject({ id: 'b', reason: 'no_rubric' });
      // Readiness comes from the judge it was handed.
      const ready = await fetch(`${server.url}/readyz`);
      expect(ready.status).toBe(200);
      expect(((await ready.json()) as { judge: { model: string } }).judge.model).toBe(
        'openai-compatible:test-judge',
      );
      expect(existsSync(opts.cache as string)).toBe(true);
    } finally {
      await server.close();
    }
  });

  it('a reward the configuration cannot serve fails with ScorerConfigError and closes the hybrid rewarder', async () => {
    let closed = 0;
    const hybrid = { close: async () => void closed++ } as unknown as HybridRewarder;
    await expect(
      startRewardService(options({ reward: ['hybrid'], hybrid: undefined })),
    ).rejects.toBeInstanceOf(ScorerConfigError);
    await expect(
      startRewardService(options({ rubrics: undefined, reward: ['ruler'], hybrid })),
    ).rejects.toBeInstanceOf(ScorerConfigError);
    expect(closed).toBe(1);
  });

  it('a port in use fails with ServerConfigError, after closing what it started', async () => {
    const blocker = createServer();
    await new Promise<void>((r) => blocker.listen(0, '127.0.0.1', r));
    const port = (blocker.address() as { port: number }).port;
    try {
      const err = await startRewardService(options({ port })).catch((e) => e);
      expect(err).toBeInstanceOf(ServerConfigError);
      expect((err as ServerConfigError).code).toBe('port_in_use');
    } finally {
      await new Promise<void>((r) => blocker.close(() => r()));
    }
  });
});

describe('closeOnSignal', () => {
  it('SIGTERM drains and closes the server, then resolves true', async () => {
    const server = await startRewardService(options());
    const signals = new EventEmitter();
    const done = closeOnSignal(server, undefined, signals as never);
    expect((await fetch(`${server.url}/healthz`)).status).toBe(200);
    signals.emit('SIGTERM', 'SIGTERM');
    expect(await done).toBe(true);
    expect(signals.listenerCount('SIGTERM') + signals.listenerCount('SIGINT')).toBe(0);
    await expect(fetch(`${server.url}/healthz`)).rejects.toThrow();
  });

  it('a failed shutdown is logged and resolves false', async () => {
    const { lines, logger } = logged();
    const failing = {
      url: 'http://127.0.0.1:1',
      host: '127.0.0.1',
      port: 1,
      metrics: {} as never,
      close: async () => {
        throw new Error('scorer would not close');
      },
    };
    const signals = new EventEmitter();
    const done = closeOnSignal(failing, logger, signals as never);
    signals.emit('SIGINT', 'SIGINT');
    expect(await done).toBe(false);
    expect(lines.find((l) => l.msg === 'shutdown failed')).toBeDefined();
  });
});
