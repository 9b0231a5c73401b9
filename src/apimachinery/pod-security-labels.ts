// The Pod Security label that makes a namespace trusted, shared by the API server (which then admits
// privileged pods there) and by what must run such pods (the chaos family's namespace, kube-system): a
// namespace is trusted when it is labelled pod-security.kubernetes.io/enforce=privileged, as on a real cluster.
export const POD_SECURITY_ENFORCE_LABEL = 'pod-security.kubernetes.io/enforce';

/** The Pod Security level that trusts a namespace with the host. */
export const TRUSTED_LEVEL = 'privileged';

/** The labels that make a namespace trusted. */
export const TRUSTED_NAMESPACE_LABELS: Readonly<Record<string, string>> = { [POD_SECURITY_ENFORCE_LABEL]: TRUSTED_LEVEL };

/** Whether a namespace's labels trust it with the host (the node agent checks this itself, whatever admission said). */
export function isTrustedByLabels(labels: Readonly<Record<string, string>> | undefined): boolean {
  return labels?.[POD_SECURITY_ENFORCE_LABEL] === TRUSTED_LEVEL;
}
