// PrismaForge's λ table: how much the code rubric, the vision rubric and (for some task
// families) a holistic judgement weigh in a sample's score, S = λc·S_code + λv·S_vision
// + λh·S_holistic. The paper (Table 7) sets λ per task family but the seed does not print
// its numbers; the worked example (a bar chart) uses λc 0.7, λv 0.3, so `chart` carries
// those. The other rows are rubrica's choices, argued in docs/prismaforge.md, and every row
// can be overridden (`--prisma-lambdas chart=0.6:0.4,webui=0.2:0.6:0.2`).
import { z } from 'zod';
import { RubricaError } from '../core/errors.ts';

/** The weights of PrismaForge's elastic score: code, vision and holistic (λc, λv, λh). */
export interface Lambdas {
  code: number;
  vision: number;
  /** 0: no holistic judgement for this family (no third call). */
  holistic: number;
}

/** λ per task family (chart, svg, webui, diagram, default), each with its reason beside it. */
export const DEFAULT_FAMILY_LAMBDAS: Readonly<Record<string, Lambdas>> = Object.freeze({
  // The seed's worked example: implementation details (data, axis ranges) dominate a chart.
  chart: { code: 0.7, vision: 0.3, holistic: 0 },
  // A free-form drawing is judged by what it looks like; code items catch structure hacks.
  svg: { code: 0.3, vision: 0.7, holistic: 0 },
  // Web pages: layout is visual, behaviour is in the code, and the overall impression counts.
  webui: { code: 0.3, vision: 0.5, holistic: 0.2 },
  // Diagrams (Mermaid, Graphviz, TikZ): the graph is in the code, legibility in the picture.
  diagram: { code: 0.5, vision: 0.5, holistic: 0 },
  default: { code: 0.5, vision: 0.5, holistic: 0 },
});

/** The family a domain belongs to when a sample names none. */
export const DOMAIN_FAMILY: Readonly<Record<string, string>> = Object.freeze({
  svg: 'svg',
  'vega-lite': 'chart',
  vega: 'chart',
  python: 'chart',
  matplotlib: 'chart',
  html: 'webui',
  mermaid: 'diagram',
  dot: 'diagram',
  graphviz: 'diagram',
  latex: 'diagram',
  tikz: 'diagram',
});

/** A λ override that cannot be read or does not describe weights (`--prisma-lambdas`). */
export class LambdaError extends RubricaError<'bad_lambdas'> {}

/** λ per family: the defaults, or the defaults with overrides (parseLambdaOverrides). */
export type FamilyTable = Readonly<Record<string, Lambdas>>;

/** A sample's family: its own when given, else its domain's (DOMAIN_FAMILY), else `default`. */
export function familyOf(domain: string, family?: string | null): string {
  return family ?? DOMAIN_FAMILY[domain] ?? 'default';
}

/** The λ of a family, falling back to the `default` row. */
export function lambdasFor(table: FamilyTable, family: string): Lambdas {
  return table[family] ?? table.default ?? DEFAULT_FAMILY_LAMBDAS.default!;
}

const Unit = z.number().min(0).max(1);
const LambdasSchema = z.strictObject({ code: Unit, vision: Unit, holistic: Unit.default(0) });

function checkRow(family: string, l: Lambdas): Lambdas {
  if (l.code + l.vision + l.holistic <= 0) {
    throw new LambdaError('bad_lambdas', `λ for "${family}" are all 0: nothing would be scored`);
  }
  return l;
}

/**
 * Overrides as `family=λc:λv[:λh],…` (the command-line form) or a JSON object
 * `{"family": {"code": …, "vision": …, "holistic": …}}`; rows not named keep their defaults.
 */
export function parseLambdaOverrides(spec: string, base: FamilyTable = DEFAULT_FAMILY_LAMBDAS) {
  const out: Record<string, Lambdas> = { ...base };
  const text = spec.trim();
  if (text.startsWith('{')) {
    let json: unknown;
    try {
      json = JSON.parse(text);
    } catch {
      throw new LambdaError('bad_lambdas', 'λ overrides are not valid JSON');
    }
    const parsed = z.record(z.string(), LambdasSchema).safeParse(json);
    if (!parsed.success)
      throw new LambdaError('bad_lambdas', `λ overrides: ${parsed.error.issues[0]?.message}`);
    for (const [f, l] of Object.entries(parsed.data)) out[f] = checkRow(f, l);
    return out;
  }
  for (const part of text.split(',').filter((s) => s.trim())) {
    const m = /^\s*([\w.-]+)\s*=\s*([\d.]+):([\d.]+)(?::([\d.]+))?\s*$/.exec(part);
    if (!m) {
      throw new LambdaError(
        'bad_lambdas',
        `λ override "${part}" is not family=λc:λv or family=λc:λv:λh`,
      );
    }
    const row = LambdasSchema.safeParse({
      code: Number(m[2]),
      vision: Number(m[3]),
      holistic: m[4] === undefined ? 0 : Number(m[4]),
    });
    if (!row.success) throw new LambdaError('bad_lambdas', `λ in "${part}" must lie in [0,1]`);
    out[m[1]!] = checkRow(m[1]!, row.data);
  }
  return out;
}
