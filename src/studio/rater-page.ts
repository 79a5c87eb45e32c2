// The rater's page: one screen per task, laid out for a laptop (pictures fit a 1366×768
// window without scrolling), answered by click or keyboard. It holds no state of its own:
// every answer is posted at once and the server says what comes next, so a reload resumes
// exactly where the rater was. Prompts reach the page as JSON and are shown with textContent.
import { esc } from '../core/html-escape.ts';
import { FONT } from '../eval/report/palette.ts';

const CSS = `
*{box-sizing:border-box}
body{margin:0;font:15px/1.45 ${FONT};color:#212529;background:#f6f7f9}
header{display:flex;align-items:center;gap:16px;padding:10px 24px;background:#fff;border-bottom:1px solid #dee2e6}
header h1{font-size:16px;margin:0;flex:0 0 auto}
.bar{flex:1;height:8px;background:#e9ecef;border-radius:4px;overflow:hidden}
.bar i{display:block;height:100%;background:#3b5bdb;width:0}
#count{font-variant-numeric:tabular-nums;color:#6c757d}
main{max-width:1280px;margin:0 auto;padding:14px 24px}
#prompt{font-size:19px;font-weight:600;margin:0 0 2px}
#question{color:#6c757d;margin:0 0 12px}
.pics{display:flex;gap:20px;justify-content:center;align-items:flex-start}
.pic{background:#fff;border:2px solid #dee2e6;border-radius:10px;padding:10px;cursor:pointer;text-align:center;position:relative}
.pic:hover,.pic:focus{border-color:#3b5bdb;outline:none}
.pic img{display:block;width:min(44vh,40vw);height:min(44vh,40vw);object-fit:contain;background:#fff}
.abs .pic img{width:min(36vh,60vw);height:min(36vh,60vw)}
.tri .pic img{width:min(36vh,28vw);height:min(36vh,28vw)}
.pic .k{color:#6c757d;font-size:13px;margin-top:6px}
.pic .rank{position:absolute;top:8px;left:8px;background:#3b5bdb;color:#fff;border-radius:14px;min-width:28px;height:28px;line-height:28px;font-weight:700;display:none}
.pic.ranked .rank{display:block}
.actions{display:flex;gap:12px;justify-content:center;margin-top:14px;align-items:center}
button{font:inherit;padding:8px 18px;border-radius:8px;border:1px solid #adb5bd;background:#fff;cursor:pointer}
button.primary{background:#3b5bdb;border-color:#3b5bdb;color:#fff}
button:disabled{opacity:.45;cursor:default}
.slider{max-width:720px;margin:12px auto 0}
.slider label{display:block;font-weight:600;margin-top:8px}
.slider input{width:100%}
.anchors{position:relative;height:34px;font-size:12px;color:#6c757d}
.anchors span{position:absolute;transform:translateX(-50%);white-space:nowrap;text-align:center}
.val{font-variant-numeric:tabular-nums;font-weight:700;min-width:3ch;display:inline-block}
.keys{color:#6c757d;font-size:13px;text-align:center;margin-top:10px}
kbd{border:1px solid #ced4da;border-bottom-width:2px;border-radius:4px;padding:0 5px;background:#fff;font-size:12px}
.done{text-align:center;margin-top:80px;font-size:20px}
.err{color:#c53030;text-align:center}
`;

const SCRIPT = `
const token = location.pathname.split('/').pop();
const $ = (s) => document.querySelector(s);
let state = null, shownAt = 0, busy = false, ranks = [], touched = false;
function el(tag, attrs, ...kids) {
  const e = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs || {})) {
    if (k === 'text') e.textContent = v; else if (k.startsWith('on')) e.addEventListener(k.slice(2), v); else e.setAttribute(k, v);
  }
  for (const c of kids) e.append(c);
  return e;
}
async function call(path, body) {
  const res = await fetch('/api/r/' + token + path, body === undefined ? {} : {
    method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(body) });
  const j = await res.json();
  if (!res.ok) throw new Error(j.error ? j.error.message : res.statusText);
  return j;
}
async function submit(answer) {
  if (busy || !state || !state.task) return;
  busy = true;
  try {
    show(await call('/answer', { seq: state.task.seq, answer, ms: Math.round(performance.now() - shownAt) }));
  } catch (e) { $('#err').textContent = 'Not saved: ' + e.message + ' — try again.'; }
  finally { busy = false; }
}
function picture(src, i, label, onclick) {
  return el('div', { class: 'pic', tabindex: '0', 'data-testid': 'pic-' + i, onclick },
    el('div', { class: 'rank', text: '' }), el('img', { src, alt: 'picture ' + (i + 1), draggable: 'false' }), el('div', { class: 'k', text: label }));
}
function show(s) {
  state = s; ranks = []; touched = false;
  const pct = s.total ? Math.round((100 * s.done) / s.total) : 100;
  $('.bar i').style.width = pct + '%';
  $('#count').textContent = s.done + ' / ' + s.total;
  $('#err').textContent = '';
  const box = $('#task'); box.replaceChildren();
  document.title = s.study.name;
  if (!s.task) { box.append(el('div', { class: 'done', 'data-testid': 'done', text: 'All done — thank you! You can close this page.' })); return; }
  const t = s.task, kind = s.study.kind;
  box.append(el('p', { id: 'prompt', 'data-testid': 'prompt', text: '“' + t.prompt + '”' }), el('p', { id: 'question', text: s.study.question }));
  if (kind === 'pairwise') {
    box.append(el('div', { class: 'pics pair' }, picture(t.images[0], 0, '1 / ←', () => submit({ choice: 0 })), picture(t.images[1], 1, '2 / →', () => submit({ choice: 1 }))));
    if (s.study.allow_ties) box.append(el('div', { class: 'actions' }, el('button', { 'data-testid': 'tie', onclick: () => submit({ choice: 'tie' }), text: 'About the same (T / ↓)' })));
    box.append(el('div', { class: 'keys' }, 'Keys: ', el('kbd', { text: '1' }), ' or ', el('kbd', { text: '←' }), ' left · ', el('kbd', { text: '2' }), ' or ', el('kbd', { text: '→' }), ' right' + (s.study.allow_ties ? ' · ' : ''), ...(s.study.allow_ties ? [el('kbd', { text: 'T' }), ' tie'] : [])));
  } else if (kind === 'absolute') {
    box.append(el('div', { class: 'pics abs' }, picture(t.images[0], 0, '', () => {})));
    const sliders = el('div', { class: 'slider' });
    const make = (id, label) => {
      const input = el('input', { type: 'range', min: '0', max: '100', step: '1', value: '50', 'data-testid': 'slider-' + id, 'data-criterion': id });
      const val = el('span', { class: 'val', text: '–' });
      input.addEventListener('input', () => { val.textContent = input.value; if (id === 'score') { touched = true; $('#send').disabled = false; } });
      const anchors = el('div', { class: 'anchors' });
      for (const [pos, text] of Object.entries(s.study.anchors)) anchors.append(el('span', { style: 'left:' + pos + '%', text: pos + ' ' + text }));
      sliders.append(el('label', {}, label + ': ', val), input, anchors);
    };
    make('score', 'Overall');
    for (const c of s.study.criteria) make(c.id, c.text);
    box.append(sliders, el('div', { class: 'actions' }, el('button', { id: 'send', class: 'primary', disabled: '', 'data-testid': 'send', onclick: sendScore, text: 'Save and next (Enter)' })));
    box.append(el('div', { class: 'keys' }, 'Keys: ', el('kbd', { text: '0' }), '–', el('kbd', { text: '9' }), ' set 0–90 · ', el('kbd', { text: '←' }), el('kbd', { text: '→' }), ' ±5 · ', el('kbd', { text: 'Enter' }), ' save'));
  } else {
    box.append(el('div', { class: 'pics tri' }, ...t.images.map((src, i) => picture(src, i, String(i + 1), () => rank(i)))));
    box.append(el('div', { class: 'actions' }, el('button', { 'data-testid': 'reset', onclick: resetRanks, text: 'Start over (Backspace)' }), el('button', { id: 'send', class: 'primary', disabled: '', 'data-testid': 'send', onclick: () => ranks.length === 3 && submit({ order: ranks }), text: 'Save and next (Enter)' })));
    box.append(el('div', { class: 'keys' }, 'Click (or press ', el('kbd', { text: '1' }), el('kbd', { text: '2' }), el('kbd', { text: '3' }), ') the best picture first, then the next.'));
  }
  shownAt = performance.now();
}
function sendScore() {
  if (!touched) return;
  const v = (id) => Number(document.querySelector('[data-criterion="' + id + '"]').value);
  const a = { score: v('score') };
  if (state.study.criteria.length) a.criteria = Object.fromEntries(state.study.criteria.map((c) => [c.id, v(c.id)]));
  submit(a);
}
function setScore(x) {
  const input = document.querySelector('[data-criterion="score"]');
  input.value = String(Math.max(0, Math.min(100, x)));
  input.dispatchEvent(new Event('input'));
}
function rank(i) {
  if (ranks.includes(i) || ranks.length >= 3) return;
  ranks.push(i);
  const pics = document.querySelectorAll('.pic');
  pics[i].classList.add('ranked'); pics[i].querySelector('.rank').textContent = String(ranks.length);
  if (ranks.length === 2) rank([0, 1, 2].find((j) => !ranks.includes(j)));
  $('#send').disabled = ranks.length !== 3;
}
function resetRanks() {
  ranks = [];
  for (const p of document.querySelectorAll('.pic')) p.classList.remove('ranked');
  $('#send').disabled = true;
}
document.addEventListener('keydown', (e) => {
  if (!state || !state.task || e.altKey || e.ctrlKey || e.metaKey) return;
  const kind = state.study.kind, k = e.key;
  if (kind === 'pairwise') {
    if (k === '1' || k === 'ArrowLeft') submit({ choice: 0 });
    else if (k === '2' || k === 'ArrowRight') submit({ choice: 1 });
    else if (state.study.allow_ties && (k === 't' || k === 'T' || k === 'ArrowDown')) submit({ choice: 'tie' });
    else return;
  } else if (kind === 'absolute') {
    const input = document.querySelector('[data-criterion="score"]');
    if (/^[0-9]$/.test(k)) setScore(Number(k) * 10);
    else if (k === 'ArrowLeft' || k === 'ArrowRight') { if (document.activeElement === input) return; setScore(Number(input.value) + (k === 'ArrowLeft' ? -5 : 5)); }
    else if (k === 'Enter') sendScore();
    else return;
  } else {
    if (k === '1' || k === '2' || k === '3') rank(Number(k) - 1);
    else if (k === 'Backspace') resetRanks();
    else if (k === 'Enter' && ranks.length === 3) submit({ order: ranks });
    else return;
  }
  e.preventDefault();
});
call('/next').then(show, (e) => { $('#err').textContent = e.message; });
`;

export function renderRaterPage(studyName: string): string {
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1"><meta name="referrer" content="no-referrer"><title>${esc(studyName)}</title><style>${CSS}</style></head><body><header><h1>${esc(studyName)}</h1><div class="bar"><i></i></div><span id="count" data-testid="count"></span></header><main><div id="task"></div><p id="err" class="err" data-testid="error"></p></main><script>${SCRIPT}</script></body></html>\n`;
}
