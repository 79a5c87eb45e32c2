// Every text part of every judge message with its chat-template token strings rewritten
// visibly (artifact/template-tokens.ts says which strings and why).
import { neutraliseTemplateTokens } from '../artifact/template-tokens.ts';
import type { ChatMessage, ContentPart } from '../models/types.ts';

/**
 * Every text part of `messages` neutralised. rubrica's own templates hold no such string,
 * so only what came from the policy (code) or from data (prompt, rubric) can change.
 */
export function neutraliseMessages(messages: ChatMessage[]): ChatMessage[] {
  const fix = (s: string) => neutraliseTemplateTokens(s).text;
  return messages.map((m) => ({
    ...m,
    content:
      typeof m.content === 'string'
        ? fix(m.content)
        : m.content.map((p): ContentPart => (p.type === 'text' ? { ...p, text: fix(p.text) } : p)),
  }));
}
