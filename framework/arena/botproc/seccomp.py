"""Small seccomp filters for bots: no kernel keyrings; under bubblewrap, no more.

Every bot that arena (as root, under bubblewrap) runs is ``nobody``, and every bot
without bubblewrap is arena's own user: bots of different games, runs and tournaments
share that user's keyring (``@u``), a channel that outlives any game. Every filter makes
``add_key``, ``keyctl`` and ``request_key`` fail with ``EPERM``, as Docker's default
seccomp profile does.

Under bubblewrap (``strict``) the filter also refuses what a bot does not need and what
would let the two bots of a game talk or reach past the sandbox:

* file locks (``flock``; ``fcntl`` lock commands, POSIX and OFD; ``ENOLCK``): both bots
  see the same read-only system files, and a lock one holds on such a file is seen by
  the other (a bit per turn). A filter cannot tell which file a descriptor is, so no
  lock is given at all; file notifications (``inotify``, ``fanotify``: ``ENOSYS``, and
  ``fcntl(F_NOTIFY)``: ``ENOLCK``) likewise, since one bot reading a shared file would
  be an event for the other;
* ``io_uring`` (``EPERM``): a large kernel surface no bot needs;
* new user namespaces (``unshare`` or ``clone`` with ``CLONE_NEWUSER``: ``EPERM``;
  ``clone3``, whose flags a filter cannot read: ``ENOSYS``, so the C library falls back
  to ``clone``);
* ``ptrace`` and ``process_vm_readv``/``writev`` (``EPERM``): the bot's own sandbox
  processes (bubblewrap's process 1) are not its to inspect.

Every other system call is allowed. The programs are classic BPF written by hand (no
library needed), for the architectures arena runs on (x86_64 and aarch64) and their
32-bit compatibility modes (i386 and arm, which a bot could reach with a 32-bit program;
x32 too). On another architecture there is no filter (:func:`program` returns None) and
the keyrings stay shared.
"""

from __future__ import annotations

import contextlib
import ctypes
import errno
import os
import platform
import struct
from dataclasses import dataclass

SECCOMP_RET_ALLOW = 0x7FFF0000
SECCOMP_RET_ERRNO = 0x00050000
EPERM = errno.EPERM

# Opcodes of classic BPF (linux/filter.h).
_LD_W_ABS = 0x20  # BPF_LD | BPF_W | BPF_ABS
_JEQ_K = 0x15  # BPF_JMP | BPF_JEQ | BPF_K
_JSET_K = 0x45  # BPF_JMP | BPF_JSET | BPF_K
_AND_K = 0x54  # BPF_ALU | BPF_AND | BPF_K
_RET_K = 0x06  # BPF_RET | BPF_K
_NR, _ARCH = 0, 4  # offsets of ``nr`` and ``arch`` in struct seccomp_data
_ARG0, _ARG1 = 16, 24  # the low 32 bits of args[0] and args[1] (little-endian machines)

X32_SYSCALL_BIT = 0x40000000
CLONE_NEWUSER = 0x10000000
LOCK_COMMANDS = (5, 6, 7, 12, 13, 14, 36, 37, 38, 1026)
"""``fcntl`` commands refused: F_GETLK, F_SETLK, F_SETLKW, their 64-bit forms (32-bit
programs), F_OFD_GETLK, F_OFD_SETLK, F_OFD_SETLKW, and F_NOTIFY."""


@dataclass(frozen=True)
class Arch:
    """One audit architecture's system call numbers (``mask`` applied to the number first:
    x86_64's x32 calls carry :data:`X32_SYSCALL_BIT`)."""

    keys: tuple[int, ...]  # add_key, request_key, keyctl
    mask: int
    io_uring: tuple[int, ...]  # setup, enter, register
    trace: tuple[int, ...]  # ptrace, process_vm_readv, process_vm_writev
    flock: int
    fcntl: tuple[int, ...]  # fcntl (and fcntl64)
    notify: tuple[int, ...]  # inotify_init(1), fanotify_init
    unshare: int
    clone: int
    clone3: int = 435


ARCHES: dict[int, Arch] = {
    0xC000003E: Arch(  # x86_64 (and x32)
        (248, 249, 250), ~X32_SYSCALL_BIT & 0xFFFFFFFF, (425, 426, 427), (101, 310, 311),
        73, (72,), (253, 294, 300), 272, 56,
    ),
    0x40000003: Arch(  # i386
        (286, 287, 288), 0xFFFFFFFF, (425, 426, 427), (26, 347, 348),
        143, (55, 221), (291, 332, 338), 310, 120,
    ),
    0xC00000B7: Arch(  # aarch64
        (217, 218, 219), 0xFFFFFFFF, (425, 426, 427), (117, 270, 271),
        32, (25,), (26, 262), 97, 220,
    ),
    0x40000028: Arch(  # arm
        (309, 310, 311), 0xFFFFFFFF, (425, 426, 427), (26, 376, 377),
        143, (55, 221), (316, 360, 367), 337, 120,
    ),
}  # fmt: skip
KEY_SYSCALLS = {arch: (a.keys, a.mask) for arch, a in ARCHES.items()}
NATIVE = {"x86_64": 0xC000003E, "aarch64": 0xC00000B7}
"""The audit architecture of each machine this filter knows."""


class _Program:
    """Classic BPF with jumps to labels, resolved at the end (each jump is forward)."""

    def __init__(self) -> None:
        self.code: list[tuple[int, int | str, int | str, int]] = []
        self.labels: dict[str, int] = {}

    def add(self, op: int, k: int, jt: int | str = 0, jf: int | str = 0) -> None:
        self.code.append((op, jt, jf, k))

    def label(self, name: str) -> None:
        self.labels[name] = len(self.code)

    def ret(self, value: int) -> None:
        self.add(_RET_K, value)

    def assemble(self) -> bytes:
        out = []
        for at, (op, jt, jf, k) in enumerate(self.code):
            offsets = [self.labels[j] - at - 1 if isinstance(j, str) else j for j in (jt, jf)]
            assert all(0 <= o < 256 for o in offsets), "a jump out of reach"
            out.append(struct.pack("=HBBI", op, offsets[0], offsets[1], k))
        return b"".join(out)


def program(strict: bool = False, locks: bool = True) -> bytes | None:
    """The filter as an array of ``struct sock_filter`` (None: unknown architecture);
    ``strict``: bubblewrap's (see the module docstring); ``locks``: with it, no file locks
    or notifications (a build, which no other bot runs beside, keeps them: compilers'
    caches lock their files)."""
    if platform.machine() not in NATIVE:
        return None
    prog = _Program()
    prog.add(_LD_W_ABS, _ARCH)
    for i, arch in enumerate(ARCHES):
        prog.add(_JEQ_K, arch, f"arch{i}")
    prog.ret(SECCOMP_RET_ALLOW)  # another architecture
    for i, a in enumerate(ARCHES.values()):
        prog.label(f"arch{i}")
        prog.add(_LD_W_ABS, _NR)
        prog.add(_AND_K, a.mask)
        refused: list[tuple[int, str]] = [(nr, "eperm") for nr in a.keys]
        if strict:
            refused += [(nr, "eperm") for nr in (*a.io_uring, *a.trace)]
            refused += [(a.clone3, "enosys"), (a.unshare, "newuser"), (a.clone, "newuser")]
            if locks:
                refused += [(a.flock, "enolck"), *[(nr, "enosys") for nr in a.notify]]
                refused += [(nr, "fcntl") for nr in a.fcntl]
        for nr, where in refused:
            prog.add(_JEQ_K, nr, where)
        prog.ret(SECCOMP_RET_ALLOW)
    if strict:
        prog.label("fcntl")
        prog.add(_LD_W_ABS, _ARG1)
        for command in LOCK_COMMANDS:
            prog.add(_JEQ_K, command, "enolck")
        prog.ret(SECCOMP_RET_ALLOW)
        prog.label("newuser")
        prog.add(_LD_W_ABS, _ARG0)
        prog.add(_JSET_K, CLONE_NEWUSER, "eperm")
        prog.ret(SECCOMP_RET_ALLOW)
        for name, code in (("enolck", errno.ENOLCK), ("enosys", errno.ENOSYS)):
            prog.label(name)
            prog.ret(SECCOMP_RET_ERRNO | code)
    prog.label("eperm")
    prog.ret(SECCOMP_RET_ERRNO | EPERM)
    return prog.assemble()


class _SockFprog(ctypes.Structure):
    _fields_ = [("len", ctypes.c_ushort), ("filter", ctypes.c_void_p)]


PR_SET_NO_NEW_PRIVS = 38
PR_SET_SECCOMP = 22
SECCOMP_MODE_FILTER = 2


def install() -> None:
    """Apply the filter to this process and all it starts (with ``no_new_privs``, which a
    filter needs without CAP_SYS_ADMIN). Raises OSError if the kernel refuses."""
    prog = program()
    if prog is None:
        return
    libc = ctypes.CDLL(None, use_errno=True)
    buffer = ctypes.create_string_buffer(prog, len(prog))
    fprog = _SockFprog(len(prog) // 8, ctypes.cast(buffer, ctypes.c_void_p))
    if libc.prctl(PR_SET_NO_NEW_PRIVS, ctypes.c_ulong(1), 0, 0, 0) != 0:
        err = ctypes.get_errno()
        raise OSError(err, f"prctl(PR_SET_NO_NEW_PRIVS): {os.strerror(err)}")
    args = (ctypes.c_ulong(SECCOMP_MODE_FILTER), ctypes.byref(fprog), 0, 0)
    if libc.prctl(PR_SET_SECCOMP, *args) != 0:
        err = ctypes.get_errno()
        raise OSError(err, f"prctl(PR_SET_SECCOMP): {os.strerror(err)}")


_files: dict[bool, tuple[int, str]] = {}  # locks: (pid, path) of this process's copy


def program_path(locks: bool = True) -> str | None:
    """A path the strict program (``locks``: see :func:`program`) can be read from (for
    ``bwrap --seccomp``), or None.

    A memory file of this process (``/proc/<pid>/fd/<n>``): each opening of that path
    reads the program from its start, and nothing is left on disk.
    """
    known = _files.get(locks)
    if known is not None and known[0] == os.getpid():
        return known[1]
    prog = program(strict=True, locks=locks)
    if prog is None:
        return None
    try:
        fd = os.memfd_create("arena-seccomp", os.MFD_CLOEXEC)
    except (AttributeError, OSError):
        return None
    with contextlib.suppress(OSError):
        os.write(fd, prog)
        path = f"/proc/{os.getpid()}/fd/{fd}"
        _files[locks] = (os.getpid(), path)
        return path
    os.close(fd)
    return None
