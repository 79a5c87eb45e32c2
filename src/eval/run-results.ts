// Reads an eval run's results.jsonl back: the last line of each id wins (a resumed run
// appends newer verdicts), lines that are not eval records are ignored.
import { readFile } from 'node:fs/promises';
import type { EvalRecord } from './types.ts';

export async function readResults(path: string): Promise<Map<string, EvalRecord>> {
  const out = new Map<string, EvalRecord>();
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch {
    return out;
  }
  for (const line of text.split('\n')) {
    if (!line.trim()) continue;
    try {
      const r = JSON.parse(line) as Partial<EvalRecord>;
      if (typeof r.id === 'string' && r.scores && typeof r.scores === 'object') {
        // Delete first so a re-scored id moves to where its newest line is.
        out.delete(r.id);
        out.set(r.id, r as EvalRecord);
      }
    } catch {
      // A torn or foreign line: the id is simply scored again.
    }
  }
  return out;
}
