// One domain's code files through the SVG renderer's interface, so `rubrica render
// --domain python a.py b.py --out-dir DIR` (renderFiles) works unchanged for every domain.

import type { DomainId } from '../core/domain-ids.ts';
import type { Renderer, RenderResult } from '../render/types.ts';
import { toRenderResult } from './render-result.ts';
import type { DomainRenderers } from './renderers.ts';

export function domainFileRenderer(
  domains: DomainRenderers,
  domain: Exclude<DomainId, 'svg'>,
  timeoutMs?: number,
): Renderer {
  return {
    async render(code: string | Uint8Array): Promise<RenderResult> {
      const text = typeof code === 'string' ? code : Buffer.from(code).toString('utf8');
      const r = await domains.render(domain, text, timeoutMs ? { timeoutMs } : {});
      return toRenderResult(r, text);
    },
    close: () => domains.close(),
  };
}
