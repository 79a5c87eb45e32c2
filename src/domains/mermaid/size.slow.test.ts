// Mermaid diagrams are drawn at their natural size (issue 23): Mermaid's SVG says width="100%",
// which inside the page's inline-block fell back to 300 px — a gantt chart needing 1,200 px
// came out 300 px wide with unreadable text. The diagram's natural width is read from the
// SVG Mermaid made (its viewBox), in the same page, and the picture must be at least that wide.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type BrowserRoom, createBrowserRoom } from '../../browser/room.ts';
import type { DomainRenderer } from '../types.ts';
import { createMermaidRenderer, MERMAID_MAX_SIDE, mermaidPage } from './renderer.ts';

// Written for this test in the syntax of Mermaid's gantt docs.
const GANTT = `gantt
    title Release plan for the chart renderer
    dateFormat YYYY-MM-DD
    section Data
    Collect task files      :done,    d1, 2026-01-05, 10d
    Write loaders           :active,  d2, after d1, 12d
    section Rendering
    Sandbox the renderer    :         r1, after d2, 14d
    Size the pictures       :         r2, after r1, 7d
    section Release
    Benchmarks              :crit,    b1, after r2, 5d
    Ship                    :milestone, m1, after b1, 0d`;
const WIDE = `flowchart LR\n${Array.from({ length: 14 }, (_, i) => `  n${i}[Step number ${i} of the pipeline] --> n${i + 1}`).join('\n')}`;
const SMALL = 'flowchart TD\n  a --> b';

let room: BrowserRoom;
let mermaid: DomainRenderer;
beforeAll(() => {
  room = createBrowserRoom({ pages: 1, timeoutMs: 60_000 });
  mermaid = createMermaidRenderer({ room, timeoutMs: 90_000 });
});
afterAll(async () => {
  await room.close();
});

/** The width Mermaid laid the diagram out at (its viewBox), read in the same page. */
async function naturalWidth(code: string): Promise<number> {
  const probe = `<script>
new MutationObserver(function () {
  var svg = document.querySelector('#out[data-done] svg');
  if (svg) console.error('natural-width ' + svg.viewBox.baseVal.width);
}).observe(document.getElementById('out'), { attributes: true });
</script>`;
  const html = mermaidPage(code).replace('<div id="out"></div>', `<div id="out"></div>${probe}`);
  const r = await room.renderPage({
    html,
    javascript: true,
    viewport: { width: 1200, height: 900 },
    timeoutMs: 90_000,
    waitForSelector: '#out[data-done]',
  });
  const line = r.consoleErrors.find((m) => m.startsWith('natural-width '));
  return Number(line?.split(' ')[1]);
}

describe('mermaid picture size', () => {
  it('draws a gantt chart at its natural width, not the 300 px fallback', async () => {
    const natural = await naturalWidth(GANTT);
    expect(natural).toBeGreaterThan(1000);
    const r = await mermaid.render(GANTT);
    if (!r.ok) throw new Error(r.error.message);
    expect(r.width).toBeGreaterThanOrEqual(natural);
    expect(r.width).toBeLessThanOrEqual(natural + 17); // the page's 8 px padding each side
  }, 240_000);

  it('keeps a small diagram small and scales a very wide one down to the cap', async () => {
    const small = await mermaid.render(SMALL);
    const natural = await naturalWidth(SMALL);
    expect(small.ok && small.width).toBeGreaterThanOrEqual(natural);
    expect(small.ok && small.width).toBeLessThan(300);
    const wide = await mermaid.render(WIDE);
    expect(await naturalWidth(WIDE)).toBeGreaterThan(MERMAID_MAX_SIDE);
    expect(wide.ok && wide.width).toBe(MERMAID_MAX_SIDE + 16);
  }, 240_000);
});
