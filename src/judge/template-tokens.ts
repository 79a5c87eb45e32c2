// Every text part of every judge message with its chat-template token strings rewritten
// visibly (artifact/template-tokens.ts says which strings and why).
import { neutraliseTemplateTokens } from '../artifact/template-tokens.ts';
import type { ChatMessage, ContentPart } from '../models/types.ts';
import { countNeutralised } from './judge-input-tally.ts';

/**
 * Every text part of `messages` neutralised. rubrica's own templates hold no such string,
 * so only what came from the policy (code) or from data (prompt, rubric) can change.
 */
export function neutraliseMessages(messages: ChatMessage[]): ChatMessage[] {
  let rewritten = 0;
  const fix = (s: string) => {
    const n = neutraliseTemplateTokens(s);
    rewritten += n.tokens.length;
    return n.text;
  };
  const out = messages.map((m) => ({
    ...m,
    content:
      typeof m.content === 'string'
        ? fix(m.content)
        : m.content.map((p): ContentPart => (p.type === 'text' ? { ...p, text: fix(p.text) } : p)),
  }));
  // The record of the rollout being judged says so (judge-input-tally.ts).
  countNeutralised(rewritten);
  return out;
}
