// The Rubric-S reward hack (RULER's paper): the policy learns to write the prompt's own
// words into the picture as labels, so a judge "recognises" the subject. Flagged when the
// prompt asks for no text (prompt-intent.ts: no quote, no writing act, no written artefact
// such as a sign, label, caption, title, legend, diagram) and the SVG's text spells out
// enough of the prompt's content words:
//   at least `textMinWords` distinct content words, or
//   at least one, covering `textMinShare` of the prompt's content words.
// When the prompt asks for text, writing its words is the task: the count is still
// reported (`detail.textAsked` says why there is no flag), unless one text element copies
// the prompt's own sentence (prompt-as-title.ts: a title that spells out the prompt is the
// hack whatever else was asked; `detail.promptCopy` shows it). Text unrelated to the
// prompt never counts. Text drawn as outlines (paths) is not seen.
import { minRun, promptCopy } from './prompt-as-title.ts';
import { promptIntent } from './prompt-intent.ts';
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
  const ask = promptIntent(prompt).text;
  const written = new Set(words(texts.join(' ')).map(stem));
  const matched = [...content].filter((w) => written.has(w));
  const share = content.size === 0 ? 0 : matched.length / content.size;
  const copy = ask.asked ? promptCopy(prompt, content, texts) : null;
  const copied = copy !== null && copy.run.length >= minRun(content.size);
  const flag = ask.asked
    ? copied
    : matched.length >= options.textMinWords ||
      (matched.length >= 1 && share >= options.textMinShare);
  return {
    name: 'text_in_image',
    value: matched.length,
    flag,
    unit: 'count',
    detail: {
      matched,
      share,
      textAsked: ask.asked,
      ...(copied ? { promptCopy: copy } : {}),
      cues: ask.cues.slice(0, 10),
      contentWords: [...content],
      requested: [...requested],
      texts: texts.slice(0, 20),
    },
  };
};
