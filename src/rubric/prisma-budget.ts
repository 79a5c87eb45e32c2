// The item budget: how many sample-specific criteria the author writes, by the instruction's
// estimated difficulty (1 trivial … 5 very hard). PrismaForge says only that "the rubrics
// inherit the instruction's difficulty as an item budget, so harder samples receive more
// checks"; these numbers are rubrica's (docs/prismaforge.md). Domain-shared items come on
// top, so an easy SVG icon gets 2+3 specific items plus the shared ones and a dense
// dashboard 6+7.
export const DIFFICULTIES = [1, 2, 3, 4, 5] as const;
export type Difficulty = (typeof DIFFICULTIES)[number];

export interface ItemBudget {
  code: number;
  vision: number;
}

export const ITEM_BUDGET: Readonly<Record<Difficulty, ItemBudget>> = Object.freeze({
  1: { code: 2, vision: 3 },
  2: { code: 3, vision: 4 },
  3: { code: 4, vision: 5 },
  4: { code: 5, vision: 6 },
  5: { code: 6, vision: 7 },
});

/** Largest count a counting criterion may have (the judge answers 0…count). */
export const MAX_COUNT = 12;

/** Allowed item weights for sample-specific items (importance 1 = minor … 3 = essential). */
export const ITEM_WEIGHTS = [1, 2, 3] as const;
