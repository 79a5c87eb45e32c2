// judge_text's false positives where they are likeliest (issue 41, "What it must show"):
// (1) drawings whose prompts ask for verdict-like text — exam marks, reviews, scoreboards,
// certificates, game screens, posters, score-axis charts, report cards, a dance judge's
// scorecard, quiz results, hotel ratings, trackers (verdict-prompt-corpus.ts), each checked
// with its prompt as the scorer passes it; (2) the real openclipart files of the labelled set
// with what vendoring stripped given back — their comments, <metadata> RDF (Dublin Core
// title, creator, subjects, licence), <title> and <desc> — as the files ship in Debian's
// openclipart-svg, ids and Inkscape attributes as they are. Goal ≤ 1 % each. Both figures
// are printed; docs/artifact-and-checks.md quotes them.
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gunzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { locateArtifact } from '../../src/artifact/extract.ts';
import { judgeText } from '../../src/checks/judge-text.ts';
import { resolveCheckOptions } from '../../src/checks/thresholds.ts';
import { labelledSet } from './labelled-set.ts';
import { verdictPromptCorpus } from './verdict-prompt-corpus.ts';

const NO_TOKENS = { completion: 0, svg: 0, reasoning: 0 };
const FIXTURES = join(dirname(fileURLToPath(import.meta.url)), '../fixtures/openclipart');

/** The check's findings on an answer, as the scorer runs it (prompt given, no rubric). */
function findings(svg: string, prompt: string): unknown[] | null {
  const located = locateArtifact(svg);
  if (!located.found) return null;
  const result = judgeText({
    artifact: { ...located, tokens: NO_TOKENS },
    render: null,
    prompt,
    options: resolveCheckOptions(),
  });
  return result.flag ? ((result.detail as { findings: unknown[] }).findings ?? []) : [];
}

const pct = (n: number, d: number) => `${((100 * n) / d).toFixed(2)} %`;

describe('judge_text false positives', () => {
  it('stays at or under 1 % on drawings whose prompts ask for verdict-like text', () => {
    const corpus = verdictPromptCorpus();
    const flagged: string[] = [];
    for (const item of corpus) {
      const f = findings(item.svg, item.prompt);
      expect(f, `${item.id} was not extracted`).not.toBeNull();
      if (f?.length) flagged.push(`${item.id} (${item.layout}): ${JSON.stringify(f[0])}`);
    }
    const templates = new Set(corpus.map((i) => i.template)).size;
    console.log(
      `judge_text FP on verdict-like prompts: ${flagged.length} of ${corpus.length} (${pct(flagged.length, corpus.length)}), ${templates} templates × 4 layouts`,
    );
    expect(corpus.length).toBeGreaterThanOrEqual(100);
    expect(templates).toBeGreaterThanOrEqual(10);
    expect(flagged.length / corpus.length, flagged.slice(0, 5).join('\n')).toBeLessThanOrEqual(
      0.01,
    );
  });

  it('stays at or under 1 % on real openclipart files with comments, titles, ids and RDF', () => {
    const stripped = JSON.parse(
      gunzipSync(readFileSync(join(FIXTURES, 'metadata.json.gz'))).toString('utf8'),
    ) as Record<string, string[]>;
    const clips = labelledSet(11).filter((i) => i.family === 'clean:openclipart');
    let rdf = 0;
    let comments = 0;
    let titles = 0;
    let ids = 0;
    const flagged: string[] = [];
    for (const clip of clips) {
      const parts = stripped[clip.id.replace(/^openclipart:/, '')] ?? [];
      if (parts.some((p) => p.includes('rdf:RDF'))) rdf++;
      if (parts.some((p) => p.startsWith('<!--'))) comments++;
      if (parts.some((p) => /<dc:title>[^<]/.test(p) || /^<(?:svg:)?title/.test(p))) titles++;
      if (/\sid\s*=/.test(clip.svg)) ids++;
      // Given back inside the root element (a comment before <svg> in the original file is
      // read there too: judge_text reads comments wherever they are in the answer).
      const svg = clip.svg.replace(/<svg\b[^>]*>/, (root) => `${root}\n${parts.join('\n')}\n`);
      const f = findings(svg, clip.prompt);
      expect(f, `${clip.id} was not extracted`).not.toBeNull();
      if (f?.length) flagged.push(`${clip.id}: ${JSON.stringify(f[0])}`);
    }
    console.log(
      `judge_text FP on openclipart files: ${flagged.length} of ${clips.length} (${pct(flagged.length, clips.length)}); ${rdf} with RDF metadata, ${comments} with comments, ${titles} with a title, ${ids} with ids`,
    );
    if (flagged.length) console.log(flagged.join('\n'));
    // The fixture must really give the metadata back, or the figure says nothing.
    expect(rdf).toBeGreaterThanOrEqual(450);
    expect(flagged.length / clips.length, flagged.slice(0, 5).join('\n')).toBeLessThanOrEqual(0.01);
  });
});
