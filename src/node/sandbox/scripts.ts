// The sandbox's shell steps. They are constants: every value reaches them as a positional argument, never
// spliced into the script text. Process chain of a container:
//
//   agent ─ bash (CONTAINER_STAGE0: close stray descriptors, make the log FIFOs, join the cgroups)
//           └ exec unshare -m -u -i -C [-p]        new namespaces (without forking)
//             └ exec timeout --foreground 0        the waiter: forks the container and reports its exit
//                                                  faithfully, SIGKILL included (unshare's own fork cannot)
//               └ sh (CONTAINER_SETUP) = pid 1     mounts, hostname, pivot_root
//                 └ exec setpriv …                 drops to the container's user and capabilities
//                   └ exec env -i VAR=… argv       the container's process, still pid 1
//
// Everything up to setpriv runs as root with a fixed environment; the container's variables reach only
// the last step, so none of them (LD_PRELOAD …) can touch a root helper.
//
// The stage-0 shell opens both FIFOs read-write before anything else, so the waiter keeps them open for the
// container's lifetime: while no agent reads them (between an agent's death and its restart) the container
// blocks on a full pipe instead of dying of SIGPIPE.
//
// The agent opens the FIFOs' read ends when the setup reports its pid, and answers with a go-ahead line on the
// setup's stdin; the setup waits for it before the container runs. Without that handshake a slow agent (a
// loaded machine) could open the FIFOs after a short-lived container and its waiter had exited: the output
// would be gone, and Linux would never report end-of-file to that reader (output-copy.ts).

/**
 * Run by bash (dash cannot name descriptors above 9): closes every inherited descriptor but 0-2, since an
 * agent started with stray ones (a CI's pipes) must not hand them to containers, whose lifetime could then
 * hold its parent's pipes open.
 */
const CLOSE_INHERITED = `
for fd in /proc/$$/fd/*; do
  fd=\${fd##*/}
  case $fd in 0|1|2) ;; *) eval "exec $fd>&-" 2>/dev/null ;; esac
done
`;

/** Writes the shell's pid into each cgroup.procs file before "--", then execs the rest. */
const JOIN = `
while [ "$1" != -- ]; do
  printf '%s\\n' "$$" > "$1" || exit 125
  shift
done
shift
exec "$@"
`;

/** bash: the cgroup.procs files, "--", the command. */
export const JOIN_CGROUPS = CLOSE_INHERITED + JOIN;

/**
 * bash: $1 mkfifo, $2 stdout FIFO, $3 stderr FIFO; then JOIN_CGROUPS's arguments. The FIFOs are writable by all
 * so that a container user can reopen /dev/stdout; only root can reach them through the run directory.
 */
export const CONTAINER_STAGE0 = `${CLOSE_INHERITED}
"$1" -m 0622 -- "$2" "$3" || exit 125
exec 3<>"$2" 4<>"$3" || exit 125
shift 3
${JOIN}`;

/** Markers on the setup channel (the setup's stderr); anything else there is a diagnostic. */
export const PID_MARKER = 'bosun-sandbox:pid ';
export const EXEC_MARKER = 'bosun-sandbox:exec';

/**
 * Runs as pid 1 of the new namespaces: reports its host pid, sets the hostname, fills the skeleton tmpfs,
 * performs the fstab, pivots into the new root, waits for the agent's go-ahead on stdin (end-of-file instead
 * means the agent cannot read the output, so the container must not run), then becomes the container's
 * process with stdin on /dev/null (or, with keep-stdin set, on the agent's pipe that carried the go-ahead, for
 * attach) and fd 1 and 2 on the FIFOs. Arguments: hostname skeleton skeleton-dirs skeleton-files fstab
 * staging-root working-dir mount umount pivot_root mkdir keep-stdin, then the setpriv command line. Lists are
 * newline-separated. sh's read takes one byte at a time from a pipe, so nothing after the go-ahead is lost.
 */
export const CONTAINER_SETUP = `
hostname=$1 skeleton=$2 skeleton_dirs=$3 skeleton_files=$4 fstab=$5 root=$6 workdir=$7 mount=$8 umount=$9
pivot_root=\${10} mkdir=\${11} keep_stdin=\${12}
shift 12
cd -P /proc/self || exit 1
printf '${PID_MARKER}%s\\n' "\${PWD##*/}" >&2
printf '%s' "$hostname" > /proc/sys/kernel/hostname || exit 1
"$mount" -t tmpfs -o mode=0755,size=1m,nosuid,nodev bosun-skeleton "$skeleton" || exit 1
set -f
IFS='
'
if [ -n "$skeleton_dirs" ]; then "$mkdir" -p -- $skeleton_dirs || exit 1; fi
for file in $skeleton_files; do : > "$file" || exit 1; done
unset IFS
set +f
"$mount" -a -c -T "$fstab" || exit 1
cd "$root" && "$pivot_root" . . && "$umount" -l . || exit 1
cd "$workdir" || exit 1
read -r go_ahead || exit 1
[ -n "$keep_stdin" ] || exec 0</dev/null
printf '${EXEC_MARKER}\\n' >&2
exec 1>&3 2>&4 3>&- 4>&-
exec "$@"
`;
