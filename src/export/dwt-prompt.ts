// The Drawing-with-Thought system prompt shipped in prompts/dwt/system.md: the whole file is
// the system message (no template sections), versioned by the hash of its bytes.
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

export const DWT_SYSTEM_PROMPT_PATH = fileURLToPath(
  new URL('../../prompts/dwt/system.md', import.meta.url),
);

export interface DwtSystemPrompt {
  text: string;
  /** First 16 hex digits of the sha256 of the file. */
  version: string;
  path: string;
}

let cached: DwtSystemPrompt | undefined;

export function loadDwtSystemPrompt(): DwtSystemPrompt {
  if (!cached) {
    const raw = readFileSync(DWT_SYSTEM_PROMPT_PATH, 'utf8');
    cached = {
      text: raw.trim(),
      version: createHash('sha256').update(raw).digest('hex').slice(0, 16),
      path: DWT_SYSTEM_PROMPT_PATH,
    };
  }
  return cached;
}
