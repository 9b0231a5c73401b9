// The choice the DefaultStorageClass and DefaultIngressClass admission plugins make among classes annotated as the
// default (kube 1.28+): the newest one, ties broken by name, rather than refusing the write.
import type { KubeObject } from '../../apimachinery/object.ts';

export function newestDefault<T extends KubeObject>(classes: readonly T[], isDefault: (c: T) => boolean): T | undefined {
  return classes
    .filter(isDefault)
    .sort((a, b) => (b.metadata.creationTimestamp ?? '').localeCompare(a.metadata.creationTimestamp ?? '') || (a.metadata.name ?? '').localeCompare(b.metadata.name ?? ''))[0];
}
