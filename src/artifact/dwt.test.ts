// Drawing-with-Thought stage detection: the label styles models actually write.
import { describe, expect, it } from 'vitest';
import { dwtReport, findDwtStages } from './dwt.ts';

const stagesOf = (text: string) => findDwtStages(text).map((h) => h.stage);

describe('findDwtStages', () => {
  it.each([
    ['## Concept Sketching', 'concept_sketching'],
    ['**Stage 1 - Concept Sketch**', 'concept_sketching'],
    ['(a) Conceptual design: identify the parts', 'concept_sketching'],
    ['Step 2: Canvas Planning', 'canvas_planning'],
    ['2) canvas planning - viewBox 0 0 100 100', 'canvas_planning'],
    ['### 3. Shape Decomposition', 'shape_decomposition'],
    ['- **Shape breakdown**: circles and curves', 'shape_decomposition'],
    ['4. COORDINATE CALCULATION', 'coordinate_calculation'],
    ['iv. Coordinates: the cup at (50, 60)', 'coordinate_calculation'],
    ['5. Styling and Colouring', 'styling_and_colouring'],
    ['**Styling & Coloring:** flat palette', 'styling_and_colouring'],
    ['Phase 5 — Color palette', 'styling_and_colouring'],
    ['6. Final Assembly — layer everything', 'final_assembly'],
    ['[Final assembly]', 'final_assembly'],
    ['final_assembly: put it together', 'final_assembly'],
    ['| Coordinate calculation | cup at (50, 60) |', 'coordinate_calculation'],
    ['> **Canvas planning:** 100×100', 'canvas_planning'],
  ])('%s', (line, stage) => {
    expect(stagesOf(line)).toEqual([stage]);
  });

  it.each([
    'The shape decomposition of this icon is mostly circles and a few curves that I will place.',
    '<style>.a { fill: red; }</style>',
    'fill: #FF0000;',
    'Final SVG:',
    'Here is the code for the coffee cup icon you asked for, drawn with simple shapes',
  ])('not a stage label: %s', (line) => {
    expect(stagesOf(line)).toEqual([]);
  });

  it('reports each stage once, in order of first appearance', () => {
    const text = '1. Canvas\n2. Concept sketch\n3. Canvas planning again\n';
    expect(stagesOf(text)).toEqual(['canvas_planning', 'concept_sketching']);
  });
});

describe('dwtReport', () => {
  const six = [
    'Concept sketching: a cup',
    'Canvas planning: 0 0 100 100',
    'Shape decomposition: rect + ellipse',
    'Coordinate calculation: cup at 50,60',
    'Styling and colouring: brown',
    'Final assembly: body, rim, steam',
  ];

  it('valid needs all six, in order, before the SVG', () => {
    expect(dwtReport(six.join('\n'), true)).toMatchObject({
      complete: true,
      ordered: true,
      valid: true,
    });
    expect(dwtReport(six.join('\n'), false)).toMatchObject({ valid: false, beforeSvg: false });
    const swapped = [six[1], six[0], ...six.slice(2)].join('\n');
    expect(dwtReport(swapped, true)).toMatchObject({
      complete: true,
      ordered: false,
      valid: false,
    });
    expect(dwtReport(six.slice(0, 5).join('\n'), true)).toMatchObject({
      complete: false,
      ordered: true,
      valid: false,
    });
  });

  it('no stages: nothing before the SVG to speak of', () => {
    expect(dwtReport('Sure, here it is.', true)).toEqual({
      stages: [],
      complete: false,
      ordered: true,
      beforeSvg: false,
      valid: false,
    });
  });
});
