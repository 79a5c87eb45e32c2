// Prompt words: what counts as the subject, and what the prompt asks to be written.
import { describe, expect, it } from 'vitest';
import { promptWords, requestedText, stem } from './prompt-words.ts';

describe('promptWords', () => {
  it('keeps subject words, drops stop-words and drawing-request words', () => {
    const { content } = promptWords('A minimalist flat icon of a steaming coffee cup on a saucer');
    expect([...content].sort()).toEqual(['coffee', 'cup', 'saucer', 'steam']);
  });

  it('removes requested text from the content words', () => {
    const p = promptWords('a neon sign that says "OPEN LATE" above a diner');
    // The quote, and up to three words after "says" (lenient: 'above' is not flagged either).
    expect([...p.requested].sort()).toEqual(['above', 'late', 'open']);
    expect([...p.content].sort()).toEqual(['diner', 'neon', 'sign']);
  });

  it('stems plurals and -ing forms alike on both sides', () => {
    expect(stem('apples')).toBe(stem('apple'));
    expect(stem('cherries')).toBe(stem('cherry'));
    expect(stem('boxes')).toBe(stem('box'));
    expect(stem('glass')).toBe('glass');
    expect(stem('sleeping')).toBe('sleep');
    expect(stem("cat's")).toBe('cat');
  });
});

describe('requestedText', () => {
  it('reads quotes of every common kind, but not apostrophes', () => {
    expect(requestedText(`a mug with 'BEST DAD' on it`)).toContain('BEST DAD');
    expect(requestedText('a banner reading “Happy Birthday”')).toContain('Happy Birthday');
    expect(requestedText("the cat's bowl and the dog's bed")).toEqual([]);
  });

  it('takes the words after "says", "labeled", "titled"', () => {
    expect(requestedText('a jar labeled sugar')).toEqual(['sugar']);
    expect(requestedText('a book titled Moby Dick')).toEqual(['moby dick']);
  });
});
