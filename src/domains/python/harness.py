# The Python plotting harness, run INSIDE the bubblewrap sandbox (src/domains/sandbox/bwrap.ts).
#
# It is a zygote: it imports matplotlib/numpy/pandas once (the slow part of a plotting
# script), then for each job read from stdin it forks a child that runs the policy's script
# and saves the figure. Every job starts from the same pristine, pre-imported state (a fork
# of the zygote), under its own rlimits, in a fresh work dir; afterwards the zygote kills every
# other process in the sandbox's pid namespace and wipes every writable mount and the System V
# IPC objects (or exits, to be replaced, if it cannot), so nothing a job leaves behind
# (files, daemons, modules on disk, shared memory) reaches the next one.
#
# The job is hostile (issue 22). The zygote is the sandbox's pid 1 (bwrap --as-pid-1: no
# bwrap init inside holding the protocol channels), not dumpable, with no-new-privs and a
# seccomp filter that denies ptrace, process_vm_readv/writev and pidfd_getfd to everything it
# forks: no process a job can see can be traced, read, written or have a descriptor taken.
# A job's child gets /dev/null, its own log and its own result pipe, nothing else. The
# outcome is decided HERE from what the zygote observed: the wall clock, the child's exit
# status or signal, the size of what it sent. The child's report only carries the picture,
# warnings and a message; its failure code is never taken from it.
#
# Protocol (src/domains/sandbox/line-worker.ts): a frame per job on stdin, one line per job
# on stdout, bound to the job by a nonce the job never sees.
#   in:   "<n>\n" then n bytes of job JSON, then "<nonce>\n" (32 hex digits). The zygote reads
#         exactly the job's bytes, runs the job, and reads the nonce only once every process of
#         the job is dead: the nonce is never in memory a job inherited.
#   job:  {"code": str, "timeout": s, "cpu": s, "mem": bytes above the zygote's own, "fsize": bytes,
#          "nproc": n, "dpi": n, "max_pixels": n, "assets": {name: base64} (optional)}
#   out:  "<nonce> " + {"ok": true, "png": base64, "warnings": [...], "stderr": tail}
#                   or {"ok": false, "error": {"code": ..., "message": ...}, "warnings": [...], "stderr": tail}
#         the code is one of timeout, too_large, no_output, exec_error, sandbox_error.
import base64
import ctypes
import json
import os
import resource
import select
import shutil
import signal
import sys
import time

os.environ["MPLBACKEND"] = "Agg"
import matplotlib  # noqa: E402

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
import numpy  # noqa: E402,F401

for _optional in ("pandas", "seaborn"):
    try:
        __import__(_optional)
    except Exception:
        pass


def _warm():
    """Draw once in the zygote, so every job inherits what matplotlib builds lazily on its
    first figure (font files, the mathtext parser, colour maps, the PNG writer, pandas'
    plotting glue) instead of paying for it again in each forked child."""
    import io

    fig, ax = plt.subplots(1, 2)
    ax[0].plot([0, 1], [0, 1], "o--", label="a")
    ax[0].bar([0, 1], [1, 2])
    sc = ax[0].scatter([0, 1], [1, 0], c=[0, 1], cmap="viridis")
    ax[1].hist([1, 2, 2, 3], bins=3)
    ax[0].set_title("Warm $x^2$")
    ax[0].set_xlabel("x")
    ax[0].legend()
    ax[0].text(0.5, 0.5, "t", ha="center")
    fig.colorbar(sc, label="c")
    fig.suptitle("s")
    fig.tight_layout()
    fig.savefig(io.BytesIO(), format="png", dpi=100, facecolor="white")
    try:
        import pandas as pd

        pd.DataFrame({"m": ["a", "b"], "v": [1, 2]}).plot(x="m", marker="o", title="p")
    except Exception:
        pass
    plt.close("all")


_warm()
import gc  # noqa: E402

gc.collect()
# Objects that exist now are never scanned again: a child's collections then do not touch
# (and copy) the zygote's pages.
gc.freeze()

_libc = ctypes.CDLL(None, use_errno=True)
# Not dumpable: a job (same uid) can neither ptrace the zygote nor open /proc/<zygote>/mem or
# /proc/<zygote>/fd/*, nor take its descriptors with pidfd_getfd. Inherited by every fork.
_libc.prctl(4, 0, 0, 0, 0)  # PR_SET_DUMPABLE = 0
# Orphans of a job are re-parented here (it is pid 1 anyway), so they can be reaped.
_libc.prctl(36, 1, 0, 0, 0)  # PR_SET_CHILD_SUBREAPER = 1
# pid 1 gets no signal from inside its namespace that it does not handle; Python handles
# SIGINT (KeyboardInterrupt), so a job could end the zygote with it: ignored here, restored
# in each job's child.
signal.signal(signal.SIGINT, signal.SIG_IGN)
# Beside this file (python -I leaves the script's directory off sys.path).
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import sandbox_filter  # noqa: E402

sandbox_filter.install(_libc)
del sys.path[0]

PROTO_IN = os.dup(0)
PROTO_OUT = os.dup(1)
_null = os.open("/dev/null", os.O_RDWR)
os.dup2(_null, 0)
os.dup2(_null, 1)
os.close(_null)
WORK = "/work/job"
LOG = "/tmp/.job-log"
MAX_RESULT = 48 * 1024 * 1024
TAIL = 3000
# How the child tells the zygote what happened; the zygote maps them to codes (decide()).
EXIT_FIGURE = 0
EXIT_NO_FIGURE = 10
EXIT_EXCEPTION = 11
EXIT_MEMORY = 12
# The job's own pid namespace could be made but not set up (its /proc, its capabilities).
EXIT_NAMESPACE = 13
PNG_SIGNATURE = b"\x89PNG\r\n\x1a\n"


def tail_of(path):
    """The last TAIL bytes of the job's log; a job may have replaced it with a FIFO or a
    directory: only a regular file is read, never blocking."""
    try:
        fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK | os.O_NOFOLLOW)
    except OSError:
        return ""
    try:
        import stat

        if not stat.S_ISREG(os.fstat(fd).st_mode):
            return ""
        with os.fdopen(fd, "rb", closefd=False) as f:
            f.seek(0, 2)
            size = f.tell()
            f.seek(max(0, size - TAIL))
            return f.read().decode("utf-8", "replace")
    except OSError:
        return ""
    finally:
        os.close(fd)


def vm_size():
    with open("/proc/self/status") as f:
        for line in f:
            if line.startswith("VmSize:"):
                return int(line.split()[1]) * 1024
    return 0


def write_assets(assets):
    """The task's data files (issue 23), written into this job's own fresh work dir under
    their names, read-only: `open('cars.csv')` and `pandas.read_csv('cars.csv')` find them.
    Only this job's assets exist here; the dir is wiped after the job like everything else.
    The names were checked by the parent (plain relative paths); checked again here."""
    for name, data in assets.items():
        parts = name.split("/")
        if name.startswith("/") or any(p in ("", ".", "..") for p in parts):
            raise ValueError("bad asset name %r" % (name,))
        if len(parts) > 1:
            os.makedirs(os.path.join(*parts[:-1]), exist_ok=True)
        fd = os.open(name, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW, 0o444)
        with os.fdopen(fd, "wb") as f:
            f.write(base64.b64decode(data))


CLONE_NEWNS = 0x00020000
CLONE_NEWUSER = 0x10000000
CLONE_NEWPID = 0x20000000
MS_NOSUID, MS_NODEV, MS_NOEXEC, MS_REC, MS_PRIVATE = 2, 4, 8, 1 << 14, 1 << 18


class _CapHeader(ctypes.Structure):
    _fields_ = [("version", ctypes.c_uint32), ("pid", ctypes.c_int)]


class _CapData(ctypes.Structure):
    _fields_ = [("effective", ctypes.c_uint32), ("permitted", ctypes.c_uint32), ("inheritable", ctypes.c_uint32)]


def _write(path, text):
    fd = os.open(path, os.O_WRONLY)
    try:
        os.write(fd, text.encode())
    finally:
        os.close(fd)


SHARED_PID_NAMESPACE = None


def own_pid_namespace():
    """In the job's forked child (issue 35): give the job a pid namespace of its own, so it
    sees neither the zygote (the sandbox's pid 1) nor any other pid. Unprivileged: a nested
    user namespace (the child's own uid and gid mapped to themselves) owns a new pid and mount
    namespace. This process stays outside as the zygote's child and only waits; it forks the
    job, which is pid 1 of the new namespace, mounts a /proc of that namespace over the old
    one, and drops every capability before any job code runs (so it can never unmount that
    /proc again). The job's exit status or signal is passed on as this process's own, so the
    zygote decides the outcome as before. When the job (its namespace's pid 1) ends, the
    kernel kills everything it left in its namespace. Where the kernel refuses a nested user
    namespace, the job runs in the shared namespace as before (still unable to trace, read or
    signal the zygote: non-dumpable, seccomp) and says so in its stderr."""
    uid, gid = os.getuid(), os.getgid()
    os.setsid()  # the zygote's killpg(pid) then reaches this waiter
    if _libc.unshare(CLONE_NEWUSER | CLONE_NEWPID | CLONE_NEWNS) != 0:
        global SHARED_PID_NAMESPACE
        SHARED_PID_NAMESPACE = os.strerror(ctypes.get_errno())
        return
    # A non-dumpable process's /proc files belong to root: dumpable just long enough to write
    # its own maps. No other process exists now (kill_leftovers ran) and no job code has run.
    _libc.prctl(4, 1, 0, 0, 0)  # PR_SET_DUMPABLE = 1
    try:
        _write("/proc/self/setgroups", "deny")
        _write("/proc/self/uid_map", "%d %d 1" % (uid, uid))
        _write("/proc/self/gid_map", "%d %d 1" % (gid, gid))
    finally:
        _libc.prctl(4, 0, 0, 0, 0)
    job = os.fork()
    if job == 0:
        if _libc.mount(b"none", b"/", None, MS_REC | MS_PRIVATE, None) != 0 or _libc.mount(
            b"proc", b"/proc", b"proc", MS_NOSUID | MS_NODEV | MS_NOEXEC, None
        ) != 0:
            os._exit(EXIT_NAMESPACE)
        # No capability left, in this user namespace or any: no-new-privs (sandbox_filter)
        # keeps them from coming back through exec.
        data = (_CapData * 2)()
        if _libc.capset(ctypes.byref(_CapHeader(0x20080522, 0)), data) != 0:
            os._exit(EXIT_NAMESPACE)
        return
    # The waiter: holds nothing of the job's, passes on how the job ended.
    os.closerange(0, 1 << 16)
    while True:
        try:
            _, status = os.waitpid(job, 0)
            break
        except InterruptedError:
            continue
    if os.WIFSIGNALED(status):
        sig = os.WTERMSIG(status)
        signal.signal(sig, signal.SIG_DFL)
        os.kill(os.getpid(), sig)
        os._exit(128 + sig)
    os._exit(os.WEXITSTATUS(status))


def run_child(job, wfd):
    """In the forked child: limits, fresh dir, run the script, save the figure."""
    os.setsid()
    signal.signal(signal.SIGINT, signal.default_int_handler)
    log = os.open(LOG, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    os.dup2(log, 1)
    os.dup2(log, 2)
    # The job holds stdin (/dev/null), its log and its own result pipe; nothing else of the
    # zygote's (the protocol channels above all).
    os.dup2(wfd, 3)
    wfd = 3
    os.closerange(4, 1 << 16)
    sys.stdout = open(1, "w", buffering=1, closefd=False)
    sys.stderr = open(2, "w", buffering=1, closefd=False)
    if SHARED_PID_NAMESPACE is not None:
        print("rubrica: the job shares the sandbox's pid namespace (%s)" % SHARED_PID_NAMESPACE, file=sys.stderr)
    cpu = int(job["cpu"])
    hard = resource.getrlimit(resource.RLIMIT_CPU)[1]
    if hard != resource.RLIM_INFINITY:
        cpu = min(cpu, hard - 1)
    resource.setrlimit(resource.RLIMIT_CPU, (cpu, cpu + 1))
    # The budget is on top of what the zygote already maps (the imported libraries).
    mem = vm_size() + int(job["mem"])
    resource.setrlimit(resource.RLIMIT_AS, (mem, mem))
    resource.setrlimit(resource.RLIMIT_FSIZE, (int(job["fsize"]), int(job["fsize"])))
    resource.setrlimit(resource.RLIMIT_NPROC, (int(job["nproc"]), int(job["nproc"])))
    os.chdir(WORK)
    write_assets(job.get("assets") or {})
    caught = []
    import warnings

    def showwarning(message, category, filename, lineno, file=None, line=None):
        if len(caught) < 50:
            caught.append("%s: %s" % (category.__name__, str(message)[:300]))

    warnings.showwarning = showwarning
    warnings.simplefilter("default")
    plt.show = lambda *a, **k: None  # scripts end with plt.show(); the harness saves instead

    def send(obj):
        data = (json.dumps(obj) + "\n").encode()
        view = memoryview(data)
        while view:
            n = os.write(wfd, view)
            view = view[n:]

    try:
        code = compile(job["code"], "figure.py", "exec")
        try:
            exec(code, {"__name__": "__main__", "__file__": WORK + "/figure.py"})
        except SystemExit as e:
            if e.code not in (None, 0):
                raise
        png = None
        if plt.get_fignums():
            fig = plt.gcf()
            w, h = fig.get_size_inches()
            dpi = float(job["dpi"])
            if w * h * dpi * dpi > job["max_pixels"]:
                dpi = (job["max_pixels"] / max(w * h, 1e-9)) ** 0.5
            import io

            buf = io.BytesIO()
            fig.savefig(buf, format="png", dpi=dpi, facecolor="white")
            png = buf.getvalue()
        else:
            # The script saved its figure itself and closed it: take the newest PNG it wrote.
            pngs = [p for p in os.listdir(".") if p.lower().endswith(".png")]
            if pngs:
                newest = max(pngs, key=lambda p: os.stat(p).st_mtime)
                with open(newest, "rb") as f:
                    png = f.read(MAX_RESULT)
        sys.stdout.flush()
        sys.stderr.flush()
        if png is None:
            send({"warnings": caught})
            os._exit(EXIT_NO_FIGURE)
        send({"png": base64.b64encode(png).decode(), "warnings": caught})
        os._exit(EXIT_FIGURE)
    except BaseException as e:  # the policy's exception is the job's result, not ours
        import traceback

        tb = traceback.format_exception(type(e), e, e.__traceback__)
        try:
            send({"message": "".join(tb)[-TAIL:], "warnings": caught})
        except BaseException:
            pass
        os._exit(EXIT_MEMORY if isinstance(e, MemoryError) else EXIT_EXCEPTION)


def others():
    me = os.getpid()
    pids = []
    for name in os.listdir("/proc"):
        if name.isdigit():
            pid = int(name)
            if pid != me and pid != 1:  # pid 1 is bwrap's init, our parent
                pids.append(pid)
    return pids


def kill_leftovers():
    """SIGKILL every process in the sandbox except the zygote and bwrap's init; reap them."""
    for _ in range(200):
        pids = others()
        if not pids:
            break
        for pid in pids:
            try:
                os.kill(pid, signal.SIGKILL)
            except OSError:
                pass
        reap()
        time.sleep(0.001)
    reap()


def reap():
    while True:
        try:
            pid, _ = os.waitpid(-1, os.WNOHANG)
        except ChildProcessError:
            return
        if pid == 0:
            return


# Everything a job can write: the sized tmpfs mounts (bwrap.ts makes / and /dev read-only)
# and the IPC namespace the worker's jobs share (POSIX queues through the mqueue mount).
WRITABLE = ("/work", "/tmp", "/dev/shm", "/dev/mqueue")


def _unlock(path):
    # A job may leave a directory it made unreadable (chmod 0); the owner can chmod it back.
    try:
        os.chmod(path, 0o700)
    except OSError:
        pass


def _remove(path):
    """Removes a file or a whole tree, giving back at every level the permissions a job took
    off its own directories (the zygote is the same user)."""
    if os.path.isdir(path) and not os.path.islink(path):
        _unlock(path)

        def again(func, p, exc):
            _unlock(os.path.dirname(p))
            try:
                _remove(p)
            except (OSError, RecursionError):
                pass

        shutil.rmtree(path, onerror=again)
    else:
        os.unlink(path)


def _ipc_ids(kind):
    try:
        with open("/proc/sysvipc/" + kind) as f:
            return [int(line.split()[1]) for line in f.readlines()[1:] if line.strip()]
    except OSError:
        return []


def wipe():
    """Empties every writable place, removes the job's System V IPC objects and makes a
    fresh, empty work dir. False when something is left (a tree too deep to remove, a root
    made read-only, an IPC object that would not go): the zygote then exits after answering,
    and the pool starts a fresh sandbox, with every mount."""
    clean = True
    for root in WRITABLE:
        try:
            os.chmod(root, os.stat(root).st_mode & 0o7777 | 0o700)
        except OSError:
            pass
        try:
            entries = os.listdir(root)
        except OSError:
            continue
        for e in entries:
            try:
                _remove(os.path.join(root, e))
            except Exception:  # RecursionError from a very deep tree, among others
                pass
        try:
            clean = clean and not os.listdir(root)
        except OSError:
            clean = False
    for i in _ipc_ids("shm"):
        _libc.shmctl(i, 0, None)  # IPC_RMID
    for i in _ipc_ids("msg"):
        _libc.msgctl(i, 0, None)
    for i in _ipc_ids("sem"):
        _libc.semctl(i, 0, 0)
    if _ipc_ids("shm") or _ipc_ids("msg") or _ipc_ids("sem"):
        clean = False
    try:
        os.makedirs(WORK)
    except OSError:
        clean = False
    return clean


DIRTY = False


def run_job(job):
    r, w = os.pipe()
    started = time.monotonic()
    pid = os.fork()
    if pid == 0:
        os.close(r)
        try:
            own_pid_namespace()
            run_child(job, w)
        except BaseException:
            import traceback

            traceback.print_exc()  # into the job log (fd 2 once redirected)
        finally:
            os._exit(1)
    os.close(w)
    pidfd = os.pidfd_open(pid)
    deadline = started + float(job["timeout"])
    chunks = []
    size = 0
    status = None
    timed_out = too_large = False
    # Once the pipe is at its end it stays readable: selecting on it again would return at
    # once, every time, and spin this process until the child exits — for a few ms while the
    # job's processes are torn down after each job, and for a job's whole time limit when a
    # job closes its result pipe and keeps running (its CPU limit does not bind the zygote).
    at_end = False
    while True:
        left = deadline - time.monotonic()
        if left <= 0:
            timed_out = True
            break
        ready, _, _ = select.select([pidfd] if at_end else [r, pidfd], [], [], left)
        if r in ready:
            data = os.read(r, 1 << 16)
            if data:
                size += len(data)
                if size > MAX_RESULT:
                    too_large = True
                    break
                chunks.append(data)
            elif status is not None:
                break
            else:
                at_end = True
        if pidfd in ready and status is None:
            _, status = os.waitpid(pid, 0)
            # Drain what the child wrote before it exited (grandchildren may hold the pipe).
            kill_leftovers()
        if status is not None and r not in ready:
            break
    if status is None:
        try:
            os.killpg(pid, signal.SIGKILL)
        except OSError:
            pass
    kill_leftovers()
    try:
        while size <= MAX_RESULT:
            data = os.read(r, 1 << 16)
            if not data:
                break
            size += len(data)
            chunks.append(data)
    except OSError:
        pass
    os.close(r)
    os.close(pidfd)
    stderr = tail_of(LOG)
    global DIRTY
    DIRTY = not wipe()
    return decide(job, status, timed_out, too_large or size > MAX_RESULT, b"".join(chunks), stderr)


def report_of(raw):
    """What the child sent (a claim of the job's, never trusted for the outcome): its
    picture, warnings and message, each checked for type and size; {} when unreadable."""
    try:
        got = json.loads(raw.split(b"\n", 1)[0])
    except ValueError:
        return {}
    if not isinstance(got, dict):
        return {}
    out = {}
    warnings = got.get("warnings")
    if isinstance(warnings, list):
        out["warnings"] = [w[:300] for w in warnings if isinstance(w, str)][:50]
    if isinstance(got.get("message"), str):
        out["message"] = got["message"][-TAIL:]
    png = got.get("png")
    if isinstance(png, str):
        try:
            data = base64.b64decode(png, validate=True)
        except ValueError:
            data = b""
        if data.startswith(PNG_SIGNATURE):
            out["png"] = png
    return out


def decide(job, status, timed_out, too_large, raw, stderr):
    """The job's outcome, from what the zygote saw: its clock, the size of what came back, the
    child's exit status or signal. The report adds the picture, warnings and message."""
    def fail(code, message, **extra):
        return {"ok": False, "error": {"code": code, "message": message}, "stderr": stderr, **extra}

    if timed_out:
        return fail("timeout", "the script ran over %ss" % job["timeout"])
    if too_large:
        return fail("too_large", "the figure is over the size limit")
    report = report_of(raw)
    warnings = report.get("warnings", [])
    if status is not None and os.WIFSIGNALED(status):
        sig = os.WTERMSIG(status)
        if sig in (signal.SIGXCPU, signal.SIGKILL):
            return fail("timeout", "the script ran over its CPU limit", warnings=warnings)
        msg = "the script died (signal %d) before saving a figure\n%s" % (sig, stderr[-1500:])
        return fail("exec_error", msg, warnings=warnings)
    code = os.WEXITSTATUS(status) if status is not None else None
    if code == EXIT_FIGURE and "png" in report:
        return {"ok": True, "png": report["png"], "warnings": warnings, "stderr": stderr}
    if code == EXIT_NO_FIGURE:
        return fail("no_output", "the script drew no figure", warnings=warnings)
    if code == EXIT_MEMORY:
        return fail("too_large", report.get("message", "MemoryError"), warnings=warnings)
    if code == EXIT_NAMESPACE:
        return fail("sandbox_error", "the job's pid namespace could not be set up", warnings=warnings)
    if code == EXIT_EXCEPTION and "message" in report:
        return fail("exec_error", report["message"], warnings=warnings)
    msg = "the script exited (status %s) before saving a figure\n%s" % (code, stderr[-1500:])
    return fail("exec_error", msg, warnings=warnings)


def read_exact(n):
    """Exactly n bytes of the protocol input (never more: what follows stays in the kernel's
    buffer), or None at its end."""
    parts = []
    while n > 0:
        data = os.read(PROTO_IN, n)
        if not data:
            return None
        parts.append(data)
        n -= len(data)
    return b"".join(parts)


def read_header():
    """The frame's length line, read a byte at a time (it is a few digits)."""
    line = b""
    while not line.endswith(b"\n"):
        c = os.read(PROTO_IN, 1)
        if not c:
            return None
        line += c
        if len(line) > 16:
            raise ValueError("bad frame header")
    return int(line)


NONCE_BYTES = 33  # 32 hex digits and a newline


def main():
    global DIRTY
    if not wipe():
        sys.exit("cannot empty /work and /tmp")
    os.write(PROTO_OUT, b'{"ready": true}\n')
    while True:
        n = read_header()
        if n is None:
            return
        raw = read_exact(n)
        if raw is None:
            return
        try:
            result = run_job(json.loads(raw))
        except Exception as e:  # a harness bug: report it, then end (the pool starts afresh)
            DIRTY = True
            result = {"ok": False, "error": {"code": "sandbox_error", "message": "harness: %r" % (e,)}}
        # Read only now: every process of the job is dead, none ever held the nonce.
        nonce = read_exact(NONCE_BYTES)
        if nonce is None:
            return
        if DIRTY:
            result["retire"] = True  # the pool replaces this sandbox before the next job
        line = nonce[:-1] + b" " + json.dumps(result).encode() + b"\n"
        view = memoryview(line)
        while view:
            view = view[os.write(PROTO_OUT, view):]
        if DIRTY:
            return  # what the job left could not be removed: end, the pool starts afresh


if __name__ == "__main__":
    main()
