# A seccomp filter for the Python zygote and every process it forks (harness.py), built with
# ctypes because the sandbox has nothing but the Python standard library to build it with.
#
# Why: the zygote is not dumpable, which already stops a job (same uid) from tracing it,
# opening its /proc/<pid>/mem or taking its descriptors. This filter is the second, independent
# wall: the calls that reach into another process — ptrace, process_vm_readv/writev,
# pidfd_getfd — fail with EPERM for the job whatever the kernel's dumpable and Yama settings
# are. A job's other ABI (i386 `int 0x80` on x86_64, the x32 numbers) is denied outright, so
# the numbers below cannot be dodged. no-new-privs comes first (the kernel requires it of an
# unprivileged filter; nothing in the sandbox should gain privileges by exec anyway).
import ctypes
import platform

PR_SET_NO_NEW_PRIVS = 38
PR_SET_SECCOMP = 22
SECCOMP_MODE_FILTER = 2
RET_ALLOW = 0x7FFF0000
RET_EPERM = 0x00050000 | 1  # SECCOMP_RET_ERRNO | EPERM
LD_ABS_W = 0x20  # BPF_LD | BPF_W | BPF_ABS
JEQ = 0x15  # BPF_JMP | BPF_JEQ | BPF_K
JGE = 0x35  # BPF_JMP | BPF_JGE | BPF_K
RET = 0x06  # BPF_RET | BPF_K

# machine → (AUDIT_ARCH_*, first number outside the native ABI or None, denied numbers:
# ptrace, process_vm_readv, process_vm_writev, pidfd_getfd)
ARCHES = {
    "x86_64": (0xC000003E, 0x40000000, (101, 310, 311, 438)),
    "aarch64": (0xC00000B7, None, (117, 270, 271, 438)),
}


class SockFilter(ctypes.Structure):
    _fields_ = [("code", ctypes.c_ushort), ("jt", ctypes.c_ubyte), ("jf", ctypes.c_ubyte), ("k", ctypes.c_uint)]


class SockFprog(ctypes.Structure):
    _fields_ = [("len", ctypes.c_ushort), ("filter", ctypes.POINTER(SockFilter))]


def program(arch, abi_end, denied):
    """The BPF program as (code, jt, jf, k) tuples; the last instruction is the denial."""
    body = [(LD_ABS_W, 0, 0, 4), (JEQ, 1, 0, arch), (RET, 0, 0, RET_EPERM), (LD_ABS_W, 0, 0, 0)]
    checks = ([(JGE, abi_end)] if abi_end is not None else []) + [(JEQ, n) for n in denied]
    for i, (op, k) in enumerate(checks):
        # jt: over the remaining checks and the ALLOW to the final denial.
        body.append((op, len(checks) - i, 0, k))
    body.append((RET, 0, 0, RET_ALLOW))
    body.append((RET, 0, 0, RET_EPERM))
    return body


def install(libc):
    """Sets no-new-privs and the filter on this process (inherited by every fork). Returns
    False on a machine whose syscall numbers are not listed (the zygote stays non-dumpable
    there); raises when the kernel refuses."""
    spec = ARCHES.get(platform.machine())
    if spec is None:
        return False
    insns = program(*spec)
    arr = (SockFilter * len(insns))(*[SockFilter(*i) for i in insns])
    prog = SockFprog(len(insns), arr)
    libc.prctl.argtypes = None
    if libc.prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) != 0:
        raise OSError(ctypes.get_errno(), "prctl(PR_SET_NO_NEW_PRIVS)")
    if libc.prctl(PR_SET_SECCOMP, SECCOMP_MODE_FILTER, ctypes.byref(prog), 0, 0) != 0:
        raise OSError(ctypes.get_errno(), "prctl(PR_SET_SECCOMP)")
    return True
