// Issue 35, item 5: serve and the isolation report. A machine (here: a configuration) where
// no per-sandbox memory cgroup can be made — RUBRICA_CGROUP_ROOT naming an empty directory,
// neither a cgroup v2 nor a v1 memory directory — makes `serve --require-cgroup` refuse to
// start (exit 2, with why); without the flag serve starts, logs the whole `rubrica doctor`
// report as one `doctor` line, and /readyz's body carries it while its status code stays
// the judge's (the judge's state may change between calls here: each code is checked
// against the body's own status). Real processes; every wait has a deadline.
import { spawn } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { currentMemoryCap } from '../../src/domains/doctor.ts';
import { type ModelDouble, startModelDouble } from '../support/model-double.ts';
import { judgeByImage, spawnServe, tempDir, writeRubrics } from './support.ts';

const dir = tempDir('serve-doctor');
const rubrics = writeRubrics(dir, [['p', 'a line']]);
let double: ModelDouble;
beforeAll(async () => {
  double = await startModelDouble({ handler: judgeByImage() });
});
afterAll(() => double.close());

const serveArgs = () => [
  '--rubrics',
  rubrics,
  '--judge',
  'openai-compatible:judge',
  '--judge-base-url',
  double.url,
  '--no-cache',
  '--render-workers',
  '1',
];

describe('serve and the isolation report', () => {
  it('--require-cgroup refuses to start where no per-sandbox memory cgroup can be made', async () => {
    const empty = join(dir, 'no-cgroup');
    mkdirSync(empty);
    const child = spawn(
      'node',
      ['bin/rubrica.js', 'serve', '--port', '0', ...serveArgs(), '--require-cgroup'],
      { env: { ...process.env, RUBRICA_CGROUP_ROOT: empty }, stdio: ['ignore', 'pipe', 'pipe'] },
    );
    let err = '';
    child.stderr.on('data', (b: Buffer) => {
      err += b.toString();
    });
    const code = await new Promise<number | null | 'timeout'>((resolve) => {
      const timer = setTimeout(() => {
        child.kill('SIGKILL');
        resolve('timeout');
      }, 30_000);
      child.once('exit', (c) => {
        clearTimeout(timer);
        resolve(c);
      });
    });
    expect(code, err).toBe(2);
    expect(err).toContain('--require-cgroup: no memory cgroup can be made');
    expect(err).toContain(`${empty} is neither a cgroup v2 directory`);
    expect(err).not.toMatch(/"msg":"ready"/);
  }, 40_000);

  it('logs the doctor report once and serves it in /readyz’s body; the status code is the judge’s', async () => {
    const serve = await spawnServe(serveArgs(), {}, 60_000);
    try {
      // Right after "ready" the report may still run: then the field is null, never absent.
      const first = await fetch(`${serve.url}/readyz`);
      expect(await first.json()).toHaveProperty('doctor');
      let body: { status: string; doctor: Record<string, unknown> | null } | undefined;
      let status = 0;
      const deadline = Date.now() + 50_000;
      while (Date.now() < deadline) {
        const r = await fetch(`${serve.url}/readyz`);
        status = r.status;
        body = (await r.json()) as typeof body;
        if (body?.doctor) break;
        await new Promise((resolve) => setTimeout(resolve, 500));
      }
      const doctor = body?.doctor as {
        memoryCap: string;
        domains: { domain: string; safe: boolean; versions?: string[] }[];
        fonts: { resolves: Record<string, string> };
        renderers: { name: string; found: boolean }[];
      };
      expect(doctor, serve.stderr()).toBeTruthy();
      expect(body?.status).toBe(status === 200 ? 'ready' : 'not_ready');
      expect(doctor.memoryCap).toBe(currentMemoryCap());
      expect(doctor.domains.map((d) => d.domain)).toContain('python');
      expect(doctor.domains.find((d) => d.domain === 'dot')?.versions?.join(' ')).toMatch(
        /graphviz version/,
      );
      expect(doctor.fonts.resolves['sans-serif']).toBe('DejaVu Sans');
      expect(doctor.renderers.map((r) => r.name)).toEqual(['librsvg', 'resvg', 'chromium']);
      // One structured line on stderr, the same report.
      const lines = serve
        .stderr()
        .split('\n')
        .filter((l) => l.includes('"msg":"doctor"'));
      expect(lines).toHaveLength(1);
      expect(JSON.parse(lines[0]!).doctor.memoryCap).toBe(doctor.memoryCap);
    } finally {
      serve.child.kill('SIGTERM');
      await serve.exited;
    }
  }, 120_000);
});
