// The throttle files and lines of the blkio (v1) and io (v2) controllers. Bytes per second only, as upstream;
// cleaning writes 0 (v1: removes the rule) or max (v2).
import { formatDevice, type BlockDevice } from './block-device.ts';

export type ThrottleMode = 'read' | 'write';

export function throttleFile(cgroupVersion: 1 | 2, mode: ThrottleMode): string {
  if (cgroupVersion === 2) return 'io.max';
  return mode === 'read' ? 'blkio.throttle.read_bps_device' : 'blkio.throttle.write_bps_device';
}

/** `bytesPerSec` 0 means no limit. */
export function throttleLine(cgroupVersion: 1 | 2, device: BlockDevice, mode: ThrottleMode, bytesPerSec: number): string {
  if (cgroupVersion === 2) return `${formatDevice(device)} ${mode === 'read' ? 'rbps' : 'wbps'}=${bytesPerSec === 0 ? 'max' : String(bytesPerSec)}`;
  return `${formatDevice(device)} ${bytesPerSec}`;
}
