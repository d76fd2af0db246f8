// Virtual filesystems under a project root (/proc, /sys, /dev, or a /proc mounted in a chroot) are never
// walked: found in the mount table once, not by a syscall per folder.
import fs from "node:fs";
import { describe, expect, it } from "vitest";
import { IgnoreRules } from "../../../src/pipeline/ignore-rules.js";
import { onVirtualFilesystem, virtualFoldersUnder, virtualMountPoints } from "../../../src/pipeline/virtual-mounts.js";
import { unindexableRootProblem } from "../../../src/main/indexing/index-root.js";

const MOUNTINFO = [
  "22 27 0:21 / /proc rw,relatime - proc proc rw",
  "23 27 0:22 / /sys rw,relatime shared:7 - sysfs sysfs rw",
  "24 27 0:6 / /dev rw,relatime - devtmpfs devtmpfs rw,size=12334556k",
  "26 24 0:24 / /dev/pts rw,relatime - devpts devpts rw,mode=600",
  "27 1 254:0 / / rw,relatime - ext4 /dev/vda rw",
  "31 23 0:28 / /sys/fs/cgroup rw,relatime - cgroup2 cgroup2 rw",
  "40 27 0:40 / /tmp rw - tmpfs tmpfs rw",
  "41 27 0:41 / /srv/my\\040jail/proc rw - proc proc rw",
  "",
].join("\n");

describe("virtual filesystems under the root", () => {
  it("reads the virtual mounts from mountinfo (optional fields, escaped spaces), not tmpfs or disks", () => {
    expect(virtualMountPoints(MOUNTINFO)).toEqual(["/proc", "/sys", "/dev", "/dev/pts", "/sys/fs/cgroup", "/srv/my jail/proc"]);
  });

  it("gives the outermost ones under a root, relative to it, and '' when the root is one", () => {
    const points = virtualMountPoints(MOUNTINFO);
    expect(virtualFoldersUnder("/", points)).toEqual(["dev", "proc", "srv/my jail/proc", "sys"]);
    expect(virtualFoldersUnder("/srv/my jail", points)).toEqual(["proc"]);
    expect(virtualFoldersUnder("/srv/my", points)).toEqual([]);
    expect(virtualFoldersUnder("/proc", points)).toEqual([""]);
    expect(virtualFoldersUnder("/home/me/app", points)).toEqual([]);
  });

  it("knows a folder inside a virtual filesystem (/proc/self, /sys/kernel) from one beside it", () => {
    for (const inside of ["/proc", "/proc/1/fd", "/sys/kernel", "/sys/fs/cgroup/x", "/dev/pts/0", "/srv/my jail/proc/1"]) expect(onVirtualFilesystem(inside, MOUNTINFO), inside).toBe(true);
    for (const outside of ["/", "/processes", "/home/me/app", "/tmp/x", "/srv/my jail", "/srv/my jail/procs"]) expect(onVirtualFilesystem(outside, MOUNTINFO), outside).toBe(false);
  });

  it.runIf(fs.existsSync("/proc/self/mountinfo"))("a folder inside /proc or /sys cannot be a project", () => {
    expect(unindexableRootProblem(fs.realpathSync("/proc/self"))).toMatch(/is on a virtual filesystem/);
    expect(unindexableRootProblem("/sys/kernel")).toMatch(/is on a virtual filesystem/);
    expect(unindexableRootProblem(fs.realpathSync("/tmp"))).toBeNull();
  });

  it.runIf(fs.existsSync("/proc/self/mountinfo"))("the walk's rules never enter /proc or /sys when the root is /", () => {
    const rules = new IgnoreRules("/", []);
    expect(rules.isIgnoredChild("", "proc", true)).toBe(true);
    expect(rules.isIgnoredChild("", "sys", true)).toBe(true);
    expect(rules.isIgnored("proc/1/fd/1", false)).toBe(true);
    expect(rules.isIgnoredChild("", "usr", true)).toBe(false);
  });
});
