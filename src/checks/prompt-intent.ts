// What a prompt asks for beyond its subject, as far as the checks must know: does it ask
// for text in the picture (then written words are the task, not the Rubric-S hack), and
// does it ask for repetition (then many copies are the task, not RULER's clutter hack)?
//
// The rule for text is a class, not a list of examples: a prompt asks for text when it
// quotes something, names a writing act (say, read(s), write, spell, print, inscribe, type,
// letter, label, caption, title, annotate, name, number, quote), names a way of writing
// (script, mirror-script, cursive, glyphs, runes, a signature, SVG's textPath), or names an
// artefact whose point is writing (sign, signage, heading, headline, legend, callout,
// lettering, banner text, plaque, placard, billboard, menu, a list — a price list, a
// checklist —, a price tag, chart axes, diagram, infographic, newspaper, certificate, ticket,
// speech bubble, wordmark, monogram, typography, calligraphy, font, numerals, digits,
// alphabet) — unless the mention is negated ("no text", "without labels",
// "do not write any words", "text-free", "wordless").

import { askedCount } from './prompt-counts.ts';

const WRITING =
  /\b(?:labels?|label(?:l)?ed|label(?:l)?ing|captions?|captioned|sign|signs|signage|signboards?|signposts?|titles?|titled|subtitles?|headings?|headlines?|annotat\w*|call-?outs?|legends?|quot(?:e|es|ed|ing|ation|ations)|letters|lettered|lettering|texts?|textual|text-?paths?|scripts?|cursive|glyphs?|hieroglyph\w*|runes|runic|kanji|signatures?|autographs?|handwriting|words?|worded|wording|wordmarks?|logotypes?|typograph\w*|fonts?|typefaces?|calligraph\w*|monograms?|initials|inscri\w*|engraved|slogans?|mottos?|taglines?|plaques?|placards?|billboards?|marquees?|menus?|lists?|checklists?|price tags?|names?|named|numbers|numbered|numerals?|digits?|axis|axes|infographics?|diagrams?|charts?|graphs?|newspapers?|certificates?|tickets?|receipts?|scoreboards?|speech bubbles?|thought bubbles?|say|says|saying|said|reads|write|writes|writing|written|wrote|spell|spells|spelled|spelling|spelt|printed|handwrit\w*|typed|typeset|alphabets?)\b/giu;

/** Quoted spans in any of the usual quote styles (a single quote only when not an apostrophe). */
const QUOTED =
  /"[^"]{1,200}"|“[^”]{1,200}”|«[^»]{1,200}»|‘[^’]{1,200}’|(?:^|\s)'[^']{1,200}'(?=$|[\s.,;:!?])/u;

/** A negation within a few words before a writing term ("no text", "without any labels"). */
const NEGATED =
  /\b(?:no|not|without|never|avoid|avoiding|exclude|excluding|free of|omit|don't|do not|dont|nor)\b(?:\W+\w+){0,3}\W+$/iu;

export interface TextAsk {
  asked: boolean;
  /** The words or quotes that made it so (for the check's detail). */
  cues: string[];
}

export function asksForText(prompt: string): TextAsk {
  const cues: string[] = [];
  const q = QUOTED.exec(prompt);
  if (q) cues.push(q[0].trim());
  for (const m of prompt.matchAll(WRITING)) {
    const before = prompt.slice(Math.max(0, m.index - 40), m.index);
    const after = prompt.slice(m.index + m[0].length, m.index + m[0].length + 6);
    if (NEGATED.test(before)) continue;
    if (/^-?(?:free|less)\b/i.test(after)) continue; // "text-free", "text less"
    cues.push(m[0]);
  }
  if (/\bwordless\b|\btextless\b/i.test(prompt)) return { asked: cues.length > 0 && !!q, cues };
  return { asked: cues.length > 0, cues };
}

/**
 * Words that ask for many of something without a count: arrangements (pattern, grid, tiling,
 * mosaic, rows), textures made of parts (bricks, scales, confetti, rain, snow), multitudes
 * (crowd, swarm, flock, herd, field of, full of, many, countless).
 */
const REPETITION =
  /\b(?:patterns?|patterned|repeat\w*|seamless|grids?|tiles?|tiled|tiling|tessellat\w*|mosaics?|checker\w*|chequer\w*|polka|dots|dotted|stripes|striped|textures?|wallpaper|honeycomb|hexagonal|bricks?|scales|confetti|rain|rainfall|raindrops?|rainy|raining|rainstorms?|snow|snowfall|snowflakes?|snowing|snowy|stars|starry|starfield|sparkles|fireflies|bubbles|crowds?|swarms?|flocks?|herds?|schools?|forest|field|fields|meadow|lawn|grass|many|lots|numerous|countless|multiple|several|rows?|columns?|array|scattered|filled with|full of|covered in|covered with)\b/iu;

/** A small quantity just before a multitude word. */
const FEW =
  /\b(?:a few|few|a couple(?: of)?|couple of|one|two|three|four|five|six|seven|eight|nine|single|a pair of|pair of|some|[1-9])\s+(?:\w+\s+)?$/iu;

export interface RepetitionAsk {
  /** The largest count asked for ("240 stars", "a 20 by 20 grid" → 400), or null. */
  count: number | null;
  /** Asks for many without a count (pattern, grid, crowd, …). */
  pattern: boolean;
}

export function asksForRepetition(prompt: string): RepetitionAsk {
  const count = askedCount(prompt);
  // "a few sparkles", "two stars": a small quantity in front of the multitude word says
  // how many, and it is not many.
  let pattern = false;
  for (const m of prompt.matchAll(new RegExp(REPETITION.source, 'giu'))) {
    const before = prompt.slice(Math.max(0, m.index - 24), m.index);
    if (!FEW.test(before)) pattern = true;
  }
  return { count: count !== null && count >= 10 ? count : null, pattern };
}

/**
 * Words that ask for light and its layers: lighting, glow, rays and beams, bokeh, haze, fog,
 * translucency, gradients, shading, reflections. Each is drawn as shapes laid over the
 * scene, so what they ask for is overdraw (clutter.ts gives it room) — unless negated
 * ("no gradients", "without glow").
 */
const LIGHT =
  /\b(?:light(?![\s-]+(?:blue|green|red|gr[ae]y|brown|pink|purple|yellow|orange|weight|colou?r\w*)\b)|lights|lighting|lit|glow\w*|gleam\w*|shin\w*|luminous|luminescent|radiant|radiance|rays?|beams?|sunbeams?|sunlight|moonlight|candlelight|lamplight|god ?rays|volumetric|bokeh|haze|hazy|fog|foggy|mist|misty|atmospher\w*|translucen\w*|transparen\w*|semi-transparent|see-through|glass|gradients?|shading|shaded|shadows?|highlights?|reflections?|reflective|neon|halo|aura|sparkl\w*|shimmer\w*|iridescen\w*|layered|layers)\b/giu;

export interface LightAsk {
  asked: boolean;
  cues: string[];
}

export function asksForLight(prompt: string): LightAsk {
  const cues: string[] = [];
  for (const m of prompt.matchAll(LIGHT)) {
    const before = prompt.slice(Math.max(0, m.index - 40), m.index);
    if (NEGATED.test(before)) continue;
    cues.push(m[0]);
  }
  return { asked: cues.length > 0, cues };
}

export interface PromptIntent {
  text: TextAsk;
  repetition: RepetitionAsk;
  light: LightAsk;
}

const remembered = new Map<string, PromptIntent>();
const REMEMBER_AT_MOST = 512;

/**
 * Both answers for one prompt, remembered: the rollouts of a GRPO group share their prompt,
 * and `inspect` asks while its render is in flight, so the checks after the render find the
 * answer ready (the two patterns compile on first use: ~10 ms of a cold start otherwise).
 */
export function promptIntent(prompt: string): PromptIntent {
  let intent = remembered.get(prompt);
  if (intent === undefined) {
    intent = {
      text: asksForText(prompt),
      repetition: asksForRepetition(prompt),
      light: asksForLight(prompt),
    };
    if (remembered.size >= REMEMBER_AT_MOST) remembered.clear();
    remembered.set(prompt, intent);
  }
  return intent;
}
