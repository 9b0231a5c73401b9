// Capabilities beyond the container runtime's default set (containerd's, sandbox/capabilities.ts) only in
// trusted namespaces. kube-apiserver's Pod Security Admission refuses them at the baseline level; the node
// refuses them too, whatever admission said: with CAP_SYS_ADMIN a root container remounts the host's
// read-only binds writable, and others (SYS_MODULE, SYS_RAWIO, SYS_PTRACE …) reach the kernel or other processes.
import { DEFAULT_CAPABILITIES } from '../../sandbox/capabilities.ts';
import { SandboxSpecError } from '../../sandbox/errors.ts';
import { describeTrusted } from './namespace-trust.ts';
import type { Container, Pod } from '../../../apimachinery/api/index.ts';

/** The added capabilities the default set lacks, as securityContext named them (ALL included). */
export function extraCapabilities(container: Container): string[] {
  const added = container.securityContext?.capabilities?.add ?? [];
  return added.filter((name) => !DEFAULT_CAPABILITIES.includes(name.toUpperCase().replace(/^CAP_/, '')));
}

export function checkCapabilities(pod: Pod, container: Container, trusted: boolean, trustedNamespaces: readonly string[]): void {
  const extra = extraCapabilities(container);
  if (trusted || extra.length === 0) return;
  throw new SandboxSpecError(
    'CreateContainerError',
    `container ${container.name} adds capabilities beyond the runtime's default set (${extra.join(', ')}), which this node allows only in ${describeTrusted(trustedNamespaces)}; namespace "${pod.metadata.namespace ?? ''}" is neither`,
  );
}
