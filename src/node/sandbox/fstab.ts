// The container's mounts as an fstab(5) file, so that one `mount -a -T FILE` inside the new mount
// namespace performs all of them in order (one process instead of one per mount).

export interface MountSpec {
  source: string;
  /** The source is a container path too (a bind of the fresh /proc onto itself). */
  sourceInRoot?: boolean;
  /** Container path; rendered under the staging root. */
  target: string;
  fsType: string;
  options: string[];
}

// fstab fields are separated by whitespace; libmount decodes these octal escapes.
function escapeField(text: string): string {
  return text.replace(/[\\ \t\n]/g, (c) => `\\${c.charCodeAt(0).toString(8).padStart(3, '0')}`);
}

export function renderFstab(mounts: MountSpec[], stagingRoot: string): string {
  return mounts
    .map((m) => {
      const inRoot = (path: string) => (path === '/' ? stagingRoot : stagingRoot + path);
      const source = m.sourceInRoot ? inRoot(m.source) : m.source;
      return [escapeField(source), escapeField(inRoot(m.target)), m.fsType, m.options.join(','), '0', '0'].join(' ');
    })
    .join('\n')
    .concat('\n');
}
