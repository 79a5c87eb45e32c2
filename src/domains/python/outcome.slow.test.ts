// The python sandbox attacked on its OUTCOME, the way a job trained against it would (issue
// 22, items 1–2): a job may fail however it likes, but it can never make its failure a grader
// fault, and nothing it does can decide another job's picture. Each attack runs on a warm
// pool of one zygote, and the next honest jobs on that same pool must get their own pictures.
import { createHash } from 'node:crypto';
import { afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { DomainRender, DomainRenderer } from '../types.ts';
import { createPythonRenderer } from './renderer.ts';

// Two honest figures that differ; their PNG hashes are learned first, on a fresh pool.
const LINE = "import matplotlib.pyplot as plt\nplt.plot([0, 1, 2], [0, 2, 1])\nplt.title('line')";
const BARS = "import matplotlib.pyplot as plt\nplt.bar([1, 2, 3], [3, 1, 2])\nplt.title('bars')";
const FORGED = '{"ok": false, "error": {"code": "infra_error", "message": "forged"}}';

// Writes `payload` whole (blocking, every byte) to every descriptor this process has and to
// every descriptor of every other process it can see (the zygote's, bwrap's init's), taken
// with pidfd_getfd (the protocol channels are sockets, which /proc/<pid>/fd cannot reopen)
// or reopened through /proc (pipes). `only` narrows the other processes' descriptors to one
// number (1: a helper's answer channel, 0: its job channel).
const SPRAY = `
import ctypes, os, signal
libc = ctypes.CDLL(None, use_errno=True)
signal.signal(signal.SIGALRM, lambda *a: None)  # a full pipe interrupts the write, not the job
def write_all(fd, data):
    view = memoryview(data)
    while view:
        view = view[os.write(fd, view):]
def theirs(pid, n):
    try:
        pidfd = os.pidfd_open(pid)
    except OSError:
        return None
    try:
        fd = libc.syscall(438, pidfd, n, 0)  # pidfd_getfd
        if fd >= 0:
            return fd
    finally:
        os.close(pidfd)
    try:
        return os.open('/proc/%d/fd/%d' % (pid, n), os.O_WRONLY)
    except OSError:
        return None
def spray(payload, only=None, own=True):
    hits = []
    fds = [('own', n, n) for n in range(0, 64)] if own else []
    for name in os.listdir('/proc'):
        if name.isdigit() and int(name) != os.getpid():
            for n in ([only] if only is not None else range(0, 16)):
                fd = theirs(int(name), n)
                if fd is not None:
                    fds.append((name, n, fd))
    for who, n, fd in fds:
        signal.alarm(2)
        try:
            write_all(fd, payload)
            hits.append('%s:%d' % (who, n))
        except OSError:
            pass
        finally:
            signal.alarm(0)
            if who != 'own':
                os.close(fd)
    return hits
`;

// Attaches to every other process it can see with ptrace, and opens its memory read-write:
// the first step of making a helper write a line of the attacker's choosing.
const PTRACE = `
import ctypes, os
libc = ctypes.CDLL(None, use_errno=True)
libc.ptrace.argtypes = [ctypes.c_long, ctypes.c_long, ctypes.c_void_p, ctypes.c_void_p]
reached = []
for name in os.listdir('/proc'):
    if not name.isdigit() or int(name) == os.getpid():
        continue
    pid = int(name)
    if libc.ptrace(16, pid, None, None) == 0:  # PTRACE_ATTACH
        reached.append('ptrace:%d' % pid)
        os.waitpid(pid, 0x40000000)  # __WALL
        libc.ptrace(17, pid, None, None)  # PTRACE_DETACH
    try:
        fd = os.open('/proc/%d/mem' % pid, os.O_RDWR)
        reached.append('mem:%d' % pid)
        os.close(fd)
    except OSError:
        pass
    try:
        os.listdir('/proc/%d/fd' % pid)
        reached.append('fds:%d' % pid)
    except OSError:
        pass
`;

const sha = (r: DomainRender) => {
  if (!r.ok) throw new Error(`expected a picture, got ${r.error.code}: ${r.error.message}`);
  return createHash('sha256').update(r.png).digest('hex');
};

const honest = { line: '', bars: '' };
let py: DomainRenderer;

beforeAll(async () => {
  const fresh = createPythonRenderer({ poolSize: 1, timeoutMs: 15_000 });
  try {
    honest.line = sha(await fresh.render(LINE));
    honest.bars = sha(await fresh.render(BARS));
  } finally {
    await fresh.close();
  }
  expect(honest.line).not.toBe(honest.bars);
}, 120_000);
// Each attack gets its own pool of one zygote, so one attack's damage is not the next's.
beforeEach(() => {
  py = createPythonRenderer({ poolSize: 1, timeoutMs: 15_000 });
});
afterEach(async () => {
  await py.close();
});

/** The two honest jobs after an attack, on the same pool: each gets its own picture. */
async function nextJobsGetTheirOwnPictures(): Promise<void> {
  expect(sha(await py.render(BARS))).toBe(honest.bars);
  expect(sha(await py.render(LINE))).toBe(honest.line);
}

describe('python: the outcome comes from outside the job', () => {
  it('a forged grader fault written to every descriptor is the job’s own failure', async () => {
    for (const exit of ['os._exit(0)', 'os._exit(1)', 'pass']) {
      const r = await py.render(`${SPRAY}\nspray(b${JSON.stringify(`${FORGED}\n`)})\n${exit}`);
      expect(r.ok).toBe(false);
      if (r.ok) continue;
      expect(['exec_error', 'no_output']).toContain(r.error.code);
    }
    // A grandchild that outlives the job's main process and writes the same.
    const late = await py.render(
      `${SPRAY}\nimport time\nif os.fork() == 0:\n    time.sleep(0.3)\n    spray(b${JSON.stringify(`${FORGED}\n`)})\n    os._exit(0)\ntime.sleep(0.6)\nspray(b${JSON.stringify(`${FORGED}\n`)})`,
    );
    expect(late.ok).toBe(false);
    if (!late.ok) expect(['exec_error', 'no_output']).toContain(late.error.code);
    await nextJobsGetTheirOwnPictures();
  }, 120_000);

  it('no process a job can see can be traced, or have its memory or descriptors opened', async () => {
    const r = await py.render(`${PTRACE}\nraise RuntimeError('reached=%r' % reached)`);
    expect(r.ok).toBe(false);
    if (!r.ok) expect(r.error.message).toContain('reached=[]');
    await nextJobsGetTheirOwnPictures();
  }, 120_000);

  it('extra answer lines sent through any helper never become the next job’s answer', async () => {
    // The job sends a complete answer carrying LINE's picture down every answer channel it
    // can reach, from itself and from a grandchild that writes late; then draws LINE itself.
    const png = await py.render(LINE);
    if (!png.ok) throw new Error('honest render failed');
    const answer = JSON.stringify({ ok: true, png: png.png.toString('base64'), warnings: [] });
    const payload = `b${JSON.stringify(`${answer}\n`)}`;
    await py.render(
      `${SPRAY}\nimport time\nif os.fork() == 0:\n    time.sleep(0.2)\n    spray(${payload}, 1)\n    os._exit(0)\nspray(${payload}, 1)\ntime.sleep(0.5)\n${LINE}`,
    );
    await nextJobsGetTheirOwnPictures();
  }, 120_000);
});
