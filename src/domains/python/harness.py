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
# Protocol: one JSON job per stdin line -> one JSON result per stdout line.
#   job:    {"code": str, "timeout": s, "cpu": s, "mem": bytes above the zygote's own, "fsize": bytes,
#            "nproc": n, "dpi": n, "max_pixels": n}
#   result: {"ok": true, "png": base64, "warnings": [...], "stderr": tail}
#        or {"ok": false, "error": {"code": ..., "message": ...}, "stderr": tail}
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
# Not dumpable: a job (same uid) cannot open /proc/<zygote>/fd/* to reach the protocol pipes.
_libc.prctl(4, 0, 0, 0, 0)  # PR_SET_DUMPABLE = 0
# Orphans of a job are re-parented here, so they can be reaped after they are killed.
_libc.prctl(36, 1, 0, 0, 0)  # PR_SET_CHILD_SUBREAPER = 1

PROTO_IN = os.dup(0)
PROTO_OUT = os.dup(1)
_null = os.open("/dev/null", os.O_RDWR)
os.dup2(_null, 0)
os.dup2(_null, 1)
WORK = "/work/job"
LOG = "/tmp/.job-log"
MAX_RESULT = 48 * 1024 * 1024
TAIL = 3000


def tail_of(path):
    try:
        with open(path, "rb") as f:
            f.seek(0, 2)
            size = f.tell()
            f.seek(max(0, size - TAIL))
            return f.read().decode("utf-8", "replace")
    except OSError:
        return ""


def vm_size():
    with open("/proc/self/status") as f:
        for line in f:
            if line.startswith("VmSize:"):
                return int(line.split()[1]) * 1024
    return 0


def run_child(job, wfd):
    """In the forked child: limits, fresh dir, run the script, save the figure."""
    os.setsid()
    os.close(PROTO_IN)
    os.close(PROTO_OUT)
    log = os.open(LOG, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    os.dup2(log, 1)
    os.dup2(log, 2)
    sys.stdout = open(1, "w", buffering=1, closefd=False)
    sys.stderr = open(2, "w", buffering=1, closefd=False)
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
            send({"ok": False, "error": {"code": "no_output", "message": "the script drew no figure"},
                  "warnings": caught})
        else:
            send({"ok": True, "png": base64.b64encode(png).decode(), "warnings": caught})
    except BaseException as e:  # the policy's exception is the job's result, not ours
        import traceback

        tb = traceback.format_exception(type(e), e, e.__traceback__)
        text = "".join(tb)[-TAIL:]
        kind = "too_large" if isinstance(e, MemoryError) else "exec_error"
        try:
            send({"ok": False, "error": {"code": kind, "message": text}, "warnings": caught,
                  "exception": type(e).__name__})
        except BaseException:
            pass
    os._exit(0)


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
    """Empties every writable place and removes the job's System V IPC objects; if anything
    is still there, the zygote exits (its sandbox, with every mount, is replaced) rather
    than let the next job see it."""
    for root in WRITABLE:
        try:
            entries = os.listdir(root)
        except OSError:
            continue
        for e in entries:
            try:
                _remove(os.path.join(root, e))
            except (OSError, RecursionError):
                pass
    for i in _ipc_ids("shm"):
        _libc.shmctl(i, 0, None)  # IPC_RMID
    for i in _ipc_ids("msg"):
        _libc.msgctl(i, 0, None)
    for i in _ipc_ids("sem"):
        _libc.semctl(i, 0, 0)
    for root in WRITABLE:
        try:
            if os.listdir(root):
                os._exit(70)
        except OSError:
            pass
    if _ipc_ids("shm") or _ipc_ids("msg") or _ipc_ids("sem"):
        os._exit(70)
    os.makedirs(WORK, exist_ok=True)


def run_job(job):
    wipe()
    r, w = os.pipe()
    started = time.monotonic()
    pid = os.fork()
    if pid == 0:
        os.close(r)
        try:
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
    while True:
        left = deadline - time.monotonic()
        if left <= 0:
            timed_out = True
            break
        ready, _, _ = select.select([r, pidfd], [], [], left)
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
    wipe()
    if timed_out:
        return {"ok": False, "error": {"code": "timeout", "message": "the script ran over %ss" % job["timeout"]}, "stderr": stderr}
    if too_large or size > MAX_RESULT:
        return {"ok": False, "error": {"code": "too_large", "message": "the figure is over the size limit"}, "stderr": stderr}
    raw = b"".join(chunks)
    try:
        result = json.loads(raw.split(b"\n", 1)[0])
        if not isinstance(result, dict):
            raise ValueError("not an object")
    except ValueError:
        sig = os.WTERMSIG(status) if status is not None and os.WIFSIGNALED(status) else None
        if sig in (signal.SIGXCPU, signal.SIGKILL):
            return {"ok": False, "error": {"code": "timeout", "message": "the script ran over its CPU limit"}, "stderr": stderr}
        msg = "the script died" + (" (signal %d)" % sig if sig else "") + " before saving a figure"
        return {"ok": False, "error": {"code": "exec_error", "message": msg + "\n" + stderr[-1500:]}, "stderr": stderr}
    result["stderr"] = stderr
    return result


def main():
    wipe()
    inp = os.fdopen(PROTO_IN, "rb")
    out = os.fdopen(PROTO_OUT, "wb")
    out.write(b'{"ready": true}\n')
    out.flush()
    for line in inp:
        if not line.strip():
            continue
        try:
            job = json.loads(line)
            result = run_job(job)
        except Exception as e:  # a harness bug: report it, keep serving
            result = {"ok": False, "error": {"code": "sandbox_error", "message": "harness: %r" % (e,)}}
        out.write((json.dumps(result) + "\n").encode())
        out.flush()


if __name__ == "__main__":
    main()
