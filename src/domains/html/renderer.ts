// The html domain: the page, with its CSS and JavaScript, in a pooled Chromium page of the
// browser room (src/browser: all network refused and logged, no file://, popups closed,
// dialogs dismissed, a hung page killed and replaced). The picture is the viewport,
// 1280×720 by default (a laptop screen's first view of the page); with `fullPage` it is the
// whole document at the viewport's width, cut at `maxHeight` (default 4096 px) — the notes
// say when it was cut. The document's size is always measured (horizontal overflow check).
// The task's data files (`assets`) are served to the page by name from its own origin
// (`fetch('data.csv')`, `<img src="logo.png">`, a module import); no other URL loads.
import type { BrowserRoom } from '../../browser/room.ts';
import { makeError } from '../../core/errors.ts';
import { pngResult } from '../png.ts';
import type { DomainNotes, DomainRender, DomainRenderer } from '../types.ts';
import { HTML_FULL_PAGE_MAX_HEIGHT, HTML_VIEWPORT, type HtmlPictureOptions } from './picture.ts';

/** Chromium's console line for a request the room refused (route.abort('blockedbyclient')). */
const BLOCKED_LOG = /^Failed to load resource: net::ERR_BLOCKED_BY_CLIENT/;

export { HTML_FULL_PAGE_MAX_HEIGHT, HTML_VIEWPORT, type HtmlPictureOptions } from './picture.ts';

export interface HtmlRendererOptions extends HtmlPictureOptions {
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
      const maxHeight = o.maxHeight ?? HTML_FULL_PAGE_MAX_HEIGHT;
      if (Buffer.byteLength(code) > maxBytes) {
        return { ok: false, error: makeError('too_large', `page over ${maxBytes} bytes`), ms: 0 };
      }
      const r = await o.room.renderPage({
        html: code,
        javascript: true,
        viewport: o.viewport ?? HTML_VIEWPORT,
        timeoutMs: ro.timeoutMs ?? o.timeoutMs ?? 10_000,
        measure: true,
        ...(o.fullPage ? { fullPage: { maxHeight } } : {}),
        ...(ro.assets && Object.keys(ro.assets).length > 0 ? { files: ro.assets } : {}),
      });
      // The browser logs each request we refused as a console error too; those are counted
      // once, as blocked requests, so console_errors means the page's own errors.
      const errors = r.consoleErrors.filter((m) => !BLOCKED_LOG.test(m));
      const notes: DomainNotes = {
        consoleErrors: errors.length,
        blockedRequests: r.blockedRequests.length,
        ...(errors.length
          ? { consoleMessages: errors.slice(0, 5).map((m) => m.slice(0, 300)) }
          : {}),
      };
      if (r.ok && r.stillLoading) notes.stillLoading = true;
      if (r.ok && r.layout) {
        notes.layout = r.layout;
        if (o.fullPage) {
          notes.fullPage = {
            documentHeight: r.layout.documentHeight,
            height: r.height,
            maxHeight,
            clipped: r.clipped === true,
          };
        }
      }
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
