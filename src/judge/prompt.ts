// Builds the judge's chat messages from the versioned prompt files: the rubric as text,
// then the rendered PNG as a data: URI (Ollama rejects http URLs).
import type { ChatMessage } from '../models/types.ts';
import { fillTemplate, loadPromptTemplate, type PromptTemplate } from '../rubric/prompt-file.ts';
import type { RubricItem } from '../rubric/schema.ts';
import { neutraliseMessages } from './template-tokens.ts';

export type JudgeModeName = 'joint' | 'per-item';

export function judgeTemplate(mode: JudgeModeName): PromptTemplate {
  return loadPromptTemplate(mode === 'joint' ? 'judge/joint.md' : 'judge/per-item.md');
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

export function jointMessages(prompt: string, items: RubricItem[], png: Buffer): ChatMessage[] {
  const t = judgeTemplate('joint');
  const values = {
    prompt,
    rubric: items.map(renderItem).join('\n\n'),
    keys: items.map((i) => i.key).join(', '),
  };
  return messages(t, values, png);
}

export function perItemMessages(prompt: string, item: RubricItem, png: Buffer): ChatMessage[] {
  return messages(judgeTemplate('per-item'), { prompt, item: renderItem(item) }, png);
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
