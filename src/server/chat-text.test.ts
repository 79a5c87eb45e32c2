// Cutting the policy's response out of OpenRLHF's templated query, and the user's text out
// of a templated prompt, across the chat templates trainers actually use.
import { describe, expect, it } from 'vitest';
import { responseFromQuery, stripEndTokens, userTextFromPrompt } from './chat-text.ts';

const QWEN_PROMPT =
  '<|im_start|>system\nYou draw SVG.<|im_end|>\n<|im_start|>user\nA red fox\nsitting<|im_end|>\n<|im_start|>assistant\n';
const LLAMA_PROMPT =
  '<|begin_of_text|><|start_header_id|>user<|end_header_id|>\n\nAn owl<|eot_id|><|start_header_id|>assistant<|end_header_id|>\n\n';

describe('stripEndTokens', () => {
  it('drops stacked end tokens, padding and whitespace, and nothing else', () => {
    expect(stripEndTokens('<svg/>\n<|im_end|>\n<|endoftext|><|endoftext|>')).toBe('<svg/>');
    expect(stripEndTokens('<svg/></s><pad><pad>')).toBe('<svg/>');
    expect(stripEndTokens('text with <|im_end|> inside')).toBe('text with <|im_end|> inside');
    expect(stripEndTokens('<|eot_id|>')).toBe('');
  });
});

describe('responseFromQuery', () => {
  it('removes the exact prompt prefix (Qwen template) and the end tokens', () => {
    const q = `${QWEN_PROMPT}Here:\n<svg></svg><|im_end|><|endoftext|>`;
    expect(responseFromQuery(q, QWEN_PROMPT)).toBe('Here:\n<svg></svg>');
  });

  it('finds the prompt inside a query that gained a BOS token when decoded', () => {
    const q = `<|endoftext|>${QWEN_PROMPT}<svg/><|im_end|>`;
    expect(responseFromQuery(q, QWEN_PROMPT)).toBe('<svg/>');
  });

  it('falls back to the last assistant opener when the prompt does not match', () => {
    const q = `${LLAMA_PROMPT}<svg/><|eot_id|>`;
    expect(responseFromQuery(q, 'a prompt that differs')).toBe('<svg/>');
    expect(responseFromQuery(`${QWEN_PROMPT}<svg/>`, undefined)).toBe('<svg/>');
  });

  it('keeps an untemplated query whole when nothing matches', () => {
    expect(responseFromQuery('just <svg/> text', undefined)).toBe('just <svg/> text');
  });

  it('a response that itself mentions the template is not cut a second time', () => {
    const body = 'I will not write <|im_start|>assistant\n here';
    expect(responseFromQuery(`${QWEN_PROMPT}${body}<|im_end|>`, QWEN_PROMPT)).toBe(body);
  });
});

describe('userTextFromPrompt', () => {
  it('takes the last user turn of common templates', () => {
    expect(userTextFromPrompt(QWEN_PROMPT)).toBe('A red fox\nsitting');
    expect(userTextFromPrompt(LLAMA_PROMPT)).toBe('An owl');
    expect(
      userTextFromPrompt('<start_of_turn>user\na cat<end_of_turn>\n<start_of_turn>model\n'),
    ).toBe('a cat');
    const twoTurns = `${QWEN_PROMPT}ok<|im_end|>\n<|im_start|>user\nnow a dog<|im_end|>\n<|im_start|>assistant\n`;
    expect(userTextFromPrompt(twoTurns)).toBe('now a dog');
  });

  it('returns an untemplated prompt as it is', () => {
    expect(userTextFromPrompt('  a lighthouse at dusk ')).toBe('a lighthouse at dusk');
  });
});
