// Chat-template token strings: found by the judge_text check, neutralised in judge input.
// Servers that tokenise special tokens inside user content (llama.cpp, vLLM with HF
// tokenizers) turn a written `<|im_end|>` or `[INST]` into a real turn boundary, so a policy
// could open its own "assistant" turn in the judge's conversation. Every text part of every
// judge message passes through here (judge/template-tokens.ts): each such
// string is rewritten *visibly* (the judge still sees that something was written there, and
// can count it against the answer) into characters no tokenizer maps to a special token —
// the ASCII brackets become their look-alike guillemets and full-width forms.

// `<|…|>` (ChatML, Llama 3, Phi, GPT-style), DeepSeek's full-width `<｜…｜>`, SentencePiece's
// `<s>` `</s>` `<unk>` `<pad>`, Gemma's turn markers and `<bos>`/`<eos>`, Llama 2's `[INST]`
// `<<SYS>>`, Mistral's bracketed control tokens, and reasoning tags that many chat
// templates treat as single tokens. Bounded repetition keeps the scan linear.
const TOKEN_RE = new RegExp(
  [
    String.raw`<\|[^|<>\n]{0,64}\|>`,
    String.raw`<｜[^｜<>\n]{0,64}｜>`,
    '</?(?:s|unk|pad|bos|eos|think|start_of_turn|end_of_turn|start_of_image|end_of_image)>',
    String.raw`\[/?(?:INST|SYS|AVAILABLE_TOOLS|TOOL_CALLS|TOOL_RESULTS|SYSTEM_PROMPT)\]`,
    '<</?SYS>>',
  ].join('|'),
  'g',
);

/** The visible, inert spelling of one template token string. */
function defuse(token: string): string {
  return token
    .replace(/^<</, '«')
    .replace(/>>$/, '»')
    .replace(/^</, '‹')
    .replace(/>$/, '›')
    .replace(/^\[/, '［')
    .replace(/\]$/, '］');
}

export interface Neutralised {
  text: string;
  /** The token strings that were rewritten, in order of appearance. */
  tokens: string[];
}

/** Rewrites every chat-template token string in `text` visibly (see the file comment). */
export function neutraliseTemplateTokens(text: string): Neutralised {
  const tokens: string[] = [];
  const out = text.replace(TOKEN_RE, (m) => {
    tokens.push(m);
    return defuse(m);
  });
  return { text: out, tokens };
}

/** The chat-template token strings in `text`, in order. */
export function findTemplateTokens(text: string): string[] {
  return text.match(TOKEN_RE) ?? [];
}
