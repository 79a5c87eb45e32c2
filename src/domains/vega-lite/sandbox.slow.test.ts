// Issue 35 item 2: the vega runtime runs inside the same bubblewrap sandbox as every other
// domain. Specs cannot even express a file read, an environment read or a connection after AST
// mode (the loader refuses every URL, expressions are interpreted), so the boundary is proved
// directly, the way an escape would meet it: the LIVE runtime process is inspected from outside
// (its network namespace, its root, its user, its cgroup, its limits), and a probe script that
// tries every such thing is run through the very same launcher (vegaSandboxSpec). The spec
// attacks are then run for their codes, with a loopback listener that must see nothing, and the
// runtime must render a normal chart after each. On the code before the sandbox the runtime was
// a plain child process: same network, host root, rubrica's user — the first two tests fail.
import {
  mkdtempSync,
  readdirSync,
  readFileSync,
  readlinkSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type LoopbackLogger, startLoopbackLogger } from '../../../test/support/loopback-logger.ts';
import { EXPRESSION_ARRAYS } from '../../../test/support/vega-heap-bombs.ts';
import { createRenderPool, type RenderPool } from '../../render/index.ts';
import { memoryCgroupSupport } from '../sandbox/memory-cgroup.ts';
import { runSandboxed } from '../sandbox/run.ts';
import type { DomainRender } from '../types.ts';
import { createVegaLiteRenderer } from './renderer.ts';
import { VegaRuntime } from './runtime.ts';
import { insidePath, vegaSandboxSpec, WORKER_FILE } from './sandbox-spec.ts';

const BAR = JSON.stringify({
  $schema: 'https://vega.github.io/schema/vega-lite/v5.json',
  data: {
    values: [
      { a: 'A', b: 28 },
      { a: 'B', b: 55 },
    ],
  },
  mark: 'bar',
  encoding: { x: { field: 'a', type: 'nominal' }, y: { field: 'b', type: 'quantitative' } },
});
const SANDBOX_ENV = ['HOME', 'LANG', 'PATH', 'PWD', 'TMPDIR'];
const SECRET = `rubrica-secret-${process.pid}`;

let logger: LoopbackLogger;
let hostDir: string;
let hostFile: string;
let pool: RenderPool;
beforeAll(async () => {
  logger = await startLoopbackLogger();
  hostDir = mkdtempSync(join(tmpdir(), 'rubrica-vega-host-'));
  hostFile = join(hostDir, 'secret.csv');
  writeFileSync(hostFile, `k,v\n${SECRET},1\n`);
  process.env.RUBRICA_VEGA_TEST_SECRET = SECRET;
  pool = createRenderPool({ workers: 1 });
});
afterAll(async () => {
  delete process.env.RUBRICA_VEGA_TEST_SECRET;
  await pool.close();
  await logger.close();
  rmSync(hostDir, { recursive: true, force: true });
});

/** Our descendants whose command line runs the vega worker (the sandboxed node). */
function runtimePids(): number[] {
  const parent = (pid: number) =>
    Number(
      readFileSync(`/proc/${pid}/stat`, 'utf8')
        .replace(/^.*\) /s, '')
        .split(' ')[1],
    );
  const mine = (pid: number) => {
    for (let p = pid, i = 0; p > 1 && i < 64; p = parent(p), i++)
      if (p === process.pid) return true;
    return false;
  };
  const out: number[] = [];
  for (const name of readdirSync('/proc')) {
    const pid = Number(name);
    if (!pid) continue;
    try {
      const cmd = readFileSync(`/proc/${pid}/cmdline`, 'utf8');
      // bwrap's own processes carry the same argv after theirs: node is the one it starts with
      const argv0 = cmd.split('\0')[0] ?? '';
      if (argv0.endsWith('/node') && cmd.includes('worker.mjs') && mine(pid)) {
        out.push(pid);
      }
    } catch {
      // gone meanwhile
    }
  }
  return out;
}

const exists = (path: string) => {
  try {
    readFileSync(path);
    return true;
  } catch {
    return false;
  }
};

describe('the vega runtime runs inside the bubblewrap sandbox', () => {
  it('the live runtime: own network namespace, no host files, empty environment, capped', async () => {
    const rt = new VegaRuntime({ heapMb: 128 });
    try {
      await rt.ready;
      const ok = await rt.run({ spec: BAR, maxRows: 50_000 }, 30_000);
      expect('ok' in ok && ok.ok).toBe(true);
      const [pid, ...more] = runtimePids();
      expect(pid, 'the runtime node process').toBeDefined();
      expect(more).toEqual([]);
      const root = `/proc/${pid}/root`;
      // no network: a namespace of its own (empty: only a downed loopback)
      expect(readlinkSync(`/proc/${pid}/ns/net`)).not.toBe(readlinkSync('/proc/self/ns/net'));
      // no host files: not the project, not /etc/hostname, not the test's tmp file
      expect(exists(`${root}/etc/hostname`)).toBe(false);
      expect(exists(`${root}${hostFile}`)).toBe(false);
      expect(exists(`${root}${join(process.cwd(), 'package.json')}`)).toBe(false);
      expect(exists(`${root}${WORKER_FILE}`)).toBe(false);
      // ...only what it loads, read-only under /rubrica
      expect(exists(`${root}${insidePath(WORKER_FILE)}`)).toBe(true);
      const modules = readdirSync(`${root}${insidePath(join(process.cwd(), 'node_modules'))}`);
      expect(modules).toContain('vega');
      expect(modules).not.toContain('vitest');
      // an empty environment (the sandbox's own: bwrap's four and the PWD it sets), none of ours
      const env = readFileSync(`/proc/${pid}/environ`, 'utf8').split('\0').filter(Boolean);
      expect(env.map((e) => e.split('=')[0]).sort()).toEqual(SANDBOX_ENV);
      expect(env.join(' ')).not.toContain(SECRET);
      // the kernel's limits, and its own memory cgroup where one can be made
      expect(readFileSync(`/proc/${pid}/limits`, 'utf8')).toMatch(/Max processes\s+64\s+64/);
      if (process.getuid?.() === 0) {
        expect(readFileSync(`/proc/${pid}/status`, 'utf8')).toMatch(/^Uid:\s+65534\b/m);
      }
      const support = memoryCgroupSupport();
      const cgroups = readFileSync(`/proc/${pid}/cgroup`, 'utf8');
      if (support) expect(cgroups).toMatch(/rubrica-\d+-\d+/);
      else console.log('vega sandbox: no memory cgroup on this machine (per-process limits only)');
    } finally {
      await rt.close();
    }
  }, 120_000);

  it('a probe run by the same launcher reads no host file or environment and connects nowhere', async () => {
    const spec = vegaSandboxSpec({ heapMb: 128 });
    const probe = `
      const fs = require('node:fs'), net = require('node:net');
      const tryRead = (p) => { try { return fs.readFileSync(p, 'utf8').slice(0, 80); } catch (e) { return 'refused ' + e.code; } };
      const out = { files: [${JSON.stringify(hostFile)}, '/etc/hostname', '/etc/passwd',
        ${JSON.stringify(join(process.cwd(), 'package.json'))}].map(tryRead),
        env: Object.keys(process.env).sort() };
      const s = net.connect(${logger.port}, '127.0.0.1');
      let said = false;
      const done = (how) => { if (said) return; said = true; out.connect = how; s.destroy(); process.stdout.write(JSON.stringify(out)); };
      s.on('connect', () => done('connected'));
      s.on('error', (e) => done('refused ' + e.code));
      setTimeout(() => done('no answer'), 5000);`;
    const argv = [...spec.argv.slice(0, -1), '-e', probe];
    const run = await runSandboxed({ ...spec, argv }, { timeoutMs: 30_000 });
    expect(run.code, run.stderr).toBe(0);
    const out = JSON.parse(run.stdout.toString('utf8'));
    for (const f of out.files) expect(f).toMatch(/^refused E/);
    expect(out.env).toEqual(SANDBOX_ENV);
    expect(out.connect).toMatch(/^refused E/);
    expect(logger.hits).toEqual([]);
  }, 60_000);
});

describe('spec attacks on the sandboxed runtime: a stable code each, and it lives on', () => {
  const code = (r: DomainRender) => (r.ok ? 'ok' : r.error.code);

  it('host files, loopback URLs and environment reads are exec_error; the listener sees nothing', async () => {
    const vl = createVegaLiteRenderer({ svgRenderer: pool, timeoutMs: 20_000, heapMb: 128 });
    try {
      const withUrl = (url: string) =>
        JSON.stringify({ ...JSON.parse(BAR), data: { url, format: { type: 'csv' } } });
      for (const url of [
        `http://127.0.0.1:${logger.port}/data.csv`,
        `file://${hostFile}`,
        hostFile,
        '/etc/hostname',
        'file:///proc/self/environ',
      ]) {
        const r = await vl.render(withUrl(url));
        expect([url, code(r)]).toEqual([url, 'exec_error']);
        expect(code(await vl.render(BAR))).toBe('ok');
      }
      // Expressions reaching for the host through object members: refused by the interpreter.
      for (const expr of [
        "datum.constructor.constructor('return process.env')()",
        "toString.constructor('return process')().env",
        'process.env',
      ]) {
        const spec = { ...JSON.parse(BAR), transform: [{ calculate: expr, as: 'z' }] };
        const r = await vl.render(JSON.stringify(spec));
        expect([expr, code(r)]).toEqual([expr, 'exec_error']);
      }
      // A job's task data is gone for the next job on the same runtime.
      const own = await vl.render(
        withUrl('secret.csv').replace('"a"', '"k"').replace('"b"', '"v"'),
        { assets: { 'secret.csv': Buffer.from(`k,v\n${SECRET},1\n`) } },
      );
      expect(code(own)).toBe('ok');
      expect(code(await vl.render(withUrl('secret.csv')))).toBe('exec_error');
      expect(code(await vl.render(BAR))).toBe('ok');
      expect(logger.hits).toEqual([]);
    } finally {
      await vl.close();
    }
  }, 180_000);

  it.skipIf(memoryCgroupSupport() === null)(
    'over its own memory cgroup the job is too_large, and the next chart renders',
    async () => {
      // A heap limit far above the cgroup's cap: only the cgroup can stop this spec.
      const vl = createVegaLiteRenderer({
        svgRenderer: pool,
        timeoutMs: 60_000,
        heapMb: 4096,
        sandboxMemoryBytes: 320 * 1024 ** 2,
      });
      try {
        const r = await vl.render(EXPRESSION_ARRAYS);
        expect(code(r)).toBe('too_large');
        expect(!r.ok && r.error.message).toContain('sandbox memory cap');
        expect(code(await vl.render(BAR))).toBe('ok');
      } finally {
        await vl.close();
      }
    },
    180_000,
  );
});

if (memoryCgroupSupport() === null) {
  console.log('vega sandbox: no usable memory cgroup here, the cgroup cap test is skipped');
}
