// A container's environment as kubelet builds it: literal values and the downward-API fieldRefs a pod can
// know before it runs, each value expanding $(VAR) references to the variables before it.
import { SandboxSpecError } from '../sandbox/errors.ts';
import type { EnvVar } from '../sandbox/types.ts';
import { expandReferences } from './container-argv.ts';

export interface PodEnvFacts {
  name: string;
  namespace: string;
  nodeName: string;
  podIP: string;
  hostIP: string;
}

export interface EnvVarSource {
  name: string;
  value?: string;
  valueFrom?: { fieldRef?: { fieldPath?: string } };
}

function fieldValue(fieldPath: string, pod: PodEnvFacts): string | undefined {
  switch (fieldPath) {
    case 'metadata.name':
      return pod.name;
    case 'metadata.namespace':
      return pod.namespace;
    case 'spec.nodeName':
      return pod.nodeName;
    case 'status.podIP':
      return pod.podIP;
    case 'status.hostIP':
      return pod.hostIP;
    default:
      return undefined;
  }
}

export function resolveEnv(vars: readonly EnvVarSource[], pod: PodEnvFacts): EnvVar[] {
  const resolved = new Map<string, string>();
  for (const v of vars) {
    if (v.valueFrom !== undefined) {
      const path = v.valueFrom.fieldRef?.fieldPath;
      const value = path === undefined ? undefined : fieldValue(path, pod);
      if (value === undefined) {
        throw new SandboxSpecError('CreateContainerConfigError', `env ${v.name}: only literal values and fieldRef to metadata.name, metadata.namespace, spec.nodeName, status.podIP or status.hostIP are supported`);
      }
      resolved.set(v.name, value);
    } else {
      resolved.set(v.name, expandReferences(v.value ?? '', resolved));
    }
  }
  return [...resolved].map(([name, value]) => ({ name, value }));
}
