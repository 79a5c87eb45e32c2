// The rater's page: one screen per task, laid out for a laptop (pictures fit a 1366×768
// window without scrolling), answered by click or keyboard. It holds no state of its own:
// every answer is posted at once and the server says what comes next, so a reload resumes
// exactly where the rater was. Prompts reach the page as JSON and are shown with textContent.
// Before the first screen: instructions, then practice screens the server marks as such.
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
.practice{background:#fff3bf;border:1px solid #ffd43b;border-radius:8px;padding:4px 12px;text-align:center;margin:0 auto 10px;max-width:560px;font-weight:600}
.intro{max-width:720px;margin:40px auto;background:#fff;border:1px solid #dee2e6;border-radius:10px;padding:20px 28px}
.intro h2{margin-top:0}
.untouched{opacity:.35;filter:grayscale(1)}
header a{color:#3b5bdb;cursor:pointer;font-size:13px}
#help{display:none}
#help.open{display:block}
`;

const SCRIPT = `
const token = location.pathname.split('/').pop();
const $ = (s) => document.querySelector(s);
// ready: the screen's pictures are on screen; shownAt: since when. Answers before
// ready + min_look_ms are ignored, so a held key or a double click cannot answer a screen
// the rater has not seen.
let state = null, shownAt = 0, ready = false, busy = false, ranks = [], touched = new Set();
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
function looked() { return ready && performance.now() - shownAt >= state.study.min_look_ms; }
async function post(path, body) {
  if (busy) return;
  busy = true;
  try { show(await call(path, body)); }
  catch (e) { $('#err').textContent = 'Not saved: ' + e.message + ' — try again.'; }
  finally { busy = false; }
}
function submit(answer) {
  if (!state || !state.task || !looked()) return;
  const ms = Math.min(state.study.max_ms, Math.round(performance.now() - shownAt));
  return post('/answer', { seq: state.task.seq, answer, ms });
}
function undo() {
  if (!state || state.undo === null || state.undo === undefined) return;
  return post('/undo', { seq: state.undo });
}
function picture(src, i, label, onclick) {
  return el('div', { class: 'pic', tabindex: '0', 'data-testid': 'pic-' + i, onclick },
    el('div', { class: 'rank', text: '' }), el('img', { src, alt: 'picture ' + (i + 1), draggable: 'false' }), el('div', { class: 'k', text: label }));
}
function instructions(s) {
  return [el('p', { 'data-testid': 'instructions-text', text: s.study.instructions }),
    el('p', { text: s.practice_total ? 'The first ' + s.practice_total + ' screens are practice: they are marked and not counted.' : '' })];
}
function show(s) {
  state = s; ranks = []; touched = new Set(); ready = false;
  const pct = s.total ? Math.round((100 * s.done) / s.total) : 100;
  $('.bar i').style.width = pct + '%';
  $('#count').textContent = s.done + ' / ' + s.total;
  $('#err').textContent = '';
  $('#help').replaceChildren(...instructions(s));
  const box = $('#task'); box.replaceChildren();
  delete box.dataset.ready; delete box.dataset.looked;
  document.title = s.study.title;
  if (s.instructions) {
    box.append(el('div', { class: 'intro', 'data-testid': 'instructions' }, el('h2', { text: 'Before you start' }), ...instructions(s),
      el('p', {}, 'Answer with a click or the keys shown under the pictures. ', el('b', { text: 'Undo' }), ' (', el('kbd', { text: 'U' }), ') takes back your last answer.'),
      el('div', { class: 'actions' }, el('button', { class: 'primary', 'data-testid': 'start', onclick: () => post('/start', {}), text: s.practice_total ? 'Start the practice' : 'Start' }))));
    return;
  }
  if (!s.task) { box.append(el('div', { class: 'done', 'data-testid': 'done', text: 'All done — thank you! You can close this page.' })); return; }
  const t = s.task, kind = s.study.kind;
  if (t.practice) box.append(el('div', { class: 'practice', 'data-testid': 'practice', text: 'Practice ' + (s.practice_done + 1) + ' of ' + s.practice_total + ' — not counted' }));
  box.append(el('p', { id: 'prompt', 'data-testid': 'prompt', text: '“' + t.prompt + '”' }), el('p', { id: 'question', text: s.study.question }));
  if (kind === 'pairwise') {
    box.append(el('div', { class: 'pics pair' }, picture(t.images[0], 0, '1 / ←', () => submit({ choice: 0 })), picture(t.images[1], 1, '2 / →', () => submit({ choice: 1 }))));
    if (s.study.allow_ties) box.append(el('div', { class: 'actions' }, el('button', { 'data-testid': 'tie', onclick: () => submit({ choice: 'tie' }), text: 'About the same (T / ↓)' })));
    box.append(el('div', { class: 'keys' }, 'Keys: ', el('kbd', { text: '1' }), ' or ', el('kbd', { text: '←' }), ' left · ', el('kbd', { text: '2' }), ' or ', el('kbd', { text: '→' }), ' right' + (s.study.allow_ties ? ' · ' : ''), ...(s.study.allow_ties ? [el('kbd', { text: 'T' }), ' tie'] : [])));
  } else if (kind === 'absolute') {
    box.append(el('div', { class: 'pics abs' }, picture(t.images[0], 0, '', () => {})));
    const sliders = el('div', { class: 'slider' });
    // A slider nobody moved shows "–" and is sent as null (the overall one must be moved).
    const make = (id, label) => {
      const input = el('input', { type: 'range', min: '0', max: '100', step: '1', value: '50', class: 'untouched', 'data-testid': 'slider-' + id, 'data-criterion': id });
      const val = el('span', { class: 'val', 'data-testid': 'val-' + id, text: '–' });
      input.addEventListener('input', () => { val.textContent = input.value; touched.add(id); input.classList.remove('untouched'); if (id === 'score') $('#send').disabled = false; });
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
  if (s.undo !== null && s.undo !== undefined) box.append(el('div', { class: 'actions' }, el('button', { 'data-testid': 'undo', onclick: undo, text: 'Undo last answer (U)' })));
  // The screen counts as shown once its pictures are decoded and on screen.
  const imgs = [...box.querySelectorAll('img')];
  Promise.all(imgs.map((i) => i.decode().catch(() => {}))).then(() => {
    if (state !== s) return;
    requestAnimationFrame(() => {
      if (state !== s) return;
      ready = true; shownAt = performance.now(); box.dataset.ready = '1';
      // Marks (for people and tests alike) the moment answers start to count.
      setTimeout(() => { if (state === s) box.dataset.looked = '1'; }, s.study.min_look_ms + 20);
    });
  });
}
function sendScore() {
  if (!touched.has('score')) return;
  const v = (id) => touched.has(id) ? Number(document.querySelector('[data-criterion="' + id + '"]').value) : null;
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
  if (!looked() || ranks.includes(i) || ranks.length >= 3) return;
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
  if (!state || state.instructions || e.altKey || e.ctrlKey || e.metaKey) return;
  // A held key repeats: only the press itself may answer.
  if (e.repeat) { e.preventDefault(); return; }
  const kind = state.study.kind, k = e.key;
  if (k === 'u' || k === 'U') { undo(); e.preventDefault(); return; }
  if (!state.task) return;
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
$('#help-link').addEventListener('click', () => $('#help').classList.toggle('open'));
call('/next').then(show, (e) => { $('#err').textContent = e.message; });
`;

/**
 * The rater's page under `title`: the study file's `title`, else a neutral one — never the
 * study's name, which often names the conditions being compared.
 */
export function renderRaterPage(title: string): string {
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1"><meta name="referrer" content="no-referrer"><title>${esc(title)}</title><style>${CSS}</style></head><body><header><h1>${esc(title)}</h1><div class="bar"><i></i></div><span id="count" data-testid="count"></span><a id="help-link" data-testid="help-link">instructions</a></header><main><div id="help" class="intro" data-testid="help"></div><div id="task"></div><p id="err" class="err" data-testid="error"></p></main><script>${SCRIPT}</script></body></html>\n`;
}
