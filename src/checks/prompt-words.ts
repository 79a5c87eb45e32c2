// Words of a prompt that name what to draw ("content words"), and words the prompt asks to
// be written in the picture ("requested text"). English stop-words and drawing-request
// words ("icon", "illustration", "svg") are not content: a picture labelled "ICON" is odd,
// but it is not the Rubric-S hack of spelling out the subject.

const STOP = new Set(
  `a an the and or but nor of to in on at by for with without from into onto over under above
  below between behind beside near next up down out off about around through across along
  is are was were be been being am do does did has have had having it its it's this that
  these those there here their them they he she his her him we us our you your i me my
  as than then so such very too also just only some any each every all both few more most
  other another no not one two three four five six seven eight nine ten own same while
  which who whom whose what when where why how can could should would will shall may might
  must if else like using use used make made show shows showing shown depict depicts
  depicting featuring feature features has having holding set against onto upon within
  draw drawing drawn create render generate design designed svg image picture illustration
  icon icons emoji logo graphic graphics vector style styled simple simplistic flat minimal
  minimalist cute clean modern detailed colorful colourful cartoon cartoonish high quality
  please scene view background`.split(/\s+/),
);

/** Words that introduce text the picture should contain: 'a sign that says OPEN'. */
const SAYS = new Set([
  'says',
  'say',
  'saying',
  'reads',
  'read',
  'reading',
  'labeled',
  'labelled',
  'label',
  'written',
  'writes',
  'text',
  'word',
  'words',
  'lettering',
  'caption',
  'captioned',
  'titled',
  'title',
  'spelling',
  'spells',
]);

/** Lowercased words (letters and digits, any script). */
export function words(text: string): string[] {
  return text.toLowerCase().match(/[\p{L}\p{N}]+(?:'[\p{L}]+)?/gu) ?? [];
}

/** A light stemmer, applied the same way to prompt and picture, so plurals and -ing match. */
export function stem(word: string): string {
  let w = word.replace(/'s$/, '');
  if (w.length > 4 && w.endsWith('ies')) w = `${w.slice(0, -3)}y`;
  else if (w.length > 4 && /(?:ch|sh|[sxz])es$/.test(w)) w = w.slice(0, -2);
  else if (w.length > 3 && w.endsWith('s') && !w.endsWith('ss')) w = w.slice(0, -1);
  if (w.length > 5 && w.endsWith('ing')) w = w.slice(0, -3);
  else if (w.length > 4 && w.endsWith('ed')) w = w.slice(0, -2);
  return w;
}

/** Quoted spans ("…", '…', “…”, ‘…’, «…») and the few words after "says", "labeled", … */
export function requestedText(prompt: string): string[] {
  const out: string[] = [];
  for (const m of prompt.matchAll(
    /"([^"]{1,200})"|“([^”]{1,200})”|«([^»]{1,200})»|‘([^’]{1,200})’/g,
  )) {
    out.push(m[1] ?? m[2] ?? m[3] ?? m[4] ?? '');
  }
  // Single quotes only when they cannot be an apostrophe: preceded by a space or start.
  for (const m of prompt.matchAll(/(?:^|\s)'([^']{1,200})'(?=$|[\s.,;:!?])/g)) out.push(m[1] ?? '');
  const ws = words(prompt);
  for (let i = 0; i < ws.length; i++) {
    if (SAYS.has(ws[i]!)) out.push(ws.slice(i + 1, i + 4).join(' '));
  }
  return out;
}

export interface PromptWords {
  /** Stems of the words naming the subject (stop-words and requested text removed). */
  content: Set<string>;
  /** Stems of words the prompt asks to be written. */
  requested: Set<string>;
}

/** Stems of the content-like words of `text` in order (stop and writing words dropped). */
export function contentSequence(text: string): string[] {
  return words(text)
    .filter((w) => !(STOP.has(w) || SAYS.has(w) || w.length < 3 || /^\d+$/.test(w)))
    .map(stem);
}

export function promptWords(prompt: string): PromptWords {
  const requested = new Set(requestedText(prompt).flatMap(words).map(stem));
  const content = new Set<string>();
  for (const w of words(prompt)) {
    if (STOP.has(w) || SAYS.has(w) || w.length < 3 || /^\d+$/.test(w)) continue;
    const s = stem(w);
    if (!requested.has(s)) content.add(s);
  }
  return { content, requested };
}
