// A ToolContext over a real indexed project, with ports and services that record what they were asked.
//
//   const project = await openIndexedProject(buildAcmeShop(), server().url);
//   await project.reindex();
//   const ctx = toolContext(project);                       // ports answer "apply" / "once" / "apply"
//   const result = await getLines.run("t1", { path: "a.ts" }, ctx);
//   expect(ctx.services.edits).toHaveLength(0);
import type {
  CommandDecision,
  CommandProposal,
  ConflictDecision,
  ConflictProposal,
  EditDecision,
  EditProposal,
  EditRecord,
  ToolContext,
  ToolPorts,
  ToolServices,
} from "../../src/main/tools/tool-types.js";
import { newToolSessionState } from "../../src/main/tools/tool-types.js";
import type { IndexedProject } from "./indexed-project.js";

export interface RecordingPorts extends ToolPorts {
  readonly editProposals: EditProposal[];
  readonly commandProposals: CommandProposal[];
  readonly conflictProposals: ConflictProposal[];
}

export interface PortAnswers {
  edit?: EditDecision | ((p: EditProposal) => EditDecision);
  command?: CommandDecision | ((p: CommandProposal) => CommandDecision);
  conflict?: ConflictDecision | ((p: ConflictProposal) => ConflictDecision);
}

function answer<P, A>(given: A | ((p: P) => A) | undefined, fallback: A, proposal: P): A {
  if (given === undefined) return fallback;
  return typeof given === "function" ? (given as (p: P) => A)(proposal) : given;
}

export function recordingPorts(answers: PortAnswers = {}): RecordingPorts {
  const editProposals: EditProposal[] = [];
  const commandProposals: CommandProposal[] = [];
  const conflictProposals: ConflictProposal[] = [];
  return {
    editProposals,
    commandProposals,
    conflictProposals,
    async confirmEdit(p) {
      editProposals.push(p);
      return answer(answers.edit, { action: "apply" } as EditDecision, p);
    },
    async confirmCommand(p) {
      commandProposals.push(p);
      return answer(answers.command, "once" as CommandDecision, p);
    },
    async resolveConflict(p) {
      conflictProposals.push(p);
      return answer(answers.conflict, "apply" as ConflictDecision, p);
    },
  };
}

export interface RecordingServices extends ToolServices {
  readonly edits: EditRecord[];
  readonly refreshed: string[][];
  readonly ownWrites: Array<{ path: string; hash: string | null }>;
}

/** refreshIndex re-runs the project's indexer (a warm run), as the real session does through the watcher. */
export function recordingServices(project?: Pick<IndexedProject, "reindex">): RecordingServices {
  const edits: EditRecord[] = [];
  const refreshed: string[][] = [];
  const ownWrites: Array<{ path: string; hash: string | null }> = [];
  return {
    edits,
    refreshed,
    ownWrites,
    async recordEdit(record) {
      edits.push(record);
    },
    async refreshIndex(paths) {
      refreshed.push([...paths]);
      if (project) await project.reindex();
    },
    registerOwnWrite(path, hash) {
      ownWrites.push({ path, hash });
    },
  };
}

export type TestToolContext = ToolContext & { ports: RecordingPorts; services: RecordingServices };

export function toolContext(
  project: Pick<IndexedProject, "root" | "config" | "store" | "reindex">,
  opts: { answers?: PortAnswers; signal?: AbortSignal } = {},
): TestToolContext {
  return {
    root: project.root,
    config: project.config,
    store: project.store,
    ports: recordingPorts(opts.answers),
    session: newToolSessionState(),
    services: recordingServices(project),
    ...(opts.signal ? { signal: opts.signal } : {}),
  };
}
