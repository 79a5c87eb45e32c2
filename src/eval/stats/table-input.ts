// Study data arrives as JSONL or as a spreadsheet export (CSV/TSV) with its own column names.
// This file turns either into the same JSON records the align readers check, renaming
// mapped columns to rubrica's (`--col winner=choice`), and reads the many ways people write a
// pairwise winner (a/b, A/B, 1/2, left/right, the item's id, tie/draw/equal).
import { type JsonLine, type LineIssue, readJsonLines } from './jsonl.ts';

export const CANONICAL_COLUMNS = [
  'id',
  'group',
  'a',
  'b',
  'winner',
  'score',
  'rater',
  'judge',
] as const;
export type CanonicalColumn = (typeof CANONICAL_COLUMNS)[number];
/** rubrica's column name → the column that holds it in the file. */
export type ColumnMap = Partial<Record<CanonicalColumn, string>>;
export type TableFormat = 'jsonl' | 'csv' | 'tsv';

/** The format a file name implies: .csv, .tsv, else JSONL. */
export function formatOf(path: string): TableFormat {
  const lower = path.toLowerCase();
  if (lower.endsWith('.csv')) return 'csv';
  if (lower.endsWith('.tsv')) return 'tsv';
  return 'jsonl';
}

/**
 * RFC 4180 fields: quoted fields may hold the delimiter, newlines and doubled quotes. Returns
 * rows with the 1-based line each row starts on (a quoted newline makes rows span lines).
 */
export function parseDelimited(text: string, delimiter = ','): { line: number; cells: string[] }[] {
  const rows: { line: number; cells: string[] }[] = [];
  let cells: string[] = [];
  let cell = '';
  let quoted = false;
  let line = 1;
  let rowLine = 1;
  let i = text.charCodeAt(0) === 0xfeff ? 1 : 0; // a BOM from a spreadsheet export
  const endRow = () => {
    cells.push(cell);
    if (!(cells.length === 1 && cells[0]!.trim() === '')) rows.push({ line: rowLine, cells });
    cells = [];
    cell = '';
  };
  for (; i < text.length; i++) {
    const ch = text[i]!;
    if (quoted) {
      if (ch === '"') {
        if (text[i + 1] === '"') {
          cell += '"';
          i++;
        } else quoted = false;
      } else {
        if (ch === '\n') line++;
        cell += ch;
      }
    } else if (ch === '"' && cell === '') quoted = true;
    else if (ch === delimiter) {
      cells.push(cell);
      cell = '';
    } else if (ch === '\n' || ch === '\r') {
      if (ch === '\r' && text[i + 1] === '\n') i++;
      endRow();
      line++;
      rowLine = line;
    } else cell += ch;
  }
  if (cell !== '' || cells.length > 0) endRow();
  return rows;
}

const NUMERIC = /^[+-]?(\d+(?:\.\d*)?|\.\d+)([eE][+-]?\d+)?$/;

function csvRecords(text: string, delimiter: string): JsonLine[] {
  const rows = parseDelimited(text, delimiter);
  const header = rows.shift()?.cells.map((h) => h.trim()) ?? [];
  return rows.map(({ line, cells }) => {
    const value: Record<string, unknown> = {};
    header.forEach((h, c) => {
      const raw = (cells[c] ?? '').trim();
      // An empty cell is a missing value, as in a JSON line without the key.
      if (raw !== '') value[h] = raw;
    });
    return { line, value };
  });
}

/** Copies mapped columns to rubrica's names and reads numeric scores written as text. */
function canonical(value: unknown, columns: ColumnMap): unknown {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return value;
  const out: Record<string, unknown> = { ...(value as Record<string, unknown>) };
  for (const [key, col] of Object.entries(columns)) {
    if (col !== undefined && col in out) out[key] = out[col];
  }
  if (typeof out.score === 'string' && NUMERIC.test(out.score.trim()))
    out.score = Number(out.score);
  return out;
}

/** Records of a JSONL, CSV or TSV text, with mapped columns under rubrica's names. */
export function readRecords(
  text: string,
  file: string,
  opts: { format?: TableFormat; columns?: ColumnMap } = {},
): { lines: JsonLine[]; issues: LineIssue[] } {
  const format = opts.format ?? formatOf(file);
  const read =
    format === 'jsonl'
      ? readJsonLines(text, file)
      : { lines: csvRecords(text, format === 'csv' ? ',' : '\t'), issues: [] };
  const columns = opts.columns ?? {};
  return {
    lines: read.lines.map((l) => ({ line: l.line, value: canonical(l.value, columns) })),
    issues: read.issues,
  };
}

const TIE_WORDS = new Set(['tie', 'draw', 'equal', 'same', 'both', 'neither', 'none', '=', '0']);
const A_WORDS = new Set(['a', '1', 'left', 'first', 'l']);
const B_WORDS = new Set(['b', '2', 'right', 'second', 'r']);

/**
 * The winner of a vote as 'a' | 'b' | 'tie', or null when it cannot be read. The item's own
 * id wins over the words, so a vote between items named "a" and "b" means what it says.
 */
export function readWinner(winner: unknown, a: unknown, b: unknown): 'a' | 'b' | 'tie' | null {
  if (winner === null || winner === undefined) return null;
  const w = String(winner).trim();
  if (a !== undefined && w === String(a)) return 'a';
  if (b !== undefined && w === String(b)) return 'b';
  const lower = w.toLowerCase();
  if (TIE_WORDS.has(lower)) return 'tie';
  if (A_WORDS.has(lower)) return 'a';
  if (B_WORDS.has(lower)) return 'b';
  return null;
}
