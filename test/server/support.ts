// Shared pieces of the server's end-to-end tests: rubrics on disk, a judge double whose
// scores follow the picture (so rewards differ between rollouts), the real scorer (render
// pool, inspection, SQLite cache) behind a real HTTP server, and spawning `rubrica serve`.
import { type ChildProcess, spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { inspectCompletion } from '../../src/inspect/inspect.ts';
import { createModelClient, type ModelClientOptions } from '../../src/models/client.ts';
import { createRolloutScorer } from '../../src/pipeline/score.ts';
import type { RolloutScorer } from '../../src/pipeline/types.ts';
import { createRenderPool } from '../../src/render/pool.ts';
import type { RubricRecord } from '../../src/rubric/schema.ts';
import { judgeReadiness } from '../../src/server/readiness.ts';
import { type RunningServer, type StartOptions, startServer } from '../../src/server/start.ts';
import { rulerRubric } from '../score/support/fixtures.ts';
import type { DoubleReply, DoubleRequest } from '../support/model-double.ts';

export function tempDir(tag: string): string {
  return mkdtempSync(join(tmpdir(), `rubrica-${tag}-`));
}

/** Kept RULER rubrics for `[id, prompt]` pairs, plus one dropped, written as rubrics.jsonl. */
export function writeRubrics(dir: string, pairs: Array<[string, string]>): string {
  const rubrics: RubricRecord[] = pairs.map(([id, prompt]) => rulerRubric(id, prompt));
  rubrics.push({ ...rulerRubric('dropped', 'a dropped prompt'), kept: false });
  const file = join(dir, 'rubrics.jsonl');
  writeFileSync(file, `${rubrics.map((r) => JSON.stringify(r)).join('\n')}\n`);
  return file;
}

/** A score in [0.1, 0.9] (one decimal) chosen by the picture, so equal pictures score equally. */
export function scoreForImage(dataUrl: string): number {
  const h = createHash('sha256').update(dataUrl).digest();
  return (1 + (h[0]! % 9)) / 10;
}

/**
 * Joint judge answers: every item of the schema gets the picture's score, so the reward of
 * a rollout equals scoreForImage(its PNG). Requests whose text contains `failMarker` get 500.
 */
export function judgeByImage(failMarker = 'JUDGE_FAILS', delayMs = 0) {
  return (req: DoubleRequest): DoubleReply => {
    if (req.text.includes(failMarker)) return { status: 500 };
    const keys = Object.keys((req.schema?.properties ?? {}) as Record<string, unknown>);
    const s = scoreForImage(req.images[0] ?? '');
    const answer = Object.fromEntries(keys.map((k) => [k, { reasoning: `seen ${k}`, score: s }]));
    return { content: JSON.stringify(answer), delayMs };
  };
}

export interface RealServer extends RunningServer {
  cachePath: string;
}

/** The real scorer (render pool, inspectCompletion, SQLite cache) behind a real HTTP port. */
export async function startRealServer(opts: {
  judgeUrl: string;
  rubrics: string;
  dir: string;
  maxRetries?: number;
  timeoutMs?: number;
  concurrency?: number;
  circuitBreaker?: ModelClientOptions['circuitBreaker'];
  server?: Partial<StartOptions>;
}): Promise<RealServer> {
  const renderer = createRenderPool({ workers: 2 });
  const judge = createModelClient('openai-compatible:test-judge', {
    role: 'judge',
    baseUrl: opts.judgeUrl,
    env: {},
    retryBaseMs: 1,
    retryMaxMs: 5,
    timeoutMs: opts.timeoutMs ?? 10_000,
    maxRetries: opts.maxRetries ?? 2,
    concurrency: opts.concurrency ?? 16,
    ...(opts.circuitBreaker !== undefined ? { circuitBreaker: opts.circuitBreaker } : {}),
  });
  const cachePath = join(opts.dir, 'cache.sqlite');
  const inner = await createRolloutScorer({
    rubrics: opts.rubrics,
    judge,
    renderer,
    inspect: inspectCompletion,
    cache: cachePath,
    concurrency: 64,
  });
  const scorer: RolloutScorer = {
    scoreBatch: (items, o) => inner.scoreBatch(items, o),
    async close() {
      await inner.close();
      await renderer.close();
    },
  };
  const running = await startServer({
    scorer,
    port: 0,
    readiness: judgeReadiness(judge, { probeTimeoutMs: 2000, freshMs: 200 }),
    ...opts.server,
  });
  return { ...running, cachePath };
}

export async function postJson(
  url: string,
  body: unknown,
  headers: Record<string, string> = {},
): Promise<{ status: number; headers: Headers; json: unknown }> {
  const res = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: JSON.stringify(body),
  });
  const text = await res.text();
  let json: unknown = text;
  try {
    json = JSON.parse(text);
  } catch {
    // keep the text: a test will say what came back
  }
  return { status: res.status, headers: res.headers, json };
}

export interface ServeProcess {
  child: ChildProcess;
  url: string;
  stderr(): string;
  exited: Promise<number | null>;
}

/** Spawn `node bin/rubrica.js serve …` and wait for its "ready" log line. */
export function spawnServe(
  args: string[],
  env: Record<string, string> = {},
  startTimeoutMs = 30_000,
): Promise<ServeProcess> {
  return spawnListening('serve', args, env, startTimeoutMs);
}

/** A rubrica process that listens on a port: `serve` and `judge-proxy`. */
export type JudgeProxyProcess = ServeProcess;

/** Spawn `node bin/rubrica.js judge-proxy …` on a free port and wait for its "ready" line. */
export function spawnJudgeProxy(
  args: string[],
  startTimeoutMs = 30_000,
): Promise<JudgeProxyProcess> {
  return spawnListening('judge-proxy', args, {}, startTimeoutMs);
}

/** Spawns `rubrica <command> --port 0 …` and resolves with the URL its "ready" log line names. */
async function spawnListening(
  command: 'serve' | 'judge-proxy',
  args: string[],
  env: Record<string, string>,
  startTimeoutMs: number,
): Promise<ServeProcess> {
  const child = spawn('node', ['bin/rubrica.js', command, '--port', '0', ...args], {
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let err = '';
  const exited = new Promise<number | null>((resolve) =>
    child.once('exit', (code) => resolve(code)),
  );
  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => {
      // A process that never said "ready" is not left running behind the failed test.
      child.kill('SIGKILL');
      reject(new Error(`${command} did not start:\n${err}`));
    }, startTimeoutMs);
    child.stderr!.on('data', (chunk: Buffer) => {
      err += chunk.toString();
      const m = /"msg":"ready"/.test(err) ? /"url":"(http:[^"]+)"/.exec(err) : null;
      if (m) {
        clearTimeout(timer);
        resolve(m[1]!);
      }
    });
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`${command} exited with ${code}:\n${err}`));
    });
  });
  return { child, url, stderr: () => err, exited };
}

/** A loopback port nothing listens on (it was free a moment ago): a judge that is down. */
export async function freePort(): Promise<number> {
  const { createServer } = await import('node:net');
  const s = createServer();
  await new Promise<void>((resolve) => s.listen(0, '127.0.0.1', resolve));
  const { port } = s.address() as { port: number };
  await new Promise<void>((resolve) => s.close(() => resolve()));
  return port;
}
