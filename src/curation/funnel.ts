// The funnel of a curation run per data source and per domain, in the shape of PrismaForge's
// Table 4: raw
// candidates, executed (ran to a non-empty artifact), scored (got a rubric score), kept
// directly (S ≥ τ2), recovered by re-synthesis, discarded — plus those still pending after
// a grader fault (redone on the next run). As JSON, an aligned text table and an HTML page.
import { esc } from '../core/html-escape.ts';
import type { DecisionKind } from './curate.ts';

export interface FunnelRow {
  source: string;
  raw: number;
  executed: number;
  scored: number;
  kept_directly: number;
  recovered: number;
  discarded: number;
  /** Executed, but no rubric could be had for the instruction. */
  no_rubric: number;
  /** Grader faults: not decided yet. */
  pending: number;
}

const COLUMNS: (keyof Omit<FunnelRow, 'source'>)[] = [
  'raw',
  'executed',
  'scored',
  'kept_directly',
  'recovered',
  'discarded',
  'no_rubric',
  'pending',
];

const empty = (source: string): FunnelRow => ({
  source,
  raw: 0,
  executed: 0,
  scored: 0,
  kept_directly: 0,
  recovered: 0,
  discarded: 0,
  no_rubric: 0,
  pending: 0,
});

/**
 * The funnel: one row per data source, one per domain (the row's `source` field names the
 * domain there), and the total.
 */
export type Funnel = { sources: FunnelRow[]; domains: FunnelRow[]; total: FunnelRow };

/** What the funnel counts of a decision: its source, its domain (svg when absent), the outcome. */
export interface FunnelInput {
  source: string;
  domain?: string | null;
  decision: DecisionKind;
}

const rowOf = (by: Map<string, FunnelRow>, key: string): FunnelRow => {
  let row = by.get(key);
  if (!row) {
    row = empty(key);
    by.set(key, row);
  }
  return row;
};
const sorted = (by: Map<string, FunnelRow>) =>
  [...by.values()].sort((a, b) => (a.source < b.source ? -1 : 1));

/** Counts decisions one at a time (a curation run streams millions of them). */
export function createFunnel() {
  const by = new Map<string, FunnelRow>();
  const byDomain = new Map<string, FunnelRow>();
  const total = empty('total');
  return {
    add(d: FunnelInput): void {
      const rows = [rowOf(by, d.source), rowOf(byDomain, d.domain ?? 'svg'), total];
      for (const r of rows) {
        r.raw++;
        if (d.decision === 'unexecutable') continue;
        r.executed++;
        if (d.decision === 'grader_error') r.pending++;
        else if (d.decision === 'no_rubric') r.no_rubric++;
        else {
          r.scored++;
          if (d.decision === 'kept') r.kept_directly++;
          else if (d.decision === 'recovered') r.recovered++;
          else r.discarded++;
        }
      }
    },
    result(): Funnel {
      return { sources: sorted(by), domains: sorted(byDomain), total };
    },
  };
}

export function funnel(decisions: Iterable<FunnelInput>): Funnel {
  const f = createFunnel();
  for (const d of decisions) f.add(d);
  return f.result();
}

const kept = (r: FunnelRow) => r.kept_directly + r.recovered;
const share = (r: FunnelRow) => (r.raw ? `${((100 * kept(r)) / r.raw).toFixed(1)}%` : '–');

/** The funnel as two aligned text tables: per source, then per domain, each with the total. */
export function formatFunnel(f: Funnel): string {
  const table = (first: string, rowsOf: FunnelRow[]) => {
    const head = [first, ...COLUMNS, 'kept %'];
    const rows = [...rowsOf, f.total].map((r) => [
      r.source,
      ...COLUMNS.map((c) => String(r[c])),
      share(r),
    ]);
    const widths = head.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i]!.length)));
    const line = (cells: string[]) =>
      cells.map((c, i) => (i === 0 ? c.padEnd(widths[i]!) : c.padStart(widths[i]!))).join('  ');
    return [line(head), ...rows.map(line)].join('\n');
  };
  return `${table('source', f.sources)}\n\n${table('domain', f.domains ?? [])}`;
}

export function funnelHtml(
  f: ReturnType<typeof funnel>,
  title = 'rubrica curate — funnel',
): string {
  const head = (first: string) =>
    [first, ...COLUMNS, 'kept %'].map((h) => `<th>${esc(h)}</th>`).join('');
  const row = (r: FunnelRow, total = false) =>
    `<tr${total ? ' class="total"' : ''}><td>${esc(r.source)}</td>${COLUMNS.map((c) => `<td>${r[c]}</td>`).join('')}<td>${share(r)}</td></tr>`;
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>${esc(title)}</title>
<style>body{font:14px system-ui,sans-serif;margin:2em}table{border-collapse:collapse}th,td{padding:.3em .8em;border-bottom:1px solid #ddd;text-align:right}th:first-child,td:first-child{text-align:left}tr.total td{font-weight:600;border-top:2px solid #333}</style>
</head><body><h1>${esc(title)}</h1>
<p>Per data source (then per domain): raw candidates → executed → scored → kept directly (S ≥ τ2) or recovered by re-synthesis, else discarded. Pending: a grader fault, redone on the next run.</p>
<table><thead><tr>${head('source')}</tr></thead><tbody>
${f.sources.map((r) => row(r)).join('\n')}
${row(f.total, true)}
</tbody></table>
<h2>Per domain</h2>
<table><thead><tr>${head('domain')}</tr></thead><tbody>
${(f.domains ?? []).map((r) => row(r)).join('\n')}
${row(f.total, true)}
</tbody></table></body></html>
`;
}
