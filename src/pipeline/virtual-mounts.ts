// Folders under a project that are kernel interfaces, not files: /proc, /sys, /dev and the like. A walk
// into them finds hundreds of thousands of entries (every process's fd links) and files that never end,
// so the walker never enters them, whatever the ignore rules say. Read once per IgnoreRules from the
// mount table (a mounted /proc inside a chroot or container image counts too), not per folder walked.
import fs from "node:fs";

/** Filesystem types that hold no project files, as /proc/self/mountinfo names them. */
const VIRTUAL_FS_TYPES = new Set([
  "proc", "sysfs", "devtmpfs", "devpts", "devfs", "cgroup", "cgroup2", "debugfs", "tracefs", "securityfs", "pstore", "bpf",
  "configfs", "fusectl", "mqueue", "hugetlbfs", "binfmt_misc", "efivarfs", "autofs", "rpc_pipefs", "nsfs", "selinuxfs", "nfsd",
]);

/** Where there is no mount table to read (macOS): the usual places, when the root is `/`. */
const USUAL_VIRTUAL_FOLDERS = ["dev", "proc", "sys"];

/** mountinfo escapes a space, tab, newline and backslash in a path as octal (`\040`). */
const unescapeMountPath = (p: string) => p.replace(/\\([0-7]{3})/g, (_, oct: string) => String.fromCharCode(parseInt(oct, 8)));

/** Every mount in a /proc/self/mountinfo text: its absolute mount point and filesystem type. */
function mounts(mountinfo: string): Array<{ point: string; type: string }> {
  const out: Array<{ point: string; type: string }> = [];
  for (const line of mountinfo.split("\n")) {
    // `36 35 98:0 /root /mount/point opts [optional fields] - fstype source superopts`
    const fields = line.split(" ");
    const dash = fields.indexOf("-");
    const mountPoint = fields[4];
    const type = fields[dash + 1];
    if (dash < 5 || mountPoint === undefined || type === undefined) continue;
    out.push({ point: unescapeMountPath(mountPoint), type });
  }
  return out;
}

/** Absolute mount points of virtual filesystems in a /proc/self/mountinfo text. */
export function virtualMountPoints(mountinfo: string): string[] {
  return mounts(mountinfo)
    .filter((m) => VIRTUAL_FS_TYPES.has(m.type))
    .map((m) => m.point);
}

/**
 * Whether `root` lies on a virtual filesystem (/proc/self, /sys/kernel): the innermost mount holding it
 * is one. A mount table that cannot be read answers by the usual places.
 */
export function onVirtualFilesystem(root: string, mountinfo?: string): boolean {
  let text = mountinfo;
  if (text === undefined) {
    try {
      text = fs.readFileSync("/proc/self/mountinfo", "utf8");
    } catch {
      return USUAL_VIRTUAL_FOLDERS.some((d) => root === `/${d}` || root.startsWith(`/${d}/`));
    }
  }
  let best: { point: string; type: string } | null = null;
  for (const m of mounts(text)) {
    const holds = m.point === "/" || root === m.point || root.startsWith(`${m.point}/`);
    // The last of equal mount points is the one on top.
    if (holds && (!best || m.point.length >= best.point.length)) best = m;
  }
  return !!best && VIRTUAL_FS_TYPES.has(best.type);
}

/**
 * Mount points of `mountPoints` inside `root`, relative to it ("" when the root itself is one), the
 * outermost only: /sys/fs/cgroup goes with /sys.
 */
export function virtualFoldersUnder(root: string, mountPoints: readonly string[]): string[] {
  const prefix = root.endsWith("/") ? root : `${root}/`;
  const inside = mountPoints
    .filter((m) => m === root || m.startsWith(prefix))
    .map((m) => (m === root ? "" : m.slice(prefix.length)))
    .sort();
  return inside.filter((rel, i) => !inside.slice(0, i).some((outer) => outer === "" || rel === outer || rel.startsWith(`${outer}/`)));
}

/** The virtual filesystems at or under `root` on this machine, relative to it. */
export function virtualFolders(root: string): string[] {
  let mountinfo: string;
  try {
    mountinfo = fs.readFileSync("/proc/self/mountinfo", "utf8");
  } catch {
    return root === "/" ? USUAL_VIRTUAL_FOLDERS.filter((d) => fs.existsSync(`/${d}`)) : [];
  }
  return virtualFoldersUnder(root, virtualMountPoints(mountinfo));
}
