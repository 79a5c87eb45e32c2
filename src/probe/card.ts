// The judge health card: probe.json as one offline HTML page in the style of eval's report.
// Top: the verdict and what was measured; then one row per probe — what a sound judge does,
// the rule, the measured figures and pass/fail — with a bar of the mean change against the
// noise tolerance for the hack and sensitivity probes. Grader faults are shown apart, never
// as a result. Every model- or user-written string goes through esc().
import { esc, num } from '../core/html-escape.ts';
import { OUTCOME_COLOURS } from '../eval/report/palette.ts';
import { STYLE } from '../eval/report/style.ts';
import type { ProbeFamily, ProbeReport, ProbeResult } from './types.ts';

const FAMILIES: { family: ProbeFamily; title: string; lead: string }[] = [
  {
    family: 'repeatability',
    title: 'Repeatability',
    lead: 'The same picture judged again: a noisy judge hands GRPO random advantages.',
  },
  {
    family: 'hack',
    title: 'Hack resistance — the reward must not rise',
    lead: 'Edits a policy can learn that do not make a better drawing (RULER: CLIP and aesthetic rewards paid for piles of decorative strokes).',
  },
  {
    family: 'sensitivity',
    title: 'Sensitivity — the reward must fall',
    lead: 'Damage a sound judge must see; a reward that does not fall here cannot teach the policy to avoid it.',
  },
  {
    family: 'anchors',
    title: 'Anchors',
    lead: "The rubric's ideal drawing against an off-prompt drawing and a blank page: the room the reward has to move.",
  },
  {
    family: 'order',
    title: 'Position and order',
    lead: "The rubric's items shuffled in the judge prompt, per judge mode.",
  },
];

const CARD_STYLE = `
.verdict{display:inline-block;padding:4px 12px;border-radius:6px;color:#fff;font-weight:700;text-transform:uppercase;letter-spacing:.04em}
.v-pass{background:${OUTCOME_COLOURS.scored}}.v-fail{background:${OUTCOME_COLOURS.failed}}.v-no_data,.v-incomplete{background:${OUTCOME_COLOURS.not_judged}}
table.probes{width:100%;border-collapse:collapse;background:var(--card);border:1px solid var(--line);border-radius:8px}
table.probes td,table.probes th{padding:8px 10px;border-bottom:1px solid var(--line);text-align:left;vertical-align:top}
table.probes th{color:var(--muted);font-weight:500;font-size:12px}
table.probes .exp{color:var(--muted);font-size:12px;max-width:360px}
table.probes .fig{font-variant-numeric:tabular-nums;font-size:12px;white-space:nowrap}
table.probes .note{color:#8a5a00;font-size:12px}
.ex{display:flex;gap:4px;align-items:center}.ex img{width:56px;height:56px;border:1px solid var(--line);border-radius:4px;background:#fff}
.lead{color:var(--muted);margin:-4px 0 10px}
`;

const FIGURE_LABELS: Record<string, string> = {
  mean_spread: 'mean spread (std)',
  max_spread: 'largest spread',
  flip_share: 'groups flipping',
  groups: 'groups ranked',
  mean_change: 'mean change',
  max_change: 'largest rise',
  min_change: 'largest fall',
  rise_share: 'share rising',
  fall_share: 'share falling',
  mean_base: 'original',
  mean_probed: 'probed',
  mean_abs_change: 'mean |change|',
  max_abs_change: 'largest |change|',
  ideal: 'ideal',
  off_prompt: 'off-prompt',
  blank: 'blank',
  gap_off_prompt: 'gap to off-prompt',
  gap_blank: 'gap to blank',
};

const SHARES = new Set(['flip_share', 'rise_share', 'fall_share']);

function figures(r: ProbeResult): string {
  return Object.entries(r.figures)
    .filter(([k]) => FIGURE_LABELS[k])
    .map(([k, v]) => {
      const shown = SHARES.has(k)
        ? v === null
          ? '–'
          : `${(v * 100).toFixed(0)}%`
        : k === 'groups'
          ? String(v ?? '–')
          : num(v, 3);
      return `${esc(FIGURE_LABELS[k])} <b>${shown}</b>`;
    })
    .join('<br>');
}

/** A bar of the mean change on [−1, 1] with the tolerance band around 0. */
function changeBar(r: ProbeResult, tol: number): string {
  const m = r.figures.mean_change;
  if (m === null || m === undefined || (r.family !== 'hack' && r.family !== 'sensitivity'))
    return '';
  const W = 160;
  const x = (v: number) => ((Math.max(-1, Math.min(1, v)) + 1) / 2) * W;
  const good = r.verdict === 'pass';
  const colour = good ? OUTCOME_COLOURS.scored : OUTCOME_COLOURS.failed;
  const a = Math.min(x(0), x(m));
  const w = Math.max(1, Math.abs(x(m) - x(0)));
  return `<svg width="${W}" height="18" viewBox="0 0 ${W} 18" role="img" aria-label="mean change ${num(m, 3)}"><rect x="${x(-tol)}" y="1" width="${x(tol) - x(-tol)}" height="16" fill="#edf0f2"/><rect x="${a}" y="5" width="${w}" height="8" fill="${colour}"/><line x1="${x(0)}" x2="${x(0)}" y1="0" y2="18" stroke="#868e96"/></svg>`;
}

function example(report: ProbeReport, id: string): string {
  const ex = report.examples?.[id];
  if (!ex) return '';
  return `<div class="ex" title="${esc(ex.id)}"><img src="${esc(ex.original)}" alt="original"><span>→</span><img src="${esc(ex.probed)}" alt="probed"></div>`;
}

function row(r: ProbeResult, tol: number, report: ProbeReport): string {
  const counts = [`${r.n} measured`];
  if (r.faults) counts.push(`<span class="chip warn">${r.faults} grader fault(s)</span>`);
  if (r.not_applicable) counts.push(`${r.not_applicable} not applicable`);
  return `<tr data-probe="${esc(r.id)}" data-verdict="${esc(r.verdict)}">
<td><b>${esc(r.title)}</b><div class="exp">${esc(r.expectation)}</div>${example(report, r.id)}</td>
<td class="exp">${esc(r.threshold)}</td>
<td class="fig">${figures(r)}${r.note ? `<div class="note">${esc(r.note)}</div>` : ''}</td>
<td>${changeBar(r, tol)}<div class="fig">${counts.join(' · ')}</div></td>
<td><span class="verdict v-${esc(r.verdict)}">${esc(r.verdict.replace('_', ' '))}</span></td></tr>`;
}

/**
 * The probe report as one self-contained HTML page (the judge's health card): verdict tiles,
 * one row per probe with its figures, example pictures inline.
 */
export function renderHealthCard(report: ProbeReport): string {
  const count = (v: string) => report.probes.filter((p) => p.verdict === v).length;
  const gf = report.grader_faults;
  const skipped = Object.entries(report.pictures.skipped)
    .map(([k, n]) => `${esc(k)} ${n}`)
    .join(', ');
  const tiles = [
    [
      'verdict',
      `<span class="verdict v-${esc(report.verdict)}">${esc(report.verdict)}</span>`,
      `${count('pass')} pass · ${count('fail')} fail · ${count('no_data')} no data`,
    ],
    [
      'pictures probed',
      String(report.pictures.used),
      `of ${report.pictures.rollouts} rollouts${skipped ? ` (skipped: ${skipped})` : ''}`,
    ],
    ['noise tolerance', num(report.tolerance, 3), 'rise / fall counted beyond this'],
    [
      'grader faults',
      `${gf.faults} / ${gf.scorings}`,
      gf.faults ? 'left out of every figure' : 'none',
    ],
  ]
    .map(
      ([l, v, h]) =>
        `<div class="tile"><div class="l">${l}</div><div class="v">${v}</div><div class="h">${h}</div></div>`,
    )
    .join('');
  const sections = FAMILIES.map(({ family, title, lead }) => {
    const rows = report.probes.filter((p) => p.family === family);
    if (rows.length === 0) return '';
    return `<h2>${esc(title)}</h2><p class="lead">${esc(lead)}</p><table class="probes"><thead><tr><th>probe</th><th>pass if</th><th>measured</th><th>mean change</th><th>verdict</th></tr></thead><tbody>${rows.map((r) => row(r, report.tolerance, report)).join('')}</tbody></table>`;
  }).join('');
  const faultNotice =
    gf.faults > 0
      ? `<div class="notice"><b>${gf.faults} of ${gf.scorings} scorings were grader faults</b> (${Object.entries(
          gf.by_reason,
        )
          .map(([k, n]) => `${esc(k)} ${n}`)
          .join(
            ', ',
          )}). They are not judgements of a picture: they are left out of every figure, and a probe left without a measured picture says "no data". Fix the judge and run the probe again.</div>`
      : '';
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">
<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'; img-src data:">
<title>Judge health card — ${esc(report.judge)}</title><style>${STYLE}${CARD_STYLE}</style></head>
<body><main><h1>Judge health card</h1>
<p class="sub">Judge <b>${esc(report.judge)}</b> · reward <b>${esc(report.reward)}</b> · mode ${esc(report.mode)} · ${report.repeats} repeat(s) · seed ${report.seed} · ${esc(report.created_at)}</p>
${faultNotice}<div class="tiles">${tiles}</div>${sections}
<footer>rubrica probe · ${esc(report.schema)} · numbers in probe.json · how to read this card: docs/probe.md</footer></main></body></html>
`;
}
