// The hybrid reward's CLI flags (shared by score, serve and eval): validation as usage errors,
// and a rewarder built from real files (a tiny CLIP folder, a LAION-head JSON) and a real
// HTTP scorer service (the reference Python server in --stand-in mode).
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hybridFromFlags, hybridPlan } from '../../src/cli/hybrid-flags.ts';
import { UsageError } from '../../src/cli/usage-error.ts';
import { inspectCompletion } from '../../src/inspect/inspect.ts';
import { createRenderPool, type RenderPool } from '../../src/render/pool.ts';
import { type TinyClipSpec, writeTinyClip } from './support/tiny-clip.ts';

const spec: TinyClipSpec = {
  words: { a: [0.2, 0.2, 0.2, 0.1], red: [1, 0, 0, 0], circle: [0.3, 0.3, 0.3, 0.2] },
  hidden: 4,
  dim: 4,
  textProjection: [1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1],
  visionProjection: [1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1],
  imageSize: 32,
  imageMean: [0.5, 0.5, 0.5],
  imageStd: [0.5, 0.5, 0.5],
};
const RED =
  '```svg\n<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 100 100"><circle cx="50" cy="50" r="40" fill="#e53935"/></svg>\n```';

let dir: string;
let clipDir: string;
let headFile: string;
let renderer: RenderPool;
let server: ChildProcess;
let scorerUrl: string;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'rubrica-hflags-'));
  clipDir = writeTinyClip(join(dir, 'clip'), spec);
  headFile = join(dir, 'head.json');
  writeFileSync(
    headFile,
    JSON.stringify({ 'layers.0.weight': [[1, 1, 1, 1]], 'layers.0.bias': [4] }),
  );
  renderer = createRenderPool({ workers: 1 });
  server = spawn(
    'python3',
    ['integrations/python/scorer_server.py', '--stand-in', '--port', '0', '--quiet'],
    {
      stdio: ['ignore', 'pipe', 'inherit'],
    },
  );
  const line = await new Promise<string>((resolve) =>
    createInterface({ input: server.stdout! }).once('line', resolve),
  );
  scorerUrl = /listening on (\S+)/.exec(line)![1]!;
});
afterAll(async () => {
  server?.kill('SIGTERM');
  await renderer?.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('hybridPlan', () => {
  it('parses λs and rejects bad combinations as usage errors', () => {
    expect(hybridPlan({ lambdaSemantic: '0.5', lambdaThink: '0' }).lambdas).toEqual({
      semantic: 0.5,
      think: 0,
    });
    const bad: Record<string, object> = {
      'must be a number': { lambdaRender: 'lots' },
      'needs --clip-model': { aestheticWeights: 'x.json' },
      'pick one': { clipModel: 'd', scorerUrl: 'http://h/score', scorerFor: 'semantic' },
      'graded or binary': { thinkMode: 'strict' },
      'lo < hi': { scorerRange: '10,1' },
      'http(s) URL': { scorerUrl: 'ftp://x' },
    };
    for (const [msg, flags] of Object.entries(bad)) {
      expect(() => hybridPlan(flags)).toThrow(UsageError);
      expect(() => hybridPlan(flags)).toThrow(msg);
    }
  });
});

describe('hybridFromFlags', () => {
  it('builds CLIP + LAION head scorers from files and scores a rollout', async () => {
    const rewarder = await hybridFromFlags({ clipModel: clipDir, aestheticWeights: headFile });
    const inspection = await inspectCompletion(RED, { prompt: 'a red circle', renderer });
    const r = await rewarder.score(inspection, 'a red circle');
    expect(r.status).toBe('ok');
    expect(r.criteria.map((c) => c.rationale?.split(' ')[0])).toEqual([
      '0/6',
      'the',
      'clip',
      'laion-aesthetic',
    ]);
    await rewarder.close();
  });

  it('uses an HTTP scorer service for the aesthetic term, with its range', async () => {
    const rewarder = await hybridFromFlags({
      clipModel: clipDir,
      scorerUrl,
      scorerName: 'http:stand-in',
      scorerRange: '0,2',
    });
    const inspection = await inspectCompletion(RED, { prompt: 'a red circle', renderer });
    const r = await rewarder.score(inspection, 'a red circle');
    expect(r.status).toBe('ok');
    const aes = r.criteria.find((c) => c.key === 'aesthetic')!;
    expect(aes.rationale).toMatch(/^http:stand-in [\d.]+ on 0–2 → /);
    expect(aes.score).toBeLessThanOrEqual(0.5); // the stand-in returns [0,1) on a 0–2 range
    await rewarder.close();
  });

  it('turns a missing model, bad weights or a term without scorer into usage errors', async () => {
    await expect(hybridFromFlags({ clipModel: join(dir, 'nope') })).rejects.toThrow(
      /--clip-model: could not load/,
    );
    writeFileSync(join(dir, 'bad.json'), '{"w": "x"}');
    await expect(
      hybridFromFlags({ clipModel: clipDir, aestheticWeights: join(dir, 'bad.json') }),
    ).rejects.toThrow(/--aesthetic-weights: "w" must be numbers/);
    await expect(hybridFromFlags({ clipModel: clipDir })).rejects.toThrow(
      /aesthetic term needs a scorer/,
    );
    const noAes = await hybridFromFlags({ clipModel: clipDir, lambdaAesthetic: '0' });
    await noAes.close();
  });
});
