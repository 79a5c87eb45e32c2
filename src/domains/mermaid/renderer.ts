// The mermaid domain: the `mermaid` package's browser bundle (from node_modules, inlined:
// the page loads nothing) renders the diagram in a pooled Chromium page with
// securityLevel 'strict' (click handlers off, HTML labels sanitised; a diagram's own
// %%{init}%% cannot loosen it). The picture is the diagram's SVG element.
//
// A diagram Mermaid refuses is a failure, never a picture of the refusal. Mermaid's own
// answers, read in the page from its API (not from pixels): a rejected promise (syntax
// errors; with suppressErrorRendering no error "bomb" is drawn) is `exec_error`; the
// diagram type `error` (the text `error` asks Mermaid for its error picture) is
// `exec_error`; text over maxTextSize, which Mermaid swaps for a "Maximum text size in
// diagram exceeded" box and reports as success, and its edge limit are `too_large`. The
// limits and suppressErrorRendering are on Mermaid's `secure` list: %%{init}%% cannot move them.
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import type { BrowserRoom } from '../../browser/room.ts';
import { makeError } from '../../core/errors.ts';
import { pngResult } from '../png.ts';
import type { DomainRender, DomainRenderer } from '../types.ts';

export interface MermaidRendererOptions {
  room: BrowserRoom;
  timeoutMs?: number;
  maxBytes?: number;
}

let bundle: string | undefined;
function mermaidBundle(): string {
  bundle ??= readFileSync(
    createRequire(import.meta.url).resolve('mermaid/dist/mermaid.min.js'),
    'utf8',
  ).replace(/<\/script/gi, '<\\/script');
  return bundle;
}

/**
 * The longest side of a Mermaid picture, px: a diagram is drawn at its natural size (Mermaid's
 * own width for it) up to this, scaled down beyond it (docs/domains.md).
 */
export const MERMAID_MAX_SIDE = 4096;

const FAILED = 'rubrica-mermaid-failed:';
const TOO_LARGE = 'rubrica-mermaid-too-large:';
/** The box Mermaid draws instead of a diagram over its maxTextSize. */
const SIZE_BOX = 'Maximum text size in diagram exceeded';

/** The page of one diagram: the shell, then the diagram as a JSON string (no markup of ours around it). */
export function mermaidPage(code: string): string {
  const text = JSON.stringify(code).replace(/</g, '\\u003c');
  const page = mermaidShell();
  const end = page.lastIndexOf('</body>'); // the bundle may hold the same text
  return `${page.slice(0, end)}<script>__rubricaRun(${text});</script>${page.slice(end)}`;
}

let shell: string | undefined;
/**
 * The warm page (the browser room keeps it across jobs): the bundle, parsed once, and
 * `__rubricaRun(text)` to draw a diagram into #out. `__rubricaReset()` puts the page back
 * as it was loaded before the next job — #out empty and bare, any element or style a job
 * left in the body or head removed, Mermaid's site config set again (each render also
 * resets the config a diagram's %%{init}%% changed) — and answers true only if it is.
 */
export function mermaidShell(): string {
  shell ??= `<!doctype html><html><head><meta charset="utf-8"><style>body{margin:0;background:white}#out{display:inline-block;padding:8px}</style></head><body><div id="out"></div><script>${mermaidBundle()}</script><script>
var BASE = { startOnLoad: false, securityLevel: 'strict', theme: 'default', suppressErrorRendering: true };
mermaid.initialize(BASE);
function nodes(parent) { return Array.prototype.slice.call(parent.childNodes); }
var keepBody = nodes(document.body);
var keepHead = nodes(document.head);
window.__rubricaReset = function () {
  var out = document.getElementById('out');
  out.replaceChildren();
  for (var i = out.attributes.length - 1; i >= 0; i--) if (out.attributes[i].name !== 'id') out.removeAttribute(out.attributes[i].name);
  nodes(document.body).forEach(function (n) { if (keepBody.indexOf(n) < 0) n.remove(); });
  nodes(document.head).forEach(function (n) { if (keepHead.indexOf(n) < 0) n.remove(); });
  mermaid.initialize(BASE);
  window.scrollTo(0, 0);
  return out.childNodes.length === 0 && out.attributes.length === 1 &&
    nodes(document.body).length === keepBody.length && nodes(document.head).length === keepHead.length;
};
window.__rubricaRun = function (text) {
// Never a stale picture: #out is emptied and unmarked here too, not only by the reset.
var out0 = document.getElementById('out');
out0.removeAttribute('data-done');
out0.replaceChildren();
var maxText = (mermaid.mermaidAPI && mermaid.mermaidAPI.getConfig().maxTextSize) || 50000;
// Mermaid writes width="100%" and style="max-width: Npx": inside #out (an inline-block that
// takes its size from its content) 100% of nothing falls back to the 300 px default of a
// replaced element, and a 1,184 px gantt came out 300 px wide. The diagram is drawn at its
// natural size instead — the max-width Mermaid asked for, else its viewBox — scaled down only
// past ${MERMAID_MAX_SIDE} px on a side.
function naturalSize(svg) {
  if (!svg) return;
  var vb = svg.viewBox && svg.viewBox.baseVal;
  var w = parseFloat(svg.style.maxWidth) || (vb && vb.width) || 0;
  if (!(w > 0)) return;
  var h = vb && vb.width > 0 ? vb.height * (w / vb.width) : 0;
  var s = Math.min(1, ${MERMAID_MAX_SIDE} / w, h > 0 ? ${MERMAID_MAX_SIDE} / h : 1);
  svg.style.maxWidth = 'none';
  svg.setAttribute('width', String(Math.round(w * s)));
  if (h > 0) svg.setAttribute('height', String(Math.round(h * s)));
}
function refuse(prefix, message) {
  console.error(prefix + message);
  document.getElementById('out').setAttribute('data-done', 'error');
}
mermaid.render('diagram', text).then(function (r) {
  if (r.diagramType === 'error') return refuse(${JSON.stringify(FAILED)}, 'Mermaid drew its error diagram, not a diagram');
  // Mermaid replaces text over maxTextSize with a box saying so, and succeeds.
  if (text.length > maxText && r.svg.indexOf(${JSON.stringify(SIZE_BOX)}) >= 0) {
    return refuse(${JSON.stringify(TOO_LARGE)}, ${JSON.stringify(SIZE_BOX)} + ' (' + text.length + ' characters, limit ' + maxText + ')');
  }
  var out = document.getElementById('out');
  out.innerHTML = r.svg;
  naturalSize(out.querySelector('svg'));
  if (r.bindFunctions) r.bindFunctions(out);
  out.setAttribute('data-done', '1');
}, function (e) {
  var message = String((e && e.message) || e).slice(0, 1500);
  refuse(/^Edge limit exceeded/.test(message) ? ${JSON.stringify(TOO_LARGE)} : ${JSON.stringify(FAILED)}, message);
});
};
</script></body></html>`;
  return shell;
}

export function createMermaidRenderer(o: MermaidRendererOptions): DomainRenderer {
  return {
    async render(code, ro = {}): Promise<DomainRender> {
      const started = performance.now();
      const maxBytes = o.maxBytes ?? 256 * 1024;
      if (Buffer.byteLength(code) > maxBytes) {
        return {
          ok: false,
          error: makeError('too_large', `diagram over ${maxBytes} bytes`),
          ms: 0,
        };
      }
      // The warm page: the bundle is parsed once per page, not per diagram (issue 36); the
      // diagram is data handed to the page's own function, reset after the shot.
      const r = await o.room.renderPage({
        html: mermaidShell(),
        warm: { key: 'mermaid', arg: code },
        javascript: true,
        viewport: { width: 1200, height: 900 },
        timeoutMs: ro.timeoutMs ?? o.timeoutMs ?? 30_000, // a new page parses the 3.5 MB bundle
        // Done either way: a refused diagram leaves #out empty (a 16 px box, shot at once and
        // thrown away) rather than waiting out the time limit for a diagram that never comes.
        waitForSelector: '#out[data-done]',
        selector: '#out[data-done]',
      });
      const tooLarge = r.consoleErrors.find((m) => m.startsWith(TOO_LARGE));
      const failure = r.consoleErrors.find((m) => m.startsWith(FAILED));
      const notes = {
        consoleErrors: r.consoleErrors.length,
        blockedRequests: r.blockedRequests.length,
      };
      const ms = performance.now() - started;
      if (tooLarge) {
        const message = `mermaid: ${tooLarge.slice(TOO_LARGE.length)}`;
        return { ok: false, error: makeError('too_large', message), ms, notes };
      }
      if (failure) {
        const message = `mermaid: ${failure.slice(FAILED.length)}`;
        return { ok: false, error: makeError('exec_error', message), ms, notes };
      }
      if (!r.ok) {
        const code = r.error.code === 'render_crash' ? 'exec_error' : r.error.code;
        return { ok: false, error: makeError(code, r.error.message), ms, notes };
      }
      return pngResult(r.png, started, notes);
    },
    async close() {},
  };
}
