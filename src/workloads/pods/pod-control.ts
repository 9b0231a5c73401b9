// Creating and deleting a controller's pods with kube-controller-manager's Events on the owner
// (controller.RealPodControl): SuccessfulCreate "Created pod: x", FailedCreate, SuccessfulDelete, FailedDelete.
import type { KubeObject, OwnerReference } from '../../apimachinery/object.ts';
import type { KubeClient } from '../../client/client.ts';
import { NotFoundError } from '../../client/errors.ts';
import type { EventRecorder } from '../../runtime/index.ts';
import { podsResource } from '../../apimachinery/builtin-resources.ts';
import type { Pod, PodTemplateSpec } from '../../apimachinery/api/index.ts';
import { messageOf } from '../../apimachinery/error-message.ts';

/** controller.GetPodFromTemplate: the template's labels, annotations, finalizers and spec, owned by the controller. */
export function podFromTemplate(template: PodTemplateSpec, namespace: string, ref: OwnerReference, generateName: string): Pod {
  const meta = template.metadata ?? {};
  return {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: {
      generateName,
      namespace,
      ...(meta.labels ? { labels: { ...meta.labels } } : {}),
      ...(meta.annotations ? { annotations: { ...meta.annotations } } : {}),
      ...(meta.finalizers ? { finalizers: [...meta.finalizers] } : {}),
      ownerReferences: [ref],
    },
    spec: structuredClone(template.spec),
  };
}

export class PodControl {
  private readonly client: KubeClient;
  private readonly recorder: EventRecorder;

  constructor(client: KubeClient, recorder: EventRecorder) {
    this.client = client;
    this.recorder = recorder;
  }

  /** Creates a pod from the template, named `<generateName><5 random>`; records the Event on owner. */
  async create(owner: KubeObject, pod: Pod): Promise<Pod> {
    let created: Pod;
    try {
      created = await this.client.create<Pod>(podsResource, pod);
    } catch (err) {
      void this.recorder.warning(owner, 'FailedCreate', `Error creating: ${messageOf(err)}`);
      throw err;
    }
    void this.recorder.normal(owner, 'SuccessfulCreate', `Created pod: ${created.metadata.name ?? ''}`);
    return created;
  }

  /** Deletes the pod (this very pod: uid precondition); false when it was already gone. */
  async delete(owner: KubeObject, pod: Pod): Promise<boolean> {
    const name = pod.metadata.name ?? '';
    try {
      await this.client.delete(podsResource, name, { namespace: pod.metadata.namespace ?? '', ...(pod.metadata.uid ? { preconditions: { uid: pod.metadata.uid } } : {}) });
    } catch (err) {
      if (err instanceof NotFoundError) return false;
      void this.recorder.warning(owner, 'FailedDelete', `Error deleting: ${messageOf(err)}`);
      throw err;
    }
    void this.recorder.normal(owner, 'SuccessfulDelete', `Deleted pod: ${name}`);
    return true;
  }
}
