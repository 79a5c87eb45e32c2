// The flags that configure the hybrid reward, shared by `score`, `serve` and `eval`: add them
// with addHybridFlags(command), then build the rewarder with hybridFromFlags(flags) when
// `--reward hybrid` was asked for. Bad combinations are usage errors (exit 2).
import type { Command } from 'commander';
import {
  createHybridRewarder,
  type HybridConfig,
  type HybridLambdas,
  type ThinkMode,
} from '../reward/hybrid.ts';
import { loadAestheticHead } from '../scorers/aesthetic-head.ts';
import { ClipLoadError, type ClipModel, loadClipModel } from '../scorers/clip-model.ts';
import { createClipSemanticScorer, createLaionAestheticScorer } from '../scorers/clip-scorers.ts';
import { createHttpScorer } from '../scorers/http-scorer.ts';
import type { ImageScorer } from '../scorers/types.ts';
import { inputFile } from './input-file.ts';
import { UsageError } from './usage-error.ts';

export interface HybridFlags {
  clipModel?: string;
  allowRemoteModels?: boolean;
  aestheticWeights?: string;
  scorerUrl?: string;
  scorerFor?: string;
  scorerName?: string;
  scorerRange?: string;
  scorerTimeout?: string;
  scorerBatch?: string;
  lambdaThink?: string;
  lambdaRender?: string;
  lambdaSemantic?: string;
  lambdaAesthetic?: string;
  thinkMode?: string;
}

export function addHybridFlags(cmd: Command): Command {
  return cmd
    .option(
      '--clip-model <dir>',
      'hybrid: CLIP model folder (Xenova/clip-vit-large-patch14 layout) for R_semantic',
    )
    .option(
      '--allow-remote-models',
      'hybrid: let --clip-model be a Hugging Face id downloaded on first use',
    )
    .option(
      '--aesthetic-weights <file>',
      'hybrid: LAION aesthetic head weights (JSON) for R_aesthetic, on --clip-model',
    )
    .option(
      '--scorer-url <url>',
      'hybrid: HTTP image-scorer service (e.g. HPSv2, integrations/python/scorer_server.py)',
    )
    .option(
      '--scorer-for <term>',
      'hybrid: which term the --scorer-url serves: aesthetic | semantic',
      'aesthetic',
    )
    .option('--scorer-name <name>', 'hybrid: name shown for the --scorer-url scorer', 'http')
    .option(
      '--scorer-range <lo,hi>',
      'hybrid: raw scale of the service scores, mapped to [0,1] (default: as is)',
    )
    .option('--scorer-timeout <ms>', 'hybrid: per-request timeout of the scorer service', '60000')
    .option('--scorer-batch <n>', 'hybrid: images per request to the scorer service', '16')
    .option('--lambda-think <x>', 'hybrid: weight of R_think (default 0.1)')
    .option('--lambda-render <x>', 'hybrid: weight of R_render (default 0.1)')
    .option('--lambda-semantic <x>', 'hybrid: weight of R_semantic (default 0.6)')
    .option('--lambda-aesthetic <x>', 'hybrid: weight of R_aesthetic (default 0.2)')
    .option(
      '--think-mode <mode>',
      'hybrid: R_think as graded (stages in order ÷ 6) | binary (valid DwT)',
      'graded',
    );
}

function num(flag: string, v: string | undefined): number | undefined {
  if (v === undefined) return undefined;
  const n = Number(v);
  if (v.trim() === '' || !Number.isFinite(n))
    throw new UsageError(`${flag} must be a number, not ${JSON.stringify(v)}`);
  return n;
}

function positiveInt(flag: string, v: string | undefined, dflt: number): number {
  const n = num(flag, v) ?? dflt;
  if (!Number.isInteger(n) || n < 1) throw new UsageError(`${flag} must be an integer ≥ 1`);
  return n;
}

function parseRange(v: string | undefined): [number, number] | undefined {
  if (v === undefined) return undefined;
  const parts = v.split(',').map((s) => Number(s.trim()));
  if (parts.length !== 2 || parts.some((x) => !Number.isFinite(x)) || parts[0]! >= parts[1]!)
    throw new UsageError(`--scorer-range must be "lo,hi" with lo < hi, not ${JSON.stringify(v)}`);
  return [parts[0]!, parts[1]!];
}

/** What the flags describe, without loading anything (for validation and messages). */
export function hybridPlan(f: HybridFlags) {
  const lambdas: Partial<HybridLambdas> = {};
  const set = (k: keyof HybridLambdas, flag: string, v: string | undefined) => {
    const n = num(flag, v);
    if (n !== undefined) lambdas[k] = n;
  };
  set('think', '--lambda-think', f.lambdaThink);
  set('render', '--lambda-render', f.lambdaRender);
  set('semantic', '--lambda-semantic', f.lambdaSemantic);
  set('aesthetic', '--lambda-aesthetic', f.lambdaAesthetic);
  const think = (f.thinkMode ?? 'graded') as ThinkMode;
  if (think !== 'graded' && think !== 'binary')
    throw new UsageError('--think-mode must be graded or binary');
  const scorerFor = f.scorerFor ?? 'aesthetic';
  if (scorerFor !== 'aesthetic' && scorerFor !== 'semantic')
    throw new UsageError('--scorer-for must be aesthetic or semantic');
  if (f.aestheticWeights && !f.clipModel)
    throw new UsageError(
      '--aesthetic-weights needs --clip-model (the head reads CLIP image embeddings)',
    );
  // Checked before the CLIP model loads: a FIFO here blocked readFileSync for ever (issue 35).
  if (f.aestheticWeights) inputFile('--aesthetic-weights', f.aestheticWeights);
  if (f.scorerUrl && scorerFor === 'semantic' && f.clipModel)
    throw new UsageError('both --clip-model and --scorer-url serve the semantic term; pick one');
  if (f.scorerUrl && scorerFor === 'aesthetic' && f.aestheticWeights)
    throw new UsageError(
      'both --aesthetic-weights and --scorer-url serve the aesthetic term; pick one',
    );
  if (f.scorerUrl && !/^https?:\/\//.test(f.scorerUrl))
    throw new UsageError('--scorer-url must be an http(s) URL');
  return { lambdas, think, scorerFor, range: parseRange(f.scorerRange) };
}

/** Loads the scorers the flags name and returns the rewarder for createRolloutScorer's `hybrid`. */
export async function hybridFromFlags(f: HybridFlags) {
  const plan = hybridPlan(f);
  let clip: ClipModel | undefined;
  const config: HybridConfig = { lambdas: plan.lambdas, think: plan.think };
  if (f.clipModel) {
    try {
      clip = await loadClipModel({ model: f.clipModel, allowRemote: Boolean(f.allowRemoteModels) });
    } catch (err) {
      if (err instanceof ClipLoadError) throw new UsageError(`--clip-model: ${err.message}`);
      throw err;
    }
    config.semantic = createClipSemanticScorer(clip);
    if (f.aestheticWeights) {
      const head = loadAestheticHead(f.aestheticWeights);
      if (!head.ok) throw new UsageError(`--aesthetic-weights: ${head.error.message}`);
      config.aesthetic = createLaionAestheticScorer(clip, head.head);
    }
  }
  if (f.scorerUrl) {
    const http: ImageScorer = createHttpScorer({
      url: f.scorerUrl,
      name: f.scorerName ?? 'http',
      range: plan.range,
      timeoutMs: positiveInt('--scorer-timeout', f.scorerTimeout, 60_000),
      maxBatch: positiveInt('--scorer-batch', f.scorerBatch, 16),
    });
    config[plan.scorerFor as 'semantic' | 'aesthetic'] = http;
  }
  try {
    return createHybridRewarder(config, { onClose: async () => clip?.close() });
  } catch (err) {
    await clip?.close();
    throw new UsageError(`--reward hybrid: ${(err as Error).message}`);
  }
}
