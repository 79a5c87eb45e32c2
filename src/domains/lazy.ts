// DomainRenderers that load on first use: SVG-only callers (most CLI runs, the server's SVG
// traffic) never import the domain renderers, sharp in the main thread or the browser room.
import type { DomainRenderers, DomainRenderersOptions } from './renderers.ts';

/**
 * The domain renderers, loaded on first use (`rubrica` exports this as createDomainRenderers):
 * one sandboxed renderer per non-SVG domain, each started when first asked, all ended by
 * close(). SVG-only callers never load sharp, the sandboxes or the browser.
 * @example
 * ```ts
 * const domains = createDomainRenderers({ svgRenderer: pool });
 * const ins = await inspectCompletion(completion, { renderer: pool, domains, domain: 'auto' });
 * await domains.close();
 * ```
 */
export function lazyDomainRenderers(opts: DomainRenderersOptions): DomainRenderers {
  let hub: Promise<DomainRenderers> | null = null;
  return {
    render(domain, code, ro) {
      hub ??= import('./renderers.ts').then((m) => m.createDomainRenderers(opts));
      return hub.then((h) => h.render(domain, code, ro));
    },
    async close() {
      const h = hub;
      hub = null;
      if (h) await (await h).close();
    },
  };
}
