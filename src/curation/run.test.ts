// openCurationRun: a real render pool and SQLite cache, prisma rubrics from a file, the code
// and vision judges played by the model double over loopback HTTP. A candidate every criterion
// passes is kept, one none passes is discarded, code that does not run is unexecutable; the
// same run again is answered from the cache; a judge that fails is a grader fault.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isCodeJudge, isVisionJudge, prismaRubric } from '../../test/prisma/fixtures.ts';
import {
  type DoubleRequest,
  fillSchema,
  jsonAnswer,
  type ModelDouble,
  startModelDouble,
} from '../../test/support/model-double.ts';
import { createModelClient } from '../models/client.ts';
import { DEFAULT_FAMILY_LAMBDAS } from '../reward/families.ts';
import { decisionFault, openCurationRun } from './run.ts';

const SVG =
  '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 64 64"><rect width="64" height="64" fill="#fc0"/><circle cx="22" cy="26" r="4"/><circle cx="42" cy="26" r="4"/></svg>';
const dir = mkdtempSync(join(tmpdir(), 'rubrica-curation-run-'));
const rubrics = join(dir, 'rubrics.jsonl');
let double: ModelDouble;
let judgeDown = false;

const verdicts = (req: DoubleRequest, pass: boolean) =>
  jsonAnswer(
    fillSchema(req.schema!, (kind) =>
      kind === 'boolean' ? pass : kind === 'string' ? 'because' : pass ? 99 : 0,
    ),
  );

beforeAll(async () => {
  double = await startModelDouble();
  double.script((req) => {
    if (judgeDown) return { status: 500 };
    const pass = !req.text.includes('instruction BAD');
    if (isVisionJudge(req) || isCodeJudge(req)) return verdicts(req, pass);
    return { status: 400 };
  });
  writeFileSync(
    rubrics,
    ['good', 'bad', 'broken']
      .map((id) => JSON.stringify(prismaRubric(id, `instruction ${id.toUpperCase()}`)))
      .join('\n'),
  );
});
afterAll(() => double?.close());

const judge = () =>
  createModelClient('openai-compatible:judge', {
    role: 'judge',
    baseUrl: double.url,
    maxRetries: 0,
    env: {},
  });

const open = (cache: string | false) =>
  openCurationRun({
    judge: judge(),
    rubrics,
    gate: { tau1: 0.5, tau2: 0.75, rounds: 0 },
    mode: 'joint',
    lambdas: DEFAULT_FAMILY_LAMBDAS,
    cache,
  });

const candidate = (id: string, code = SVG) => ({
  id,
  instruction: `instruction ${id.toUpperCase()}`,
  code,
  source: 'web',
});

describe('openCurationRun', () => {
  it('keeps, discards and finds unexecutable code; a second run is answered from the cache', async () => {
    const cache = join(dir, 'cache.sqlite');
    const run = open(cache);
    try {
      const good = await run.gate(candidate('good'));
      expect(good).toMatchObject({ decision: 'kept', final_score: 1, code: SVG });
      expect(await run.gate(candidate('bad'))).toMatchObject({
        decision: 'discarded',
        reason: 'below_tau1',
      });
      expect(await run.gate(candidate('broken', 'print("hi")'))).toMatchObject({
        decision: 'unexecutable',
      });
    } finally {
      await run.close();
    }
    const calls = double.requests.length;
    expect(calls).toBeGreaterThan(0);
    const again = open(cache);
    try {
      expect(await again.gate(candidate('good'))).toMatchObject({ decision: 'kept' });
    } finally {
      await again.close();
    }
    expect(double.requests.length).toBe(calls);
  });

  it('a judge that fails leaves a grader fault, which decisionFault names', async () => {
    judgeDown = true;
    const run = open(false);
    try {
      const d = await run.gate(candidate('good'));
      expect(d.decision).toBe('grader_error');
      expect(decisionFault(d)).toBe(d.reason ?? 'grader_error');
      expect(decisionFault({ decision: 'kept' })).toBeNull();
    } finally {
      judgeDown = false;
      await run.close();
    }
  });
});
