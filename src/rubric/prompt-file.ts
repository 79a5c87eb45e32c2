// Prompt templates kept as reviewable files under prompts/. A file holds a notes
// preamble (not sent), then `=== system ===` and `=== user ===` sections with {{name}}
// placeholders. Its version is a hash of the file's bytes, so any edit changes every
// cache key that depends on it and stale answers are never reused.
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

export interface PromptTemplate {
  /** Path relative to prompts/, e.g. "judge/joint.md". */
  name: string;
  /** First 16 hex digits of the sha256 of the file content. */
  version: string;
  system: string;
  user: string;
}

const PROMPTS_DIR = fileURLToPath(new URL('../../prompts/', import.meta.url));
const loaded = new Map<string, PromptTemplate>();

export function parsePromptTemplate(name: string, text: string): PromptTemplate {
  const sys = text.indexOf('=== system ===');
  const usr = text.indexOf('=== user ===');
  if (sys < 0 || usr < 0 || usr < sys) {
    throw new Error(`prompt file ${name} needs "=== system ===" then "=== user ===" sections`);
  }
  return {
    name,
    version: createHash('sha256').update(text).digest('hex').slice(0, 16),
    system: text.slice(sys + '=== system ==='.length, usr).trim(),
    user: text.slice(usr + '=== user ==='.length).trim(),
  };
}

/** Loads (once per process) a template from the shipped prompts/ folder. */
export function loadPromptTemplate(name: string): PromptTemplate {
  let t = loaded.get(name);
  if (!t) {
    t = parsePromptTemplate(name, readFileSync(PROMPTS_DIR + name, 'utf8'));
    loaded.set(name, t);
  }
  return t;
}

/** Fills {{name}} placeholders; a missing value is a programming error, so it throws. */
export function fillTemplate(template: string, values: Record<string, string>): string {
  return template.replace(/\{\{(\w+)\}\}/g, (_, key: string) => {
    const v = values[key];
    if (v === undefined) throw new Error(`prompt placeholder {{${key}}} has no value`);
    return v;
  });
}

/** sha256 hex of a string or buffer (cache keys, rubric hashes, image hashes). */
export function sha256(data: string | Buffer): string {
  return createHash('sha256').update(data).digest('hex');
}
