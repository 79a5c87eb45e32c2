// The report's only script, inlined: filters cards by outcome, reason and score range
// (under a chosen reward kind) and hides prompt sections left empty. Plain DOM, no library.

export const SCRIPT = `
(function () {
  var form = document.getElementById('filters');
  if (!form) return;
  var cards = Array.prototype.slice.call(document.querySelectorAll('article.card'));
  var sections = Array.prototype.slice.call(document.querySelectorAll('section.prompt'));
  var counter = document.getElementById('visible');
  function val(name) { var el = form.elements.namedItem(name); return el ? el.value : ''; }
  function apply() {
    var outcomes = {};
    Array.prototype.forEach.call(form.querySelectorAll('input[name=outcome]'), function (el) {
      outcomes[el.value] = el.checked;
    });
    var reason = val('reason');
    var kind = val('kind');
    var lo = parseFloat(val('min'));
    var hi = parseFloat(val('max'));
    if (isNaN(lo)) lo = 0;
    if (isNaN(hi)) hi = 1;
    var narrowed = lo > 0 || hi < 1;
    var shown = 0;
    cards.forEach(function (card) {
      var ok = outcomes[card.dataset.outcome] !== false;
      if (ok && reason && card.dataset.reason !== reason) ok = false;
      if (ok) {
        var raw = card.getAttribute('data-score-' + kind);
        if (raw === null || raw === '') ok = !narrowed;
        else { var s = parseFloat(raw); ok = s >= lo - 1e-9 && s <= hi + 1e-9; }
      }
      card.classList.toggle('hidden', !ok);
      if (ok) shown++;
    });
    sections.forEach(function (sec) {
      sec.classList.toggle('hidden', !sec.querySelector('article.card:not(.hidden)'));
    });
    if (counter) counter.textContent = 'showing ' + shown + ' of ' + cards.length;
  }
  form.addEventListener('input', apply);
  form.addEventListener('change', apply);
  form.addEventListener('submit', function (e) { e.preventDefault(); });
  apply();
})();
`;
