// Plain-text tables and number formats for the CLI's human-readable output (align, compare).
import type { Interval } from './bootstrap.ts';

export type Align = 'left' | 'right';

/** Renders rows under a header with a rule, columns padded to their widest cell. */
export function formatTable(
  header: readonly string[],
  rows: readonly (readonly string[])[],
  align: readonly Align[] = [],
): string {
  const widths = header.map((h, c) => Math.max(h.length, ...rows.map((r) => (r[c] ?? '').length)));
  const line = (cells: readonly string[]) =>
    cells
      .map((cell, c) =>
        (align[c] ?? (c === 0 ? 'left' : 'right')) === 'left'
          ? cell.padEnd(widths[c]!)
          : cell.padStart(widths[c]!),
      )
      .join('  ')
      .trimEnd();
  const rule = widths.map((w) => '-'.repeat(w)).join('  ');
  return [line(header), rule, ...rows.map(line)].join('\n');
}

/** A number with fixed decimals, or "—" when undefined. */
export function fmt(v: number | null | undefined, digits = 3): string {
  return v === null || v === undefined || !Number.isFinite(v) ? '—' : v.toFixed(digits);
}

/** A share as a percentage, e.g. 0.993 → "99.3%". */
export function pct(v: number | null | undefined, digits = 1): string {
  return v === null || v === undefined || !Number.isFinite(v)
    ? '—'
    : `${(v * 100).toFixed(digits)}%`;
}

/** "0.793 [0.761, 0.821]", or just the estimate when there is no interval. */
export function fmtInterval(i: Interval, digits = 3): string {
  if (i.low === null || i.high === null) return fmt(i.estimate, digits);
  return `${fmt(i.estimate, digits)} [${fmt(i.low, digits)}, ${fmt(i.high, digits)}]`;
}
