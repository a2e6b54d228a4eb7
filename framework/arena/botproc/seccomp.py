"""A small seccomp filter for bots: no kernel keyrings.

Every bot that arena (as root, under bubblewrap) runs is ``nobody``, and every bot
without bubblewrap is arena's own user: bots of different games, runs and tournaments
share that user's keyring (``@u``), a channel that outlives any game. The filter makes
``add_key``, ``keyctl`` and ``request_key`` fail with ``EPERM``, as Docker's default
seccomp profile does; every other system call is allowed.

The program is classic BPF written by hand (no library needed), for the architectures
arena runs on (x86_64 and aarch64) and their 32-bit compatibility modes (i386 and arm,
which a bot could reach with a 32-bit program; x32 too). On another architecture there
is no filter (:func:`program` returns None) and the keyrings stay shared.
"""

from __future__ import annotations

import contextlib
import ctypes
import os
import platform
import struct

SECCOMP_RET_ALLOW = 0x7FFF0000
SECCOMP_RET_ERRNO = 0x00050000
EPERM = 1

# Opcodes of classic BPF (linux/filter.h).
_LD_W_ABS = 0x20  # BPF_LD | BPF_W | BPF_ABS
_JEQ_K = 0x15  # BPF_JMP | BPF_JEQ | BPF_K
_AND_K = 0x54  # BPF_ALU | BPF_AND | BPF_K
_RET_K = 0x06  # BPF_RET | BPF_K
_NR, _ARCH = 0, 4  # offsets of ``nr`` and ``arch`` in struct seccomp_data

X32_SYSCALL_BIT = 0x40000000

# Per audit architecture: the numbers of add_key, request_key and keyctl, and the mask
# applied to the number first (x86_64's x32 calls carry X32_SYSCALL_BIT).
KEY_SYSCALLS: dict[int, tuple[tuple[int, ...], int]] = {
    0xC000003E: ((248, 249, 250), ~X32_SYSCALL_BIT & 0xFFFFFFFF),  # x86_64 (and x32)
    0x40000003: ((286, 287, 288), 0xFFFFFFFF),  # i386
    0xC00000B7: ((217, 218, 219), 0xFFFFFFFF),  # aarch64
    0x40000028: ((309, 310, 311), 0xFFFFFFFF),  # arm
}
NATIVE = {"x86_64": 0xC000003E, "aarch64": 0xC00000B7}
"""The audit architecture of each machine this filter knows."""


def program() -> bytes | None:
    """The filter as an array of ``struct sock_filter`` (None: unknown architecture)."""
    if platform.machine() not in NATIVE:
        return None
    code: list[tuple[int, int, int, int]] = [(_LD_W_ABS, 0, 0, _ARCH)]
    deny_jumps: list[int] = []  # instructions whose jump-if-true goes to the final "deny"
    for arch, (numbers, mask) in KEY_SYSCALLS.items():
        block = 1 + 1 + len(numbers) + 1  # load nr, mask, compares, allow
        code.append((_JEQ_K, 0, block, arch))
        code.append((_LD_W_ABS, 0, 0, _NR))
        code.append((_AND_K, 0, 0, mask))
        for number in numbers:
            deny_jumps.append(len(code))
            code.append((_JEQ_K, 0, 0, number))
        code.append((_RET_K, 0, 0, SECCOMP_RET_ALLOW))
    code.append((_RET_K, 0, 0, SECCOMP_RET_ALLOW))  # another architecture
    deny = len(code)
    code.append((_RET_K, 0, 0, SECCOMP_RET_ERRNO | EPERM))
    for at in deny_jumps:
        op, _, jf, k = code[at]
        code[at] = (op, deny - at - 1, jf, k)
    return b"".join(struct.pack("=HBBI", *insn) for insn in code)


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


_file: tuple[int, str] | None = None  # (pid, path) of this process's copy of the program


def program_path() -> str | None:
    """A path the program can be read from (for ``bwrap --seccomp``), or None.

    A memory file of this process (``/proc/<pid>/fd/<n>``): each opening of that path
    reads the program from its start, and nothing is left on disk.
    """
    global _file
    if _file is not None and _file[0] == os.getpid():
        return _file[1]
    prog = program()
    if prog is None:
        return None
    try:
        fd = os.memfd_create("arena-seccomp", os.MFD_CLOEXEC)
    except (AttributeError, OSError):
        return None
    with contextlib.suppress(OSError):
        os.write(fd, prog)
        path = f"/proc/{os.getpid()}/fd/{fd}"
        _file = (os.getpid(), path)
        return path
    os.close(fd)
    return None
