// Progress of long JSONL runs on stderr: count, rate, ETA, grader faults so far and the
// running cost of model calls. On a terminal it is a cli-progress bar (which hides the
// cursor and turns line wrap off until stop(): callers stop it on Ctrl-C too). Off a
// terminal (nohup, Slurm, CI logs) a bar would be invisible until the end, so one plain
// line is printed at a steady interval instead (RUBRICA_PROGRESS_INTERVAL_MS, default 30 s;
// 0 turns it off), plus one at the end.
import cliProgress from 'cli-progress';
import { readEnv } from '../core/env.ts';
import type { Usage } from '../core/usage.ts';

export interface RunProgress {
  /** One item written; `fault` names its grader fault, if any. */
  tick(usage: Usage, fault?: string | null): void;
  /** Items found already done (they count towards the total, not the rate). */
  skip(n?: number): void;
  /** Grader faults so far, by reason. */
  readonly faults: Readonly<Record<string, number>>;
  stop(): void;
}

export interface ProgressOptions {
  /** Draw a bar (a terminal). Default: stderr is a TTY. */
  tty?: boolean;
  /** Plain-line interval off a terminal, ms. Default RUBRICA_PROGRESS_INTERVAL_MS or 30000. */
  intervalMs?: number;
  /** Where plain lines go (tests). Default stderr. */
  write?: (line: string) => void;
  /**
   * The total is an estimate (a shard's share of the input, about 1/N): shown as `~N`, and
   * raised when the run goes past it, so the count never reads more than 100 %.
   */
  estimated?: boolean;
}

function money(usd: number | null): string {
  return usd === null ? 'n/a' : `$${usd.toFixed(usd < 1 ? 4 : 2)}`;
}

export function formatDuration(secs: number): string {
  if (!Number.isFinite(secs)) return '?';
  const s = Math.round(secs);
  const h = Math.floor(s / 3600);
  const m = Math.floor((s % 3600) / 60);
  if (h) return `${h}h${String(m).padStart(2, '0')}m`;
  if (m) return `${m}m${String(s % 60).padStart(2, '0')}s`;
  return `${s}s`;
}

function defaultInterval(): number {
  const raw = readEnv('RUBRICA_PROGRESS_INTERVAL_MS');
  const n = raw === undefined || raw === '' ? Number.NaN : Number(raw);
  return Number.isFinite(n) && n >= 0 ? n : 30_000;
}

export function createRunProgress(
  label: string,
  estimate: number,
  opts: ProgressOptions = {},
): RunProgress {
  let total = estimate;
  const tty = opts.tty ?? Boolean(process.stderr.isTTY);
  const start = Date.now();
  const faults: Record<string, number> = {};
  let cost: number | null = 0;
  let done = 0; // written by this run
  let skipped = 0;
  let stopped = false;
  const faultCount = () => Object.values(faults).reduce((a, b) => a + b, 0);
  const rate = () => done / Math.max(0.001, (Date.now() - start) / 1000);
  const faultText = () => {
    const n = faultCount();
    return n === 0
      ? 'no grader faults'
      : `grader faults ${n} (${Object.entries(faults)
          .map(([k, v]) => `${k} ${v}`)
          .join(', ')})`;
  };
  // Skipped (already done) items are not work: the rate and ETA count written ones only.
  const eta = () => {
    const left = Math.max(0, total - done - skipped);
    const r = rate();
    return left === 0 ? '0s' : r > 0 ? formatDuration(left / r) : '?';
  };
  // An estimate the run has reached is at least one item short (the run goes on), and the
  // whole count once it has ended.
  const follow = () => {
    if (opts.estimated && done + skipped >= total) total = done + skipped + (stopped ? 0 : 1);
  };
  const line = () => {
    follow();
    const value = done + skipped;
    const pct = total > 0 ? ` (${((100 * value) / total).toFixed(1)}%)` : '';
    const r = rate();
    const of = opts.estimated ? `~${total}` : String(total);
    return `${label}: ${value}/${of}${pct} · ${r.toFixed(1)}/s · ETA ${eta()} · ${faultText()} · cost ${money(cost)} · ${formatDuration((Date.now() - start) / 1000)} elapsed`;
  };
  const account = (usage: Usage, fault?: string | null) => {
    done++;
    cost = cost === null || usage.costUsd === null ? null : cost + usage.costUsd;
    if (fault) faults[fault] = (faults[fault] ?? 0) + 1;
  };

  if (!tty) {
    const write = opts.write ?? ((s: string) => process.stderr.write(`${s}\n`));
    const every = opts.intervalMs ?? defaultInterval();
    const timer = every > 0 && total > 0 ? setInterval(() => write(line()), every) : null;
    timer?.unref();
    return {
      faults,
      tick: account,
      skip(n = 1) {
        skipped += n;
      },
      stop() {
        if (stopped) return;
        stopped = true;
        if (timer) {
          clearInterval(timer);
          // A closing line, unless the run ended before doing anything (a refused input).
          if (done + skipped > 0) write(line());
        }
      },
    };
  }

  if (total === 0) return { faults, tick: account, skip() {}, stop() {} };
  const bar = new cliProgress.SingleBar(
    {
      stream: process.stderr,
      format: `${label} [{bar}] {value}/{total} | {rate}/s | ETA {eta} | {faults} | cost {cost}`,
      hideCursor: true,
    },
    cliProgress.Presets.shades_classic,
  );
  bar.start(total, 0, { rate: '0.0', cost: money(0), faults: faultText(), eta: '?' });
  const redraw = () => {
    const before = total;
    follow();
    if (total !== before) bar.setTotal(total);
    bar.update(done + skipped, {
      rate: rate().toFixed(1),
      cost: money(cost),
      faults: faultText(),
      eta: eta(),
    });
  };
  return {
    faults,
    tick(usage, fault) {
      account(usage, fault);
      redraw();
    },
    skip(n = 1) {
      skipped += n;
      redraw();
    },
    stop() {
      if (stopped) return;
      stopped = true;
      // Restores the cursor and line wrap.
      bar.stop();
    },
  };
}
