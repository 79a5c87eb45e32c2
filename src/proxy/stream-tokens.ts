// Tokens a streamed answer used, counted from the stream as it passes (issue 42: a stream's
// tokens must reach --judge-tpm). OpenAI-compatible servers put `usage` in the last chunk
// when asked (stream_options.include_usage); Anthropic puts input tokens in message_start
// and output tokens in message_delta. Without any usage, the text generated is counted at
// about four characters a token, so a stream is never free against the budget.

export interface StreamTokens {
  feed(chunk: Uint8Array): void;
  /** Tokens seen so far (call once the stream ended). */
  total(): number;
}

/** Longest SSE line kept while waiting for its end: a bigger one is not a usage line. */
const MAX_LINE = 1 << 20;

export function streamTokens(): StreamTokens {
  const decoder = new TextDecoder();
  let pending = '';
  let input = 0;
  let output = 0;
  let total = 0;
  let chars = 0;
  const num = (v: unknown) => (typeof v === 'number' && Number.isFinite(v) ? v : 0);
  const line = (l: string) => {
    if (!l.startsWith('data:')) return;
    const data = l.slice(5).trim();
    if (!data.startsWith('{')) return;
    let ev: Record<string, unknown>;
    try {
      ev = JSON.parse(data) as Record<string, unknown>;
    } catch {
      return;
    }
    const usage = (ev.usage ?? (ev.message as { usage?: unknown } | undefined)?.usage) as
      | Record<string, unknown>
      | undefined;
    if (usage) {
      total = num(usage.total_tokens) || total;
      input = num(usage.prompt_tokens) || num(usage.input_tokens) || input;
      output = num(usage.completion_tokens) || num(usage.output_tokens) || output;
    }
    for (const c of (ev.choices as Array<{ delta?: { content?: unknown } }> | undefined) ?? []) {
      if (typeof c?.delta?.content === 'string') chars += c.delta.content.length;
    }
    const text = (ev.delta as { text?: unknown } | undefined)?.text;
    if (typeof text === 'string') chars += text.length;
  };
  return {
    feed(chunk) {
      pending += decoder.decode(chunk, { stream: true });
      let nl = pending.indexOf('\n');
      while (nl >= 0) {
        line(pending.slice(0, nl).replace(/\r$/, ''));
        pending = pending.slice(nl + 1);
        nl = pending.indexOf('\n');
      }
      if (pending.length > MAX_LINE) pending = '';
    },
    total() {
      return total || input + output || Math.ceil(chars / 4);
    },
  };
}
