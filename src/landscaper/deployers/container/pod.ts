// The pod of one operation (upstream pkg/deployer/container/pod.go): init → the user's program → wait. Bosun
// runs the program as the second init container, so that wait starts only once it has finished (upstream's
// wait polls the API for the main container's end, which needs a ServiceAccount token).
import type { KubeObject } from '../../../apimachinery/object.ts';
import { LANDSCAPER_API_VERSION } from '../../api/constants.ts';
import type { DeployItem } from '../../api/deploy-item.ts';
import type { ContainerProviderConfiguration } from './config.ts';
import { BASE_PATH, INPUT_KEYS, INTERNAL_PATH, SHARED_PATH, programEnv, type Operation } from './layout.ts';

export const LABEL_PREFIX = 'container.deployer.landscaper.gardener.cloud';
/** On every object the deployer creates for an item: what deletion and garbage collection select by. */
export const DEPLOY_ITEM_NAME_LABEL = `${LABEL_PREFIX}/deployitem-name`;
export const JOB_ID_LABEL = `${LABEL_PREFIX}/job-id`;
export const OPERATION_LABEL = `${LABEL_PREFIX}/operation`;
export const TYPE_LABEL = `${LABEL_PREFIX}/type`;
export const FORCE_CLEANUP_ANNOTATION = `${LABEL_PREFIX}/force-cleanup`;
export const INIT_IMAGE = 'container-deployer-init';
export const WAIT_IMAGE = 'container-deployer-wait';
export const MAIN_CONTAINER = 'main';
export const INIT_CONTAINER = 'init';
export const WAIT_CONTAINER = 'wait';

export function inputSecretName(item: DeployItem): string {
  return `${item.metadata.name}-container-input`;
}

export function ownerReference(item: DeployItem): NonNullable<KubeObject['metadata']['ownerReferences']>[number] {
  return { apiVersion: LANDSCAPER_API_VERSION, kind: 'DeployItem', name: item.metadata.name ?? '', uid: item.metadata.uid ?? '' };
}

export function itemLabels(item: DeployItem): Record<string, string> {
  return { [DEPLOY_ITEM_NAME_LABEL]: item.metadata.name ?? '' };
}

export function podName(item: DeployItem, operation: Operation, jobID: string): string {
  return `${item.metadata.name}-${operation.toLowerCase()}-${jobID.replace(/[^a-z0-9]/g, '').slice(0, 8)}`;
}

export function buildPod(item: DeployItem, config: ContainerProviderConfiguration, operation: Operation, jobID: string, hasTarget: boolean): KubeObject {
  const env = programEnv(operation);
  const sharedMount = { name: 'shared', mountPath: SHARED_PATH };
  const targetMount = hasTarget ? [{ name: 'target', mountPath: `${BASE_PATH}/targets`, readOnly: true }] : [];
  return {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: {
      name: podName(item, operation, jobID),
      namespace: item.metadata.namespace ?? '',
      labels: { ...itemLabels(item), [JOB_ID_LABEL]: jobID, [OPERATION_LABEL]: operation },
      ownerReferences: [ownerReference(item)],
    },
    spec: {
      restartPolicy: 'Never',
      automountServiceAccountToken: false,
      volumes: [
        { name: 'shared', emptyDir: {} },
        { name: 'internal', secret: { secretName: inputSecretName(item) } },
        ...(hasTarget ? [{ name: 'target', secret: { secretName: inputSecretName(item), items: [{ key: INPUT_KEYS.target, path: INPUT_KEYS.target }] } }] : []),
      ],
      initContainers: [
        { name: INIT_CONTAINER, image: INIT_IMAGE, env, volumeMounts: [sharedMount, { name: 'internal', mountPath: INTERNAL_PATH, readOnly: true }] },
        {
          name: MAIN_CONTAINER,
          image: config.image,
          ...(config.command ? { command: config.command } : {}),
          ...(config.args ? { args: config.args } : {}),
          env,
          volumeMounts: [sharedMount, ...targetMount],
        },
      ],
      containers: [{ name: WAIT_CONTAINER, image: WAIT_IMAGE, env, volumeMounts: [sharedMount] }],
      ...(config.registryPullSecrets ? { imagePullSecrets: config.registryPullSecrets.map((s) => ({ name: s.name })) } : {}),
    },
  };
}
