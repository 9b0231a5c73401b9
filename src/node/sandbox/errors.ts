// The sandbox's typed errors. Each carries the kubelet waiting reason a pod would show, so the pod
// lifecycle can copy it into containerStatuses without interpreting messages.

/** The container spec cannot be run as given (bad limits, a missing hostPath, runAsNonRoot refused). */
export class SandboxSpecError extends Error {
  override readonly name = 'SandboxSpecError' as const;
  constructor(
    /** kubelet's waiting reason: config problems are CreateContainerConfigError, the rest CreateContainerError; images' ErrImagePull … */
    readonly reason: 'CreateContainerConfigError' | 'CreateContainerError' | 'ErrImagePull' | 'ErrImageNeverPull' | 'InvalidImageName',
    message: string,
  ) {
    super(message);
  }
}

/** The host lacks something the sandbox needs (a tool, a cgroup controller), or refused an operation. */
export class SandboxHostError extends Error {
  override readonly name = 'SandboxHostError' as const;
}

/** An operation on a container that is not running (exec after exit). */
export class ContainerNotRunningError extends Error {
  override readonly name = 'ContainerNotRunningError' as const;
}

/** exec's command does not resolve inside the container; the message is runc's. */
export class ExecStartError extends Error {
  override readonly name = 'ExecStartError' as const;
}

/**
 * The setup did not report within the start timeout (a mount or a namespace file that blocks); its processes
 * were killed and its cgroups and files removed before this was thrown.
 */
export class SandboxStartTimeoutError extends Error {
  override readonly name = 'SandboxStartTimeoutError' as const;
}
