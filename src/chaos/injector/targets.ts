// Turns --level and --target-containers into InjectorTargets: at pod level one per container, resolved through
// the node runtime (upstream asks containerd or docker for each container's PID); at node level one target with
// no container, the node itself.
import type { InjectorTarget } from './injector.ts';
import type { NodeRuntimePort } from './node-runtime-port.ts';
import type { CommonOptions, TargetContainerRef } from './options.ts';
import { TargetResolutionError } from './errors.ts';
import { messageOf } from '../../apimachinery/error-message.ts';

/** The ID the runtime knows: without `bosun://`, `containerd://` (or any other runtime's) scheme. */
export function stripRuntimeScheme(id: string): string {
  return id.replace(/^[a-z][a-z0-9+.-]*:\/\//, '');
}

export interface ResolvedTarget extends InjectorTarget {
  /** The container's name in its pod (pod level), by which a restart is recognized. */
  containerName?: string;
}

export async function resolveContainer(ref: TargetContainerRef, options: CommonOptions, port: NodeRuntimePort | undefined): Promise<ResolvedTarget> {
  if (!port) throw new TargetResolutionError(`container ${ref.name} (${ref.id}): no node runtime to resolve it (BOSUN_NODE_RUNTIME_SOCKET is not set)`);
  const id = stripRuntimeScheme(ref.id);
  let container;
  try {
    container = await port.container(id);
  } catch (error) {
    throw new TargetResolutionError(`container ${ref.name} (${id}): ${messageOf(error)}`);
  }
  return {
    level: 'pod',
    container,
    containerName: ref.name,
    targetName: options.logContext['targetName'] ?? container.pod,
    nodeName: options.logContext['targetNodeName'] ?? '',
    ...(options.targetPodIP ? { podIP: options.targetPodIP } : {}),
  };
}

export async function resolveTargets(options: CommonOptions, port: NodeRuntimePort | undefined): Promise<ResolvedTarget[]> {
  if (options.level === 'node') {
    const node = port ? await port.node().catch((error: unknown) => Promise.reject(new TargetResolutionError(`the node runtime: ${messageOf(error)}`))) : undefined;
    return [
      {
        level: 'node',
        targetName: options.logContext['targetName'] ?? '',
        nodeName: options.logContext['targetNodeName'] ?? options.logContext['targetName'] ?? '',
        ...(options.targetPodIP ? { podIP: options.targetPodIP } : {}),
        ...(node ? { nodePid: node.pid } : {}),
      },
    ];
  }
  if (options.targetContainers.length === 0) throw new TargetResolutionError('--level pod needs --target-containers');
  const targets: ResolvedTarget[] = [];
  for (const ref of options.targetContainers) targets.push(await resolveContainer(ref, options, port));
  return targets;
}
