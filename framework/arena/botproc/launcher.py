"""What a bot's process does before exec: every limit before its first instruction.

The steps, in order, so that they are in force before the bot's program (or bubblewrap,
which then starts it) runs at all:

1. join the bot's cgroups (pids and memory caps; the end of the game kills the group);
2. set the rlimits (file size, no core dumps, address space where no memory cgroup caps);
3. without bubblewrap, where the kernel allows: a private mount namespace with fresh
   tmpfs on ``/tmp`` and ``/dev/shm`` (size-capped, freed when the bot's last process
   ends), the bot's own directory bound back in place; and a PID namespace of its own
   (:func:`pid_namespace_argv`: the bot cannot name, so cannot signal, arena's processes);
4. no kernel keyrings (a seccomp filter, :mod:`arena.botproc.seccomp`: bots of every
   game and run share their user's keyring otherwise);
5. die with the process that started it (``PR_SET_PDEATHSIG``).

Two ways to take them, by sandbox:

* with bubblewrap, :func:`shell_launch`: the child is ``/bin/sh``, which joins the groups
  and sets the limits with its builtins, then ``exec``s bubblewrap (which arms the death
  signal itself, ``--die-with-parent``, loads the seccomp filter, ``--seccomp``, and does
  step 3 and more). Nothing runs in Python
  between fork and exec, so ``subprocess`` starts it with ``vfork``: the referee is free
  again within a millisecond, instead of the 3-5 ms a ``fork`` of the referee's process
  costs (copying its page tables, then a copy-on-write fault for every page the child or
  the referee touches until the exec; ``bench/protections.py``).
* without bubblewrap, :class:`Launch` runs in the child (``subprocess.Popen(preexec_fn=...)``,
  a ``fork``): the private mount namespace needs system calls no shell offers. Popen has
  already put the child in its own session and directory. ``preexec_fn`` is only safe in
  a single-threaded process: bots are started by worker processes (or ``arena match``),
  which have no other threads.
"""

from __future__ import annotations

import contextlib
import ctypes
import dataclasses
import errno
import os
import resource
import shutil
import signal
from collections.abc import Sequence
from dataclasses import dataclass

from arena.botproc import seccomp

_libc = ctypes.CDLL(None, use_errno=True)

PR_SET_PDEATHSIG = 1
PR_SET_CHILD_SUBREAPER = 36
CLONE_NEWNS = 0x00020000
CLONE_NEWPID = 0x20000000
CLONE_NEWUSER = 0x10000000
CLONE_NEWIPC = 0x08000000
PR_CAPBSET_DROP = 24
PR_CAP_AMBIENT = 47
PR_CAP_AMBIENT_CLEAR_ALL = 4
MS_RDONLY = 0x1
MS_NOEXEC = 0x8
MS_REMOUNT = 0x20
MS_BIND = 0x1000
MS_NOSUID = 0x2
MS_NODEV = 0x4
MS_REC = 0x4000
MS_PRIVATE = 0x40000
SYS_OPEN_TREE = 428  # the same number on every architecture (Linux 5.2+)
SYS_MOVE_MOUNT = 429
OPEN_TREE_CLONE = 1
MOVE_MOUNT_F_EMPTY_PATH = 4
AT_FDCWD = -100

SHELL = "/bin/sh"
"""The POSIX shell of :func:`shell_launch` (dash, bash or busybox: each has these builtins)."""
LAUNCH_FAILED = 125
"""Exit code of a launcher that could not confine the bot (it then never runs)."""
_LAUNCH_SCRIPT = """
while [ "$1" != -- ]; do
    case $1 in
    --fd9) exec 9<"$2" || { echo "arena: cannot open $2" >&2; exit 125; }
        shift 2 ;;
    -?) ulimit "$1" "$2" || { echo "arena: cannot set ulimit $1 $2" >&2; exit 125; }
        shift 2 ;;
    *) echo 0 >"$1" || { echo "arena: cannot join the cgroup of $1" >&2; exit 125; }
        shift ;;
    esac
done
shift
exec "$@"
"""
_ULIMIT = {
    resource.RLIMIT_FSIZE: ("-f", 512),
    resource.RLIMIT_CORE: ("-c", 512),
    resource.RLIMIT_AS: ("-v", 1024),
}
"""The shell's ``ulimit`` flag for each rlimit, and its unit in bytes. Without ``-H`` or
``-S`` it sets the hard and the soft limit together (dash, bash, busybox)."""

PRIVATE_DIRS = ("/tmp", "/dev/shm")
"""Without bubblewrap, these get a fresh tmpfs per bot where the kernel allows it."""


def _check(result: int, what: str) -> None:
    if result != 0:
        err = ctypes.get_errno()
        raise OSError(err, f"{what}: {os.strerror(err)}")


def prctl(option: int, value: int) -> None:
    """``prctl(option, value)``; raises OSError on failure."""
    _check(_libc.prctl(option, ctypes.c_ulong(value), 0, 0, 0), "prctl")


def become_subreaper() -> None:
    """Make orphans of this process's descendants come back to it (not to init).

    A bot's child that double-forks or calls ``setsid`` and loses its parent is then
    still a child of arena's process, which kills it at the end of the game.
    """
    with contextlib.suppress(OSError):
        prctl(PR_SET_CHILD_SUBREAPER, 1)


def _mount(source: str | None, target: str, fstype: str | None, flags: int, data: str) -> None:
    src = source.encode() if source is not None else None
    fs = fstype.encode() if fstype is not None else None
    _check(_libc.mount(src, target.encode(), fs, ctypes.c_ulong(flags), data.encode()), target)


def _unshare(flags: int) -> None:
    _check(_libc.unshare(flags), "unshare")


def _clone_tree(path: str) -> int:
    """A detached copy of the mount at ``path`` (``open_tree``), to attach elsewhere later."""
    fd = _libc.syscall(SYS_OPEN_TREE, AT_FDCWD, path.encode(), OPEN_TREE_CLONE | os.O_CLOEXEC)
    if fd < 0:
        err = ctypes.get_errno()
        raise OSError(err, f"open_tree {path}: {os.strerror(err)}")
    return int(fd)


def _attach_tree(fd: int, path: str) -> None:
    flags = MOVE_MOUNT_F_EMPTY_PATH
    _check(_libc.syscall(SYS_MOVE_MOUNT, fd, b"", AT_FDCWD, path.encode(), flags), path)


@dataclass(frozen=True)
class PrivateDirs:
    """A fresh tmpfs on ``/tmp`` and ``/dev/shm`` for a bot that runs without bubblewrap.

    ``workdir`` (the bot's directory) and ``keep`` (the files its command names, its
    interpreter) are put back in place where a tmpfs covers them; ``size`` caps each tmpfs
    (bytes, None: the kernel's default); ``userns``: an unprivileged user creates a user
    namespace (its own uid mapped to itself) to be allowed the mounts. ``scratch``: the
    bot's directory is not the host's but a fresh one on the ``/tmp`` tmpfs (sharing
    its cap), or a tmpfs of its own of ``size`` where it lies elsewhere. ``pid_ns``: the
    command the bot's own is put behind to give it a PID namespace of its own (see
    :func:`pid_namespace_argv`; empty where the probe found none works).
    """

    workdir: str
    size: int | None
    userns: bool
    keep: tuple[str, ...] = ()
    scratch: bool = False
    pid_ns: tuple[str, ...] = ()

    def enter(self) -> None:
        """Create the namespace and the mounts (in the child, before exec)."""
        uid, gid = os.getuid(), os.getgid()
        # An IPC namespace of its own too: no SysV shared memory, semaphore or message
        # queue (nor POSIX queue) it makes outlives it or reaches another bot.
        if self.userns:
            _unshare(CLONE_NEWUSER | CLONE_NEWNS | CLONE_NEWIPC)
            for name, text in (("setgroups", "deny"), ("uid_map", f"{uid} {uid} 1"),
                               ("gid_map", f"{gid} {gid} 1")):  # fmt: skip
                fd = os.open(f"/proc/self/{name}", os.O_WRONLY)
                os.write(fd, text.encode())
                os.close(fd)
        else:
            _unshare(CLONE_NEWNS | CLONE_NEWIPC)
        # Nothing mounted here may propagate back to the host.
        _mount(None, "/", None, MS_REC | MS_PRIVATE, "")
        read_only_cgroups()
        # What must stay visible is detached before a tmpfs covers it, then attached again
        # (a symbolic link is made again: its target is kept too). A scratch workdir is
        # made anew on the tmpfs instead.
        kept = self.keep if self.scratch else (self.workdir, *self.keep)
        under = [path for path in kept if any(path.startswith(d + "/") for d in PRIVATE_DIRS)]
        links = [(path, os.readlink(path)) for path in under if os.path.islink(path)]
        covered = [
            (path, os.path.isdir(path), _clone_tree(path))
            for path in under
            if not os.path.islink(path)
        ]
        options = "mode=1777" + (f",size={self.size}" if self.size else "")
        for target in PRIVATE_DIRS:
            if os.path.isdir(target):
                _mount("tmpfs", target, "tmpfs", MS_NOSUID | MS_NODEV, options)
        for path, target in links:
            os.makedirs(os.path.dirname(path), mode=0o755, exist_ok=True)
            os.symlink(target, path)
        if self.scratch:
            if any(self.workdir.startswith(d + "/") for d in PRIVATE_DIRS):
                os.makedirs(self.workdir, mode=0o755)
            else:
                flags = MS_NOSUID | MS_NODEV
                _mount("tmpfs", self.workdir, "tmpfs", flags, options.replace("1777", "0755"))
        for path, is_dir, tree in covered:
            if is_dir:
                os.makedirs(path, mode=0o755, exist_ok=True)
            else:
                os.makedirs(os.path.dirname(path), mode=0o755, exist_ok=True)
                os.close(os.open(path, os.O_CREAT | os.O_WRONLY, 0o644))
            _attach_tree(tree, path)
            os.close(tree)
        os.chdir(self.workdir)


def read_only_cgroups() -> None:
    """Remount every cgroup filesystem of this mount namespace read-only: the bot (which
    has no capability left to remount them) cannot move itself out of its cgroups, nor
    change their limits, even as root (whose files they are)."""
    try:
        with open("/proc/self/mountinfo") as f:
            mounts = f.read().splitlines()
    except OSError:
        return
    for line in mounts:
        fields = line.split()
        if "-" not in fields:
            continue
        fstype = fields[fields.index("-") + 1]
        if fstype not in ("cgroup", "cgroup2"):
            continue
        # Its per-mount flags kept (a user namespace may not clear them), read-only added.
        options = fields[5].split(",")
        flags = MS_REMOUNT | MS_BIND | MS_RDONLY
        for name, flag in (("nosuid", MS_NOSUID), ("nodev", MS_NODEV), ("noexec", MS_NOEXEC)):
            if name in options:
                flags |= flag
        with contextlib.suppress(OSError):
            _mount(None, fields[4].replace("\\040", " "), None, flags, "")


def drop_capabilities() -> None:
    """Empty this process's capability bounding and ambient sets: a root process keeps
    its uid but gets no capability at its ``exec`` (no renice below 0, no remount, no
    writing what only capabilities allow)."""
    last = 63
    with contextlib.suppress(OSError, ValueError), open("/proc/sys/kernel/cap_last_cap") as f:
        last = int(f.read())
    for cap in range(last + 1):
        with contextlib.suppress(OSError):
            prctl(PR_CAPBSET_DROP, cap)
    with contextlib.suppress(OSError):
        prctl(PR_CAP_AMBIENT, PR_CAP_AMBIENT_CLEAR_ALL)


@dataclass(frozen=True)
class Launch:
    """The steps a bot's child process takes before ``exec`` (a ``preexec_fn``)."""

    cgroup_join: tuple[str, ...] = ()
    rlimits: tuple[tuple[int, int], ...] = ()
    private: PrivateDirs | None = None
    parent: int = 0
    no_keyrings: bool = False
    new_pid_ns: bool = False
    """Make a PID namespace for the bot's program, behind :func:`pid_namespace_argv`."""
    drop_caps: bool = False
    """Root's bot: no capabilities after exec (:func:`drop_capabilities`; where a wrapper
    still needs them, the wrapper's ``setpriv`` drops them instead)."""

    def __call__(self) -> None:
        """Run in the child between fork and exec; any exception fails the start."""
        # "0": this process, which has one thread (the child of a fork), see JOIN_FILES.
        for join_file in self.cgroup_join:
            fd = os.open(join_file, os.O_WRONLY)
            try:
                os.write(fd, b"0")
            finally:
                os.close(fd)
        for limit, value in self.rlimits:
            resource.setrlimit(limit, (value, value))
        if self.private is not None:
            self.private.enter()
        if self.new_pid_ns:
            _unshare(CLONE_NEWPID)  # for the children of this process: see pid_namespace_argv
        if self.no_keyrings:
            try:
                seccomp.install()
            except OSError as exc:
                if exc.errno != errno.EINVAL:  # EINVAL: a kernel without seccomp filters
                    raise
        if self.drop_caps:
            drop_capabilities()
        prctl(PR_SET_PDEATHSIG, signal.SIGKILL)
        if self.parent and os.getppid() != self.parent:
            os._exit(1)  # the parent died before the death signal was armed


def shell_launch(
    cgroup_join: Sequence[str],
    rlimits: Sequence[tuple[int, int]],
    argv: Sequence[str],
    fd9: str | None = None,
) -> list[str]:
    """``argv`` behind a ``/bin/sh`` that first joins the cgroups and sets the rlimits
    (and opens ``fd9``, if given, for reading on descriptor 9: bubblewrap's seccomp filter).

    The shell's pid is the pid ``argv`` runs as (``exec``). Limits go in whole units of
    the shell's ``ulimit``: a file size cap is rounded up to the next 512 bytes (the
    caller's own size checks stay exact) unless that passes this process's own hard
    limit, then down. If a step fails the shell says so on stderr and exits with
    :data:`LAUNCH_FAILED` without running ``argv``.
    """
    steps: list[str] = ["--fd9", fd9] if fd9 is not None else []
    steps += cgroup_join
    for limit, value in rlimits:
        flag, unit = _ULIMIT[limit]
        units = value // unit
        if limit == resource.RLIMIT_FSIZE and units * unit < value:
            hard = resource.getrlimit(limit)[1]
            if hard == resource.RLIM_INFINITY or (units + 1) * unit <= hard:
                units += 1
        steps += [flag, str(units)]
    return [SHELL, "-c", _LAUNCH_SCRIPT, "arena-launch", *steps, "--", *argv]


def pid_namespace_argv(unshare: str, mount_proc: bool) -> tuple[str, ...]:
    """The command that runs the bot's own in a PID namespace of its own (util-linux
    ``unshare``), for bots without bubblewrap.

    The launch has made the namespace already (:attr:`Launch.new_pid_ns`: ``unshare(2)``
    while it still holds the capabilities its user namespace gives it, which an
    unprivileged user loses at ``exec``); its first process is the next one forked.
    ``unshare --fork`` forks the bot into it, as its process 1, and waits for it, exiting
    as it exits (re-raising the signal that killed it). The bot then cannot name any
    process outside its namespace: ``getppid()`` is 0, ``kill(-1, ...)`` reaches only its
    own processes, and no pid of arena's worker, of arena or of the other bot exists for
    it. ``--kill-child``: the bot dies with ``unshare``; when the bot (process 1) ends,
    the kernel kills everything it left in the namespace. ``mount_proc`` (root only: it
    needs capabilities after ``exec``): a ``/proc`` of the namespace's own is mounted over
    the host's, so the bot does not see the host's processes either.
    """
    argv = [unshare, "--fork", "--kill-child"]
    if mount_proc:
        argv.append("--mount-proc")
    return (*argv, "--")


def _probe_child(private: PrivateDirs, argv: Sequence[str] = ()) -> bool:
    """Whether a forked child can take ``private``'s steps (then make a PID namespace and
    exec ``argv`` with its output discarded, if given) and exit 0."""
    pid = os.fork()
    if pid == 0:  # pragma: no cover - child
        code = 1
        try:
            private.enter()
            ok = os.path.isdir(private.workdir) and os.listdir("/dev/shm") == []
            if ok and argv:
                _unshare(CLONE_NEWPID)
                null = os.open(os.devnull, os.O_RDWR)
                for fd in (0, 1, 2):
                    os.dup2(null, fd)
                os.execv(argv[0], list(argv))
            code = 0 if ok else 1
        finally:
            os._exit(code)
    _, status = os.waitpid(pid, 0)
    return os.waitstatus_to_exitcode(status) == 0


def probe_pid_namespace(private: PrivateDirs) -> tuple[str, ...]:
    """The :func:`pid_namespace_argv` that works here after ``private``'s steps (with a
    ``/proc`` of its own where possible), or ``()`` where none does (no ``unshare``, or
    a kernel that refuses the namespace)."""
    unshare = shutil.which("unshare")
    if unshare is None:
        return ()
    for mount_proc in (True, False):
        argv = pid_namespace_argv(unshare, mount_proc)
        # Process 1 of a namespace of its own, and (with mount_proc) the /proc it sees is
        # that namespace's: its own processes have small numbers there.
        check = 'test "$$" = 1' + (' && test "$(readlink /proc/self)" -lt 100' * mount_proc)
        if _probe_child(private, (*argv, "/bin/sh", "-c", check)):
            return argv
    return ()


def probe_private_dirs(workdir: str) -> PrivateDirs | None:
    """How this process can give bots a private ``/tmp`` and ``/dev/shm`` and a PID
    namespace (None: it cannot).

    Tries it for real in forked children: as root a mount namespace, else a user namespace.
    """
    for userns in (False, True) if os.getuid() == 0 else (True,):
        private = PrivateDirs(workdir, 1024 * 1024, userns)
        if _probe_child(private):
            return dataclasses.replace(private, pid_ns=probe_pid_namespace(private))
    return None
