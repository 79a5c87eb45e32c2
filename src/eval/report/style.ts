// The report's stylesheet, inlined into report.html (the page must open offline).
import { FONT, OUTCOME_COLOURS } from './palette.ts';

export const STYLE = `
:root{--ok:${OUTCOME_COLOURS.scored};--nj:${OUTCOME_COLOURS.not_judged};--bad:${OUTCOME_COLOURS.failed};
--ink:#212529;--muted:#6c757d;--line:#dee2e6;--bg:#f6f7f9;--card:#fff;--accent:#3b5bdb}
*{box-sizing:border-box}
body{margin:0;font:14px/1.45 ${FONT};color:var(--ink);background:var(--bg)}
main{max-width:1320px;margin:0 auto;padding:24px 28px 64px}
h1{font-size:24px;margin:0 0 4px;letter-spacing:-.01em}
h2{font-size:17px;margin:36px 0 12px;padding-bottom:6px;border-bottom:1px solid var(--line)}
h3{font-size:15px;margin:0}
.sub{color:var(--muted);margin:0 0 16px}
.notice{background:#fff8e6;border:1px solid #f0c36d;border-left:5px solid var(--nj);padding:12px 16px;border-radius:6px;margin:16px 0}
.notice pre{margin:6px 0 0;background:#fff;padding:6px 10px;border-radius:4px;overflow:auto}
.tiles{display:grid;grid-template-columns:repeat(auto-fill,minmax(170px,1fr));gap:12px;margin:16px 0}
.tile{background:var(--card);border:1px solid var(--line);border-radius:8px;padding:12px 14px}
.tile .l{color:var(--muted);font-size:12px;text-transform:uppercase;letter-spacing:.04em}
.tile .v{font-size:22px;font-weight:600;font-variant-numeric:tabular-nums}
.tile .h{color:var(--muted);font-size:12px}
.charts{display:grid;grid-template-columns:repeat(auto-fill,minmax(440px,1fr));gap:16px}
.chart{background:var(--card);border:1px solid var(--line);border-radius:8px;padding:12px 14px;overflow:auto}
.chart p{color:var(--muted);font-size:12px;margin:4px 0 8px}
.chart svg{max-width:100%;height:auto}
table.kv{border-collapse:collapse;background:var(--card);border:1px solid var(--line);border-radius:8px;min-width:50%}
table.kv td,table.kv th{padding:6px 12px;border-bottom:1px solid var(--line);text-align:left;vertical-align:top;font-variant-numeric:tabular-nums}
table.kv th{color:var(--muted);font-weight:500}
.filters{position:sticky;top:0;z-index:5;display:flex;flex-wrap:wrap;gap:16px;align-items:center;background:rgba(246,247,249,.96);backdrop-filter:blur(4px);padding:10px 0;border-bottom:1px solid var(--line)}
.filters fieldset{border:0;padding:0;margin:0;display:flex;gap:10px;align-items:center}
.filters legend{float:left;color:var(--muted);margin-right:6px}
.filters label{display:inline-flex;gap:4px;align-items:center;cursor:pointer}
.filters input[type=number]{width:64px}
#visible{margin-left:auto;color:var(--muted);font-variant-numeric:tabular-nums}
section.prompt{margin-top:28px}
section.prompt>header{display:flex;gap:12px;align-items:baseline;flex-wrap:wrap;margin-bottom:10px}
section.prompt>header code{color:var(--muted)}
section.prompt>header .mean{color:var(--muted);font-size:13px}
.grid{display:grid;grid-template-columns:repeat(auto-fill,minmax(230px,1fr));gap:14px}
section.flat{margin-top:20px}
.prompt-line{margin:0;font-size:12px;color:#343a40;display:-webkit-box;-webkit-line-clamp:2;-webkit-box-orient:vertical;overflow:hidden}
.pager button{font:inherit;padding:2px 10px}
#page-info{color:var(--muted);font-variant-numeric:tabular-nums}
.card{background:var(--card);border:1px solid var(--line);border-top:4px solid var(--muted);border-radius:8px;padding:10px;display:flex;flex-direction:column;gap:8px}
.card.o-scored{border-top-color:var(--ok)}.card.o-not_judged{border-top-color:var(--nj)}.card.o-failed{border-top-color:var(--bad)}
.pic{margin:0;aspect-ratio:1;display:flex;align-items:center;justify-content:center;background:#fff;border:1px solid #f1f3f5;border-radius:6px;overflow:hidden}
.pic img{width:100%;height:100%;object-fit:contain;image-rendering:auto}
.card.wide{grid-column:span 2}
.pair{display:grid;grid-template-columns:minmax(0,1fr) minmax(0,1fr);gap:8px;align-items:start}
.src{position:relative;min-width:0}
.src .lang{position:absolute;top:2px;right:6px;font-size:10px;color:var(--muted);text-transform:uppercase;letter-spacing:.04em}
.src pre{margin:0;aspect-ratio:1;overflow:auto;white-space:pre;background:#f8f9fa;border:1px solid #f1f3f5;border-radius:6px;padding:14px 8px 8px;font-size:10.5px;line-height:1.35}
.pic.missing{flex-direction:column;gap:4px;background:repeating-linear-gradient(45deg,#fff5f5,#fff5f5 10px,#fff 10px,#fff 20px);color:var(--bad);font-weight:600;text-align:center;padding:12px}
.pic.missing small{color:var(--muted);font-weight:400;word-break:break-word}
.card header{display:flex;justify-content:space-between;gap:6px;align-items:baseline}
.card header .status{font-size:12px;color:var(--muted);text-align:right}
.rewards{display:flex;flex-wrap:wrap;gap:6px}
.reward{display:flex;border-radius:5px;overflow:hidden;font-size:12px;border:1px solid var(--line)}
.reward .kind{padding:2px 6px;background:#f1f3f5;color:var(--muted)}
.reward .val{padding:2px 8px;font-weight:600;font-variant-numeric:tabular-nums;color:#fff}
.reward.o-scored .val{background:var(--ok)}.reward.o-not_judged .val{background:var(--nj)}.reward.o-failed .val{background:var(--bad)}
table.crit{width:100%;border-collapse:collapse;font-size:12px}
table.crit td{padding:1px 3px}
table.crit .k{max-width:130px;line-height:1.25}
table.crit .k div{overflow-wrap:break-word;display:-webkit-box;-webkit-line-clamp:3;-webkit-box-orient:vertical;overflow:hidden}
table.crit .w{color:var(--muted)}
table.crit .v,.why .v{font-variant-numeric:tabular-nums;text-align:right}
.bar{display:block;height:6px;background:#edf0f2;border-radius:3px;min-width:60px}
.bar span{display:block;height:100%;background:var(--accent);border-radius:3px}
.bar.empty{background:repeating-linear-gradient(90deg,#edf0f2,#edf0f2 4px,#fff 4px,#fff 6px)}
details summary{cursor:pointer;color:var(--accent);font-size:12px}
details .body{font-size:12px}
details.why ol{padding-left:18px;margin:6px 0;font-size:12px}
details.why p{margin:2px 0 6px;color:#343a40}
details.code pre{white-space:pre-wrap;word-break:break-word;max-height:320px;overflow:auto;background:#f8f9fa;border-radius:4px;padding:8px;font-size:11px}
.chips{display:flex;flex-wrap:wrap;gap:4px}
.chip{font-size:11px;padding:1px 6px;border-radius:10px;background:#e7f5ff;color:#1c7ed6}
.chip.warn{background:#fff0f0;color:var(--bad)}.chip.ok{background:#ebfbee;color:var(--ok)}.chip.plain{background:#f1f3f5;color:var(--muted)}
.hidden{display:none!important}
footer{margin-top:48px;color:var(--muted);font-size:12px}
`;
