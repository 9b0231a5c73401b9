// A phase handler of the installation: the runtime's handler over Installation, its phases, status and Deps.
import type { PhaseHandler as RuntimePhaseHandler } from '../../../runtime/index.ts';
import type { InstallationPhase } from '../../api/constants.ts';
import type { Installation, InstallationStatus } from '../../api/installation.ts';
import type { Deps } from '../types.ts';

export type PhaseHandler = RuntimePhaseHandler<Installation, InstallationPhase, InstallationStatus, Deps>;
