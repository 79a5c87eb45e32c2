// Issue 35, item 1 (audit): an input a command is given that is not a regular file — a FIFO
// with no writer, a unix socket, a device, a folder where a file is expected — is refused
// with one line naming it and exit 2, before anything opens it. Before, `align --human
// <fifo>` hung forever in a synchronous open (the process never ended; this test's deadline
// kills it and fails). Every CLI input goes through src/cli/input-file.ts; the entry points
// below are the ones the issue names (ratings files, rollouts files, rescore --in, eval
// folders, studio runs). Real processes, a real FIFO and socket, /dev/zero.
import { execFileSync, spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pLimit from 'p-limit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const dir = mkdtempSync(join(tmpdir(), 'special-files-'));
const p = (name: string) => join(dir, name);
const FIFO = p('pipe.jsonl');
const SOCKET = p('sock.jsonl');
const A_DIR = p('folder.jsonl');
let server: Server;

beforeAll(async () => {
  execFileSync('mkfifo', [FIFO]);
  mkdirSync(A_DIR);
  server = createServer();
  await new Promise<void>((resolve) => server.listen(SOCKET, resolve));
  writeFileSync(p('scores.jsonl'), `${JSON.stringify({ id: 'r1', prompt_id: 'p', reward: 1 })}\n`);
  mkdirSync(p('run'));
  writeFileSync(join(p('run'), 'results.jsonl'), '');
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

const MODEL = 'openai-compatible:nobody';
const KINDS: [string, string | (() => string), RegExp][] = [
  ['a FIFO', () => FIFO, /is a FIFO \(a pipe\), not a regular file/],
  ['a unix socket', () => SOCKET, /is a socket, not a regular file/],
  ['a device', '/dev/zero', /is a device, not a regular file/],
  ['a folder', () => A_DIR, /is a directory, not a file/],
];
const ENTRY_POINTS: [string, (bad: string) => string[]][] = [
  ['align --human (ratings)', (b) => ['align', '--pred', `j=${p('scores.jsonl')}`, '--human', b]],
  [
    'align --pred (judge scores)',
    (b) => ['align', '--pred', `j=${b}`, '--human', p('scores.jsonl')],
  ],
  ['rescore --in', (b) => ['rescore', '--in', b, '--judge', MODEL, '--out', p('o.jsonl')]],
  ['studio --study', (b) => ['studio', '--run', p('run'), '--study', b, '--port', '0']],
];

/** Runs the CLI with a deadline: a process that hangs is killed and reported as such. */
function run(args: string[]): Promise<{ code: number | null | 'hung'; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn('node', ['bin/rubrica.js', ...args], {
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    let stderr = '';
    child.stderr.on('data', (b: Buffer) => {
      stderr += b.toString();
    });
    const timer = setTimeout(() => child.kill('SIGKILL'), 30_000);
    child.once('exit', (code, signal) => {
      clearTimeout(timer);
      resolve({ code: signal === 'SIGKILL' ? 'hung' : code, stderr });
    });
  });
}

describe('inputs that are not regular files', () => {
  it('every entry point refuses a FIFO, a socket, a device and a folder: exit 2, one line', async () => {
    const limit = pLimit(4);
    // align --pred and rescore --in take an eval run folder too: a folder is not refused as such.
    const rows = ENTRY_POINTS.flatMap(([entry, args]) =>
      KINDS.filter(([kind]) => !(/^(align --pred|rescore)/.test(entry) && kind === 'a folder')).map(
        ([kind, path, why]) => ({ entry, kind, path, why, args }),
      ),
    );
    const got = await Promise.all(
      rows.map((r) =>
        limit(async () => {
          const bad = typeof r.path === 'string' ? r.path : r.path();
          return { ...r, bad, out: await run(r.args(bad)) };
        }),
      ),
    );
    for (const g of got) {
      const label = `${g.entry} given ${g.kind}`;
      expect(g.out.code, `${label}: ${g.out.stderr}`).toBe(2);
      expect(g.out.stderr, label).toContain(JSON.stringify(g.bad));
      expect(g.out.stderr, label).toMatch(g.why);
      expect(g.out.stderr, label).not.toMatch(/\n\s+at /); // no stack trace
    }
  }, 300_000);
});
