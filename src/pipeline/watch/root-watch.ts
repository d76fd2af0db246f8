// Watching the project folder itself: the OS watcher's subscription dies with the folder, so the live
// index looks at it on a timer (and on a watcher error) and subscribes again once it is back.
import fs from "node:fs";
import type { LiveIndexEvent } from "./live-index-events.js";
import { RootFolder } from "./root-folder.js";

export interface RootWatchHooks {
  onEvent(event: LiveIndexEvent): void;
  /** Subscribes the OS watcher again, to the folder now at the path. */
  resubscribe(): Promise<void>;
  /** The folder is back and subscribed to: `names`, its top-level entries, are to be looked at. */
  back(names: string[]): void;
}

export class RootWatch {
  /** The project folder the OS watcher is subscribed to (root-folder.ts). */
  private readonly rootFolder: RootFolder;
  /** The project folder was found missing (look). */
  private rootGone = false;
  /** The look that runs now: a check that comes meanwhile is skipped. */
  private running: Promise<void> | null = null;

  /** `retryInMs`: how soon the next check comes, as said in `error` events. */
  constructor(
    private readonly root: string,
    private readonly retryInMs: number,
    private readonly hooks: RootWatchHooks,
  ) {
    this.rootFolder = new RootFolder(root);
  }

  /** Takes hold of the folder now at the path: the one being subscribed to. */
  hold(): void {
    this.rootFolder.hold();
  }

  release(): void {
    this.rootFolder.release();
  }

  /**
   * The project folder itself removed (and perhaps made again: a re-clone, a restore, `git worktree`
   * games): the OS watcher's subscription died with it and would report nothing, ever. Said, then, once
   * the folder is back, subscribed again and everything in it looked at. A folder removed and made again
   * between two checks (`rm -rf P && cp -r P.bak P`) is never seen missing: it is told by its identity
   * (device and inode), and taken as gone and back at once.
   */
  async look(): Promise<void> {
    if (this.running) return;
    this.running = this.checkRoot().finally(() => {
      this.running = null;
    });
    await this.running;
  }

  /** A look is under way (it may be subscribing to a folder that came back). */
  get checking(): boolean {
    return this.running !== null;
  }

  /** Resolves once no look runs: a folder that came back is subscribed to and its entries are queued. */
  async settled(): Promise<void> {
    await this.running;
  }

  private async checkRoot(): Promise<void> {
    const { root, retryInMs } = this;
    const state = this.rootFolder.check();
    if (state === "missing") {
      if (this.rootGone) return;
      this.rootGone = true;
      this.hooks.onEvent({ type: "error", error: new Error(`the project folder ${root} is gone; watching for it to come back`), retryInMs });
      return;
    }
    if (!this.rootGone) {
      if (state === "same") return;
      this.hooks.onEvent({ type: "error", error: new Error(`the project folder ${root} was removed and made again; watching the new one`), retryInMs: 0 });
    }
    this.rootGone = false;
    try {
      await this.hooks.resubscribe();
    } catch (error) {
      this.rootGone = true;
      this.hooks.onEvent({ type: "error", error, retryInMs });
      return;
    }
    this.hooks.onEvent({ type: "recovered", message: `the project folder ${root} is back: looking at everything in it` });
    let top: fs.Dirent[] = [];
    try {
      top = fs.readdirSync(root, { withFileTypes: true });
    } catch {
      // Gone again: the next check says so.
    }
    this.hooks.back(top.map((e) => e.name));
  }
}
