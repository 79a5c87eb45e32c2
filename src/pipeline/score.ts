// createRolloutScorer: the scoring pipeline every face of rubrica calls (CLI `score`, the HTTP
// reward server, eval runs). Per rollout: inspect the completion once (artifact → render →
// checks), then compute every requested reward from that one inspection (src/reward/kinds),
// each a criterion tree weighed by src/reward/tree.ts. Nothing a policy writes can make this
// throw: a rollout that cannot be scored gets reward 0 and a status that says why.

import { readFileSync } from 'node:fs';
import pLimit from 'p-limit';
import { type AssetLimits, assetsHash } from '../core/assets.ts';
import { type DomainId, isDomainId } from '../core/domain-ids.ts';
import { RubricaError } from '../core/errors.ts';
import { loopTurn } from '../core/loop-turn.ts';
import {
  REWARD_KINDS,
  type RewardKind,
  type RolloutInput,
  type ScoreRecord,
} from '../core/record.ts';
import { resolveAssets } from '../domains/assets.ts';
import type { HtmlPictureOptions } from '../domains/html/picture.ts';
import { lazyDomainRenderers } from '../domains/lazy.ts';
import type { DomainRenderers } from '../domains/renderers.ts';
import { completionDomain, inspectCompletion } from '../inspect/inspect.ts';
import type { InspectFn } from '../inspect/types.ts';
import { createGroupJudge, type GroupJudge } from '../judge/group.ts';
import { createJudge, type Judge } from '../judge/judge.ts';
import { tallyJudgeInput } from '../judge/judge-input-tally.ts';
import { createPairwiseJudge, type JudgingMode, type PairwiseJudge } from '../judge/pairwise.ts';
import { checkPanel, createPairwisePanel, createPanelJudge } from '../judge/panel.ts';
import { createPrismaJudge } from '../judge/prisma-judges.ts';
import { renderItem } from '../judge/prompt.ts';
import { DEFAULT_STRATEGY, type JudgingStrategy } from '../judge/strategy.ts';
import { createModelClient, type ModelClientOptions } from '../models/client.ts';
import type { ModelClient } from '../models/types.ts';
import { createRenderPool } from '../render/pool.ts';
import type { Renderer } from '../render/types.ts';
import { type ApplyOptions, rewardDomainProblem, rewardsRestricted } from '../reward/applies.ts';
import { calibrateResult } from '../reward/conformal.ts';
import { DEFAULT_FAMILY_LAMBDAS, type FamilyTable } from '../reward/families.ts';
import type { BlankPolicy } from '../reward/gates.ts';
import { type HybridRewarder, resolveLambdas } from '../reward/hybrid.ts';
import {
  INSTANCE_PRESET,
  needsRubrics,
  type PrismaGraders,
  REWARD_FUNCTIONS,
  type RewardContext,
} from '../reward/kinds/index.ts';
import { reasonResult } from '../reward/result.ts';
import type { DropAxis } from '../reward/weighted.ts';
import { indexRubrics, type RubricIndex } from '../rubric/load.ts';
import { indexPrismaRubrics, type PrismaRubricIndex } from '../rubric/prisma-load.ts';
import type { PrismaRubric } from '../rubric/prisma-schema.ts';
import type { RubricItem, RubricRecord } from '../rubric/schema.ts';
import { type AnswerCache, DEFAULT_CACHE_PATH } from '../store/cache.ts';
import { openAnswerCache } from '../store/open-cache.ts';
import { judgeWithAssets, prismaWithAssets } from './assets-key.ts';
import { completionTooLarge } from './completion-bound.ts';
import { gatedResult, gateHit, resolveGate } from './gate.ts';
import { judgeGroups } from './group-relative.ts';
import { assembleRecord, faultRecord, faultResult } from './record.ts';
import { judgeRelative } from './relative.ts';
import type { InspectingScorer, JudgeMode, ScoreBatchOptions, ScoredRollout } from './types.ts';

export type { BlankPolicy } from '../reward/gates.ts';
export type { HybridRewarder } from '../reward/hybrid.ts';

/**
 * What a rollout scorer needs: rubrics, a judge, the renderer, the cache, and which rewards
 * it computes by default.
 */
export interface RolloutScorerOptions {
  /** Kept rubrics, as records or the path of a rubrics.jsonl. Needed for `ruler` and `rubric-s`. */
  rubrics?: readonly RubricRecord[] | string;
  /** A model client, or a `provider:model` spec. Needed for every reward but `hybrid`. */
  judge?: ModelClient | string;
  /**
   * Judges asked beside `judge` as one panel (issue 37): every criterion the weighted mean of
   * the judges that answered, a pairwise comparison their majority (src/judge/panel.ts).
   */
  panel?: readonly (ModelClient | string)[];
  /** Weight of each panel judge, `judge` first (default equal). */
  panelWeights?: readonly number[];
  /** Panel judges that must answer for the panel to answer (default: all). */
  quorum?: number | null;
  /** Options for the judge client built from a spec (base URL, key, timeout, retries, concurrency). */
  judgeOptions?: Omit<ModelClientOptions, 'role'>;
  /** The renderer to use (the caller keeps ownership). Default: a render pool owned and closed by the scorer. */
  renderer?: Renderer;
  /** Domain of every rollout without its own `domain` (default 'auto', docs/domains.md). */
  domain?: DomainId | 'auto';
  /** Warm renderers for non-SVG domains (the caller keeps ownership). Default: started on first use, closed by the scorer. */
  domains?: DomainRenderers;
  /** html picture (viewport or full page) for the renderers started here; ignored with `domains`. */
  html?: HtmlPictureOptions;
  /** Completion → artifact → render → checks. Default: the pipeline's inspectCompletion. */
  inspect?: InspectFn;
  /** A cache file path, an open cache, or false to bypass. Default `.rubrica/cache.sqlite`. */
  cache?: string | false | AnswerCache;
  /** The default reward(s); the first is each record's `reward`. Default `ruler`. */
  reward?: RewardKind | readonly RewardKind[];
  mode?: JudgeMode;
  dropAxis?: DropAxis;
  /** Rollouts in flight at once (judge calls are further limited by the client). Default 8. */
  concurrency?: number;
  /**
   * Inspections (render and checks) at once, within `concurrency`. Default: all of them. Fewer
   * (about twice the render workers) lets the first rollouts finish rendering and reach the
   * judge at once, instead of every rollout in the pipeline rendering in turn first.
   */
  inspectConcurrency?: number;
  blankPolicy?: BlankPolicy;
  /**
   * The judging strategy (src/judge/strategy.ts), parsed once by the CLI's judging flags: how
   * the judge's answers are asked and read (`scoring`, `intervalLevel`), and whether a
   * batch's GRPO groups are judged in ordered pairs (`judging: "pairwise"`, `pairs`:
   * `circular`, 2N calls a group of N, or `all`, N(N−1)).
   */
  judging?: Partial<JudgingStrategy>;
  /** Reason-SVG's hybrid reward (src/reward/hybrid.ts); needed for `hybrid`. */
  hybrid?: HybridRewarder;
  /**
   * PrismaForge rubrics (`prisma`). Default: the `"preset":"prisma"` lines of `rubrics` when
   * that is a path.
   */
  prismaRubrics?: readonly PrismaRubric[] | string;
  /** The LLM that reads code for PrismaForge's code rubric. Default: the judge. */
  codeJudge?: ModelClient | string;
  /** λc/λv/λh per task family (src/reward/families.ts). Default: the documented table. */
  prismaLambdas?: FamilyTable;
  /**
   * Where rollouts' `{ path }` assets are read from (`--data-root`); without it only inline
   * assets are accepted (src/domains/assets.ts).
   */
  dataRoot?: string;
  /** Files and bytes of data one rollout may carry (default 32 files, 16 MiB). */
  assetLimits?: Partial<AssetLimits>;
  /**
   * The gated checks (`--gate`, issue 41): a rollout one of them flags gets reward 0 with
   * status `gated` and the check as `reason`, and no judge call. `CHECK[,CHECK…]`, a list,
   * or `none`; default `judge_text`. An unknown name throws ScorerConfigError
   * `unknown_gate_check`.
   */
  gate?: string | readonly string[];
}

/** A scorer that cannot work as configured (a usage error, not bad policy output). */
export class ScorerConfigError extends RubricaError<
  | 'hybrid_unavailable'
  | 'no_rubrics'
  | 'no_judge'
  | 'unknown_reward'
  | 'reward_not_applicable'
  | 'judging_unavailable'
  | 'unknown_gate_check'
> {}

/** The judging mode asked for, refused by name when this scorer cannot do it. */
export function checkJudging(judging: JudgingMode, haveJudge: boolean, panel = false): void {
  if (judging !== 'absolute' && !haveJudge)
    throw new ScorerConfigError('no_judge', `judging "${judging}" needs a judge model`);
  // A panel's rule for a group call (per picture and item, per order) is not defined yet.
  if (judging === 'group' && panel)
    throw new ScorerConfigError(
      'judging_unavailable',
      'judging "group" with a judge panel is not supported: a group call scores every picture per item and per order, and no rule combines several judges\' scores there yet (a panel\'s majority is defined for pairwise verdicts only); use one judge with --judging group, or the panel with --judging pairwise',
    );
}

/** What "better" means to the pairwise judge when no rubric was found for the prompt. */
const DEFAULT_CRITERIA =
  'How faithfully and completely the picture shows what the prompt asks for, then how clear and well made it is.';

/** The default criteria as one rubric item, for the group judge's per-item scores. */
const DEFAULT_ITEM: RubricItem = {
  key: 'overall',
  axis: 'semantic',
  title: 'Overall',
  description: DEFAULT_CRITERIA,
  weight: 1,
  bands: [],
};

/**
 * Throws ScorerConfigError `reward_not_applicable` (naming the reward and the domain) when a
 * requested reward does not apply to a domain met (src/reward/applies.ts): checked when a
 * command or service starts and per request, never a 0 per rollout.
 */
export function checkRewardsApply(
  kinds: readonly RewardKind[],
  domains: Iterable<DomainId>,
  o: ApplyOptions = {},
): void {
  for (const d of new Set(domains)) {
    for (const k of kinds) {
      const problem = rewardDomainProblem(k, d, o);
      if (problem) throw new ScorerConfigError('reward_not_applicable', problem);
    }
  }
}

/** The domains of rollouts as they will be inspected (their own `domain`, else `fallback`, else detected). */
export function rolloutDomains(
  items: Iterable<Pick<RolloutInput, 'completion' | 'domain'>>,
  fallback?: DomainId | 'auto',
): Set<DomainId> {
  const out = new Set<DomainId>();
  for (const it of items) out.add(completionDomain(it.completion, it.domain ?? fallback));
  return out;
}

/** The domains rubrics are written for (a rubric without one is svg), from records or a rubrics file. */
export function rubricDomains(
  source: readonly { domain?: unknown }[] | string | undefined,
): Set<DomainId> {
  const out = new Set<DomainId>();
  if (source === undefined) return out;
  const rows: unknown[] =
    typeof source === 'string'
      ? readFileSync(source, 'utf8')
          .split('\n')
          .flatMap((l) => {
            try {
              return l.trim() ? [JSON.parse(l)] : [];
            } catch {
              return []; // the rubric loaders report unreadable lines
            }
          })
      : [...source];
  for (const r of rows) {
    const d = (r as { domain?: unknown } | null)?.domain;
    out.add(isDomainId(d) ? d : 'svg');
  }
  return out;
}

/** The requested rewards as a non-empty list without repeats, in the order asked. */
export function rewardList(
  reward: RewardKind | readonly RewardKind[] | undefined,
  fallback: readonly RewardKind[],
): RewardKind[] {
  const list = reward === undefined ? fallback : typeof reward === 'string' ? [reward] : reward;
  const out = [...new Set(list)];
  for (const k of out) {
    if (!REWARD_KINDS.includes(k)) {
      throw new ScorerConfigError(
        'unknown_reward',
        `unknown reward "${k}" (one of ${REWARD_KINDS.join(', ')})`,
      );
    }
  }
  if (out.length === 0) throw new ScorerConfigError('unknown_reward', 'no reward asked for');
  return out;
}

/** Throws ScorerConfigError when a requested reward lacks what it needs. */
export function checkRewards(
  kinds: readonly RewardKind[],
  have: { judge: boolean; hybrid: boolean; rubrics: boolean },
): void {
  for (const k of kinds) {
    if (k === 'hybrid' && !have.hybrid) {
      throw new ScorerConfigError(
        'hybrid_unavailable',
        'reward "hybrid" needs a hybrid rewarder (CLIP or a scorer service)',
      );
    }
    if (k !== 'hybrid' && !have.judge)
      throw new ScorerConfigError('no_judge', `reward ${k} needs a judge model`);
    if (needsRubrics(k) && !have.rubrics) {
      throw new ScorerConfigError('no_rubrics', `reward ${k} needs rubrics (--rubrics)`);
    }
  }
}

interface Resources {
  client: ModelClient | null;
  cache: AnswerCache | null;
  ownsCache: boolean;
  renderer: Renderer;
  domains: DomainRenderers;
  rubrics: RubricIndex;
  prismaRubrics: PrismaRubricIndex;
  judgeFor(mode: JudgeMode): Judge | null;
  pairwise(): PairwiseJudge | null;
  group(): GroupJudge | null;
  prismaFor(mode: JudgeMode): PrismaGraders | undefined;
}

/**
 * The panel a scorer judges with: the judges beside `judge`, the quorum and the weights, from
 * the options named so or else from the judging strategy (`judging.panel` lists every judge's
 * spec, `judge`'s first, so the others are the rest). Every command passes its strategy down
 * and so takes a panel without a flag of its own.
 */
function panelOf(opts: RolloutScorerOptions): {
  others: readonly (ModelClient | string)[];
  quorum: number | null;
  weights: readonly number[] | undefined;
} {
  const specs = opts.judging?.panel ?? [];
  return {
    others: opts.panel ?? (specs.length > 1 ? specs.slice(1) : []),
    quorum: opts.quorum ?? opts.judging?.quorum ?? null,
    weights: opts.panelWeights ?? opts.judging?.panelWeights,
  };
}

function openResources(opts: RolloutScorerOptions): Resources {
  // A bad spec, URL or missing key throws the models room's ModelConfigError.
  const client =
    typeof opts.judge === 'string'
      ? createModelClient(opts.judge, { ...opts.judgeOptions, role: 'judge' })
      : (opts.judge ?? null);
  let cache: AnswerCache | null = null;
  if (opts.cache !== false)
    cache =
      typeof opts.cache === 'object'
        ? opts.cache
        : openAnswerCache(opts.cache ?? DEFAULT_CACHE_PATH);
  const judges = new Map<JudgeMode, Judge>();
  let pairwise: PairwiseJudge | null = null;
  const panel = panelOf(opts);
  let group: GroupJudge | null = null;
  const clients = client
    ? [
        client,
        ...panel.others.map((c) =>
          typeof c === 'string' ? createModelClient(c, { ...opts.judgeOptions, role: 'judge' }) : c,
        ),
      ]
    : [];
  const panelOpts = {
    ...(panel.weights ? { weights: panel.weights } : {}),
    quorum: panel.quorum,
  };
  const renderer = opts.renderer ?? createRenderPool();
  const codeClient =
    typeof opts.codeJudge === 'string'
      ? createModelClient(opts.codeJudge, { ...opts.judgeOptions, role: 'judge' })
      : (opts.codeJudge ?? client);
  const graders = new Map<JudgeMode, PrismaGraders>();
  const scoring = opts.judging?.scoring ?? DEFAULT_STRATEGY.scoring;
  const prismaSource = opts.prismaRubrics ?? (typeof opts.rubrics === 'string' ? opts.rubrics : []);
  return {
    client,
    cache,
    ownsCache: opts.cache !== false && typeof opts.cache !== 'object',
    renderer,
    domains:
      opts.domains ??
      lazyDomainRenderers({ svgRenderer: renderer, ...(opts.html ? { html: opts.html } : {}) }),
    rubrics: indexRubrics(opts.rubrics ?? []),
    prismaRubrics: indexPrismaRubrics(prismaSource),
    prismaFor(mode) {
      if (!client || !codeClient) return undefined;
      let g = graders.get(mode);
      if (!g) {
        g = {
          codeJudge: createPrismaJudge({ client: codeClient, mode, cache, scoring }),
          visionJudge: createPrismaJudge({ client, mode, cache, scoring }),
          lambdas: opts.prismaLambdas ?? DEFAULT_FAMILY_LAMBDAS,
        };
        graders.set(mode, g);
      }
      return g;
    },
    pairwise() {
      if (!client) return null;
      pairwise ??=
        clients.length > 1
          ? createPairwisePanel(
              clients.map((c) => createPairwiseJudge({ client: c, cache })),
              panelOpts,
            )
          : createPairwiseJudge({ client, cache });
      return pairwise;
    },
    group() {
      if (!client) return null;
      group ??= createGroupJudge({ client, cache, scoring });
      return group;
    },
    judgeFor(mode) {
      if (!client) return null;
      let j = judges.get(mode);
      if (!j) {
        j =
          clients.length > 1
            ? createPanelJudge(
                clients.map((c) => createJudge({ client: c, mode, cache, scoring })),
                panelOpts,
              )
            : createJudge({ client, mode, cache, scoring });
        judges.set(mode, j);
      }
      return j;
    },
  };
}

/**
 * A rollout scorer: inspects each rollout once (extract, render, check) and computes every
 * reward asked for from that one inspection. Bad policy output scores as a value
 * (`unscoreable`), a failed grader as `grader_error`; nothing thrown per rollout. Throws
 * ScorerConfigError when a reward lacks what it needs (a judge, rubrics, a hybrid rewarder).
 * Close it to end the pool and the cache it opened.
 * @example
 * ```ts
 * const judge = 'vllm:Qwen/Qwen3-VL-8B-Instruct';
 * const scorer = await createRolloutScorer({ rubrics: 'rubrics.jsonl', judge, reward: 'ruler' });
 * const [rec] = await scorer.scoreBatch([{ id: 'r1', prompt_id: 'p1', completion }]);
 * await scorer.close();
 * ```
 */
export async function createRolloutScorer(opts: RolloutScorerOptions): Promise<InspectingScorer> {
  const defaults = rewardList(opts.reward, ['ruler']);
  const have = {
    judge: !!opts.judge,
    hybrid: !!opts.hybrid,
    rubrics: !!opts.rubrics || !!opts.prismaRubrics,
  };
  checkRewards(defaults, have);
  // A panel given as clients (`panel`) or as specs in the strategy (`judging.panel`).
  const panel = panelOf(opts);
  const panelled = panel.others.length > 0;
  checkJudging(opts.judging?.judging ?? 'absolute', have.judge, panelled);
  const gateError = (m: string) => new ScorerConfigError('unknown_gate_check', m);
  const defaultGate = resolveGate(opts.gate, gateError);
  if (panel.others.length || panel.quorum != null || panel.weights) {
    try {
      checkPanel(1 + panel.others.length, {
        ...(panel.weights ? { weights: panel.weights } : {}),
        quorum: panel.quorum,
      });
    } catch (err) {
      throw new ScorerConfigError('no_judge', (err as Error).message);
    }
  }
  const apply: ApplyOptions = {
    hybridThink: opts.hybrid ? resolveLambdas(opts.hybrid.config.lambdas).think : undefined,
  };
  // Refused at start: a reward that does not apply to the domain every rollout is declared
  // in, or to a domain the rubrics were written for.
  checkRewardsApply(
    defaults,
    [
      ...(opts.domain && opts.domain !== 'auto' ? [opts.domain] : []),
      ...rubricDomains(opts.rubrics),
      ...rubricDomains(opts.prismaRubrics),
    ],
    apply,
  );
  const res = openResources(opts);
  const inspect: InspectFn = opts.inspect ?? inspectCompletion;
  const limit = pLimit(Math.max(1, opts.concurrency ?? 8));
  const inspectLimit = opts.inspectConcurrency
    ? pLimit(Math.max(1, opts.inspectConcurrency))
    : null;

  const scoreRollout = async (
    rollout: RolloutInput,
    batch: ScoreBatchOptions = {},
  ): Promise<ScoredRollout> => {
    // Each long synchronous stretch of a rollout waits for its own turn of the event loop, so
    // a batch of many rollouts cannot hold serve's loop (its deadline timers, new
    // connections) for the whole batch at once (core/loop-turn.ts).
    await loopTurn();
    const kinds = rewardList(batch.reward, defaults);
    checkRewards(kinds, have);
    if (rewardsRestricted(kinds, apply))
      checkRewardsApply(kinds, rolloutDomains([rollout], opts.domain), apply);
    const gate = batch.gate === undefined ? defaultGate : resolveGate(batch.gate, gateError);
    const rubric = (preset: 'ruler' | 'rubric-s' | 'universal') =>
      res.rubrics.find(preset, rollout);
    // One prompt text for the checks and every reward: the rollout's, else its instance
    // rubric's, else the rubric file's line for its prompt_id.
    const instance = kinds.map((k) => INSTANCE_PRESET[k]).find((p) => p !== undefined);
    const found = instance ? rubric(instance) : undefined;
    const prismaRubric = () => res.prismaRubrics.find(rollout);
    const prompt =
      rollout.prompt ??
      found?.prompt ??
      (kinds.includes('prisma') || kinds.includes('direct') ? prismaRubric()?.prompt : undefined) ??
      (rollout.prompt_id ? (res.rubrics.promptOf(rollout.prompt_id) ?? null) : null);
    const promptId = rollout.prompt_id ?? found?.id ?? null;
    const mode = batch.mode ?? opts.mode ?? 'joint';
    // A completion too long to inspect is the policy's output: a per-rollout `too_large`,
    // answered before any synchronous work on it (completion-bound.ts).
    const tooLong = completionTooLarge(rollout.completion);
    if (tooLong) {
      const results = kinds.map((k) => reasonResult(k, 'too_large', tooLong));
      return { record: assembleRecord(rollout, promptId, null, results), inspection: null };
    }
    // The task's data files: a bad one is a fact about the inputs (like no_rubric), given to
    // every reward as its reason; the completion is not rendered. A rollout without its own
    // takes its prompt's, as `rubric synth` recorded them in the rubrics file.
    const taskAssets =
      rollout.assets ?? found?.assets ?? (promptId ? res.rubrics.assetsOf(promptId) : undefined);
    const assets = await resolveAssets(taskAssets, {
      dataRoot: opts.dataRoot ?? null,
      ...(opts.assetLimits ? { limits: opts.assetLimits } : {}),
    });
    if (!assets.ok) {
      const { code, message } = assets.error;
      const results = kinds.map((k) => reasonResult(k, code, message));
      return { record: assembleRecord(rollout, promptId, null, results), inspection: null };
    }
    const dataHash = assetsHash(assets.assets);
    let inspection: ScoredRollout['inspection'];
    try {
      const run = () =>
        inspect(rollout.completion, {
          prompt: prompt ?? undefined,
          ...rubricTermsOf(
            found,
            kinds.includes('prisma') || kinds.includes('direct') ? prismaRubric() : undefined,
          ),
          renderer: res.renderer,
          domain: rollout.domain ?? opts.domain,
          domains: res.domains,
          ...(dataHash ? { assets: assets.assets } : {}),
        });
      inspection = await (inspectLimit ? inspectLimit(run) : run());
    } catch (err) {
      return { record: faultRecord(rollout, kinds, err), inspection: null };
    }
    await loopTurn();
    // Gating happens here, after the checks and before any judge: a gated rollout makes no
    // judge call, so no answer about it is cached, and it takes no part in relative judging.
    const hit = gateHit(inspection, gate);
    if (hit) {
      const results = kinds.map((k) => gatedResult(k, hit));
      return { record: assembleRecord(rollout, promptId, inspection, results), inspection };
    }
    const ctx: RewardContext = {
      rollout,
      prompt,
      inspection,
      rubric,
      judge: judgeWithAssets(res.judgeFor(mode), dataHash),
      prismaRubric,
      prisma: prismaWithAssets(res.prismaFor(mode), dataHash),
      dropAxis: opts.dropAxis,
      blankPolicy: opts.blankPolicy ?? 'zero',
      intervalLevel:
        opts.judging?.calibration?.base_level ??
        opts.judging?.intervalLevel ??
        DEFAULT_STRATEGY.intervalLevel,
      hybrid: opts.hybrid,
      signal: batch.signal,
    };
    const { value: raw, neutralised } = await tallyJudgeInput(() =>
      Promise.all(
        kinds.map((k) => REWARD_FUNCTIONS[k](ctx).catch((err: unknown) => faultResult(k, err))),
      ),
    );
    await loopTurn();
    const cal = opts.judging?.calibration;
    const results = cal ? raw.map((r) => calibrateResult(r, cal)) : raw;
    const judgeContext =
      prompt === null
        ? null
        : {
            prompt,
            criteria: found ? found.items.map(renderItem).join('\n\n') : DEFAULT_CRITERIA,
            assets: dataHash ?? null,
            items: found ? found.items : [DEFAULT_ITEM],
          };
    const record = assembleRecord(rollout, promptId, inspection, results);
    return {
      record: neutralised > 0 ? { ...record, judge_input: { neutralised } } : record,
      inspection,
      judgeContext,
    };
  };

  return {
    scoreRollout: (item, batch) => limit(() => scoreRollout(item, batch)),
    judgingFor: (batch) => batch?.judging ?? opts.judging?.judging ?? 'absolute',
    async scoreBatch(items, batch = {}) {
      // Config errors (an unknown or unservable reward, a reward that does not apply to a
      // rollout's domain) throw before any work starts.
      const kinds = rewardList(batch.reward, defaults);
      checkRewards(kinds, have);
      if (rewardsRestricted(kinds, apply))
        checkRewardsApply(kinds, rolloutDomains(items, opts.domain), apply);
      const judging = batch.judging ?? opts.judging?.judging ?? 'absolute';
      checkJudging(judging, have.judge, panelled);
      if (batch.gate !== undefined) resolveGate(batch.gate, gateError);
      const scored = await Promise.all(items.map((it) => limit(() => scoreRollout(it, batch))));
      const seen = batch.onInspected;
      if (seen)
        scored.forEach((s, i) => {
          if (s.inspection) seen(items[i]!, s.inspection);
        });
      if (judging === 'group') {
        const groupJudge = res.group();
        if (!groupJudge) return scored.map((s) => s.record);
        // Group judging: every picture of the batch is rendered and checked by now; gated
        // rollouts carry status `gated` and never reach the group judge.
        return judgeGroups(
          items,
          scored.map((s) => ({
            record: s.record,
            png: s.inspection?.render?.ok ? s.inspection.render.png : null,
            context: s.judgeContext
              ? {
                  prompt: s.judgeContext.prompt,
                  items: s.judgeContext.items ?? [DEFAULT_ITEM],
                  assets: s.judgeContext.assets,
                }
              : null,
          })),
          {
            judge: groupJudge,
            orders: batch.groupOrders ?? opts.judging?.groupOrders ?? 'mirror',
            ...(batch.signal ? { signal: batch.signal } : {}),
          },
        );
      }
      const pairJudge = res.pairwise();
      if (judging !== 'pairwise' || !pairJudge) return scored.map((s) => s.record);
      // Relative judging: every picture of the batch is rendered and checked by now.
      return judgeRelative(
        items,
        scored.map((s) => ({
          record: s.record,
          png: s.inspection?.render?.ok ? s.inspection.render.png : null,
          context: s.judgeContext ?? null,
        })),
        {
          judge: pairJudge,
          pairs: batch.pairs ?? opts.judging?.pairs ?? 'circular',
          intervalLevel: opts.judging?.intervalLevel ?? DEFAULT_STRATEGY.intervalLevel,
          ...(batch.signal ? { signal: batch.signal } : {}),
        },
      );
    },
    async close() {
      await opts.hybrid?.close();
      if (res.ownsCache) await res.cache?.close();
      if (!opts.domains) await res.domains.close();
      if (!opts.renderer) await res.renderer.close();
    },
  };
}

export type { ScoreRecord };

/**
 * The rubric's item titles and keys for the judge_text check: a caption of the criteria is
 * text written for the judge. PrismaForge items have no titles: their criteria and keys.
 */
function rubricTermsOf(
  found: { items: readonly { key: string; title: string }[] } | undefined,
  prisma: PrismaRubric | undefined,
): { rubricTerms?: string[] } {
  const terms = found
    ? found.items.flatMap((it) => [it.title, it.key])
    : prisma
      ? [...prisma.code_items, ...prisma.vision_items].flatMap((it) => [it.criterion, it.key])
      : [];
  return terms.length ? { rubricTerms: terms } : {};
}
