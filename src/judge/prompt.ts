// Builds the judge's chat messages from the versioned prompt files: the rubric as text,
// then the rendered PNG as a data: URI (Ollama rejects http URLs).
import type { ChatMessage } from '../models/types.ts';
import { fillTemplate, loadPromptTemplate, type PromptTemplate } from '../rubric/prompt-file.ts';
import type { RubricItem } from '../rubric/schema.ts';
import { neutraliseMessages } from './template-tokens.ts';

export type JudgeModeName = 'joint' | 'per-item';

/**
 * How the judge writes a score: `grid` a number in [0,1] on a 0.01 grid (greedy scoring),
 * `digit` one digit 0–9 (score = digit ÷ 9), one token whose distribution the logprobs give.
 */
export type ScoreScale = 'grid' | 'digit';

export function judgeTemplate(mode: JudgeModeName, scale: ScoreScale = 'grid'): PromptTemplate {
  const name = mode === 'joint' ? 'judge/joint' : 'judge/per-item';
  return loadPromptTemplate(`${name}${scale === 'digit' ? '-digit' : ''}.md`);
}

export function renderItem(item: RubricItem): string {
  const kind = item.weight < 0 ? 'penalty item, ' : '';
  const lines = [
    `### ${item.key} — ${item.title} (${kind}axis ${item.axis}, weight ${item.weight})`,
    item.description,
    ...item.bands.map((b) => `- ${b.range}: ${b.guide}`),
  ];
  return lines.join('\n');
}

export function pngDataUrl(png: Buffer): string {
  return `data:image/png;base64,${png.toString('base64')}`;
}

export function jointMessages(
  prompt: string,
  items: RubricItem[],
  png: Buffer,
  scale: ScoreScale = 'grid',
): ChatMessage[] {
  const t = judgeTemplate('joint', scale);
  const values = {
    prompt,
    rubric: items.map(renderItem).join('\n\n'),
    keys: items.map((i) => i.key).join(', '),
  };
  return messages(t, values, png);
}

export function perItemMessages(
  prompt: string,
  item: RubricItem,
  png: Buffer,
  scale: ScoreScale = 'grid',
): ChatMessage[] {
  return messages(judgeTemplate('per-item', scale), { prompt, item: renderItem(item) }, png);
}

function messages(t: PromptTemplate, values: Record<string, string>, png: Buffer): ChatMessage[] {
  return neutraliseMessages([
    { role: 'system', content: fillTemplate(t.system, values) },
    {
      role: 'user',
      content: [
        { type: 'text', text: fillTemplate(t.user, values) },
        { type: 'image', dataUrl: pngDataUrl(png) },
      ],
    },
  ]);
}
