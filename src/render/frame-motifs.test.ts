// Repeated motifs framing the picture (issue 40): one tree or leaf placed with <use> at
// several sides of the frame and running off them is scenery; a subject placed a few times in
// a row (a caravan) and cut by one side stays cut. Read on the sanitiser's parse.
import { describe, expect, it } from 'vitest';
import { frameOf, CUT_MIN as MIN } from '../../test/support/frame-reading.ts';
import { sceneryMotifs } from './frame-motifs.ts';

const frame = (body: string) => frameOf(body, '0 0 500 500');
const BG =
  '<rect width="500" height="500" fill="#9cf"/><rect y="320" width="500" height="180" fill="#6a4"/>';
// A pine: trunk and three tiers, 60 × 120 from its placement.
const PINE =
  '<defs><g id="pine"><rect x="26" y="100" width="8" height="30" fill="#531"/><polygon points="30,0 60,60 0,60" fill="#264"/><polygon points="30,30 60,95 0,95" fill="#264"/><polygon points="30,60 60,120 0,120" fill="#264"/></g></defs>';
const pine = (x: number, y: number) => `<use href="#pine" x="${x}" y="${y}"/>`;

describe('repeated motifs framing the picture', () => {
  it('reads pines placed off both sides as scenery, and one pine cut by a side as cut', () => {
    // Four copies: two running off the left side, one off the right, one whole inside.
    const forest = PINE + pine(-20, 200) + pine(-30, 260) + pine(470, 220) + pine(200, 210);
    expect(frame(BG + forest).subjectRun).toBe(0);
    // The same pine placed once, off the left side: a subject cut.
    expect(frame(BG + PINE + pine(-30, 260)).cutRun).toBeGreaterThanOrEqual(MIN);
  });

  it('keeps a row of copies cut by one side cut (the lead camel of a caravan)', () => {
    const caravan = PINE + pine(300, 200) + pine(380, 200) + pine(470, 200);
    expect(frame(BG + caravan).cutRun).toBeGreaterThanOrEqual(MIN);
  });

  it('needs MOTIF_COPIES copies meeting MOTIF_SIDES sides between them', () => {
    const f: [number, number, number, number] = [0, 0, 500, 500];
    const copy = (box: [number, number, number, number], copyN: number) => ({
      box,
      cls: 'subject',
      motif: 'leaf',
      copy: copyN,
    });
    const two = [copy([-20, 0, 40, 60], 0), copy([460, 100, 520, 160], 1)];
    expect(sceneryMotifs(two, f)).toBe(0);
    const three = [...two, copy([200, 200, 260, 260], 2)];
    expect(sceneryMotifs(three, f)).toBe(2);
    expect(three.map((s) => s.cls)).toEqual(['scenery', 'scenery', 'subject']);
  });
});
