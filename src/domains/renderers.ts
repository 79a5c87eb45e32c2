// One place that owns a renderer per non-SVG domain, each started on first use (a python
// pool, the vega runtime, …) and all closed together. The CLI, the scorer and the server
// hold one of these next to their SVG render pool.

import { type BrowserRoom, createBrowserRoom } from '../browser/room.ts';
import type { DomainId } from '../core/domain-ids.ts';
import { makeError } from '../core/errors.ts';
import type { Renderer, RenderOptions } from '../render/types.ts';
import { createDotRenderer } from './dot/renderer.ts';
import { createHtmlRenderer, type HtmlPictureOptions } from './html/renderer.ts';
import { createLatexRenderer } from './latex/renderer.ts';
import { createLilypondRenderer } from './lilypond/renderer.ts';
import { createMermaidRenderer } from './mermaid/renderer.ts';
import { createPythonRenderer, type PythonRendererOptions } from './python/renderer.ts';
import { createSmilesRenderer } from './smiles/renderer.ts';
import type { DomainRender, DomainRenderer, DomainRenderOptions } from './types.ts';
import { createVegaLiteRenderer } from './vega-lite/renderer.ts';

/** The svg renderer the set reuses, and each domain's limits and settings. */
export interface DomainRenderersOptions {
  /** Draws vega-lite's SVG (and is the svg domain's renderer). */
  svgRenderer: Renderer;
  svgOptions?: RenderOptions;
  python?: PythonRendererOptions;
  /** html: viewport (default) or full-page picture (docs/domains.md). */
  html?: HtmlPictureOptions;
  /** Default wall-clock limit per render, ms (each domain has its own default). */
  timeoutMs?: number;
  /** Pages of the Chromium room html and mermaid share (default 2). */
  browserPages?: number;
  /** Renderers to use instead of (or beside) the built-in ones. */
  extra?: Partial<Record<DomainId, () => DomainRenderer>>;
}

/** One sandboxed renderer per domain behind one call; `close()` ends every one started. */
export interface DomainRenderers {
  /** Renders `code` of a non-SVG domain; every failure is a value. */
  render(domain: DomainId, code: string, opts?: DomainRenderOptions): Promise<DomainRender>;
  close(): Promise<void>;
}

export function createDomainRenderers(o: DomainRenderersOptions): DomainRenderers {
  const made = new Map<DomainId, DomainRenderer>();
  // html and mermaid share one browser room, started with the first of them.
  let room: BrowserRoom | null = null;
  const browser = () => {
    room ??= createBrowserRoom({ pages: o.browserPages ?? 2 });
    return room;
  };
  const t = o.timeoutMs;
  const factories: Partial<Record<DomainId, () => DomainRenderer>> = {
    python: () => createPythonRenderer({ ...o.python, ...(t ? { timeoutMs: t } : {}) }),
    latex: () => createLatexRenderer(t ? { timeoutMs: t } : {}),
    dot: () => createDotRenderer(t ? { timeoutMs: t } : {}),
    'vega-lite': () =>
      createVegaLiteRenderer({
        svgRenderer: o.svgRenderer,
        ...(o.svgOptions ? { render: o.svgOptions } : {}),
        ...(t ? { timeoutMs: t } : {}),
      }),
    html: () => createHtmlRenderer({ room: browser(), ...o.html, ...(t ? { timeoutMs: t } : {}) }),
    mermaid: () => createMermaidRenderer({ room: browser(), ...(t ? { timeoutMs: t } : {}) }),
    lilypond: () => createLilypondRenderer(t ? { timeoutMs: t } : {}),
    smiles: () => createSmilesRenderer(t ? { timeoutMs: t } : {}),
    ...o.extra,
  };
  return {
    async render(domain, code, ro) {
      let r = made.get(domain);
      if (!r) {
        const make = factories[domain];
        if (!make) {
          const message = `no renderer for the ${domain} domain in this build (see docs/domains.md)`;
          return { ok: false, error: makeError('sandbox_error', message), ms: 0 };
        }
        r = make();
        made.set(domain, r);
      }
      return r.render(code, ro);
    },
    async close() {
      const all = [...made.values()];
      made.clear();
      await Promise.all(all.map((r) => r.close()));
      await room?.close();
      room = null;
    },
  };
}
