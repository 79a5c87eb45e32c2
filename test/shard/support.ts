// What the sharding tests share: the rubrica binary as a child process (a shard is a
// process, as under Slurm), reading JSONL back, and a SIGKILL sent to one shard once it
// has written its first line, so that it is left unfinished mid-run.
import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';

const BIN = new URL('../../bin/rubrica.js', import.meta.url).pathname;

export interface Exit {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** Starts `rubrica ARGS` in `cwd`; `done` resolves when it exits. */
export function rubrica(
  cwd: string,
  args: string[],
  env: Record<string, string> = {},
): { child: ChildProcess; done: Promise<Exit> } {
  const child = spawn(process.execPath, [BIN, ...args], {
    cwd,
    env: { ...process.env, RUBRICA_JUDGE_BASE_URL: '', RUBRICA_POLICY_BASE_URL: '', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout!.on('data', (d: Buffer) => {
    stdout += d.toString();
  });
  child.stderr!.on('data', (d: Buffer) => {
    stderr += d.toString();
  });
  const done = new Promise<Exit>((resolve) =>
    child.on('exit', (code) => resolve({ code, stdout, stderr })),
  );
  return { child, done };
}

export const lines = (p: string) =>
  existsSync(p) ? readFileSync(p, 'utf8').split('\n').filter(Boolean) : [];
export const idsIn = (p: string) => lines(p).map((l) => (JSON.parse(l) as { id: string }).id);

/** SIGKILLs `child` as soon as `file` holds a line (fails after a minute without one). */
export function killAfterFirstLine(child: ChildProcess, file: string): Promise<void> {
  return new Promise<void>((resolve, reject) => {
    const t0 = Date.now();
    const poll = setInterval(() => {
      if (lines(file).length >= 1) {
        clearInterval(poll);
        child.kill('SIGKILL');
        resolve();
      } else if (Date.now() - t0 > 60_000) {
        clearInterval(poll);
        reject(new Error(`${file}: the shard wrote nothing in a minute`));
      }
    }, 10);
  });
}

/** A JSON value without the fields that record how a run went rather than what it found. */
export function withoutRunFields(v: unknown, fields: readonly string[]): unknown {
  if (Array.isArray(v)) return v.map((x) => withoutRunFields(x, fields));
  if (v && typeof v === 'object')
    return Object.fromEntries(
      Object.entries(v)
        .filter(([k]) => !fields.includes(k))
        .map(([k, x]) => [k, withoutRunFields(x, fields)]),
    );
  return v;
}

export const sidecar = (p: string) =>
  JSON.parse(readFileSync(`${p}.shard.json`, 'utf8')) as { complete: boolean; command: string };
