// writeCurationOutputs on a real decisions.jsonl: the last line of an id wins (a redone grader
// fault), kept and recovered rows go to kept.jsonl and kept.parquet (read back with hyparquet),
// the funnel and the cost ledger cover every id once, a torn last line is skipped.
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { asyncBufferFromFile, parquetReadObjects } from 'hyparquet';
import { describe, expect, it } from 'vitest';
import type { Decision } from './curate.ts';
import { writeCurationOutputs } from './outputs.ts';

const usage = (calls: number) => ({
  calls,
  inputTokens: 10 * calls,
  outputTokens: calls,
  costUsd: 0,
  latencyMs: 1,
});

function decision(id: string, kind: Decision['decision'], extra: Partial<Decision> = {}): Decision {
  const kept = kind === 'kept' || kind === 'recovered';
  return {
    id,
    unit: `u-${id}`,
    source: id.startsWith('g') ? 'github' : 'web',
    domain: 'svg',
    instruction: `draw ${id}`,
    decision: kind,
    initial_score: kept ? 0.8 : 0.2,
    final_score: kept ? 0.9 : 0.2,
    rounds: kind === 'recovered' ? ([{}, {}] as never) : ([{}] as never),
    code: kept ? `<svg id="${id}"/>` : null,
    rubric_id: id,
    usage: { author: usage(1), judge: usage(2), generator: usage(kind === 'recovered' ? 1 : 0) },
    ...extra,
  };
}

describe('writeCurationOutputs', () => {
  it('derives kept.jsonl, kept.parquet, the funnel and the ledger from the last line of each id', async () => {
    const out = mkdtempSync(join(tmpdir(), 'rubrica-curation-out-'));
    const file = join(out, 'decisions.jsonl');
    const lines = [
      decision('w1', 'kept'),
      decision('g1', 'grader_error', { reason: 'judge_error' }),
      decision('g2', 'discarded', { reason: 'below_tau1' }),
      decision('g1', 'recovered'), // the redo of g1 replaces its fault
    ];
    writeFileSync(file, `${lines.map((l) => JSON.stringify(l)).join('\n')}\n{"id":"torn`);

    const r = await writeCurationOutputs(out, file);
    expect(r).toMatchObject({ decisions: 3, kept: 2 });
    expect(r.funnel.total).toMatchObject({
      raw: 3,
      kept_directly: 1,
      recovered: 1,
      discarded: 1,
      pending: 0,
    });
    expect(r.ledger.judge.calls).toBe(6);
    expect(r.ledger.generator.calls).toBe(1);

    const sft = readFileSync(join(out, 'kept.jsonl'), 'utf8')
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l));
    expect(sft.map((s) => s.meta.id)).toEqual(['w1', 'g1']);
    expect(sft[1]).toEqual({
      messages: [
        { role: 'user', content: 'draw g1' },
        { role: 'assistant', content: '```svg\n<svg id="g1"/>\n```' },
      ],
      meta: {
        id: 'g1',
        source: 'github',
        domain: 'svg',
        decision: 'recovered',
        score: 0.9,
        rounds: 1,
      },
    });
    const rows = await parquetReadObjects({
      file: await asyncBufferFromFile(join(out, 'kept.parquet')),
    });
    expect(rows.map((x) => [x.id, x.decision, x.rounds, x.code])).toEqual([
      ['w1', 'kept', 0, '<svg id="w1"/>'],
      ['g1', 'recovered', 1, '<svg id="g1"/>'],
    ]);
    expect(JSON.parse(readFileSync(join(out, 'funnel.json'), 'utf8'))).toEqual(r.funnel);
    expect(readFileSync(join(out, 'funnel.txt'), 'utf8')).toMatch(/^source\s+raw/);
    expect(readFileSync(join(out, 'funnel.html'), 'utf8')).toContain('<td>github</td>');
    expect(JSON.parse(readFileSync(join(out, 'summary.json'), 'utf8'))).toMatchObject({
      decisions: 3,
      kept: 2,
      funnel: r.funnel.total,
    });
  });
});
