// Block-interleaved `--against REF` (bench:render `--blocks B`): both sides run at the same
// time as long-lived, warm processes, and take turns on blocks of B files — candidate, REF,
// REF, candidate, … — each block's CPU measured to the nanosecond (proc-cpu.ts). A pair of
// blocks is seconds apart, not a minute as whole runs are, so the load of a shared machine
// moves both halves of a pair alike. Measured on 2 cores at load 15–20 (docs/rendering.md,
// "Comparing against a commit"): whole runs alternated round by round gave per-round ratios
// ±20 % apart and could not see a 5 % slowdown in 12 rounds; this is what can.
//
// The unit of the verdict is the round, and each round runs on a fresh pair of processes
// (`fresh`, default every round). A process has a speed of its own that lasts as long as it
// lives (where V8 and the allocator placed its code and heap, which JIT tiers it took): with
// the same two processes for the whole run, every block pair shares that offset, and the
// interval over block pairs — hundreds of them — is too narrow to hold it. A/A runs on
// 2 cores read 0.958× [0.930, 0.986] and 1.029× [1.006, 1.053]: "faster" and "slower" for one
// commit against itself (docs/rendering.md, "Comparing against a commit"). Restarted every
// round, each side from a fresh copy of its tree (side-copy.ts: the checkout a side ran from
// moved the speed too), those offsets become part of the round-to-round spread the interval
// is built from.
// The interval over block pairs is still printed, as "within rounds": it says how steady the
// load was, not whether the commit changed the speed.
// `--blocks` without `--against` runs the same with CairoSVG as the other side
// (cairosvg-blocks.ts): the per-core ratio to CairoSVG, paired block by block.
import { spawn } from 'node:child_process';
import { createInterface } from 'node:readline';
import type { Side } from './compare-ref.ts';
import { formatInterval, type RatioInterval, ratioInterval } from './compare-stats.ts';
import { copySide } from './side-copy.ts';

export interface BlockMeasure {
  files: number;
  failed: number;
  cpuS: number;
  wallS: number;
  /** Workers started during the block: their predecessors' CPU is lost, the pair is dropped. */
  respawned?: number;
}

interface BlockServer {
  run: (from: number, to: number) => Promise<BlockMeasure>;
  close: () => void;
}

/**
 * Starts one side's block server (`node args…` in cwd) and waits for it to be warm. Every
 * wait has a deadline: start-up `startMs`, each block `blockMs`; past it the process is
 * killed and the comparison fails with the reason.
 */
function startServer(
  args: string[],
  cwd: string,
  startMs: number,
  blockMs: number,
): Promise<BlockServer> {
  const p = spawn(process.execPath, args, { cwd, stdio: ['pipe', 'pipe', 'inherit'] });
  const lines = createInterface({ input: p.stdout })[Symbol.asyncIterator]();
  const next = async (ms: number, what: string): Promise<Record<string, unknown>> => {
    let timer: NodeJS.Timeout | undefined;
    const deadline = new Promise<never>((_, reject) => {
      timer = setTimeout(() => {
        p.kill('SIGKILL');
        reject(new Error(`block server (${cwd}): no answer to ${what} within ${ms} ms`));
      }, ms);
    });
    try {
      const r = await Promise.race([lines.next(), deadline]);
      if (r.done) throw new Error(`block server (${cwd}) exited during ${what}`);
      return JSON.parse(r.value) as Record<string, unknown>;
    } finally {
      clearTimeout(timer);
    }
  };
  return next(startMs, 'start-up').then(() => ({
    run: async (from, to) => {
      p.stdin.write(`${JSON.stringify({ from, to })}\n`);
      return (await next(blockMs, `block ${from}–${to}`)) as unknown as BlockMeasure;
    },
    close: () => {
      p.stdin.end();
      setTimeout(() => p.kill('SIGKILL'), 30_000).unref();
    },
  }));
}

export interface BlockCompare {
  label: string;
  /** Arguments of the side's block server (after `node`), e.g. `--import tsx render-blocks.ts --src DIR`. */
  args: (side: Side) => string[];
  files: number;
  block: number;
  rounds: number;
  /** Rounds each pair of processes lives (1: fresh processes every round; 0: one pair for the run). */
  fresh?: number;
}

type Name = 'candidate' | 'ref';
type Servers = Record<Name, BlockServer> & { stop: () => void };

/**
 * Both sides' servers, each from a fresh copy of its tree (side-copy.ts) so that nothing but
 * the code differs between them; the side started first alternates, so neither always warms
 * on a quieter machine. `stop` closes both and removes the copies.
 */
async function startBoth(
  c: BlockCompare,
  sides: { candidate: Side; ref: Side },
  first: 'candidate' | 'ref',
  startMs: number,
  blockMs: number,
): Promise<Servers> {
  const order =
    first === 'candidate' ? (['candidate', 'ref'] as const) : (['ref', 'candidate'] as const);
  const got: Partial<Record<'candidate' | 'ref', BlockServer>> = {};
  const copies: ReturnType<typeof copySide>[] = [];
  const stop = () => {
    for (const s of order) got[s]?.close();
    // The servers exit once their stdin closes; the copy goes after them.
    const removeAll = () => {
      for (const k of copies) k.remove();
    };
    setTimeout(removeAll, 5_000).unref();
    process.once('exit', removeAll);
  };
  try {
    for (const s of order) {
      const copy = copySide(sides[s]);
      copies.push(copy);
      got[s] = await startServer(c.args(copy.side), copy.side.dir, startMs, blockMs);
    }
  } catch (e) {
    stop();
    throw e;
  }
  return { candidate: got.candidate!, ref: got.ref!, stop };
}

/** Runs the comparison and prints per round, the interval so far, and the final verdict. */
export async function compareBlocks(
  c: BlockCompare,
  sides: { candidate: Side; ref: Side },
  { startMs = 10 * 60_000, blockMs = 10 * 60_000 } = {},
): Promise<RatioInterval> {
  const fresh = c.fresh ?? 1;
  let servers: Servers | undefined;
  const pairs = { candidate: [] as number[], ref: [] as number[] };
  const wall = { candidate: [] as number[], ref: [] as number[] };
  const rounds = { candidate: [] as number[], ref: [] as number[] };
  // Per stretch of rounds one pair of processes lived (one round by default): CPU and wall
  // seconds per side and files, for the verdict.
  const stretches: { cpu: Record<Name, number>; wall: Record<Name, number>; files: number }[] = [];
  console.log(
    `candidate ${sides.candidate.commit} against REF ${sides.ref.commit}: ${c.label}, ` +
      `blocks of ${c.block} files taking turns, ${c.rounds} rounds of ${c.files} files, ` +
      (fresh > 0
        ? `fresh processes every ${fresh > 1 ? `${fresh} rounds` : 'round'}`
        : 'one pair of processes for the whole run'),
  );
  let dropped = 0;
  try {
    for (let round = 1; round <= c.rounds; round++) {
      if (!servers || (fresh > 0 && (round - 1) % fresh === 0)) {
        servers?.stop();
        servers = undefined;
        servers = await startBoth(c, sides, round % 2 ? 'candidate' : 'ref', startMs, blockMs);
        stretches.push({ cpu: { candidate: 0, ref: 0 }, wall: { candidate: 0, ref: 0 }, files: 0 });
      }
      const stretch = stretches.at(-1)!;
      const live = servers;
      const sum = { candidate: 0, ref: 0 };
      let counted = 0;
      for (let from = 0; from < c.files; from += c.block) {
        const to = Math.min(c.files, from + c.block);
        // ABBA: the order flips every pair, so neither side always runs second (warmer
        // caches, or the other side's leftover load). The side that opens a round — the first
        // block after both warmed up and waited — alternates every two rounds, and the side
        // started first every round, so over four rounds each side opens once for each start
        // order: with a round of an even number of pairs opened always by the candidate, it
        // alone took whatever the first block after start-up costs.
        const opener = Math.floor((round - 1) / 2) % 2 === 0;
        const order =
          ((from / c.block) % 2 === 0) === opener
            ? (['candidate', 'ref'] as const)
            : (['ref', 'candidate'] as const);
        const got: Partial<Record<'candidate' | 'ref', BlockMeasure>> = {};
        for (const s of order) {
          const m = await live[s].run(from, to);
          if (m.failed) throw new Error(`${s} failed ${m.failed} of ${m.files} files`);
          got[s] = m;
        }
        if (got.candidate!.respawned || got.ref!.respawned) {
          dropped++;
          continue;
        }
        for (const s of order) {
          pairs[s].push(got[s]!.cpuS / got[s]!.files);
          wall[s].push(got[s]!.wallS / got[s]!.files);
          sum[s] += got[s]!.cpuS;
          stretch.cpu[s] += got[s]!.cpuS;
          stretch.wall[s] += got[s]!.wallS;
        }
        counted += to - from;
        stretch.files += to - from;
      }
      if (counted === 0) continue;
      rounds.candidate.push(sum.candidate / counted);
      rounds.ref.push(sum.ref / counted);
      const ms = (x: number) => (1000 * x).toFixed(2);
      console.log(
        `round ${round}: candidate ${ms(sum.candidate / counted)} CPU-ms/file, REF ${ms(sum.ref / counted)}` +
          (rounds.candidate.length >= 2
            ? `; so far CPU ${formatInterval(ratioInterval(rounds.candidate, rounds.ref))}`
            : ''),
      );
    }
  } finally {
    servers?.stop();
  }
  console.log(`\ncandidate/REF cost per file (< 1: candidate faster), 95 % interval:`);
  if (dropped)
    console.log(`(${dropped} block pairs dropped: a worker was started during the block)`);
  console.log(c.label);
  // With fresh processes the stretch a pair of processes lived (a round by default) is the
  // unit that repeats everything that varies: the processes, their copies, the load. With
  // one pair for the run only the block pair is, and the verdict is over pairs, as before
  // `fresh` existed, with the caveat above.
  const byPair = ratioInterval(pairs.candidate, pairs.ref);
  const live = stretches.filter((t) => t.files > 0);
  const per = (what: 'cpu' | 'wall', s: Name) => live.map((t) => t[what][s] / t.files);
  const unit = fresh > 1 ? 'process pair' : 'round';
  const cpu = fresh > 0 ? ratioInterval(per('cpu', 'candidate'), per('cpu', 'ref')) : byPair;
  const wallIv =
    fresh > 0
      ? ratioInterval(per('wall', 'candidate'), per('wall', 'ref'))
      : ratioInterval(wall.candidate, wall.ref);
  console.log(
    `  CPU (all processes):      ${formatInterval(cpu, fresh > 0 ? unit : 'block pair')}`,
  );
  console.log(
    fresh > 0
      ? `  CPU, within rounds:       ${formatInterval(byPair, 'block pair')} (load steadiness only: pairs share their processes)`
      : `  CPU, by whole round:      ${formatInterval(ratioInterval(rounds.candidate, rounds.ref))}`,
  );
  console.log(
    `  wall:                     ${formatInterval(wallIv, fresh > 0 ? unit : 'block pair')}`,
  );
  return cpu;
}
