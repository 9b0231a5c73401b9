// A phase handler runs one phase's work and names the next phase (with extra status changes), or reports
// that the installation is gone. Errors are thrown as InstallationErrors (or anything classify() maps).
import type { InstallationPhase } from '../../api/constants.ts';
import type { Installation } from '../../api/installation.ts';
import type { StatusMutation } from '../status-writer.ts';
import type { Deps } from '../types.ts';

export type PhaseResult = { next: InstallationPhase; mutate?: StatusMutation } | { gone: true };

export type PhaseHandler = (deps: Deps, inst: Installation) => Promise<PhaseResult>;
