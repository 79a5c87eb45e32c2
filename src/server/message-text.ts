// Text out of message-shaped bodies: slime's `prompt` may be a chat list
// ([{role, content}], slime/utils/types.py Sample.prompt), NeMo Gym sends OpenAI Responses API
// objects (responses_create_params.input: a string or input messages whose content is a string
// or parts {type: "input_text", text}; response.output: items, the assistant's being
// {type: "message", content: [{type: "output_text", text}]}). Anything else yields null/"",
// and the rollout is then scored as what it is (no prompt text, or an empty completion).
import { userTextFromPrompt } from './chat-text.ts';

type Json = unknown;

const isObj = (v: Json): v is Record<string, Json> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);

/** The text of a message's content: a string, or the `text` of its text parts, joined. */
export function contentText(content: Json): string {
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) return '';
  return content
    .map((part) => (isObj(part) && typeof part.text === 'string' ? part.text : ''))
    .filter((t) => t !== '')
    .join('\n');
}

/**
 * The user's words from a prompt: a chat-templated string (OpenRLHF, slime with a template
 * applied) or a message list (the last `user` message).
 */
export function userText(prompt: Json): string | null {
  if (typeof prompt === 'string') return prompt.trim() === '' ? null : userTextFromPrompt(prompt);
  if (!Array.isArray(prompt)) return null;
  for (let i = prompt.length - 1; i >= 0; i--) {
    const m = prompt[i];
    if (isObj(m) && m.role === 'user') {
      const t = contentText(m.content).trim();
      if (t) return t;
    }
  }
  return null;
}

/** The assistant's text in a Responses API `output` list (reasoning and tool calls skipped). */
export function outputText(output: Json): string {
  if (!Array.isArray(output)) return '';
  return output
    .filter((item) => isObj(item) && item.type === 'message')
    .map((item) => contentText((item as Record<string, Json>).content))
    .filter((t) => t !== '')
    .join('\n');
}
