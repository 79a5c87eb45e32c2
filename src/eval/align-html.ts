// The multi-judge alignment table as one offline HTML page, in the eval report's style
// (its stylesheet and escaping are imported, not copied), so a study's result can be sent
// around as a file next to the runs' report.html.

import { esc, num } from '../core/html-escape.ts';
import type { AlignTable } from './align-table.ts';
import {
  COUNT_MODE_TEXT,
  ceilingBasis,
  PAIRWISE_HEADER,
  pairwiseRow,
  pooledPositionLine,
  positionText,
  repeatText,
  supportWarnings,
  TIE_POLICY_TEXT,
} from './align-table-text.ts';
import { STYLE } from './report/style.ts';
import type { Interval } from './stats/bootstrap.ts';

const EXTRA = `
table.align{border-collapse:collapse;background:var(--card);border:1px solid var(--line);margin:8px 0 16px}
table.align th,table.align td{padding:6px 12px;border-bottom:1px solid var(--line);text-align:right;font-variant-numeric:tabular-nums}
table.align th:first-child,table.align td:first-child{text-align:left}
table.align th{color:var(--muted);font-weight:500}
tr.low td{background:#fff8e6}
.warn{color:#8a5a00}
`;

const ci = (i: Interval) => (i.low === null ? '–' : `[${num(i.low)}, ${num(i.high)}]`);

function table(
  header: string[],
  rows: string[][],
  rowClass: (i: number) => string = () => '',
): string {
  const head = header.map((h) => `<th>${esc(h)}</th>`).join('');
  const body = rows
    .map((r, i) => `<tr class="${rowClass(i)}">${r.map((c) => `<td>${esc(c)}</td>`).join('')}</tr>`)
    .join('');
  return `<table class="align"><thead><tr>${head}</tr></thead><tbody>${body}</tbody></table>`;
}

function tile(label: string, value: string, hint = ''): string {
  return `<div class="tile"><div class="l">${esc(label)}</div><div class="v">${esc(value)}</div><div class="h">${esc(hint)}</div></div>`;
}

export function renderAlignHtml(t: AlignTable, title = 'Judge agreement with people'): string {
  const h = t.human;
  const parts: string[] = [];
  parts.push(`<h1>${esc(title)}</h1>`);
  parts.push(
    `<p class="sub">ties: ${esc(t.ties)} — ${esc(TIE_POLICY_TEXT[t.ties])}; counting: ${esc(t.count)} — ${esc(COUNT_MODE_TEXT[t.count])}; ${Math.round(t.bootstrap.level * 100)}% bootstrap over groups, ${t.bootstrap.resamples} resamples, seed ${t.bootstrap.seed}</p>`,
  );
  if (h.votes > 0) parts.push(`<p class="sub">${esc(ceilingBasis(h))}</p>`);
  parts.push(
    `<div class="tiles">${tile('human votes', String(h.votes), `${h.decided} decided, ${h.ties} ties`)}${tile(
      'raters',
      String(h.raters),
    )}${tile('self-agreement', num(h.self_agreement?.agreement ?? null), repeatText(h.self_agreement))}${tile(
      'people pick first shown',
      positionText(h.position),
    )}</div>`,
  );
  const pw = t.judges.filter((j) => j.pairwise);
  if (pw.length > 0) {
    parts.push('<h2>Pairwise agreement</h2>');
    parts.push(
      table(
        PAIRWISE_HEADER,
        // The terminal's cells minus its support column (the row colour says it here).
        pw.map((j) => pairwiseRow(j).slice(0, 8)),
        (i) => (pw[i]!.pairwise!.low_support ? 'low' : ''),
      ),
    );
    const pooled = pooledPositionLine(t);
    if (pooled) parts.push(`<p class="sub">${esc(pooled)}</p>`);
    for (const w of [...supportWarnings(t), ...t.pairing.warnings])
      parts.push(`<p class="warn">⚠ ${esc(w)}</p>`);
  }
  const abs = t.judges.filter((j) => j.absolute);
  if (abs.length > 0) {
    parts.push('<h2>Absolute ratings</h2>');
    if (h.ratings_alpha !== null)
      parts.push(`<p class="sub">raters' Krippendorff α (interval): ${num(h.ratings_alpha)}</p>`);
    parts.push(
      table(
        ['judge', 'items', 'Spearman ρ', '95% CI', 'Kendall τ-b', 'γ within groups', '95% CI'],
        abs.map((j) => {
          const a = j.absolute!;
          return [
            j.name,
            String(a.items),
            num(a.spearman.estimate),
            ci(a.spearman),
            num(a.kendall_tau_b.estimate),
            num(a.gamma.estimate),
            ci(a.gamma),
          ];
        }),
      ),
    );
  }
  if (t.judge_vs_judge.length > 0) {
    parts.push('<h2>Judge vs judge</h2>');
    parts.push(
      table(
        ['judges', 'pairs', 'both decided', 'agreement', 'exact incl. ties'],
        t.judge_vs_judge.map((p) => [
          `${p.a} · ${p.b}`,
          String(p.pairs),
          String(p.both_decided),
          num(p.agreement),
          num(p.exact),
        ]),
      ),
    );
  }
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1"><title>${esc(title)}</title><style>${STYLE}${EXTRA}</style></head><body><main>${parts.join('\n')}</main></body></html>\n`;
}
