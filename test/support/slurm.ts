// A real Slurm cluster on localhost for tests: Debian's slurm-wlm (slurmctld and one slurmd)
// authenticated by munge, all three started by the test in a temp dir of their own — own munge
// key and socket, generated slurm.conf, own ports, state and spool — never the system
// services. No systemd and no cgroups (containers rarely have them): processes are tracked by
// walking /proc (proctrack/linuxproc) and nothing is confined (task/none). stop() cancels every
// job, stops the daemons and kills whatever is still running with this cluster's slurm.conf in
// its environment (job steps outlive slurmd), so a failing test leaves nothing behind.
import { type ChildProcess, execFileSync, spawn, spawnSync } from 'node:child_process';
import {
  chmodSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { hostname, tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort } from './redis-server.ts';

export interface SlurmCluster {
  /** The temp dir holding the key, the socket, slurm.conf, state, spool and the daemons' logs. */
  dir: string;
  /** The environment a client (sbatch, scontrol, …) needs to talk to this cluster. */
  env: Record<string, string>;
  /** Runs a Slurm client command against this cluster; throws with its stderr when it fails. */
  run(cmd: string, args: string[], opts?: { cwd?: string; env?: Record<string, string> }): string;
  /** `scontrol show job -o ID` as key → value (JobState, Restarts, Reason, ExitCode, …). */
  job(id: string): Record<string, string>;
  /** The daemons' logs, for an assertion message. */
  logs(): string;
  /** Cancels all jobs, stops the daemons, kills leftovers, removes the temp dir. */
  stop(): Promise<void>;
}

/** Seconds a requeued job waits before it may start again (Slurm's default is 120). */
export const CRED_EXPIRE_S = 10;

const NODE = 'rubrica-node';
const BINARIES = ['munged', 'mungekey', 'slurmctld', 'slurmd', 'sbatch', 'scontrol', 'squeue'];

// The daemons and mungekey live in /usr/sbin, which a non-login PATH may lack.
const PATH = `${process.env.PATH ?? '/usr/bin:/bin'}:/usr/sbin:/sbin`;

function which(bin: string): boolean {
  return spawnSync('sh', ['-c', `command -v ${bin}`], { env: { PATH } }).status === 0;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function until(what: string, ok: () => boolean, ms: number, log: () => string) {
  const t0 = Date.now();
  while (!ok()) {
    if (Date.now() - t0 > ms) throw new Error(`${what} within ${ms} ms\n${log()}`);
    await sleep(200);
  }
}

/** The CPUs slurmd finds on this machine (`slurmd -C`): the node is declared with exactly those. */
function detectedCpus(): number {
  const out = execFileSync('slurmd', ['-C'], { encoding: 'utf8', env: { PATH } });
  const m = /\bCPUs=(\d+)/.exec(out);
  if (!m) throw new Error(`slurmd -C printed no CPUs=: ${out}`);
  return Number(m[1]);
}

function slurmConf(dir: string, ctldPort: number, slurmdPort: number, cpus: number): string {
  // SlurmctldHost must be this machine's short name (slurmctld refuses to run elsewhere); the
  // address in parentheses keeps every connection on loopback.
  const host = hostname().split('.')[0];
  return `${[
    'ClusterName=rubricatest',
    `SlurmctldHost=${host}(127.0.0.1)`,
    `SlurmctldPort=${ctldPort}`,
    `SlurmdPort=${slurmdPort}`,
    'SlurmUser=root',
    'SlurmdUser=root',
    'AuthType=auth/munge',
    'CredType=cred/munge',
    // Our munged's socket; cred_expire is also how long a requeued job waits to start again.
    `AuthInfo=socket=${join(dir, 'munge.sock')},cred_expire=${CRED_EXPIRE_S}`,
    `StateSaveLocation=${join(dir, 'state')}`,
    `SlurmdSpoolDir=${join(dir, 'spool')}`,
    `SlurmctldPidFile=${join(dir, 'slurmctld.pid')}`,
    `SlurmdPidFile=${join(dir, 'slurmd.pid')}`,
    `PlugStackConfig=${join(dir, 'plugstack.conf')}`,
    'ProctrackType=proctrack/linuxproc',
    'TaskPlugin=task/none',
    'JobAcctGatherType=jobacct_gather/none',
    'AccountingStorageType=accounting_storage/none',
    'JobCompType=jobcomp/none',
    'SelectType=select/cons_tres',
    'SelectTypeParameters=CR_CPU',
    'SchedulerType=sched/builtin',
    // The main loop every second (default 60 s), so a requeued task starts once it may.
    'SchedulerParameters=sched_interval=1',
    'MpiDefault=none',
    'MailProg=/bin/true',
    'ReturnToService=2',
    // Seconds between SIGTERM and SIGKILL when a job is cancelled or requeued (default 30).
    'KillWait=5',
    `NodeName=${NODE} NodeAddr=127.0.0.1 CPUs=${cpus} State=UNKNOWN`,
    `PartitionName=test Nodes=${NODE} Default=YES MaxTime=INFINITE State=UP`,
  ].join('\n')}\n`;
}

/** Pids of processes (other than this one) whose environment names this cluster's slurm.conf. */
function pidsWithConf(conf: string): number[] {
  const needle = Buffer.from(`SLURM_CONF=${conf}\0`);
  const pids: number[] = [];
  for (const name of readdirSync('/proc')) {
    const pid = Number(name);
    if (!Number.isInteger(pid) || pid === process.pid) continue;
    try {
      if (readFileSync(`/proc/${pid}/environ`).includes(needle)) pids.push(pid);
    } catch {
      // gone, or not ours to read
    }
  }
  return pids;
}

/** Starts munged, slurmctld and slurmd and resolves once the node is idle. */
export async function startSlurm(): Promise<SlurmCluster> {
  const missing = BINARIES.filter((b) => !which(b));
  if (missing.length > 0)
    throw new Error(
      `Slurm test: ${missing.join(', ')} not found; install them with scripts/setup-debian.sh (slurm-wlm, munge)`,
    );
  const dir = mkdtempSync(join(tmpdir(), 'rubrica-slurm-'));
  // munged refuses a socket in a directory that others cannot traverse (mkdtemp gives 0700).
  chmodSync(dir, 0o755);
  for (const d of ['state', 'spool']) mkdirSync(join(dir, d));
  writeFileSync(join(dir, 'plugstack.conf'), '');
  const conf = join(dir, 'slurm.conf');
  writeFileSync(conf, slurmConf(dir, await freePort(), await freePort(), detectedCpus()));
  const env: Record<string, string> = { SLURM_CONF: conf };
  const daemonEnv = { ...process.env, PATH, ...env };

  const daemons: ChildProcess[] = [];
  const daemon = (bin: string, args: string[], log: string) => {
    const child = spawn(bin, args, { env: daemonEnv, stdio: ['ignore', 'pipe', 'pipe'] });
    let text = '';
    const keep = (d: Buffer) => {
      text += d.toString();
      writeFileSync(join(dir, log), text);
    };
    child.stdout?.on('data', keep);
    child.stderr?.on('data', keep);
    daemons.push(child);
    return child;
  };
  const logs = () =>
    ['munged.log', 'slurmctld.log', 'slurmd.log']
      .map((f) => {
        const p = join(dir, f);
        return existsSync(p) ? `--- ${f}\n${readFileSync(p, 'utf8').slice(-4000)}` : '';
      })
      .join('\n');
  const ok = (cmd: string, args: string[]) =>
    spawnSync(cmd, args, { env: daemonEnv, encoding: 'utf8' }).status === 0;
  const out = (cmd: string, args: string[]) =>
    spawnSync(cmd, args, { env: daemonEnv, encoding: 'utf8' }).stdout ?? '';

  // Should the test process die without afterAll (SIGKILL aside), the daemons die with it.
  const onExit = () => {
    for (const c of daemons) if (c.exitCode === null) c.kill('SIGKILL');
    for (const pid of pidsWithConf(conf)) {
      try {
        process.kill(pid, 'SIGKILL');
      } catch {}
    }
  };
  process.once('exit', onExit);

  let stopped = false;
  const stop = async () => {
    if (stopped) return;
    stopped = true;
    try {
      // Job steps belong to slurmstepd, not to slurmd: cancel them while the controller runs.
      if (ok('scontrol', ['ping'])) {
        spawnSync('scancel', ['--user', 'root'], { env: daemonEnv });
        const t0 = Date.now();
        while (out('squeue', ['-h']).trim() !== '' && Date.now() - t0 < 20_000) await sleep(200);
      }
      for (const c of daemons) if (c.exitCode === null) c.kill('SIGTERM');
      const t0 = Date.now();
      while (daemons.some((c) => c.exitCode === null && c.signalCode === null)) {
        if (Date.now() - t0 > 10_000) for (const c of daemons) c.kill('SIGKILL');
        await sleep(100);
      }
      for (const pid of pidsWithConf(conf)) {
        try {
          process.kill(pid, 'SIGKILL');
        } catch {}
      }
    } finally {
      process.removeListener('exit', onExit);
      rmSync(dir, { recursive: true, force: true });
    }
  };

  try {
    execFileSync('mungekey', ['--create', '--keyfile', join(dir, 'munge.key')], { env: daemonEnv });
    const sock = join(dir, 'munge.sock');
    daemon(
      'munged',
      [
        '--foreground',
        `--socket=${sock}`,
        `--key-file=${join(dir, 'munge.key')}`,
        `--pid-file=${join(dir, 'munged.pid')}`,
        `--seed-file=${join(dir, 'munged.seed')}`,
        `--log-file=${join(dir, 'munged.file.log')}`,
      ],
      'munged.log',
    );
    await until('munged did not answer', () => ok('munge', ['-n', '-S', sock]), 10_000, logs);
    daemon('slurmctld', ['-D', '-i'], 'slurmctld.log');
    await until('slurmctld did not answer', () => ok('scontrol', ['ping']), 20_000, logs);
    daemon('slurmd', ['-D', '-N', NODE], 'slurmd.log');
    await until(
      'the node did not come up idle',
      () => out('sinfo', ['-h', '-N', '-o', '%T']).trim() === 'idle',
      20_000,
      logs,
    );
  } catch (err) {
    await stop();
    throw err;
  }

  return {
    dir,
    env,
    logs,
    stop,
    run(cmd, args, opts = {}) {
      const r = spawnSync(cmd, args, {
        cwd: opts.cwd,
        env: { ...daemonEnv, ...opts.env },
        encoding: 'utf8',
      });
      if (r.status !== 0)
        throw new Error(`${cmd} ${args.join(' ')} exited ${r.status}: ${r.stderr}${r.error ?? ''}`);
      return r.stdout;
    },
    job(id) {
      const line = out('scontrol', ['show', 'job', '-o', id]).trim();
      const fields: Record<string, string> = {};
      for (const m of line.matchAll(/(\w+)=(\S*)/g)) fields[m[1]!] ??= m[2]!;
      return fields;
    },
  };
}
