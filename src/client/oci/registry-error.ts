// What a registry conversation can fail with, named as kubelet's ErrImagePull and Helm's registry client name it,
// and the credentials one registry host is reached with.

/** Registry credentials for one host, from a .dockerconfigjson Secret or the registries file. */
export interface RegistryCredentials {
  username?: string;
  password?: string;
  /** A bearer identity token (.dockerconfigjson's identitytoken). */
  identityToken?: string;
}

/** Why a fetch failed; UnsupportedPlatform: an index has no entry for the platform asked for. */
export type RegistryFailure = 'NotFound' | 'Unauthorized' | 'Unreachable' | 'DigestMismatch' | 'UnsupportedPlatform' | 'InvalidReference' | 'Invalid';

export class RegistryError extends Error {
  constructor(
    readonly failure: RegistryFailure,
    message: string,
  ) {
    super(message);
    this.name = 'RegistryError';
  }
}
