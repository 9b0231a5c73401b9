// The devices cgroup of a container that is not privileged: runc's default allow-list (libcontainer/specconv
// AllowedDevices), less its `b *:* m`, so no block device can be created, and none can be opened whatever
// the container mounts. Without it a root container with CAP_SYS_ADMIN mounts a tmpfs (not nodev), makes the
// host disk's node in it and mounts the host's root filesystem writable. Only cgroup v1 has a devices file
// interface; v2 needs an eBPF program, which this sandbox does not load (docs/node.md, threat model).
import type { CgroupFileWrite } from './resource-limits.ts';

/** `type major:minor access`, as devices.allow takes them. */
export const ALLOWED_DEVICES = [
  'c *:* m', // mknod of character devices (opening them is still checked below)
  'c 1:3 rwm', // null
  'c 1:5 rwm', // zero
  'c 1:7 rwm', // full
  'c 1:8 rwm', // random
  'c 1:9 rwm', // urandom
  'c 5:0 rwm', // tty
  'c 5:1 rwm', // console
  'c 5:2 rwm', // ptmx
  'c 136:* rwm', // pts
];

/** The writes, in order: deny everything, then allow the list. */
export function deviceRuleWrites(): CgroupFileWrite[] {
  return [
    { controller: 'devices', file: 'devices.deny', value: 'a' },
    ...ALLOWED_DEVICES.map((rule): CgroupFileWrite => ({ controller: 'devices', file: 'devices.allow', value: rule })),
  ];
}
