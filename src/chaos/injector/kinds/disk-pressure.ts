// disk-pressure: throttles the target's reads and/or writes (bytes per second) on the disk backing --path, in
// its blkio (v1) or io (v2) cgroup; upstream's injector/disk_pressure.go. Deviation: upstream throttles
// `MAJ:0`; here the real whole disk backing the path (disk/block-device.ts), so that partitions, nvme,
// device-mapper and overlay roots are throttled on the right device.
import { posix } from 'node:path';
import type { Injector, InjectorContext, KindDefinition } from '../injector.ts';
import { formatDevice, resolveBlockDevice, type BlockDevice } from './disk/block-device.ts';
import { throttleFile, throttleLine, type ThrottleMode } from './disk/throttle-files.ts';
import { cgroupRoot, hostRoot, procPath } from './mounts.ts';
import { InjectorOptionError, intValue, stringValue } from './option-values.ts';

export class DiskPressureError extends Error {
  override readonly name = 'DiskPressureError' as const;
}

export interface DiskPressureSpec {
  path: string;
  /** Absent (upstream: 0 on the command line) means not throttled. */
  readBytesPerSec?: number;
  writeBytesPerSec?: number;
}

export function diskPressureSpec(values: Readonly<Record<string, unknown>>): DiskPressureSpec {
  const path = stringValue(values, 'path');
  if (!path) throw new InjectorOptionError('--path is required');
  const read = intValue(values, 'readBytesPerSec', 0, '--read-bytes-per-sec');
  const write = intValue(values, 'writeBytesPerSec', 0, '--write-bytes-per-sec');
  if (read < 0 || write < 0) throw new InjectorOptionError('bytes per second must not be negative');
  return { path, ...(read !== 0 && { readBytesPerSec: read }), ...(write !== 0 && { writeBytesPerSec: write }) };
}

interface ThrottleTarget {
  cgroupVersion: 1 | 2;
  cgroupDir: string;
  device: BlockDevice;
}

class DiskPressureInjector implements Injector {
  readonly kind = 'disk-pressure' as const;
  private target: ThrottleTarget | undefined;

  constructor(
    private readonly ctx: InjectorContext,
    private readonly spec: DiskPressureSpec,
    private readonly env: NodeJS.ProcessEnv,
  ) {}

  async inject(): Promise<void> {
    // Resolved on every inject: a restarted container has a new pid and maybe a new cgroup.
    this.target = await this.resolve();
    for (const mode of ['read', 'write'] as const) {
      const bytesPerSec = mode === 'read' ? this.spec.readBytesPerSec : this.spec.writeBytesPerSec;
      if (bytesPerSec === undefined) continue;
      await this.write(this.target, mode, bytesPerSec);
      this.ctx.log.info(`${mode} throttling injected`, { device: formatDevice(this.target.device), bps: bytesPerSec });
    }
  }

  async clean(): Promise<void> {
    const target = this.target;
    if (!target) return; // never injected: nothing to undo
    for (const mode of ['read', 'write'] as const) {
      this.ctx.log.info(`cleaning disk ${mode} throttle`, { device: formatDevice(target.device) });
      await this.write(target, mode, 0);
    }
  }

  private async write(target: ThrottleTarget, mode: ThrottleMode, bytesPerSec: number): Promise<void> {
    const file = posix.join(target.cgroupDir, throttleFile(target.cgroupVersion, mode));
    try {
      await this.ctx.writes.writeFile(file, throttleLine(target.cgroupVersion, target.device, mode, bytesPerSec));
    } catch (err) {
      throw new DiskPressureError(`error ${bytesPerSec === 0 ? 'cleaning' : 'throttling'} disk ${mode} on ${formatDevice(target.device)} in ${file}: ${(err as Error).message}`);
    }
  }

  private async resolve(): Promise<ThrottleTarget> {
    const { reads, target } = this.ctx;
    const host = hostRoot(this.env);
    const onHost = { statPath: posix.join(host, this.spec.path), pathInMountNamespace: posix.join(host, this.spec.path), mountInfoPath: '/proc/self/mountinfo', hostRoot: host };
    let device: BlockDevice;
    const pid = target.container?.pid;
    if (target.level === 'pod' && pid !== undefined && (await reads.exists(procPath(pid, posix.join('root', this.spec.path))))) {
      // The path as the container sees it, through its main process's root.
      device = await resolveBlockDevice(reads, {
        statPath: procPath(pid, posix.join('root', this.spec.path)),
        pathInMountNamespace: this.spec.path,
        mountInfoPath: procPath(pid, 'mountinfo'),
        hostRoot: host,
      });
    } else {
      if (target.level === 'pod') this.ctx.log.warn(`${this.spec.path} is not visible in the target container; using the host's path`, { container: target.container?.container });
      device = await resolveBlockDevice(reads, onHost);
    }
    if (target.container) {
      const version = target.container.cgroupVersion;
      const dir = target.container.cgroups[version === 2 ? 'unified' : 'blkio'];
      if (!dir) throw new DiskPressureError(`the target container has no ${version === 2 ? 'unified' : 'blkio'} cgroup`);
      return { cgroupVersion: version, cgroupDir: dir, device };
    }
    // Node level: the root cgroup, as upstream's cgroup manager for pid 1.
    const root = cgroupRoot(this.env);
    const v2 = await reads.exists(posix.join(root, 'cgroup.controllers'));
    return { cgroupVersion: v2 ? 2 : 1, cgroupDir: v2 ? root : posix.join(root, 'blkio'), device };
  }
}

export function diskPressureKind(env: NodeJS.ProcessEnv = process.env): KindDefinition {
  return {
    name: 'disk-pressure',
    options: [
      { flags: '--path <path>', description: 'Path to apply/clean disk pressure to/from (will be applied to the whole disk)' },
      { flags: '--write-bytes-per-sec <bytes>', description: 'Bytes per second throttling limit', defaultValue: '0' },
      { flags: '--read-bytes-per-sec <bytes>', description: 'Bytes per second throttling limit', defaultValue: '0' },
    ],
    create: (ctx, values) => new DiskPressureInjector(ctx, diskPressureSpec(values), env),
  };
}

export const diskPressure: KindDefinition = diskPressureKind();
