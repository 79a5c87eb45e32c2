// evaluateRolloutsFile on real files: a rollouts.jsonl with a failed policy call, an orphan
// rollout and a bad line; real renders (its own render pool), the judge double over loopback
// HTTP, the results and report written; faults counted by reason when the judge fails; an
// unreadable file is a value, not a throw.
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  type ModelDouble,
  schemaAnswer,
  startModelDouble,
} from '../../test/support/model-double.ts';
import { createModelClient } from '../models/client.ts';
import { evaluateRolloutsFile, faultsByReason, usableRollouts } from './run-files.ts';
import type { EvalRecord } from './types.ts';

const SVG =
  '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 64 64"><circle cx="32" cy="32" r="24" fill="#c40"/></svg>';
const prompts = [{ id: 'p1', prompt: 'a red circle' }];
const lines = [
  { id: 'r1', prompt_id: 'p1', completion: `\`\`\`svg\n${SVG}\n\`\`\`` },
  { id: 'r2', prompt_id: 'p1', error: { code: 'network', message: 'policy down' } },
  { id: 'r3', prompt_id: 'elsewhere', completion: 'no prompt known for this one' },
];

let double: ModelDouble;
let failJudge = false;
beforeAll(async () => {
  double = await startModelDouble({ handler: schemaAnswer() });
  const ok = schemaAnswer();
  double.script((req) => (failJudge ? { status: 500 } : ok(req)));
});
afterAll(() => double?.close());

const judge = () =>
  createModelClient('openai-compatible:judge', {
    role: 'judge',
    baseUrl: double.url,
    maxRetries: 0,
    env: {},
  });

function writeRollouts(dir: string, extra = ''): string {
  const file = join(dir, 'rollouts.jsonl');
  writeFileSync(file, `${lines.map((l) => JSON.stringify(l)).join('\n')}\n${extra}`);
  return file;
}

describe('usableRollouts', () => {
  it('leaves out failed policy calls and rollouts without a known prompt, with a notice each', () => {
    const r = usableRollouts(
      {
        rollouts: [
          { id: 'a', prompt_id: 'p1', prompt: null, completion: 'x' },
          { id: 'b', prompt_id: 'gone', prompt: 'its own text', completion: 'x' },
          { id: 'c', prompt_id: 'gone', prompt: null, completion: 'x' },
        ],
        errors: [{ id: 'd', prompt_id: 'p1', error: { code: 'timeout', message: 'slow' } }],
      },
      prompts,
      'prompts.jsonl',
    );
    expect(r.rollouts.map((x) => x.id)).toEqual(['a', 'b']);
    expect(r.notices).toEqual([
      '1 rollouts have no completion (the policy call failed) and are not evaluated: d (timeout)',
      '1 rollouts name a prompt_id missing from prompts.jsonl and carry no prompt text; skipped: c',
    ]);
  });
});

describe('faultsByReason', () => {
  it('counts records with any grader fault by the fault reason', () => {
    const rec = (scores: Record<string, object>) => ({ scores }) as unknown as EvalRecord;
    const faults = faultsByReason([
      rec({ universal: { status: 'ok', reason: null } }),
      rec({ universal: { status: 'grader_error', reason: 'judge_error' } }),
      rec({
        universal: { status: 'ok' },
        ruler: { status: 'grader_error', reason: 'judge_error' },
      }),
      rec({ universal: { status: 'unscoreable', reason: 'no_svg' } }),
    ]);
    expect(faults).toEqual({ judge_error: 2 });
  });
});

describe('evaluateRolloutsFile', () => {
  it('evaluates the usable rollouts, reports bad lines and notices, writes the run', async () => {
    failJudge = false;
    const dir = mkdtempSync(join(tmpdir(), 'rubrica-eval-file-'));
    const rolloutsFile = writeRollouts(dir, '{not json\n');
    const issues: string[] = [];
    const notices: string[] = [];
    const r = await evaluateRolloutsFile({
      rolloutsFile,
      promptsFile: 'prompts.jsonl',
      prompts,
      outDir: dir,
      run: 'test-run',
      judge: judge(),
      cache: false,
      concurrency: 2,
      onInputIssue: (m) => issues.push(m),
      onNotice: (m) => notices.push(m),
    });
    if (!r.ok) throw new Error(r.error.message);
    expect(issues).toHaveLength(1);
    expect(issues[0]).toMatch(new RegExp(`^${rolloutsFile}:4: `));
    expect(notices).toHaveLength(2);
    expect(r.result.records.map((x) => x.id)).toEqual(['r1']);
    expect(r.result.records[0]!.scores.universal).toMatchObject({ status: 'ok' });
    expect(r.faults).toEqual({});
    expect(existsSync(r.result.paths.report)).toBe(true);
    // The notices are in the report too.
    expect(readFileSync(r.result.paths.report, 'utf8')).toContain('carry no prompt text');
  });

  it('a judge that fails leaves the rollouts not judged, counted by reason', async () => {
    failJudge = true;
    try {
      const dir = mkdtempSync(join(tmpdir(), 'rubrica-eval-file-'));
      const r = await evaluateRolloutsFile({
        rolloutsFile: writeRollouts(dir),
        promptsFile: 'prompts.jsonl',
        prompts,
        outDir: dir,
        run: 'test-run',
        judge: judge(),
        cache: false,
      });
      if (!r.ok) throw new Error(r.error.message);
      expect(r.faults).toEqual({ judge_error: 1 });
    } finally {
      failJudge = false;
    }
  });

  it('a missing rollouts file is { ok: false } with the reason, and closes the hybrid rewarder', async () => {
    let closed = 0;
    const dir = mkdtempSync(join(tmpdir(), 'rubrica-eval-file-'));
    const r = await evaluateRolloutsFile({
      rolloutsFile: join(dir, 'nope.jsonl'),
      promptsFile: 'prompts.jsonl',
      prompts,
      outDir: dir,
      run: 'x',
      judge: judge(),
      hybrid: { close: async () => void closed++ } as never,
    });
    expect(r.ok).toBe(false);
    if (!r.ok) expect(r.error.message).toContain('nope.jsonl');
    expect(closed).toBe(1);
  });
});
