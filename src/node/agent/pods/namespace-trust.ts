// Which namespaces this node trusts with the host: those the agent names (--trusted-namespaces) and those
// labelled as Pod Security Admission's privileged level, the cluster's own word for "may run anything" (the
// chaos namespace carries it). Only their pods may be privileged, use hostPID, add capabilities beyond the
// runtime's default set, or be root on the host; the node checks this itself, whatever admission allowed.
import { namespacesResource } from '../../../apimachinery/builtin-resources.ts';
import type { KubeObject } from '../../../apimachinery/object.ts';
import type { KubeClient } from '../../../client/client.ts';
import { NotFoundError } from '../../../client/errors.ts';

export const ENFORCE_LABEL = 'pod-security.kubernetes.io/enforce';
export const TRUSTED_LEVEL = 'privileged';

/** How a refusal names the trusted namespaces. */
export function describeTrusted(trustedNamespaces: readonly string[]): string {
  const named = trustedNamespaces.length === 0 ? '' : `trusted namespaces (${trustedNamespaces.join(', ')}) and `;
  return `${named}namespaces labelled ${ENFORCE_LABEL}=${TRUSTED_LEVEL}`;
}

/** Read at each container start, so that a label removed takes effect at the next (re)start. */
export async function isTrustedNamespace(client: KubeClient, namespace: string, trustedNamespaces: readonly string[]): Promise<boolean> {
  if (trustedNamespaces.includes(namespace)) return true;
  try {
    const object = await client.get<KubeObject>(namespacesResource, namespace);
    return object.metadata.labels?.[ENFORCE_LABEL] === TRUSTED_LEVEL;
  } catch (error) {
    if (error instanceof NotFoundError) return false;
    throw error;
  }
}
