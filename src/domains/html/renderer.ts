// The html domain: the page, with its CSS and JavaScript, in a pooled Chromium page of the
// browser room (src/browser: all network refused and logged, no file://, popups closed,
// dialogs dismissed, a hung page killed and replaced). The picture is the viewport,
// 1280×720 by default (a laptop screen's first view of the page).
import type { BrowserRoom } from '../../browser/room.ts';
import { makeError } from '../../core/errors.ts';
import { pngResult } from '../png.ts';
import type { DomainRender, DomainRenderer } from '../types.ts';

export const HTML_VIEWPORT = Object.freeze({ width: 1280, height: 720 });

export interface HtmlRendererOptions {
  room: BrowserRoom;
  viewport?: { width: number; height: number };
  timeoutMs?: number;
  maxBytes?: number;
}

export function createHtmlRenderer(o: HtmlRendererOptions): DomainRenderer {
  return {
    async render(code, ro = {}): Promise<DomainRender> {
      const started = performance.now();
      const maxBytes = o.maxBytes ?? 2 * 1024 ** 2;
      if (Buffer.byteLength(code) > maxBytes) {
        return { ok: false, error: makeError('too_large', `page over ${maxBytes} bytes`), ms: 0 };
      }
      const r = await o.room.renderPage({
        html: code,
        javascript: true,
        viewport: o.viewport ?? HTML_VIEWPORT,
        timeoutMs: ro.timeoutMs ?? o.timeoutMs ?? 10_000,
      });
      const notes = {
        consoleErrors: r.consoleErrors.length,
        blockedRequests: r.blockedRequests.length,
      };
      if (!r.ok) {
        const code = r.error.code === 'render_crash' ? 'exec_error' : r.error.code;
        return {
          ok: false,
          error: makeError(code, r.error.message),
          ms: performance.now() - started,
          notes,
        };
      }
      return pngResult(r.png, started, notes);
    },
    async close() {},
  };
}
