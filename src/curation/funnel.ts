// The funnel of a curation run per data source, in the shape of PrismaForge's Table 4: raw
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

export type Funnel = { sources: FunnelRow[]; total: FunnelRow };

/** Counts decisions one at a time (a curation run streams millions of them). */
export function createFunnel() {
  const by = new Map<string, FunnelRow>();
  const total = empty('total');
  return {
    add(d: { source: string; decision: DecisionKind }): void {
      let row = by.get(d.source);
      if (!row) {
        row = empty(d.source);
        by.set(d.source, row);
      }
      for (const r of [row, total]) {
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
      return { sources: [...by.values()].sort((a, b) => (a.source < b.source ? -1 : 1)), total };
    },
  };
}

export function funnel(decisions: Iterable<{ source: string; decision: DecisionKind }>): Funnel {
  const f = createFunnel();
  for (const d of decisions) f.add(d);
  return f.result();
}

const kept = (r: FunnelRow) => r.kept_directly + r.recovered;
const share = (r: FunnelRow) => (r.raw ? `${((100 * kept(r)) / r.raw).toFixed(1)}%` : '–');

export function formatFunnel(f: Funnel): string {
  const head = ['source', ...COLUMNS, 'kept %'];
  const rows = [...f.sources, f.total].map((r) => [
    r.source,
    ...COLUMNS.map((c) => String(r[c])),
    share(r),
  ]);
  const widths = head.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i]!.length)));
  const line = (cells: string[]) =>
    cells.map((c, i) => (i === 0 ? c.padEnd(widths[i]!) : c.padStart(widths[i]!))).join('  ');
  return [line(head), ...rows.map(line)].join('\n');
}

export function funnelHtml(
  f: ReturnType<typeof funnel>,
  title = 'rubrica curate — funnel',
): string {
  const head = ['source', ...COLUMNS, 'kept %'].map((h) => `<th>${esc(h)}</th>`).join('');
  const row = (r: FunnelRow, total = false) =>
    `<tr${total ? ' class="total"' : ''}><td>${esc(r.source)}</td>${COLUMNS.map((c) => `<td>${r[c]}</td>`).join('')}<td>${share(r)}</td></tr>`;
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>${esc(title)}</title>
<style>body{font:14px system-ui,sans-serif;margin:2em}table{border-collapse:collapse}th,td{padding:.3em .8em;border-bottom:1px solid #ddd;text-align:right}th:first-child,td:first-child{text-align:left}tr.total td{font-weight:600;border-top:2px solid #333}</style>
</head><body><h1>${esc(title)}</h1>
<p>Per data source: raw candidates → executed → scored → kept directly (S ≥ τ2) or recovered by re-synthesis, else discarded. Pending: a grader fault, redone on the next run.</p>
<table><thead><tr>${head}</tr></thead><tbody>
${f.sources.map((r) => row(r)).join('\n')}
${row(f.total, true)}
</tbody></table></body></html>
`;
}
