// Reading the common flags a kind also needs from the values its factory gets (the lifecycle passes the
// subcommand's parsed options, common ones included).
import { parseRfc3339 } from '../durations.ts';

/** --deadline, for the stress children (they end on their own at it). */
export function deadlineOf(values: Readonly<Record<string, unknown>>): Date | undefined {
  const text = values['deadline'];
  return typeof text === 'string' && text !== '' ? parseRfc3339('deadline', text) : undefined;
}
