// A diagram Mermaid refuses is a failure, not a picture of the refusal (issue 22, item 6):
// over maxTextSize Mermaid draws a "Maximum text size in diagram exceeded" box and reports
// success; the text `error` is its error picture; its edge limit and syntax errors reject.
// Each must come back as a failure code, and an honest diagram still renders.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type BrowserRoom, createBrowserRoom } from '../../browser/room.ts';
import type { DomainRender, DomainRenderer } from '../types.ts';
import { createMermaidRenderer } from './renderer.ts';

let room: BrowserRoom;
let mermaid: DomainRenderer;
beforeAll(() => {
  room = createBrowserRoom({ pages: 1 });
  mermaid = createMermaidRenderer({ room, timeoutMs: 90_000 });
});
afterAll(async () => {
  await room.close();
});

const outcome = (r: DomainRender) => (r.ok ? 'ok' : r.error.code);
const message = (r: DomainRender) => (r.ok ? '' : r.error.message);

/** A flowchart of 200 nodes with long labels: ≈ 64 000 characters, 199 edges. */
const BIG = [
  'flowchart TD',
  ...Array.from({ length: 200 }, (_, i) => `  n${i}["${'label '.repeat(50)}"] --> n${i + 1}`),
].join('\n');

describe('mermaid refusals', () => {
  it('text over Mermaid maxTextSize is too_large, not the size-error box', async () => {
    expect(BIG.length).toBeGreaterThan(50_000);
    const r = await mermaid.render(BIG);
    expect(outcome(r)).toBe('too_large');
    expect(message(r)).toContain('Maximum text size in diagram exceeded');
    // The limit is on Mermaid's secure list: a diagram's own init cannot raise it.
    const raised = await mermaid.render(`%%{init: {"maxTextSize": 10000000}}%%\n${BIG}`);
    expect(outcome(raised)).toBe('too_large');
  }, 300_000);

  it("Mermaid's error picture and its edge limit are failures; an honest diagram renders", async () => {
    const bomb = await mermaid.render('error');
    expect(outcome(bomb)).toBe('exec_error');
    expect(message(bomb)).toContain('error diagram');
    const edges = Array.from({ length: 600 }, (_, i) => `  a${i} --> a${i + 1}`);
    const many = await mermaid.render(`flowchart LR\n${edges.join('\n')}`);
    expect(outcome(many)).toBe('too_large');
    expect(message(many)).toContain('Edge limit exceeded');
    const bad = await mermaid.render('sequenceDiagram\n  Alice->>');
    expect(outcome(bad)).toBe('exec_error');
    const good = await mermaid.render('flowchart TD\n  A[Start] --> B{Ok?}\n  B -->|yes| C[Done]');
    expect(outcome(good)).toBe('ok');
  }, 300_000);
});
