// The author's step-2 answer → the rubric's sample-specific items, or `malformed` with a
// reason. Structure is exactly itemsAnswerSchema(budget), the schema the request carried;
// the one check beyond it is semantic (two criteria saying the same thing, or a specific
// criterion repeating a domain-shared one), which no JSON Schema can express.

import { itemsAnswerSchema } from './prisma-answer-schema.ts';
import type { ItemBudget } from './prisma-budget.ts';
import type { Modality, PrismaItem } from './prisma-schema.ts';
import { contentTokens, jaccard, OVERLAP_THRESHOLD, words } from './validate.ts';

export type ItemsValidation =
  | { ok: true; code: PrismaItem[]; vision: PrismaItem[] }
  | { ok: false; message: string };

function duplicate(prompt: string, items: PrismaItem[]): string | null {
  const exclude = new Set(words(prompt));
  const tokens = items.map((it) => contentTokens(it.criterion, exclude));
  for (let i = 0; i < items.length; i++) {
    for (let j = i + 1; j < items.length; j++) {
      if (items[i]!.origin === 'shared' && items[j]!.origin === 'shared') continue;
      const sim = jaccard(tokens[i]!, tokens[j]!);
      if (sim > OVERLAP_THRESHOLD) {
        return `criteria "${items[i]!.key}" and "${items[j]!.key}" say the same thing (overlap ${sim.toFixed(2)})`;
      }
    }
  }
  return null;
}

export function validateItemsAnswer(
  budget: ItemBudget,
  prompt: string,
  shared: { code: PrismaItem[]; vision: PrismaItem[] },
  answer: unknown,
): ItemsValidation {
  const parsed = itemsAnswerSchema(budget).safeParse(answer);
  if (!parsed.success) {
    const i = parsed.error.issues[0]!;
    const where = i.path.length ? i.path.map(String).join('.') : '(root)';
    return { ok: false, message: `${where}: ${i.message}` };
  }
  const specific = (m: Modality, list: typeof parsed.data.code_items): PrismaItem[] =>
    list.map((c, i) => ({
      key: `specific_${i + 1}`,
      modality: m,
      origin: 'specific',
      // Surrounding whitespace is layout; whitespace-only text (which minLength allows) is kept.
      criterion: c.criterion.trim() || c.criterion,
      weight: c.weight,
      count: c.count,
    }));
  const code = [...shared.code, ...specific('code', parsed.data.code_items)];
  const vision = [...shared.vision, ...specific('vision', parsed.data.vision_items)];
  const dup = duplicate(prompt, code) ?? duplicate(prompt, vision);
  if (dup) return { ok: false, message: dup };
  return { ok: true, code, vision };
}
