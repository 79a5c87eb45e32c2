// What `rubrica curate` derives from the whole decisions.jsonl once a run ends, so a resumed
// run reports on everything decided so far: the kept SFT set (kept.jsonl streamed,
// kept.parquet with only the kept rows in memory), the funnel per source (funnel.json,
// funnel.txt, funnel.html) and the cost ledger (summary.json).
import { createWriteStream, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { parquetWriteFile } from 'hyparquet-writer';
import { addUsage, emptyUsage, type Usage } from '../core/usage.ts';
import type { Decision } from './curate.ts';
import { createFunnel, type Funnel, formatFunnel, funnelHtml } from './funnel.ts';
import { jsonLines } from './json-lines.ts';

/**
 * Streams decisions.jsonl twice: first the last line of each id (a redone grader fault's
 * newer line wins when an interrupted run left both), then those lines, so only ids — not
 * the decisions with their code — are held in memory.
 */
export async function* readDecisions(file: string): AsyncGenerator<Decision> {
  const last = new Map<string, number>();
  const id = (v: unknown) => (v as { id?: unknown } | null)?.id;
  for await (const { line, value } of jsonLines(file)) {
    if (typeof id(value) === 'string') last.set(id(value) as string, line);
  }
  for await (const { line, value } of jsonLines(file)) {
    if (typeof id(value) === 'string' && last.get(id(value) as string) === line)
      yield value as Decision;
  }
}

const fenced = (d: Decision) => `\`\`\`${d.domain}\n${d.code}\n\`\`\``;

export interface CurationOutputs {
  funnel: Funnel;
  ledger: { author: Usage; judge: Usage; generator: Usage };
  /** Decisions kept (directly or recovered by re-synthesis). */
  kept: number;
  /** Ids decided, one per id. */
  decisions: number;
}

/** Writes kept.jsonl, kept.parquet, funnel.{json,txt,html} and summary.json into `out`. */
export async function writeCurationOutputs(
  out: string,
  decisionsPath: string,
): Promise<CurationOutputs> {
  const counter = createFunnel();
  const ledger = { author: emptyUsage(), judge: emptyUsage(), generator: emptyUsage() };
  const kept: Omit<Decision, 'rounds' | 'usage'>[] = [];
  const keptRounds: number[] = [];
  const sft = createWriteStream(join(out, 'kept.jsonl'));
  let decisions = 0;
  for await (const d of readDecisions(decisionsPath)) {
    decisions++;
    counter.add(d);
    for (const k of ['author', 'judge', 'generator'] as const)
      ledger[k] = addUsage(ledger[k], d.usage[k]);
    if (d.decision !== 'kept' && d.decision !== 'recovered') continue;
    const { rounds, usage: _u, ...rest } = d;
    kept.push(rest);
    keptRounds.push(rounds.length - 1);
    const line = JSON.stringify({
      messages: [
        { role: 'user', content: d.instruction },
        { role: 'assistant', content: fenced(d) },
      ],
      meta: {
        id: d.id,
        source: d.source,
        domain: d.domain,
        decision: d.decision,
        score: d.final_score,
        rounds: rounds.length - 1,
      },
    });
    if (!sft.write(`${line}\n`)) await new Promise<void>((r) => sft.once('drain', () => r()));
  }
  await new Promise<void>((r) => sft.end(() => r()));
  parquetWriteFile({
    filename: join(out, 'kept.parquet'),
    columnData: [
      { name: 'id', data: kept.map((d) => d.id), type: 'STRING' },
      { name: 'source', data: kept.map((d) => d.source), type: 'STRING' },
      { name: 'domain', data: kept.map((d) => d.domain), type: 'STRING' },
      { name: 'instruction', data: kept.map((d) => d.instruction), type: 'STRING' },
      { name: 'code', data: kept.map((d) => d.code ?? ''), type: 'STRING' },
      { name: 'decision', data: kept.map((d) => d.decision), type: 'STRING' },
      { name: 'score', data: kept.map((d) => d.final_score ?? 0), type: 'DOUBLE' },
      { name: 'rounds', data: keptRounds, type: 'INT32' },
    ],
  });
  const f = counter.result();
  writeFileSync(join(out, 'funnel.json'), `${JSON.stringify(f, null, 2)}\n`);
  writeFileSync(join(out, 'funnel.txt'), `${formatFunnel(f)}\n`);
  writeFileSync(join(out, 'funnel.html'), funnelHtml(f));
  writeFileSync(
    join(out, 'summary.json'),
    `${JSON.stringify({ decisions, kept: kept.length, funnel: f.total, ledger }, null, 2)}\n`,
  );
  return { funnel: f, ledger, kept: kept.length, decisions };
}
