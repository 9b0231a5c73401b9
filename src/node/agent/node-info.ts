// Node status.nodeInfo as kubelet fills it from the host: kernel (uname -r), OS image (/etc/os-release
// PRETTY_NAME), architecture as GOARCH, the machine and boot IDs, and the runtime and kubelet versions.
import { readFile } from 'node:fs/promises';
import { arch, platform, release } from 'node:os';

export interface NodeVersions {
  /** kubelet's version: the API server's (`v1.32.4-bosun`). */
  kubelet: string;
  /** `bosun://<bosun's version>`, as containerd reports `containerd://1.7.x`. */
  runtime: string;
}

const GOARCH: Record<string, string> = { x64: 'amd64', ia32: '386', arm: 'arm', arm64: 'arm64', ppc64: 'ppc64le', s390x: 's390x', riscv64: 'riscv64', loong64: 'loong64' };

/** os-release's PRETTY_NAME, unquoted; "Linux" as systemd defaults when it is missing. */
export function prettyName(osRelease: string): string {
  const line = osRelease.split('\n').find((l) => l.startsWith('PRETTY_NAME='));
  if (line === undefined) return 'Linux';
  return line.slice('PRETTY_NAME='.length).trim().replace(/^(["'])(.*)\1$/, '$2');
}

async function firstLine(path: string): Promise<string> {
  return (await readFile(path, 'utf8').catch(() => '')).split('\n')[0]?.trim() ?? '';
}

export async function hostNodeInfo(versions: NodeVersions): Promise<Record<string, string>> {
  const osRelease = await readFile('/etc/os-release', 'utf8').catch(() => readFile('/usr/lib/os-release', 'utf8').catch(() => ''));
  const machineID = await firstLine('/etc/machine-id');
  return {
    machineID,
    systemUUID: (await firstLine('/sys/class/dmi/id/product_uuid')) || machineID,
    bootID: await firstLine('/proc/sys/kernel/random/boot_id'),
    kernelVersion: release(),
    osImage: prettyName(osRelease),
    containerRuntimeVersion: versions.runtime,
    kubeletVersion: versions.kubelet,
    kubeProxyVersion: '',
    operatingSystem: platform(),
    architecture: GOARCH[arch()] ?? arch(),
  };
}
