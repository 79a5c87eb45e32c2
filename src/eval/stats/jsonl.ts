// Reading JSON Lines written by people and other tools (human ratings, score files,
// results.jsonl). A bad line is a value with a stable code and its line number, never a throw,
// so one stray line cannot hide a whole file's statistics.
import type { z } from 'zod';
import { parseJsonl } from '../../store/jsonl-values.ts';

export type LineIssueCode =
  | 'bad_json' // the line is not JSON
  | 'bad_shape' // JSON, but not one of the accepted record shapes
  | 'duplicate_id' // an id seen before in the same file; the first one is kept
  | 'no_reward' // an eval record without the requested reward
  | 'grader_error'; // the prediction is a judge/scorer failure, not a score

export interface LineIssue {
  file: string;
  /** 1-based line number. */
  line: number;
  code: LineIssueCode;
  message: string;
}

export interface JsonLine {
  line: number;
  value: unknown;
}

/**
 * Parses non-blank lines by the one reader's rules (src/store/jsonl-values.ts: BOM, CRLF);
 * unparseable ones become `bad_json` issues.
 */
export function readJsonLines(
  text: string,
  file: string,
): { lines: JsonLine[]; issues: LineIssue[] } {
  const { values, bad } = parseJsonl(text, file, { badLines: 'collect' });
  return {
    lines: values.map(({ line, value }) => ({ line, value })),
    issues: bad.map(({ line, reason }) => ({ file, line, code: 'bad_json', message: reason })),
  };
}

/** The first zod issue, as one short line for a report. */
export function zodMessage(error: z.ZodError): string {
  const first = error.issues[0];
  if (!first) return 'invalid';
  const path = first.path.length > 0 ? `${first.path.join('.')}: ` : '';
  return `${path}${first.message}`;
}
