// The report's only script, inlined. It reads the gallery data (gallery-data.ts), filters it
// (outcome, reason, check flag, score range under a chosen reward), sorts it (prompt, score, status,
// length) and draws one page of cards, so a run of 10,000 rollouts keeps a few dozen cards
// in the DOM. Every model-written string is set with textContent, never parsed as HTML.
// Completions and rationales are unpacked (gzip, DecompressionStream) on first open; a
// non-SVG rollout's code, shown beside its picture, as soon as its card is drawn.

export const SCRIPT = `
(function () {
  var dataEl = document.getElementById('rubrica-data');
  var form = document.getElementById('filters');
  var root = document.getElementById('gallery');
  if (!dataEl || !form || !root) return;
  var D = JSON.parse(dataEl.textContent);
  var R = D.rollouts;
  var counter = document.getElementById('visible');
  var pageInfo = document.getElementById('page-info');
  var page = 0;
  var textPromise = null;
  var OUTCOME_RANK = { failed: 0, not_judged: 1, scored: 2 };
  var OUTCOME_TEXT = { scored: 'scored', not_judged: 'rendered, not judged', failed: 'failed' };

  function el(tag, cls, text) {
    var e = document.createElement(tag);
    if (cls) e.className = cls;
    if (text !== undefined && text !== null) e.textContent = String(text);
    return e;
  }
  function num(v, d) { return v === null || v === undefined || !isFinite(v) ? '\\u2013' : Number(v).toFixed(d); }
  function val(name) { var e = form.elements.namedItem(name); return e ? e.value : ''; }

  function loadText() {
    if (textPromise) return textPromise;
    textPromise = new Promise(function (resolve, reject) {
      if (typeof DecompressionStream === 'undefined') {
        reject(new Error('This browser cannot unpack the texts (no DecompressionStream); they are in results.jsonl.'));
        return;
      }
      var b64 = document.getElementById('rubrica-text').textContent.trim();
      var bin = atob(b64);
      var bytes = new Uint8Array(bin.length);
      for (var i = 0; i < bin.length; i++) bytes[i] = bin.charCodeAt(i);
      var stream = new Blob([bytes]).stream().pipeThrough(new DecompressionStream('gzip'));
      new Response(stream).text().then(function (t) { resolve(JSON.parse(t)); }, reject);
    });
    return textPromise;
  }

  // A <details> whose body is filled from the text blob the first time it opens.
  function lazyDetails(cls, summary, fill) {
    var d = el('details', cls);
    d.appendChild(el('summary', null, summary));
    var body = el('div', 'body');
    d.appendChild(body);
    d.addEventListener('toggle', function () {
      if (!d.open || d.dataset.filled) return;
      d.dataset.filled = '1';
      body.textContent = 'unpacking\\u2026';
      loadText().then(function (T) {
        body.textContent = '';
        fill(body, T);
        d.dataset.ready = '1';
      }, function (e) { body.textContent = String((e && e.message) || e); d.dataset.ready = '1'; });
    });
    return d;
  }

  function bar(score) {
    var b = el('span', score === null ? 'bar empty' : 'bar');
    if (score === null) { b.title = 'not scored'; return b; }
    var f = el('span');
    f.style.width = Math.round(Math.max(0, Math.min(1, score)) * 100) + '%';
    b.appendChild(f);
    return b;
  }

  function card(idx, withPrompt) {
    var r = R[idx];
    var a = el('article', 'card o-' + r.o);
    a.dataset.outcome = r.o;
    a.dataset.reason = r.r;
    a.dataset.index = String(idx);
    D.kinds.forEach(function (kind, k) {
      var s = r.k[k];
      if (s) a.setAttribute('data-score-' + kind, s[0] === null ? '' : String(s[0]));
    });
    var primary = r.k.filter(Boolean)[0];
    // A non-SVG rollout's card is two columns wide: its code beside its picture.
    var holder = a;
    if (r.d) {
      a.classList.add('wide');
      holder = el('div', 'pair');
      a.appendChild(holder);
    }
    if (r.i >= 0) {
      var fig = el('figure', 'pic');
      var img = el('img');
      img.src = D.images[r.i];
      img.alt = 'rendering of ' + r.id;
      img.width = 192; img.height = 192;
      fig.appendChild(img);
      holder.appendChild(fig);
    } else {
      var miss = el('div', 'pic missing');
      miss.appendChild(el('span', null, r.o === 'scored' ? 'no image' : r.st));
      if (primary && primary[2]) miss.appendChild(el('small', null, primary[2]));
      holder.appendChild(miss);
    }
    if (r.d) {
      var src = el('div', 'src');
      src.appendChild(el('span', 'lang', r.d));
      var pre = el('pre', null, 'unpacking\u2026');
      src.appendChild(pre);
      holder.appendChild(src);
      loadText().then(function (T) {
        pre.textContent = T[idx][2] || '(no ' + r.d + ' code found in the answer)';
        src.dataset.ready = '1';
      }, function (e) { pre.textContent = String((e && e.message) || e); src.dataset.ready = '1'; });
    }
    var h = el('header');
    h.appendChild(el('code', null, r.id));
    var st = el('span', 'status', r.o === 'scored' ? 'scored' : r.st);
    if (primary && primary[2]) st.title = primary[2];
    h.appendChild(st);
    a.appendChild(h);
    if (withPrompt) {
      var p = D.prompts[r.p];
      var line = el('p', 'prompt-line', p.text);
      line.title = p.id + ': ' + p.text;
      a.appendChild(line);
    }
    var rw = el('div', 'rewards');
    D.kinds.forEach(function (kind, k) {
      var s = r.k[k];
      if (!s) return;
      var box = el('div', 'reward o-' + s[1]);
      if (s[2]) box.title = s[2];
      box.appendChild(el('span', 'kind', kind));
      box.appendChild(el('span', 'val', s[1] === 'not_judged' ? 'not judged' : num(s[0], 3)));
      rw.appendChild(box);
    });
    a.appendChild(rw);
    if (r.c.length > 0) {
      var t = el('table', 'crit');
      r.c.forEach(function (c) {
        var key = D.keys[c[0]];
        var tr = el('tr');
        // The name wraps after _ - / . (a zero-width space), up to three lines; the full
        // name, axis and weight are the tooltip.
        var k = el('td', 'k');
        var name = el('div', null, key[0].replace(/([_\\-\\/.])/g, '$1\\u200b'));
        k.title = key[0] + ' \\u00b7 ' + key[1] + ' \\u00b7 weight ' + key[2];
        k.appendChild(name);
        tr.appendChild(k);
        tr.appendChild(el('td', 'w', '\\u00d7' + key[2]));
        var b = el('td'); b.appendChild(bar(c[1])); tr.appendChild(b);
        tr.appendChild(el('td', 'v', num(c[1], 2)));
        t.appendChild(tr);
      });
      a.appendChild(t);
    }
    r.w.forEach(function (k) {
      a.appendChild(lazyDetails('why', 'Judge rationales (' + D.kinds[k] + ')', function (body, T) {
        var ol = el('ol');
        T[idx][1][k].forEach(function (x) {
          var li = el('li');
          li.appendChild(el('b', null, x[0]));
          li.appendChild(document.createTextNode(' '));
          li.appendChild(el('span', 'v', num(x[1], 2)));
          li.appendChild(el('p', null, x[2]));
          ol.appendChild(li);
        });
        body.appendChild(ol);
      }));
    });
    var chips = el('div', 'chips');
    r.f.forEach(function (f) {
      chips.appendChild(el('span', f === 'clipped' || f.indexOf('DwT ') === 0 ? 'chip' : f === 'DwT' ? 'chip ok' : 'chip warn', f));
    });
    chips.appendChild(el('span', 'chip plain', r.t + ' tok'));
    a.appendChild(chips);
    a.appendChild(lazyDetails('code', 'Completion', function (body, T) {
      body.appendChild(el('pre', null, T[idx][0]));
    }));
    return a;
  }

  function matching() {
    var outcomes = {};
    Array.prototype.forEach.call(form.querySelectorAll('input[name=outcome]'), function (e) {
      outcomes[e.value] = e.checked;
    });
    var reason = val('reason');
    var flag = val('flag');
    var k = D.kinds.indexOf(val('kind'));
    if (k < 0) k = 0;
    var lo = parseFloat(val('min'));
    var hi = parseFloat(val('max'));
    if (isNaN(lo)) lo = 0;
    if (isNaN(hi)) hi = 1;
    var narrowed = lo > 0 || hi < 1;
    var out = [];
    for (var i = 0; i < R.length; i++) {
      var r = R[i];
      if (outcomes[r.o] === false) continue;
      if (reason && r.r !== reason) continue;
      if (flag === '-none') {
        if (r.f.some(function (x) { return D.flags.indexOf(x) >= 0; })) continue;
      } else if (flag && r.f.indexOf(flag) < 0) continue;
      var s = r.k[k];
      var v = s ? s[0] : null;
      if (v === null) { if (narrowed) continue; }
      else if (v < lo - 1e-9 || v > hi + 1e-9) continue;
      out.push(i);
    }
    var sort = val('sort');
    var score = function (i) { var s = R[i].k[k]; return s && s[0] !== null ? s[0] : null; };
    var cmp = {
      prompt: function (a, b) { return R[a].p - R[b].p || a - b; },
      // Prompts by mean reward under the chosen reward, lowest first (no mean: last).
      'prompt-hard': function (a, b) {
        var x = D.prompts[R[a].p].mean[k], y = D.prompts[R[b].p].mean[k];
        if (x !== y) {
          if (x === null) return 1;
          if (y === null) return -1;
          return x - y;
        }
        return R[a].p - R[b].p || a - b;
      },
      'score-desc': function (a, b) {
        var x = score(a), y = score(b);
        if (x === null || y === null) return x === y ? a - b : x === null ? 1 : -1;
        return y - x || a - b;
      },
      'score-asc': function (a, b) {
        var x = score(a), y = score(b);
        if (x === null || y === null) return x === y ? a - b : x === null ? 1 : -1;
        return x - y || a - b;
      },
      status: function (a, b) {
        return OUTCOME_RANK[R[a].o] - OUTCOME_RANK[R[b].o] || (R[a].r < R[b].r ? -1 : R[a].r > R[b].r ? 1 : 0) || a - b;
      },
      'tokens-desc': function (a, b) { return R[b].t - R[a].t || a - b; }
    }[sort] || null;
    if (cmp) out.sort(cmp);
    return { list: out, byPrompt: !sort || sort === 'prompt' || sort === 'prompt-hard' };
  }

  function draw() {
    var m = matching();
    var size = parseInt(val('size'), 10) || 60;
    var pages = Math.max(1, Math.ceil(m.list.length / size));
    if (page >= pages) page = pages - 1;
    if (page < 0) page = 0;
    var slice = m.list.slice(page * size, (page + 1) * size);
    root.textContent = '';
    var frag = document.createDocumentFragment();
    if (m.byPrompt) {
      var sec = null, grid = null, last = -1;
      slice.forEach(function (i) {
        var r = R[i];
        if (r.p !== last) {
          last = r.p;
          var p = D.prompts[r.p];
          sec = el('section', 'prompt');
          sec.dataset.prompt = p.id;
          var h = el('header');
          h.appendChild(el('h3', null, p.text));
          h.appendChild(el('code', null, p.id));
          h.appendChild(el('span', 'mean', p.means));
          sec.appendChild(h);
          grid = el('div', 'grid');
          sec.appendChild(grid);
          frag.appendChild(sec);
        }
        grid.appendChild(card(i, false));
      });
    } else {
      var flat = el('section', 'flat');
      var g = el('div', 'grid');
      slice.forEach(function (i) { g.appendChild(card(i, true)); });
      flat.appendChild(g);
      frag.appendChild(flat);
    }
    root.appendChild(frag);
    if (counter) counter.textContent = 'showing ' + m.list.length + ' of ' + R.length;
    if (pageInfo) {
      pageInfo.textContent = m.list.length === 0 ? 'no card matches'
        : 'page ' + (page + 1) + ' of ' + pages + ' \\u00b7 cards ' + (page * size + 1) + '\\u2013' + (page * size + slice.length);
    }
    var prev = form.elements.namedItem('prev');
    var next = form.elements.namedItem('next');
    if (prev) prev.disabled = page === 0;
    if (next) next.disabled = page >= pages - 1;
  }

  // Any change of filter, sort or page size starts again at page 1 ('input' covers typing
  // in the score fields, 'change' the selects and checkboxes).
  function restart() { page = 0; draw(); }
  form.addEventListener('input', restart);
  form.addEventListener('change', restart);
  form.addEventListener('submit', function (e) { e.preventDefault(); });
  form.addEventListener('click', function (e) {
    var name = e.target && e.target.name;
    if (name === 'prev' || name === 'next') {
      e.preventDefault();
      page += name === 'next' ? 1 : -1;
      draw();
      form.scrollIntoView({ block: 'start' });
    }
  });
  draw();
})();
`;
