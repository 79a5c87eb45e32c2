// A subject sliced by the left or right side (issue 40): a train entering from the right,
// clear of the top and the bottom, versus a bank or a drape reaching in from that side by
// design. Unit figures, then the frame reading on the sanitiser's parse.
import { describe, expect, it } from 'vitest';
import { frameOf, CUT_MIN as MIN } from '../../test/support/frame-reading.ts';
import { slicedBySide } from './side-slice.ts';

const F: [number, number, number, number] = [0, 0, 500, 500];
const frame = (body: string) => frameOf(body, '0 0 500 500');
const SKY =
  '<rect width="500" height="500" fill="#fc9"/><rect y="390" width="500" height="110" fill="#6a4"/>';

describe('side slice', () => {
  it('reads a box clear of the top and the bottom as sliced by a side', () => {
    expect(slicedBySide([140, 180, 530, 250], F, F)).toBe(true);
    // A bank stands on the bottom; a drape hangs from the top.
    expect(slicedBySide([140, 300, 530, 500], F, F)).toBe(false);
    expect(slicedBySide([140, 0, 530, 250], F, F)).toBe(false);
    // A sky drawn to the top of a short viewBox is not clear of it, though the canvas shows
    // a margin above (a 500 × 300 viewBox on the square canvas).
    expect(slicedBySide([-30, 0, 300, 110], [0, -100, 500, 500], [0, 0, 500, 300])).toBe(false);
  });

  it('reads a train entering from the right by 7 % as a subject, a bank as scenery', () => {
    // A locomotive and its carriages in one group, 390 long, 30 past the right side.
    const train =
      '<g><rect x="140" y="215" width="140" height="35" fill="#345"/><rect x="290" y="205" width="150" height="45" fill="#a22"/><rect x="400" y="185" width="130" height="65" fill="#a22"/></g>';
    expect(frame(SKY + train).subjectRun).toBeGreaterThanOrEqual(MIN);
    // The same shape standing on the bottom edge: a bank reaching in from that side.
    const bank = '<g><path d="M140 400 L530 300 L530 500 L140 500 Z" fill="#483"/></g>';
    expect(frame(SKY + bank).subjectRun).toBe(0);
  });
});
