// The Pod Security label that makes a namespace trusted, shared by the API server (which then admits
// privileged pods there) and by what must run such pods (the chaos family's namespace, kube-system): a
// namespace is trusted when it is labelled pod-security.kubernetes.io/enforce=privileged, as on a real cluster.
export const POD_SECURITY_ENFORCE_LABEL = 'pod-security.kubernetes.io/enforce';

/** The labels that make a namespace trusted. */
export const TRUSTED_NAMESPACE_LABELS: Readonly<Record<string, string>> = { [POD_SECURITY_ENFORCE_LABEL]: 'privileged' };
