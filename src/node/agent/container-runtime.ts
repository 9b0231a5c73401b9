// The seam between the pod worker and what runs a container: the host sandbox today, an OCI runtime (runc under
// conmon, with the image's root file system) where images run. Probes, exec, logs and the node runtime API use
// only what RunningContainer names, so both give the same to the rest of the agent.
import type { ContainerHandle } from '../sandbox/container-handle.ts';
import type { StartRequest } from '../sandbox/types.ts';
import { imageDefaults, type ImageDefaults } from './container-argv.ts';

/** A started container as the agent uses it. */
export type RunningContainer = Pick<ContainerHandle, 'pid' | 'exited' | 'isRunning' | 'stop' | 'exec' | 'attach' | 'commandPid' | 'cgroup'>;

export interface ContainerRuntime {
  start(request: StartRequest): Promise<RunningContainer>;
}

/** The RuntimeClass whose pods always run on the host sandbox. */
export const HOST_RUNTIME_CLASS = 'bosun-host';

export type RuntimeKind = 'host' | 'oci';

/**
 * Which runtime runs a container: the host sandbox for runtimeClassName bosun-host, for Bosun's own images (those
 * that bind host directories: the chaos injector and handler) and on a node without the OCI runtime; else OCI.
 */
export function runtimeFor(pod: { spec: object }, image: string | undefined, node: { oci: boolean; imageMap: Readonly<Record<string, ImageDefaults>> }): RuntimeKind {
  // PodSpec's type predates runtimeClassName; the field is stored as written.
  if (!node.oci || (pod.spec as { runtimeClassName?: string }).runtimeClassName === HOST_RUNTIME_CLASS) return 'host';
  return imageDefaults(image, node.imageMap)?.hostDirs !== undefined ? 'host' : 'oci';
}
