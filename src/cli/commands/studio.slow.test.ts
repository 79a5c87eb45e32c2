// `rubrica studio` as a user runs it: a spawned process that prints the links, serves the
// rater page on loopback, refuses bad study files with exit 2, and stops on SIGTERM.
import { type ChildProcess, execFile, spawn } from 'node:child_process';
import { rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeRuns, type StudioFixture } from '../../../test/studio/fixture.ts';

const BIN = new URL('../../../bin/rubrica.js', import.meta.url).pathname;
const ENV = { ...process.env, RUBRICA_FROM_SOURCE: '1' };
let fx: StudioFixture;
let child: ChildProcess | undefined;

beforeAll(async () => {
  fx = await makeRuns({ prompts: 3 });
});
afterAll(async () => {
  if (child && child.exitCode === null) child.kill('SIGKILL');
  await rm(fx.root, { recursive: true, force: true });
});

/** Starts the command and resolves with everything it printed once the last rater link is out. */
function startStudio(args: string[]): Promise<string> {
  return new Promise((resolve, reject) => {
    child = spawn(process.execPath, [BIN, 'studio', ...args], { env: ENV, cwd: fx.root });
    let out = '';
    child.stdout!.on('data', (d) => {
      out += String(d);
      if (/exports for rubrica align/.test(out)) resolve(out);
    });
    child.on('exit', (code) => reject(new Error(`exited ${code} before listening: ${out}`)));
  });
}

describe('rubrica studio (process)', () => {
  it('prints admin and rater links, serves them on loopback, stops on SIGTERM', async () => {
    const study = join(fx.root, 'study.json');
    await writeFile(
      study,
      JSON.stringify({ name: 'cli study', kind: 'pairwise', raters: ['ann', 'bob'] }),
    );
    const out = await startStudio(['--run', ...fx.runs, '--study', study, '--port', '0']);
    expect(out).toContain('pairwise study "cli study" (database studio-cli_study.sqlite)');
    const ann = /rater ann: (http:\/\/127\.0\.0\.1:\d+\/r\/\S+)/.exec(out)![1]!;
    expect(out).toMatch(/rater bob: http/);
    const page = await fetch(ann);
    expect(page.status).toBe(200);
    // Raters see a neutral title, never the study's name.
    const html = await page.text();
    expect(html).toContain('<title>Picture study</title>');
    expect(html).not.toContain('cli study');
    const exited = new Promise<number | null>((r) => child!.on('exit', (code) => r(code)));
    child!.kill('SIGTERM');
    expect(await exited).toBe(0);
  }, 60_000);

  it('keeps every answer through a SIGKILL: the restarted studio resumes where the rater was', async () => {
    const study = join(fx.root, 'crash.json');
    await writeFile(
      study,
      JSON.stringify({
        name: 'crash',
        kind: 'absolute',
        raters: ['ann'],
        attention_checks: 0,
        repeat_share: 0,
        practice: 0,
      }),
    );
    const args = ['--run', ...fx.runs, '--study', study, '--port', '0', '--db', 'crash.sqlite'];
    let out = await startStudio(args);
    let link = /rater ann: (\S+)/.exec(out)![1]!;
    const api = (path: string, body?: unknown) =>
      fetch(
        link.replace('/r/', '/api/r/') + path,
        body === undefined
          ? {}
          : {
              method: 'POST',
              headers: { 'content-type': 'application/json' },
              body: JSON.stringify(body),
            },
      ).then((r) => r.json() as Promise<{ done: number; task: { seq: number } | null }>);
    const scores: number[] = [];
    await api('/start', {});
    for (let i = 0; i < 3; i++) {
      const s = await api('/next');
      scores.push(10 * i + 7);
      await api('/answer', { seq: s.task!.seq, answer: { score: 10 * i + 7 } });
    }
    const killed = new Promise((r) => child!.on('exit', r));
    child!.kill('SIGKILL');
    await killed;
    out = await startStudio(args);
    link = /rater ann: (\S+)/.exec(out)![1]!;
    expect((await api('/next')).done).toBe(3);
    const admin = /admin: {2}(\S+)/.exec(out)![1]!.replace('/admin/', '/api/admin/');
    const rows = (await (await fetch(`${admin}/export.jsonl`)).text())
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l));
    expect(rows.map((r) => r.score)).toEqual(scores);
    const exited = new Promise((r) => child!.on('exit', r));
    child!.kill('SIGTERM');
    await exited;
  }, 90_000);

  it('exits 2 with the field named when the study file is wrong', async () => {
    const bad = join(fx.root, 'bad.json');
    await writeFile(bad, JSON.stringify({ kind: 'poll' }));
    const r = await new Promise<{ code: number; stderr: string }>((resolve) =>
      execFile(
        process.execPath,
        [BIN, 'studio', '--run', fx.runs[0]!, '--study', bad],
        { env: ENV },
        (err, _o, stderr) =>
          resolve({ code: err ? ((err as { code?: number }).code ?? 1) : 0, stderr }),
      ),
    );
    expect(r.stderr).toContain('kind');
    expect(r.code).toBe(2);
  }, 60_000);
});
