// The OCI runtime's typed errors.

/** runc or conmon refused or failed an operation; the message is theirs. */
export class OciRuntimeError extends Error {
  override readonly name = 'OciRuntimeError' as const;
}

/** The host cannot run OCI containers; the message names what to install. */
export class OciRuntimeUnavailableError extends Error {
  override readonly name = 'OciRuntimeUnavailableError' as const;
}
