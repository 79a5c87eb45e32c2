// What a prompt asks for: text in its many forms (and its negations), repetition by count
// or by kind. The wordings here are not the ones the labelled set is built from.
import { describe, expect, it } from 'vitest';
import { asksForLight, asksForRepetition, asksForText, promptIntent } from './prompt-intent.ts';

describe('asksForText', () => {
  it.each([
    'a coffee mug printed with "Monday"',
    'a shop front whose sign reads Bakery',
    'an anatomical drawing of the human eye, labelled',
    'a pie chart of market share',
    'a vintage postcard with a title across the top',
    'the planets of the solar system with their names',
    'a clock showing the numbers 1 to 12',
    'a warning plaque on a door',
    'a medieval scroll with calligraphy',
    'a retro diner menu board',
    'a flowchart diagram of a login process',
    'a monogram of the initials J and K',
    'a tombstone inscribed with RIP',
    'a comic panel with a speech bubble',
    "a doormat that spells 'home'",
    'a football scoreboard at half time',
    'a wedding invitation in elegant typography',
    'a neon headline over a stage',
    'an engraved trophy for the best baker',
    // issue 25: a way of writing is a request for writing.
    'a diary page with notes in mirror-script as textPath',
    'a spiral of runes around a shield',
    'a love letter signed in cursive',
    // a list's point is its writing (session 40: model-e l05-a's "framed price list")
    'a barbershop wall with a framed price list',
    'a fridge door with a shopping list',
  ])('asks for text: %s', (prompt) => {
    expect(asksForText(prompt).asked).toBe(true);
  });

  it.each([
    'a red apple with a green leaf',
    'a cat sleeping on a windowsill',
    'a rocket launching at dawn, no text',
    'a lighthouse on a cliff without any labels or words',
    'an owl icon; do not write any text',
    'a text-free poster of a mountain',
    'a birthday cake with candles',
    'a bicycle leaning on a wall',
    'a girl reading under a tree', // reading is not writing
    'a bread loaf on a board',
  ])('asks for no text: %s', (prompt) => {
    expect(asksForText(prompt).asked).toBe(false);
  });
});

describe('asksForRepetition', () => {
  it('reads counts as digits, words and grids', () => {
    expect(asksForRepetition('a night sky with 240 stars').count).toBe(240);
    expect(asksForRepetition('a jar of 1,200 jelly beans').count).toBe(1200);
    expect(asksForRepetition('a 20x30 grid of pixels').count).toBe(600);
    expect(asksForRepetition('a 12 by 12 chessboard').count).toBe(144);
    expect(asksForRepetition('hundreds of lanterns over a lake').count).toBe(300);
    expect(asksForRepetition('a dozen eggs in a carton').count).toBe(12);
    expect(asksForRepetition('three cats').count).toBeNull();
  });
  it('knows patterns and multitudes without a count', () => {
    for (const p of [
      'a seamless leaf pattern',
      'a tiled bathroom floor',
      'a flock of birds',
      'snowfall over a village',
      'a wall covered in ivy',
    ])
      expect(asksForRepetition(p).pattern).toBe(true);
    for (const p of [
      'a red apple',
      'a rocket flying upwards',
      'a snowman wearing a scarf',
      'a cake with a few sparkles',
      'two stars over a hill',
      'a cat with some small dots',
    ])
      expect(asksForRepetition(p).pattern).toBe(false);
  });
});

describe('asksForRepetition reads only counts of things (issue 25)', () => {
  it.each([
    'a paper plane flying at ~45° towards the sun',
    'a 2022-era smartphone on a desk',
    'a 500x700 poster of a lion',
    'draw a fox; use viewBox="0 0 800 600"',
    'a lighthouse, viewBox 0 0 1024 768',
    'a clock showing 10:45 with a 12 hour dial',
    'a 1920s car in 1930 Chicago',
    'a banner 800 pixels wide with a rocket',
    'a 3-legged stool',
  ])('counts nothing in: %s', (prompt) => {
    expect(asksForRepetition(prompt).count).toBeNull();
  });
  it('reads counts, ranges and grids of things', () => {
    expect(asksForRepetition('20-30 birds over a lake').count).toBe(30);
    expect(asksForRepetition('between 40 and 60 lanterns').count).toBe(60);
    expect(asksForRepetition('two hundred and forty paper lanterns').count).toBe(240);
    expect(asksForRepetition('twenty-five balloons at a party').count).toBe(25);
    expect(asksForRepetition('a 16 × 16 mosaic').count).toBe(256);
    expect(asksForRepetition('a 500x700 poster with 120 stars').count).toBe(120);
  });
});

describe('promptIntent', () => {
  it('answers every question once per prompt and remembers the answer', () => {
    const prompt = 'a sign that reads "OPEN" above a grid of 12 windows';
    const first = promptIntent(prompt);
    expect(first).toEqual({
      text: asksForText(prompt),
      repetition: asksForRepetition(prompt),
      light: asksForLight(prompt),
    });
    expect(first.text.asked).toBe(true);
    expect(first.repetition.count).toBe(12);
    expect(promptIntent(prompt)).toBe(first);
  });
});

describe('asksForLight', () => {
  it('hears lighting, glow, beams, haze, translucency and gradients', () => {
    for (const p of [
      'a fox bathed in layered radial lighting',
      'a lantern glowing in the dark',
      'a forest with light rays through the trees',
      'a jellyfish, translucent, in a deep sea gradient',
      'a city street in fog with neon signs',
    ])
      expect(asksForLight(p).asked, p).toBe(true);
  });

  it('does not hear a colour, or light that is refused', () => {
    expect(asksForLight('a light blue car on a road').asked).toBe(false);
    expect(asksForLight('a flat icon of a cat, no gradients or glow').asked).toBe(false);
    expect(asksForLight('a red apple').asked).toBe(false);
  });
});
