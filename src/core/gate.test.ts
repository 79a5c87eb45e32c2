import { describe, expect, it } from 'vitest';
import { extractArtifact } from '../artifact/extract.ts';
import { runChecks } from '../checks/run-checks.ts';
import { domainChecks } from '../domains/checks.ts';
import { DEFAULT_GATE, GATE_CHECKS, parseGate } from './gate.ts';

describe('parseGate', () => {
  it('defaults to judge_text; none turns gating off', () => {
    expect(parseGate(undefined)).toEqual(['judge_text']);
    expect(DEFAULT_GATE).toEqual(['judge_text']);
    expect(parseGate('none')).toEqual([]);
    expect(parseGate(['none'])).toEqual([]);
  });
  it('reads CHECK[,CHECK…] and lists, trimmed, without repeats', () => {
    expect(parseGate('judge_text, clutter,judge_text')).toEqual(['judge_text', 'clutter']);
    expect(parseGate(['text_in_image', 'page_clipped'])).toEqual(['text_in_image', 'page_clipped']);
  });
  it.each(['judge_txt', '', 'none,clutter', 'clutter,'])('"%s" is unknown_gate_check', (v) => {
    expect(() => parseGate(v)).toThrow(expect.objectContaining({ code: 'unknown_gate_check' }));
  });
});

describe('the gate list and the checks', () => {
  it('names every SVG check (a new check must be gateable)', async () => {
    const artifact = await extractArtifact(
      '```svg\n<svg xmlns="http://www.w3.org/2000/svg"/>\n```',
    );
    const names = runChecks(artifact, null).map((c) => c.name);
    expect(names).toContain('judge_text');
    for (const n of names) expect(GATE_CHECKS).toContain(n);
  });
  it('names every domain check', () => {
    const notes = {
      fullPage: { clipped: false, documentHeight: 1, height: 1, maxHeight: 1 },
      layout: { documentWidth: 1, viewportWidth: 1 },
    };
    const names = (['python', 'vega-lite', 'html'] as const).flatMap((d) =>
      domainChecks(d, notes as never).map((c) => c.name),
    );
    expect(names).toContain('page_clipped');
    for (const n of names) expect(GATE_CHECKS).toContain(n);
  });
});
