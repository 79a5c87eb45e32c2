// Which GRPO group a rollout belongs to: the one rule that `serve` (group statistics and
// advantages), `eval` (per-prompt bootstrap units and health), `probe` (pictures per prompt),
// `select` (k scores per instruction) and the reward-health monitors all use, so the same
// rollouts form the same groups whichever of them reads them (docs/serve.md, "Groups").
//
// A group is the rollouts that answer one prompt:
//  1. the rollout's `prompt_id`, when it has one (the key is that id);
//  2. else its prompt text after whitespace normalisation (key `prompt:<text>`), the same
//     normalisation the rubric lookup uses, so a rollout is grouped with the rollouts that
//     would find the same rubric by text;
//  3. else nothing names its prompt and it is a group of its own (key `id:<id>`).
// A command that holds a prompts file may first fill in a missing `prompt_id` from the text
// (resolvePromptId): that names the same prompt, so the group does not change meaning.
// The id is never parsed (a `p1#0` id says nothing about its group unless `prompt_id` does).

/** The rollout fields the rule reads. */
export interface GroupKeyInput {
  id: string;
  prompt_id?: string | null | undefined;
  prompt?: string | null | undefined;
}

/** Prompt text compared as a key: trimmed, runs of whitespace as one space. */
export function normalisePrompt(text: string): string {
  return text.trim().replace(/\s+/g, ' ');
}

/** Key prefix of a group named by its prompt text (rule 2). */
export const PROMPT_TEXT_KEY = 'prompt:';

/** True for a key made by rule 2 or 3 rather than a prompt id (it names no prompt set). */
export function isDerivedKey(key: string): boolean {
  return key.startsWith(PROMPT_TEXT_KEY) || key.startsWith(ID_KEY);
}

const ID_KEY = 'id:';

/** The prompt a rollout answers, as a key (rules 1–2), or null when nothing names it. */
export function promptKey(r: Omit<GroupKeyInput, 'id'>): string | null {
  if (r.prompt_id) return r.prompt_id;
  if (r.prompt) return `${PROMPT_TEXT_KEY}${normalisePrompt(r.prompt)}`;
  return null;
}

/** The rollout's GRPO group: its prompt (rules 1–2), else a group of its own (rule 3). */
export function groupKey(r: GroupKeyInput): string {
  return promptKey(r) ?? `${ID_KEY}${r.id}`;
}

/** Groups the indices of `items` by groupKey, groups and members in first-seen order. */
export function groupIndices(items: readonly GroupKeyInput[]): Map<string, number[]> {
  const members = new Map<string, number[]>();
  items.forEach((item, i) => {
    const key = groupKey(item);
    const list = members.get(key);
    if (list) list.push(i);
    else members.set(key, [i]);
  });
  return members;
}

/**
 * For commands that hold a prompts file (`eval`, `probe`, `select`): the prompt id a rollout
 * answers — its own `prompt_id`, else the id of the prompt with its text (normalised) — or,
 * when neither is known, its groupKey. Two prompts with the same text: the later one's id.
 */
export function promptIdResolver(
  prompts: readonly { id: string; prompt: string }[],
): (r: GroupKeyInput) => string {
  const byText = new Map(prompts.map((p) => [normalisePrompt(p.prompt), p.id]));
  return (r) => {
    if (r.prompt_id) return r.prompt_id;
    const known = r.prompt ? byText.get(normalisePrompt(r.prompt)) : undefined;
    return known ?? groupKey(r);
  };
}
