// rubrica's ChatMessage → the AI SDK's ModelMessage. Images travel as PNG data URIs: the
// OpenAI-compatible provider sends them as `image_url` data URIs (Ollama rejects http URLs),
// the Anthropic provider as base64 image blocks.
import type { ModelMessage } from 'ai';
import type { ChatMessage, ContentPart } from './types.ts';

function textOf(content: string | ContentPart[]): string {
  if (typeof content === 'string') return content;
  return content
    .filter((p): p is Extract<ContentPart, { type: 'text' }> => p.type === 'text')
    .map((p) => p.text)
    .join('\n');
}

/** The media type written in a data URI (`data:image/png;base64,…`), PNG if unreadable. */
function mediaTypeOf(dataUrl: string): string {
  const m = /^data:([^;,]+)[;,]/.exec(dataUrl);
  return m?.[1] ?? 'image/png';
}

export function toModelMessages(messages: ChatMessage[]): ModelMessage[] {
  return messages.map((m): ModelMessage => {
    // System and assistant turns carry text only in the SDK's types.
    if (m.role === 'system') return { role: 'system', content: textOf(m.content) };
    if (m.role === 'assistant') return { role: 'assistant', content: textOf(m.content) };
    if (typeof m.content === 'string') return { role: 'user', content: m.content };
    return {
      role: 'user',
      content: m.content.map((p) =>
        p.type === 'text'
          ? { type: 'text' as const, text: p.text }
          : { type: 'image' as const, image: p.dataUrl, mediaType: mediaTypeOf(p.dataUrl) },
      ),
    };
  });
}
