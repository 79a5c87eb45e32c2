// Reads an eval run's results.jsonl back, line by line (any size): the last line of each id
// wins (a run interrupted before its rewrite may hold an older verdict first), lines that
// are not eval records are ignored.

import { keyOf } from '../store/jsonl.ts';
import { readLines } from '../store/jsonl-lines.ts';
import type { EvalRecord } from './types.ts';

export async function readResults(path: string): Promise<Map<string, EvalRecord>> {
  const out = new Map<string, EvalRecord>();
  try {
    for await (const l of readLines(path)) {
      if (!l.text?.trim()) continue;
      try {
        const r = JSON.parse(l.text) as Partial<EvalRecord>;
        const key = keyOf(r.id);
        if (key !== null && r.scores && typeof r.scores === 'object') {
          // Delete first so a re-scored id moves to where its newest line is.
          out.delete(key);
          out.set(key, { ...r, id: key } as EvalRecord);
        }
      } catch {
        // A torn or foreign line: the id is simply scored again.
      }
    }
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
  }
  return out;
}
