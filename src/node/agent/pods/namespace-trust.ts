// Which namespaces this node trusts with the host: those the agent names (--trusted-namespaces) and those
// labelled as Pod Security Admission's privileged level, the cluster's own word for "may run anything" (the
// chaos namespace carries it). Only their pods may be privileged, use hostPID, add capabilities beyond the
// runtime's default set, or be root on the host; the node checks this itself, whatever admission allowed.
import { namespacesResource } from '../../../apimachinery/builtin-resources.ts';
import type { KubeObject } from '../../../apimachinery/object.ts';
import { isTrustedByLabels, POD_SECURITY_ENFORCE_LABEL, TRUSTED_LEVEL } from '../../../apimachinery/pod-security-labels.ts';
import type { KubeClient } from '../../../client/client.ts';
import { NotFoundError } from '../../../client/errors.ts';

/** How a refusal names the trusted namespaces. */
export function describeTrusted(trustedNamespaces: readonly string[]): string {
  const named = trustedNamespaces.length === 0 ? '' : `trusted namespaces (${trustedNamespaces.join(', ')}) and `;
  return `${named}namespaces labelled ${POD_SECURITY_ENFORCE_LABEL}=${TRUSTED_LEVEL}`;
}

/** Read at each container start, so that a label removed takes effect at the next (re)start. */
export async function isTrustedNamespace(client: KubeClient, namespace: string, trustedNamespaces: readonly string[]): Promise<boolean> {
  if (trustedNamespaces.includes(namespace)) return true;
  try {
    const object = await client.get<KubeObject>(namespacesResource, namespace);
    return isTrustedByLabels(object.metadata.labels);
  } catch (error) {
    if (error instanceof NotFoundError) return false;
    throw error;
  }
}
