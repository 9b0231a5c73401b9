// The injector's typed errors: each says what could not be done and to what.

/** A flag value the injector cannot use (bad duration, date or count). */
export class InjectorFlagError extends Error {
  override readonly name = 'InjectorFlagError' as const;
}

/** A targeted container could not be resolved (no runtime socket, unknown ID, not running). */
export class TargetResolutionError extends Error {
  override readonly name = 'TargetResolutionError' as const;
}

/** The target's cgroup does not allow the disruption (no memory limit) or could not be read. */
export class CgroupError extends Error {
  override readonly name = 'CgroupError' as const;
}

/** A stress child did not start or ended before it was told to. */
export class StressChildError extends Error {
  override readonly name = 'StressChildError' as const;
}
