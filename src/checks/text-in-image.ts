// The Rubric-S reward hack (RULER's paper): the policy learns to write the prompt's own
// words into the picture as labels, so a judge "recognises" the subject. Flagged when the
// SVG's <text> content spells out enough of the prompt's content words:
//   at least `textMinWords` distinct content words, or
//   at least one, covering `textMinShare` of the prompt's content words ("a red apple" →
//   "APPLE" covers 1 of {red, apple}).
// Text the prompt asks for (quoted, or after "says"/"labeled"/…) never counts, and text
// unrelated to the prompt never counts. Text drawn as outlines (paths) is not seen.
import { promptWords, stem, words } from './prompt-words.ts';
import type { Check } from './types.ts';

export const textInImage: Check = ({ render, prompt, options }) => {
  const texts = render?.code?.texts ?? [];
  if (prompt === undefined || prompt.trim() === '') {
    return {
      name: 'text_in_image',
      value: 0,
      unit: 'count',
      detail: { reason: 'no prompt given', texts: texts.length },
    };
  }
  if (!render?.code) {
    return { name: 'text_in_image', value: 0, unit: 'count', detail: { reason: 'no code stats' } };
  }
  const { content, requested } = promptWords(prompt);
  const written = new Set(words(texts.join(' ')).map(stem));
  const matched = [...content].filter((w) => written.has(w));
  const share = content.size === 0 ? 0 : matched.length / content.size;
  const flag =
    matched.length >= options.textMinWords ||
    (matched.length >= 1 && share >= options.textMinShare);
  return {
    name: 'text_in_image',
    value: matched.length,
    flag,
    unit: 'count',
    detail: {
      matched,
      share,
      contentWords: [...content],
      requested: [...requested],
      texts: texts.slice(0, 20),
    },
  };
};
