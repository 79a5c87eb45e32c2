// A run resumed N times is N invocations of `eval`; its elapsed time is their sum, not the
// last one's. Each invocation appends one line to DIR/parts.jsonl when it ends (finished or
// interrupted), and summary.json adds them up. A run directory written before this file
// existed seeds it from its old summary.json, so its earlier time is not lost either.
import { appendFile } from 'node:fs/promises';
import { join } from 'node:path';
import { readInputTextFile } from '../core/read-input-text.ts';
import { parseJsonl } from '../store/jsonl-values.ts';

export const PARTS_FILE = 'parts.jsonl';

export interface RunPart {
  started_at: string;
  elapsed_ms: number;
  /** Rollouts scored by this invocation. */
  scored: number;
  /** Ended by Ctrl-C (or a signal) before the summary was written. */
  interrupted: boolean;
  /** Set on a line recovered from an older summary.json rather than measured here. */
  source?: 'summary.json';
}

export interface PartsTotal {
  elapsed_ms: number;
  parts: number;
}

// A FIFO or device put in the run folder is refused (InputFileError), never waited on.
const readText = (path: string): Promise<string | null> => readInputTextFile(path, 64 * 1024 ** 2);

/** The invocations recorded so far; torn or foreign lines are skipped. */
export async function readParts(dir: string): Promise<RunPart[]> {
  const text = await readText(join(dir, PARTS_FILE));
  if (text === null) return [];
  const out: RunPart[] = [];
  // A line torn by a crash is collected, not thrown: that invocation's time is unknown, the
  // others still count.
  for (const { value } of parseJsonl(text, join(dir, PARTS_FILE), { badLines: 'collect' }).values) {
    const p = value as RunPart;
    if (Number.isFinite(p?.elapsed_ms) && p.elapsed_ms >= 0) out.push(p);
  }
  return out;
}

/**
 * Before the first part of this invocation is written: a run dir with a summary.json but no
 * parts.jsonl was made by an older version, whose summary holds the time of its last part.
 */
export async function seedParts(dir: string): Promise<void> {
  if ((await readText(join(dir, PARTS_FILE))) !== null) return;
  const summary = await readText(join(dir, 'summary.json'));
  if (summary === null) return;
  try {
    const s = JSON.parse(summary) as { elapsed_ms?: unknown; created_at?: unknown };
    if (typeof s.elapsed_ms !== 'number' || !Number.isFinite(s.elapsed_ms)) return;
    await appendPart(dir, {
      started_at: typeof s.created_at === 'string' ? s.created_at : '',
      elapsed_ms: s.elapsed_ms,
      scored: 0,
      interrupted: false,
      source: 'summary.json',
    });
  } catch {
    // An unreadable old summary carries no time to recover.
  }
}

export async function appendPart(dir: string, part: RunPart): Promise<void> {
  // A line torn by a crash has no newline: start a fresh line so this part is not lost with it.
  const text = await readText(join(dir, PARTS_FILE));
  const lead = text && !text.endsWith('\n') ? '\n' : '';
  await appendFile(join(dir, PARTS_FILE), `${lead}${JSON.stringify(part)}\n`);
}

export function totalOf(parts: readonly RunPart[]): PartsTotal {
  return {
    elapsed_ms: parts.reduce((a, p) => a + p.elapsed_ms, 0),
    parts: parts.length,
  };
}
