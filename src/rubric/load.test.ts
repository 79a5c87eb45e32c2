// Rubric files are read by the one JSONL reader: a rubrics.jsonl saved with a BOM or CRLF
// line ends keeps its first rubric (issue 21: it was lost here while the same file given as
// --in read fine), and a line that does not parse is reported by number, not fatal.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { prismaRubric } from '../../test/prisma/fixtures.ts';
import { indexRubrics, parseRubricsJsonl } from './load.ts';
import { indexPrismaRubrics, parsePrismaRubrics } from './prisma-load.ts';
import type { RubricRecord } from './schema.ts';

const rubric = (id: string, prompt: string): RubricRecord => ({
  id,
  prompt,
  preset: 'ruler',
  items: [
    {
      key: 'shape',
      axis: 'semantic',
      title: 'Shape',
      description: 'The fox is drawn',
      weight: 1,
      bands: [],
    },
  ],
  ideal_svg: null,
  ideal_score: 0.9,
  kept: true,
  author: 'test:author',
  judge: 'test:judge',
  usage: { calls: 0, inputTokens: 0, outputTokens: 0, costUsd: 0, latencyMs: 0 },
});

const BOM = '\uFEFF';
const lines = [
  JSON.stringify(rubric('p1', 'a red fox')),
  '',
  JSON.stringify(prismaRubric('q1', 'a smiling face')),
  JSON.stringify(rubric('p2', 'a blue   whale')),
];
// BOM first, CRLF ends, a blank line, and a torn last line.
const text = `${BOM}${lines.join('\r\n')}\r\n{"id":"p3","prompt":`;

const dir = mkdtempSync(join(tmpdir(), 'rubrica-rubric-load-'));
const path = join(dir, 'rubrics.jsonl');
writeFileSync(path, text);

describe('rubric files and the one JSONL reader', () => {
  it('keeps the first rubric of a file that starts with a BOM (text and path)', () => {
    const parsed = parseRubricsJsonl(text);
    expect(parsed.rubrics.map((r) => r.id)).toEqual(['p1', 'p2']);
    const index = indexRubrics(path);
    expect(index.size).toBe(2);
    expect(index.find('ruler', { prompt_id: 'p1' })?.id).toBe('p1');
    // CRLF: the prompt text has no stray \r, so the lookup by text still matches.
    expect(index.find('ruler', { prompt: 'a blue whale' })?.id).toBe('p2');
  });

  it('reports the torn line by number, with the message every command uses', () => {
    expect(parseRubricsJsonl(text).errors).toEqual([{ line: 5, message: 'not valid JSON' }]);
    expect(indexRubrics(path).errors).toEqual([{ line: 5, message: 'not valid JSON' }]);
  });

  it('reads PrismaForge lines by the same rules (a BOM before one is not a lost rubric)', () => {
    const prismaFirst = `${BOM}${lines[2]}\r\n${lines[0]}\r\n`;
    expect(parsePrismaRubrics(prismaFirst).rubrics.map((r) => r.id)).toEqual(['q1']);
    expect(parseRubricsJsonl(prismaFirst).rubrics.map((r) => r.id)).toEqual(['p1']);
    const p = join(dir, 'prisma.jsonl');
    writeFileSync(p, prismaFirst);
    expect(indexPrismaRubrics(p).find({ prompt: ' a  smiling face ' })?.id).toBe('q1');
  });
});
