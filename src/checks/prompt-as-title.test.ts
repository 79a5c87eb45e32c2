// What counts as the prompt copied into the picture when the prompt asks for text: a stretch
// of its content words in its order inside one text element; labels, a sign's own words and
// the requested text do not.
import { describe, expect, it } from 'vitest';
import { minRun, promptCopy } from './prompt-as-title.ts';
import { promptWords } from './prompt-words.ts';

function copy(prompt: string, texts: string[]) {
  const { content } = promptWords(prompt);
  const c = promptCopy(prompt, content, texts);
  return { run: c?.run ?? [], copied: (c?.run.length ?? 0) >= minRun(content.size) };
}

describe('prompt copied as a title', () => {
  const heart =
    'A labelled diagram of the human heart showing the left ventricle, right atrium and the aorta, with a title';

  it("finds the prompt's opening sentence written as one title", () => {
    const r = copy(heart, ['Diagram: the Human Heart showing Left Ventricle', 'Aorta']);
    expect(r.copied).toBe(true);
    expect(r.run).toEqual(['human', 'heart', 'left', 'ventricle']);
  });

  it('lets labels through, each naming one part in its own element', () => {
    expect(copy(heart, ['Left ventricle', 'Right atrium', 'Aorta', 'The Human Heart']).copied).toBe(
      false,
    );
  });

  it("lets a sign's own words through when they are a short stretch of the prompt", () => {
    const p = 'a bakery storefront with a sign announcing fresh bread daily, warm light';
    expect(copy(p, ['Bakery — Fresh Bread Daily']).copied).toBe(false);
  });

  it('never counts the requested text, quoted or after "says"', () => {
    const p = 'a poster that says "Save the whales today now" with whales in a blue ocean';
    expect(copy(p, ['Save the whales today now']).run).toEqual([]);
  });

  it('needs the prompt order: the same words shuffled are not a copy', () => {
    const p = 'a red apple on a wooden table beside a sign that says OPEN';
    expect(copy(p, ['table wooden apple red']).copied).toBe(false);
    expect(copy(p, ['red apple wooden table']).copied).toBe(true);
  });
});
