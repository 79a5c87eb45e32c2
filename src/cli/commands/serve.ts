// `rubrica serve`: the reward service for RL trainers (verl, OpenRLHF, TRL, or plain HTTP).
// Thin: parse and check the flags, make the judge client (pre-flight probed) and the hybrid
// rewarder, start the service (src/server/service.ts: scorer, warm-up, HTTP server), and on
// SIGTERM/SIGINT drain in-flight requests before closing everything.
import { availableParallelism } from 'node:os';
import { type Logger, pino } from 'pino';
import { readEnv } from '../../core/env.ts';
import { RubricaError } from '../../core/errors.ts';
import { currentMemoryCap, type DoctorReport, runDoctor } from '../../domains/doctor.ts';
import { memoryCgroupStatus } from '../../domains/sandbox/memory-cgroup.ts';
import type { CircuitEvent } from '../../models/circuit-breaker.ts';
import { createModelClient } from '../../models/client.ts';
import { type HedgeOptions, parseHedgeAfter } from '../../models/hedge.ts';
import type { CallGate } from '../../models/shared-budget.ts';
import { parseModelSpec } from '../../models/spec.ts';
import { parseAlertThresholds } from '../../monitors/alerts.ts';
import { ScorerConfigError } from '../../pipeline/score.ts';
import type { JudgeMode } from '../../pipeline/types.ts';
import { ServerConfigError } from '../../server/config-error.ts';
import { checkExposure } from '../../server/exposure.ts';
import { closeOnSignal, startRewardService } from '../../server/service.ts';
import { addDataRootFlag, dataRootFlag } from '../assets-flag.ts';
import { checkCacheReachable, intOption } from '../flags.ts';
import { addGateFlag, type GateFlags, gateFromFlags } from '../gate-flag.ts';
import { addHtmlFlag, htmlFlagOptions } from '../html-flag.ts';
import { addHybridFlags, type HybridFlags, hybridFromFlags } from '../hybrid-flags.ts';
import { inputFile } from '../input-file.ts';
import { sharedJudgeGate } from '../judge-budget.ts';
import {
  addCalibrationFlag,
  addJudgingFlags,
  addPanelFlags,
  JUDGE_PANEL_HELP,
  type JudgingFlags,
  judgeSpecs,
  judgingFromFlags,
} from '../judging-flags.ts';
import { preflight, preflightPanel } from '../preflight.ts';
import type { RegisterCommand } from '../register.ts';
import { addRelativeFlags } from '../relative-flags.ts';
import { addRendererFlag, parseRenderer } from '../renderer-flag.ts';
import { parseRewardFlag, REWARD_FLAG_HELP, rewardNeeds } from '../reward-flag.ts';
import { UsageError } from '../usage-error.ts';

const MODES: JudgeMode[] = ['joint', 'per-item'];

export const register: RegisterCommand = (program) => {
  const cmd = program
    .command('serve')
    .description('serve rubric rewards over HTTP for RL trainers (verl, OpenRLHF, TRL)')
    .option('--host <host>', 'address to bind (loopback by default)', '127.0.0.1')
    .option('--port <port>', 'port (0 = any free port)', intOption('--port', 0), 8787)
    .option('--rubrics <file>', 'rubrics.jsonl from `rubrica rubric synth` (kept rubrics are used)')
    .option(
      '--judge <spec>',
      `judge model, e.g. vllm:Qwen/Qwen3-VL-8B-Instruct (not needed for hybrid); ${JUDGE_PANEL_HELP}`,
      judgeSpecs,
    )
    .option(
      '--judge-base-url <url>',
      'judge base URL (else RUBRICA_JUDGE_BASE_URL, else provider default)',
    )
    .option('--mode <mode>', 'joint | per-item', 'joint')
    .option('--reward <kinds>', REWARD_FLAG_HELP, 'ruler')
    .option('--token <token>', 'require Authorization: Bearer <token> (else RUBRICA_TOKEN)')
    .option('--insecure', 'serve a non-loopback --host without a token (refused otherwise)')
    .option(
      '--concurrency <n>',
      'judge calls in flight at once (over all replicas when --cache is redis://)',
      intOption('--concurrency', 1),
      32,
    )
    .option(
      '--judge-rpm <n>',
      'judge requests per minute (over all replicas when --cache is redis://; 0: no limit)',
      intOption('--judge-rpm', 0),
      0,
    )
    .option(
      '--judge-tpm <n>',
      'judge tokens per minute (over all replicas when --cache is redis://; 0: no limit)',
      intOption('--judge-tpm', 0),
      0,
    )
    .option(
      '--render-workers <n>',
      'render worker processes (default: cores)',
      intOption('--render-workers', 1),
    )
    .option(
      '--pipeline <n>',
      'rollouts inspected, rendered and judged at once (default max(32, 2×concurrency + 4×workers))',
      intOption('--pipeline', 1),
    )
    .option(
      '--judge-timeout <ms>',
      'per judge attempt, ms',
      intOption('--judge-timeout', 1),
      120_000,
    )
    .option(
      '--judge-retries <n>',
      'judge retries after the first attempt',
      intOption('--judge-retries', 0),
      4,
    )
    .option(
      '--cache <file|url>',
      'answer cache: a SQLite file or redis://host:port/db (shared by replicas)',
      '.rubrica/cache.sqlite',
    )
    .option('--no-cache', 'do not read or write the answer cache')
    .option('--max-items <n>', 'most rollouts in one request', intOption('--max-items', 1), 4096)
    .option(
      '--max-in-flight <n>',
      'most rollouts scored at once (503 above)',
      intOption('--max-in-flight', 1),
      8192,
    )
    .option('--max-body-mb <n>', 'largest request body, MB', intOption('--max-body-mb', 1), 64)
    .option(
      '--max-body-total-mb <n>',
      'request bodies read and parsed at once over all requests, MB (503 above)',
      intOption('--max-body-total-mb', 1),
      128,
    )
    .option(
      '--body-timeout <ms>',
      'drop a request body that sends nothing for this long (408)',
      intOption('--body-timeout', 1),
      30_000,
    )
    .option('--log-level <level>', 'pino level: fatal|error|warn|info|debug', 'info')
    .option(
      '--alerts <list>',
      'reward-health alert thresholds, name=value comma list (docs/probe.md), e.g. flat_group_share=0.5',
    )
    .option('--flat-epsilon <x>', 'rewards within this of each other make a flat group', '0.01')
    .option(
      '--gather-ms <ms>',
      'per-sample routes (OpenRLHF, slime, NeMo Gym): requests arriving within this window are scored as one batch, so a group is scored together (0 = each alone)',
      intOption('--gather-ms', 0),
      20,
    )
    .option(
      '--ors',
      'also serve the OpenReward Standard environment "rubrica" at the root of the port (TRL environment_factory; docs/serve.md)',
    )
    .option(
      '--openenv',
      'also serve the OpenEnv environment "rubrica" (/ws, /reset, /step, …; not with --ors on one port)',
    )
    .option(
      '--ors-session-ttl-s <n>',
      'drop an ORS session idle this long, seconds',
      intOption('--ors-session-ttl-s', 1),
      900,
    )
    .option(
      '--hedge-after-ms <auto|ms|off>',
      'send one identical second judge request (to another --judge-base-url server when there are several) when an attempt is slower than the recent p95 (auto) or this many ms; the first good answer wins',
      'auto',
    )
    .option(
      '--hedge-max-share <share>',
      'hedges as a share of judge requests over a 10 s window',
      '0.05',
    )
    .option(
      '--judge-retry-budget <share>',
      'judge retries may add at most this share of calls over a 10 s window (then a failure is a fault at once); off = only --judge-retries',
      '0.2',
    )
    .option(
      '--deadline-ms <ms>',
      'answer every request by this many ms; a rollout not scored by then is a grader fault (reason deadline) whose work runs on into the cache (default: no deadline)',
      intOption('--deadline-ms', 1),
    )
    .option(
      '--health-window <n>',
      'steps (requests) the running health figures cover',
      intOption('--health-window', 1),
      20,
    );
  addDataRootFlag(cmd);
  cmd.option(
    '--require-cgroup',
    'refuse to start unless each sandbox gets a memory cgroup (not per-process limits only)',
  );
  addJudgingFlags(cmd);
  addPanelFlags(cmd);
  addGateFlag(cmd);
  addCalibrationFlag(cmd);
  addRelativeFlags(cmd);
  addHtmlFlag(addRendererFlag(addHybridFlags(cmd))).action((o) => serve(o));
};

interface ServeFlags extends HybridFlags, JudgingFlags, GateFlags {
  dataRoot?: string;
  renderer?: string;
  htmlFullPage?: boolean;
  host: string;
  port: number;
  rubrics?: string;
  /** Every --judge spec in order (two or more: a panel). */
  judge?: string[];
  judgeBaseUrl?: string;
  mode: JudgeMode;
  reward: string;
  token?: string;
  insecure?: boolean;
  requireCgroup?: boolean;
  concurrency: number;
  judgeRpm: number;
  judgeTpm: number;
  renderWorkers?: number;
  pipeline?: number;
  judgeTimeout: number;
  judgeRetries: number;
  cache: string | false;
  maxItems: number;
  maxInFlight: number;
  maxBodyMb: number;
  maxBodyTotalMb: number;
  bodyTimeout: number;
  logLevel: string;
  alerts?: string;
  flatEpsilon: string;
  healthWindow: number;
  gatherMs: number;
  ors?: boolean;
  openenv?: boolean;
  orsSessionTtlS: number;
  deadlineMs?: number;
  judgeRetryBudget: string;
  hedgeAfterMs: string;
  hedgeMaxShare: string;
}

function healthFlags(o: ServeFlags) {
  const flatEpsilon = Number(o.flatEpsilon);
  if (!Number.isFinite(flatEpsilon) || flatEpsilon < 0)
    throw new UsageError('--flat-epsilon must be a number ≥ 0');
  try {
    return { thresholds: parseAlertThresholds(o.alerts), flatEpsilon, window: o.healthWindow };
  } catch (err) {
    throw new UsageError(`--alerts: ${(err as Error).message}`);
  }
}

/** --judge-retry-budget: a share in [0, 1], or off. */
function retryBudgetFlag(v: string): { ratio: number } | false {
  if (v === 'off') return false;
  const ratio = Number(v);
  if (v.trim() === '' || !Number.isFinite(ratio) || ratio < 0 || ratio > 1)
    throw new UsageError(`--judge-retry-budget must be a share in [0, 1] or off, not "${v}"`);
  return { ratio };
}

/** --hedge-after-ms and --hedge-max-share. */
function hedgeFlags(o: ServeFlags): HedgeOptions {
  const afterMs = parseHedgeAfter(o.hedgeAfterMs);
  if (afterMs === null)
    throw new UsageError(`--hedge-after-ms must be auto, off or a whole number of ms > 0`);
  const maxShare = Number(o.hedgeMaxShare);
  if (o.hedgeMaxShare.trim() === '' || !Number.isFinite(maxShare) || maxShare < 0 || maxShare > 1)
    throw new UsageError('--hedge-max-share must be a share in [0, 1]');
  return { afterMs, maxShare };
}

/**
 * The options every judge client of --judge is made with (a panel's judges share them: the
 * scorer makes the judges after the first from the strategy's specs), circuit changes logged.
 */
function judgeOptions(o: ServeFlags, log: Logger, gate: CallGate | undefined) {
  return {
    baseUrl: o.judgeBaseUrl,
    concurrency: o.concurrency,
    ...(gate ? { gate } : {}),
    timeoutMs: o.judgeTimeout,
    maxRetries: o.judgeRetries,
    retryBudget: retryBudgetFlag(o.judgeRetryBudget),
    hedge: hedgeFlags(o),
    onCircuitChange: (e: CircuitEvent & { model: string; baseUrl: string }) =>
      log[e.state === 'open' ? 'warn' : 'info'](
        { model: e.model, url: e.baseUrl, failures: e.failures, error: e.lastError },
        `judge circuit ${e.state}`,
      ),
  };
}

/** Flag checks that need no model, file read or port: each a usage error (exit 2). */
function checkFlags(o: ServeFlags) {
  const kinds = parseRewardFlag(o.reward);
  const needs = rewardNeeds(kinds);
  const health = healthFlags(o);
  retryBudgetFlag(o.judgeRetryBudget);
  hedgeFlags(o);
  if (!MODES.includes(o.mode)) throw new UsageError(`--mode must be one of ${MODES.join(', ')}`);
  if (needs.rubrics && !o.rubrics) throw new UsageError(`--reward ${o.reward} needs --rubrics`);
  if (o.ors && o.openenv) {
    throw new UsageError(
      '--ors and --openenv both define /health at the root of the port: run one `rubrica serve` per protocol (they can share --cache)',
    );
  }
  if ((o.ors || o.openenv) && !o.rubrics) {
    throw new UsageError(
      `--${o.ors ? 'ors' : 'openenv'} needs --rubrics: its tasks are the rubrics' prompts`,
    );
  }
  if (o.rubrics) inputFile('--rubrics', o.rubrics);
  if (needs.judge && !o.judge) throw new UsageError(`--judge is required for --reward ${o.reward}`);
  for (const spec of o.judge ?? []) {
    try {
      parseModelSpec(spec);
    } catch (err) {
      throw new UsageError(`--judge: ${(err as Error).message}`);
    }
  }
  // An empty RUBRICA_TOKEN is a mistake, not "no token": it is refused like --token ''.
  const token: string | undefined = o.token ?? readEnv('RUBRICA_TOKEN');
  try {
    checkExposure({ host: o.host, token, insecure: o.insecure });
  } catch (err) {
    if (err instanceof ServerConfigError) throw new UsageError(err.message);
    throw err;
  }
  return { kinds, needs, health, token, judging: judgingFromFlags(o), gate: gateFromFlags(o) };
}

async function serve(o: ServeFlags): Promise<void> {
  const { kinds, needs, health, token, judging, gate: gated } = checkFlags(o);
  const log = pino(
    { level: o.logLevel, base: { svc: 'rubrica' } },
    pino.destination({ dest: 2, sync: true }),
  );
  // Which memory cap a sandboxed job gets here (`rubrica doctor` says the rest): logged, and
  // with --require-cgroup a machine that can only bound memory per process is refused.
  const memoryCap = currentMemoryCap();
  if (o.requireCgroup && memoryCap === 'per-process only') {
    throw new UsageError(
      `--require-cgroup: no memory cgroup can be made for a sandbox here (${memoryCgroupStatus().reason}); run \`rubrica doctor\`, or set RUBRICA_CGROUP_ROOT to a delegated cgroup v2 subtree`,
    );
  }
  // The isolation report (`rubrica doctor`: tools, sandboxes, fonts, renderers) runs beside
  // the start-up and never delays "ready": it is logged as one `doctor` line when done and is
  // /readyz's `doctor` field (null until then). Without the warm pools' timings: starting a
  // python zygote and a dot pool only to time them costs ~2 CPU-s at every start, taken from
  // the first training batch (and, in a test suite starting serve a hundred times, minutes);
  // `rubrica doctor` times them.
  let doctorReport: DoctorReport | null = null;
  void runDoctor({ requireCgroup: o.requireCgroup === true, warmPools: false }).then(
    (report) => {
      doctorReport = report;
      log.info({ doctor: report }, 'doctor');
    },
    (err) => log.warn({ err: String(err) }, 'doctor failed'),
  );
  // Loads CLIP / connects image scorers only when the hybrid reward was asked for.
  const hybrid = needs.hybrid ? await hybridFromFlags(o) : undefined;
  await checkCacheReachable(o.cache);
  // A panel's judges draw from the first judge's budget (one server, one --judge-base-url).
  const gate = sharedJudgeGate({ ...o, judge: o.judge?.[0], cache: o.cache });
  const judgeOpts = judgeOptions(o, log, gate);
  const judge = o.judge?.[0]
    ? createModelClient(o.judge[0], { ...judgeOpts, role: 'judge' })
    : undefined;
  // A dead judge is found now, not by the first batch (a panel's: while its quorum is there).
  await preflight(judge, 'judge')
    .then(() =>
      preflightPanel(judging.panel, judging.quorum, (spec) =>
        createModelClient(spec, { ...judgeOpts, role: 'judge' }),
      ),
    )
    .catch(async (err) => {
      await hybrid?.close?.();
      throw err;
    });
  const server = await startRewardService({
    rubrics: o.rubrics,
    judge,
    judgeOptions: judgeOpts,
    judgeConcurrency: o.concurrency,
    reward: kinds,
    mode: o.mode,
    judging,
    gate: gated,
    hybrid,
    renderWorkers: o.renderWorkers ?? availableParallelism(),
    renderer: parseRenderer(o.renderer),
    ...htmlFlagOptions(o),
    ...(o.dataRoot ? { dataRoot: dataRootFlag(o.dataRoot)! } : {}),
    cache: o.cache,
    pipeline: o.pipeline,
    token,
    insecure: o.insecure,
    host: o.host,
    port: o.port,
    logger: log,
    doctor: () => doctorReport,
    health,
    gather: { windowMs: o.gatherMs },
    orsEnabled: Boolean(o.ors),
    openenvEnabled: Boolean(o.openenv),
    orsSessionTtlMs: o.orsSessionTtlS * 1000,
    ...(o.deadlineMs ? { deadlineMs: o.deadlineMs } : {}),
    limits: {
      maxItemsPerRequest: o.maxItems,
      maxInFlight: o.maxInFlight,
      maxBodyBytes: o.maxBodyMb * 1024 * 1024,
      maxBodyBytesInFlight: o.maxBodyTotalMb * 1024 * 1024,
      bodyIdleTimeoutMs: o.bodyTimeout,
    },
  }).catch((err) => {
    // A scorer that cannot work as configured is a usage error; a damaged cache or a port in
    // use is not (exit 1).
    if (err instanceof RubricaError && !(err instanceof ScorerConfigError)) throw err;
    throw new UsageError((err as Error).message);
  });
  log.info(
    {
      url: server.url,
      judge: o.judge,
      reward: kinds,
      mode: o.mode,
      auth: Boolean(token),
      memory_cap: memoryCap,
    },
    'ready',
  );
  if (!(await closeOnSignal(server, log))) process.exitCode = 1;
  await gate?.close();
  // Everything is closed; a lingering keep-alive socket must not hold the process open.
  setTimeout(() => process.exit(process.exitCode ?? 0), 3000).unref();
}
