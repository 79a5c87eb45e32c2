// The dot domain: a graph renders; image=/shapefile= cannot pull files (not even system
// files the sandbox can see), syntax errors and huge graphs end as values.
import { describe, expect, it } from 'vitest';
import { createDotRenderer } from './renderer.ts';

describe('dot domain', () => {
  const dot = createDotRenderer({ timeoutMs: 10_000 });

  it('renders a graph', async () => {
    const r = await dot.render('digraph { a -> b -> c; b -> d }');
    expect(r.ok).toBe(true);
  }, 30_000);

  it('refuses image= and shapefile= files and reports syntax errors', async () => {
    const plain = await dot.render('digraph { a; a -> b }');
    for (const attr of ['image="/usr/share/pixmaps/debian-logo.png"', 'shapefile="/etc/passwd"']) {
      const r = await dot.render(`digraph { a [${attr}]; a -> b }`);
      expect(r.ok).toBe(true);
      if (r.ok && plain.ok) {
        expect(r.notes.stderrTail).toMatch(/unsafe|ignored|No or improper/);
        expect([r.width, r.height]).toEqual([plain.width, plain.height]);
      }
    }
    const bad = await dot.render('digraph { a -> }');
    expect(!bad.ok && bad.error.code).toBe('exec_error');
  }, 60_000);

  it('bounds huge graphs (code size, time)', async () => {
    const edges = Array.from({ length: 30_000 }, (_, i) => `n${i} -> n${(i * 7919) % 30_000};`);
    const big = await dot.render(`digraph { ${edges.join(' ')} }`);
    expect(!big.ok && big.error.code).toBe('too_large');
    const dense = Array.from({ length: 3000 }, (_, i) => `n${i % 300} -> n${(i * 31) % 300};`);
    const slow = await dot.render(`digraph { ${dense.join(' ')} }`, { timeoutMs: 2_000 });
    // Bounded either way: on a loaded machine the time limit ends it; on an idle one dot
    // finishes and its picture is over the pixel limit.
    expect(slow.ok || ['timeout', 'too_large'].includes(slow.error.code)).toBe(true);
    expect(slow.ms).toBeLessThan(8_000);
    expect((await dot.render('digraph { x -> y }')).ok).toBe(true);
  }, 60_000);
});

describe('dot refusals (issue 22, item 6)', () => {
  const dot = createDotRenderer({ timeoutMs: 10_000 });

  it('input with no graph is exec_error, not a sandbox fault', async () => {
    for (const code of ['', '/* only a comment */']) {
      const r = await dot.render(code);
      expect(!r.ok && [r.error.code, r.error.message]).toEqual([
        'exec_error',
        'dot: no graph in the input',
      ]);
    }
  }, 60_000);

  it('a graph too large for a bitmap is too_large with dot’s warning, not an empty picture', async () => {
    // dot warns "graph is too large for cairo-renderer bitmaps" and writes an empty file.
    const squashed = await dot.render('digraph { ratio=0.00001; a -> b }');
    expect(!squashed.ok && squashed.error.code).toBe('too_large');
    expect(!squashed.ok && squashed.error.message).toContain('too large for cairo-renderer');
    // dot cannot create a cairo surface that big and crashes.
    const huge = await dot.render('digraph { a [width=300 height=300] }');
    expect(!huge.ok && huge.error.code).toBe('too_large');
    expect((await dot.render('digraph { a -> b }')).ok).toBe(true);
  }, 60_000);
});

describe('an empty graph (issue 35, item 6)', () => {
  it('is blank, warm or one-shot; a drawing on a transparent background is not', async () => {
    const warm = createDotRenderer({ timeoutMs: 10_000 });
    const cold = createDotRenderer({ timeoutMs: 10_000, pool: false });
    try {
      for (const dot of [warm, cold]) {
        // dot draws an 11×11 white box with soft transparent edges: nothing, seen on white.
        for (const code of ['digraph {}', 'graph G { }', 'digraph { bgcolor=transparent }']) {
          const r = await dot.render(code);
          expect(r.ok ? 'ok' : r.error.code, code).toBe('blank');
        }
        expect((await dot.render('digraph { bgcolor=transparent; a -> b }')).ok).toBe(true);
      }
    } finally {
      await warm.close();
      await cold.close();
    }
  }, 60_000);
});
