// The shared workspace a Workflow's Job may mount: a PersistentVolumeClaim named by the Workflow's
// workspaceClaimName parameter, mounted as volume "terrakojo-workspace" into every container and init
// container at workspaceMountPath (default /workspace). Who makes the claim is not this controller's concern.
import type { Workflow } from '../api/types.ts';
import type { PodSpec } from '../../apimachinery/api/index.ts';
import { allContainers } from './pod-containers.ts';

export const PARAM_WORKSPACE_CLAIM_NAME = 'workspaceClaimName';
export const PARAM_WORKSPACE_MOUNT_PATH = 'workspaceMountPath';
export const WORKSPACE_VOLUME = 'terrakojo-workspace';
export const DEFAULT_WORKSPACE_MOUNT_PATH = '/workspace';

export interface Workspace {
  /** Absent when only a mount path is given. */
  claimName?: string;
  mountPath: string;
}

/**
 * The workspace the Workflow asks for; undefined without a claim. Without a claim, a mount path alone still
 * names TERRAKOJO_WORKSPACE_DIR (passed through as the spec says), but nothing is mounted.
 */
export function workspaceOf(workflow: Workflow): Workspace | undefined {
  const parameters = workflow.spec.parameters ?? {};
  const claimName = parameters[PARAM_WORKSPACE_CLAIM_NAME] || undefined;
  const mountPath = parameters[PARAM_WORKSPACE_MOUNT_PATH] || undefined;
  // Bosun: with a claim but no mount path the variable says where the volume is (/workspace), not ''.
  if (claimName) return { claimName, mountPath: mountPath ?? DEFAULT_WORKSPACE_MOUNT_PATH };
  return mountPath ? { mountPath } : undefined;
}

/** Adds the claim's volume and its mount into every container, when the Workflow names a claim. */
export function mountWorkspace(pod: PodSpec, workflow: Workflow): void {
  const workspace = workspaceOf(workflow);
  if (!workspace?.claimName) return;
  pod.volumes = [...(pod.volumes ?? []).filter((v) => v.name !== WORKSPACE_VOLUME), { name: WORKSPACE_VOLUME, persistentVolumeClaim: { claimName: workspace.claimName } }];
  for (const container of allContainers(pod)) {
    container.volumeMounts = [...(container.volumeMounts ?? []).filter((m) => m.name !== WORKSPACE_VOLUME), { name: WORKSPACE_VOLUME, mountPath: workspace.mountPath }];
  }
}
