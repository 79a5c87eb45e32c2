// Reads an eval run's results.jsonl back, line by line (any size): the last line of each id
// wins (a run interrupted before its rewrite may hold an older verdict first), lines that
// are not eval records are ignored.

import { keyOf } from '../store/jsonl.ts';
import { isBadLine, streamJsonl } from '../store/jsonl-values.ts';
import type { EvalRecord } from './types.ts';

export async function readResults(path: string): Promise<Map<string, EvalRecord>> {
  const out = new Map<string, EvalRecord>();
  try {
    // Tolerant: a torn or foreign line is passed over, and its id simply scored again.
    for await (const l of streamJsonl(path, { badLines: 'collect' })) {
      if (isBadLine(l)) continue;
      const r = l.value as Partial<EvalRecord> | null;
      const key = keyOf(r?.id);
      if (r && key !== null && r.scores && typeof r.scores === 'object') {
        // Delete first so a re-scored id moves to where its newest line is.
        out.delete(key);
        out.set(key, { ...r, id: key } as EvalRecord);
      }
    }
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
  }
  return out;
}
