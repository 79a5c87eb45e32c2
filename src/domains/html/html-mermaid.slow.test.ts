// The html and mermaid domains in the shared Chromium room: pages render; network, file://,
// endless scripts, dialogs, popups, huge DOMs and WebGL end as values with nothing reaching a
// loopback logger; Mermaid's strict mode keeps labels and click handlers from running script.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type LoopbackLogger, startLoopbackLogger } from '../../../test/support/loopback-logger.ts';
import { type BrowserRoom, createBrowserRoom } from '../../browser/room.ts';
import { createMermaidRenderer, mermaidPage } from '../mermaid/renderer.ts';
import type { DomainRender, DomainRenderer } from '../types.ts';
import { createHtmlRenderer } from './renderer.ts';

let room: BrowserRoom;
let html: DomainRenderer;
let mermaid: DomainRenderer;
let logger: LoopbackLogger;
beforeAll(async () => {
  logger = await startLoopbackLogger();
  room = createBrowserRoom({ pages: 1, timeoutMs: 60_000 });
  html = createHtmlRenderer({ room, timeoutMs: 20_000 });
  mermaid = createMermaidRenderer({ room, timeoutMs: 90_000 });
});
afterAll(async () => {
  await room.close();
  await logger.close();
});

const PAGE =
  '<!doctype html><html><body><h1>Hello</h1><script>document.body.append("js ran")</script></body></html>';
const code = (r: DomainRender) => (r.ok ? 'ok' : r.error.code);

describe('html domain', () => {
  it('screenshots the 1280×720 viewport with scripts run', async () => {
    const r = await html.render(PAGE);
    expect(r.ok && [r.width, r.height]).toEqual([1280, 720]);
  }, 120_000);

  it('holds against hostile pages, then still renders', async () => {
    const net = await html.render(
      `<!doctype html><html><body><h1>x</h1><img src="${logger.url}img.png"><iframe src="file:///etc/passwd"></iframe><script>fetch(${JSON.stringify(logger.url)}).catch(()=>{}); new WebSocket('ws://127.0.0.1:${logger.port}/');</script></body></html>`,
    );
    expect(code(net)).toBe('ok');
    expect(net.notes?.blockedRequests).toBeGreaterThanOrEqual(2);
    const loop = await html.render(
      '<!doctype html><html><body>x<script>while(true){}</script></body></html>',
      { timeoutMs: 5_000 },
    );
    expect(code(loop)).toBe('timeout');
    const dialogs = await html.render(
      '<!doctype html><html><body><h1>dialogs</h1><script>alert(1); confirm("x"); window.open("about:blank")</script></body></html>',
    );
    expect(code(dialogs)).toBe('ok');
    const dom = await html.render(
      '<!doctype html><html><body><script>for (let i = 0; i < 2e6; i++) document.body.appendChild(document.createElement("div")).textContent = i</script></body></html>',
      { timeoutMs: 8_000 },
    );
    expect(['ok', 'timeout', 'exec_error']).toContain(code(dom));
    const gl = await html.render(
      '<!doctype html><html><body><h1>gl</h1><canvas id=c></canvas><script>const g = document.getElementById("c").getContext("webgl"); if (g) { g.clearColor(1,0,0,1); g.clear(g.COLOR_BUFFER_BIT) }</script></body></html>',
    );
    expect(code(gl)).toBe('ok');
    expect(code(await html.render(PAGE))).toBe('ok');
    expect(logger.hits).toEqual([]);
  }, 240_000);
});

describe('mermaid domain', () => {
  it('renders a flowchart and reports a syntax error as exec_error', async () => {
    const r = await mermaid.render('flowchart TD\n A[Start] --> B{Ok?}\n B -->|yes| C[Done]');
    expect(code(r)).toBe('ok');
    const bad = await mermaid.render('flowchart TD\n A -->');
    expect(code(bad)).toBe('exec_error');
  }, 240_000);

  it('strict mode: HTML labels, click handlers and init directives run no script', async () => {
    const diagram = [
      '%%{init: {"securityLevel": "loose"}}%%',
      'flowchart TD',
      `  A["<img src='${logger.url}' onerror='console.error(&quot;PWNED&quot;)'>label"] --> B`,
      '  click A call console.error("PWNED")',
      '  click B "javascript:console.error(\'PWNED\')"',
    ].join('\n');
    const r = await room.renderPage({
      html: mermaidPage(diagram),
      javascript: true,
      timeoutMs: 90_000,
      waitForSelector: '#out[data-done]',
    });
    expect(r.ok).toBe(true);
    expect(r.consoleErrors.join('\n')).not.toContain('PWNED');
    expect(logger.hits).toEqual([]);
  }, 240_000);
});
