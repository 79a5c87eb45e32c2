// Text surgery for trainers that send chat-templated strings (OpenRLHF's remote reward
// protocol): the response is the query minus its prompt prefix, without the end-of-turn
// tokens the template appends, and the user's own words are recovered from the prompt so
// the rubric can be found by prompt text when no label is sent.

/** End-of-turn / end-of-text / padding tokens of common chat templates (Qwen, Llama, Gemma, Mistral, Phi, DeepSeek). */
export const END_TOKENS = [
  '<|im_end|>',
  '<|endoftext|>',
  '<|eot_id|>',
  '<|end_of_text|>',
  '<|end|>',
  '<|eom_id|>',
  '<end_of_turn>',
  '<eos>',
  '</s>',
  '<pad>',
  '<|pad|>',
  '<｜end▁of▁sentence｜>',
];

/** Assistant-turn openers, used when the prompt is not a literal prefix of the query. */
const ASSISTANT_OPENERS = [
  '<|im_start|>assistant\n',
  '<|start_header_id|>assistant<|end_header_id|>\n\n',
  '<start_of_turn>model\n',
  '<|assistant|>\n',
  '<｜Assistant｜>',
  '[/INST]',
];

/** User-turn delimiters: [opener, closer]. */
const USER_TURNS: Array<[string, string]> = [
  ['<|im_start|>user\n', '<|im_end|>'],
  ['<|start_header_id|>user<|end_header_id|>\n\n', '<|eot_id|>'],
  ['<start_of_turn>user\n', '<end_of_turn>'],
  ['<|user|>\n', '<|end|>'],
  ['[INST]', '[/INST]'],
];

/** Drop trailing end tokens (repeated, e.g. `<|im_end|><|endoftext|>` or padding) and whitespace. */
export function stripEndTokens(text: string): string {
  let out = text;
  for (;;) {
    const trimmed = out.trimEnd();
    const token = END_TOKENS.find((t) => trimmed.endsWith(t));
    if (!token) return trimmed;
    out = trimmed.slice(0, trimmed.length - token.length);
  }
}

/** The policy's response inside a chat-templated query. */
export function responseFromQuery(query: string, prompt: string | undefined): string {
  let response: string | undefined;
  if (prompt) {
    if (query.startsWith(prompt)) response = query.slice(prompt.length);
    else {
      // Decoding can add a BOS token or differ in leading whitespace: find the prompt inside.
      const at = query.indexOf(prompt);
      if (at >= 0) response = query.slice(at + prompt.length);
    }
  }
  if (response === undefined) {
    let best = -1;
    let bestLen = 0;
    for (const opener of ASSISTANT_OPENERS) {
      const at = query.lastIndexOf(opener);
      if (at > best) {
        best = at;
        bestLen = opener.length;
      }
    }
    response = best >= 0 ? query.slice(best + bestLen) : query;
  }
  return stripEndTokens(response);
}

/** The last user turn's text inside a chat-templated prompt (the prompt itself when untemplated). */
export function userTextFromPrompt(prompt: string): string {
  let best: { at: number; text: string } | undefined;
  for (const [open, close] of USER_TURNS) {
    const at = prompt.lastIndexOf(open);
    if (at < 0 || (best && at < best.at)) continue;
    const start = at + open.length;
    const end = prompt.indexOf(close, start);
    best = { at, text: prompt.slice(start, end < 0 ? undefined : end) };
  }
  return (best ? best.text : stripEndTokens(prompt)).trim();
}
