// The study admin's page: who has done how much, each attention check's result, answer
// timing and too-fast answers, undos, self-agreement on repeated units, inter-rater agreement
// and each run's win rate (or mean rating) with its interval, refreshed every few seconds
// while people rate; plus each rater's link and the exports for `rubrica align`.
import { esc } from '../core/html-escape.ts';
import { STYLE } from '../eval/report/style.ts';

const SCRIPT = `
const token = location.pathname.split('/').pop();
const f = (v, d = 3) => (v === null || v === undefined ? '–' : Number(v).toFixed(d));
const pct = (a, b) => (b ? Math.round((100 * a) / b) + '%' : '–');
function cell(tr, text, testid) { const td = document.createElement('td'); td.textContent = text; if (testid) td.dataset.testid = testid; tr.append(td); }
async function refresh() {
  const res = await fetch('/api/admin/' + token + '/stats');
  if (!res.ok) return;
  const { study, stats, raters } = await res.json();
  document.querySelector('#kind').textContent = study.kind;
  const tiles = { shared: stats.shared_units, alpha: f(stats.alpha), agreement: f(stats.pairwise_agreement), kappa: f(stats.fleiss_kappa) };
  for (const [k, v] of Object.entries(tiles)) document.querySelector('[data-testid="tile-' + k + '"]').textContent = v;
  const body = document.querySelector('#raters tbody'); body.replaceChildren();
  for (const r of stats.raters) {
    const tr = document.createElement('tr');
    const link = raters.find((x) => x.name === r.name).link;
    cell(tr, r.name);
    cell(tr, r.done + ' / ' + r.total, 'progress-' + r.name);
    cell(tr, r.checks ? r.checks_passed + ' / ' + r.checks : '–', 'checks-' + r.name);
    cell(tr, r.check_results.map((c) => (c.passed ? '✓ ' : '✗ ') + c.kind.replace('_', '-')).join(', ') || (r.checks_planned ? 'none answered yet' : '–'), 'check-results-' + r.name);
    cell(tr, r.median_ms === null ? '–' : (r.median_ms / 1000).toFixed(1) + ' s', 'median-' + r.name);
    cell(tr, r.done ? r.too_fast + ' (' + pct(r.too_fast, r.done) + ')' : '–', 'fast-' + r.name);
    cell(tr, String(r.undone), 'undone-' + r.name);
    cell(tr, r.self_mean_abs_diff !== null ? 'mean |Δ| ' + f(r.self_mean_abs_diff, 1) + ' (' + r.repeats + ')' : r.repeats ? f(r.self_agreement) + ' (' + r.repeats + ')' : '–', 'self-' + r.name);
    const td = document.createElement('td'); const a = document.createElement('a'); a.href = link; a.textContent = location.origin + link; td.append(a); tr.append(td);
    body.append(tr);
  }
  document.querySelector('#fast-ms').textContent = (stats.too_fast_ms / 1000).toFixed(1) + ' s';
  document.querySelector('[data-testid="median-all"]').textContent = stats.median_ms === null ? '–' : (stats.median_ms / 1000).toFixed(1) + ' s';
  const win = stats.runs.measure === 'win_rate';
  document.querySelector('#runs-what').textContent = win
    ? 'win rate against the other runs (ties count half), first showings of real pairs'
    : 'mean rating 0–100, first showings';
  document.querySelector('#runs th.est').textContent = win ? 'win rate' : 'mean rating';
  const runs = document.querySelector('#runs tbody'); runs.replaceChildren();
  for (const r of stats.runs.runs) {
    const tr = document.createElement('tr');
    cell(tr, r.run);
    cell(tr, String(r.n));
    cell(tr, win ? r.wins + ' / ' + r.losses + ' / ' + r.ties : '–');
    cell(tr, f(r.estimate, win ? 3 : 1), 'run-' + r.run);
    cell(tr, r.low === null ? '–' : '[' + f(r.low, win ? 3 : 1) + ', ' + f(r.high, win ? 3 : 1) + ']', 'run-ci-' + r.run);
    runs.append(tr);
  }
}
refresh(); setInterval(refresh, 3000);
`;

export function renderAdminPage(studyName: string): string {
  const tile = (id: string, label: string, hint: string) =>
    `<div class="tile"><div class="l">${label}</div><div class="v" data-testid="tile-${id}">–</div><div class="h">${hint}</div></div>`;
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1"><meta name="referrer" content="no-referrer"><title>${esc(studyName)} — admin</title><style>${STYLE}</style></head><body><main>
<h1>${esc(studyName)}</h1><p class="sub">study kind: <b id="kind"></b> · refreshes every 3 s · exports for <code>rubrica align</code>: <a data-testid="export-jsonl" href="">JSONL</a> · <a data-testid="export-csv" href="">CSV</a></p>
<div class="tiles">${tile('shared', 'units rated by ≥ 2', 'inter-rater sample')}${tile('alpha', "Krippendorff's α", 'interval; ratings or ranks')}${tile('agreement', 'pairwise agreement', 'share of agreeing rater couples')}${tile('kappa', "Fleiss' κ", 'choices, chance-corrected')}</div>
<h2>Runs</h2><p class="sub" id="runs-what"></p><table class="kv" id="runs"><thead><tr><th>run</th><th>n</th><th>wins / losses / ties</th><th class="est">win rate</th><th>95% CI (bootstrap over prompts)</th></tr></thead><tbody></tbody></table>
<h2>Raters</h2><p class="sub">median time per answer: <b data-testid="median-all">–</b> · answers under <b id="fast-ms"></b> are flagged too fast (practice screens are not counted)</p><table class="kv" id="raters"><thead><tr><th>rater</th><th>progress</th><th>attention checks</th><th>each check</th><th>median time</th><th>too fast</th><th>undos</th><th>self-agreement (repeats)</th><th>link</th></tr></thead><tbody></tbody></table>
</main><script>for (const f of ['jsonl','csv']) document.querySelector('[data-testid="export-'+f+'"]').href = '/api/admin/' + location.pathname.split('/').pop() + '/export.' + f;
${SCRIPT}</script></body></html>\n`;
}
