// Prompt files: sections, placeholders, and versions that change with any edit (the
// version is part of every cache key, so an edited prompt never reuses stale answers).
import { describe, expect, it } from 'vitest';
import { authorVersion } from '../synth/author.ts';
import { getPreset } from './presets.ts';
import { fillTemplate, loadPromptTemplate, parsePromptTemplate } from './prompt-file.ts';

const FILE =
  '# notes, not sent\n=== system ===\nYou judge {{what}}.\n=== user ===\nPrompt: {{prompt}}\n';

describe('prompt files', () => {
  it('splits notes, system and user; versions follow the bytes', () => {
    const t = parsePromptTemplate('x.md', FILE);
    expect(t.system).toBe('You judge {{what}}.');
    expect(t.user).toBe('Prompt: {{prompt}}');
    expect(t.version).toMatch(/^[0-9a-f]{16}$/);
    expect(parsePromptTemplate('x.md', FILE).version).toBe(t.version);
    expect(parsePromptTemplate('x.md', FILE.replace('judge', 'score')).version).not.toBe(t.version);
    expect(() => parsePromptTemplate('bad.md', 'no sections')).toThrow(/=== system ===/);
  });

  it('fills placeholders and refuses a missing one', () => {
    expect(fillTemplate('a {{x}} b {{x}}', { x: '1' })).toBe('a 1 b 1');
    expect(() => fillTemplate('{{y}}', {})).toThrow(/\{\{y\}\}/);
  });

  it('ships every prompt file with its placeholders filled by the code', () => {
    for (const name of [
      'author/ideal-svg.md',
      'author/rubric.md',
      'judge/joint.md',
      'judge/per-item.md',
    ]) {
      const t = loadPromptTemplate(name);
      expect(t.system.length).toBeGreaterThan(100);
      expect(t.user).toContain('{{prompt}}');
    }
    expect(loadPromptTemplate('judge/joint.md').system).toMatch(/NOT deserve more than 0\.6/);
    expect(loadPromptTemplate('author/rubric.md').system).toMatch(/reconstruction checklist/);
  });

  it('gives each authored preset its own author version', () => {
    expect(authorVersion(getPreset('ruler'))).not.toBe(authorVersion(getPreset('rubric-s')));
  });
});
