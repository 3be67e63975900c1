/**
 * Contributes evidence nodes under each task of the Plan view: a warning for
 * evidence the task's status implies but lacks, its bundles of all seven
 * kinds and its `.patch` (icon + one-line summary, expandable into files,
 * issues, passes, output), and an error node for every bad file saying why.
 * Re-renders when anything under `.autodev/evidence/` or `.autodev/tournaments/`
 * changes (the folder registry's one debounce). Remembers what each node points at, for
 * context-menu commands. The evidence is read by the state worker (`taskEvidence`), kept until an
 * evidence or tournament file changes.
 */
import * as vscode from "vscode";
import type { EvidenceItem } from "../../../../core/sources/autodev/evidence/evidenceStore";
import { type PatchSource, danglingBundleMessage } from "../../../../core/sources/autodev/evidence/evidenceNames";
import { Task } from "../../../../core/sources/autodev/plan/schemas";
import type { TaskEvidence } from "../../../../core/sources/autodev/evidence/taskEvidence";
import { TournamentPass, describePass } from "../../../../core/sources/autodev/evidence/tournamentPasses";
import { AutodevFolder } from "../folder/autodevFolder";
import { Disposable } from "../../../disposable";
import { EvidenceContentProvider } from "./evidenceContentProvider";
import {
  EvidenceTarget,
  bundleItem,
  diffFileItem,
  errorItem,
  issueItem,
  outputItem,
  passItem,
  patchItem,
  referencedFileItem,
  warningItem,
} from "./evidenceTreeItems";
import { OutputLog } from "../../../outputLog";
import type { StateWorkerClient } from "../../../stateWorkerClient";
import { autodevRequest } from "../autodevRequest";
import { reviveClone } from "../../../../core/sources/autodev/plan/planTransfer";
import type { AutodevNode } from "../autodevNodes";
import type { AutodevTree } from "../autodevTree";
import { errorText } from "../../../../core/text/errorText";

type TaskNode = Extract<AutodevNode, { kind: "task" }>;

/** Order of bundles under a task: plan-time evidence, then the developer's work, then its checks. */
const ORDER = ["explore", "domain_expert", "critic", "developer", "patch", "review", "test", "tournament"];

/** Most file nodes shown under one diff. */
const MAX_FILE_NODES = 500;

/** Builds evidence nodes under tasks. */
export class EvidenceTreeContributor extends Disposable {
  private readonly targets = new WeakMap<AutodevNode, EvidenceTarget>();
  private readonly cache = new Map<string, Promise<TaskEvidence>>();
  private readonly refreshed = this.register(new vscode.EventEmitter<void>());
  /** Fires after evidence files changed and the tree was re-rendered. */
  readonly onDidRefresh = this.refreshed.event;
  private readonly loaded = this.register(new vscode.EventEmitter<{ folder: AutodevFolder; te: TaskEvidence }>());
  /** Fires when a task's evidence was read from disk (not when a cached read is reused). */
  readonly onDidLoad = this.loaded.event;

  constructor(
    private readonly tree: AutodevTree,
    private readonly content: EvidenceContentProvider,
    private readonly log: OutputLog,
    private readonly worker: StateWorkerClient,
  ) {
    super();
    tree.setTaskChildContributor((folder, task, parent) => this.contribute(folder, task, parent));
  }

  /** What a node rendered by this contributor points at. */
  targetOf(node: unknown): EvidenceTarget | undefined {
    return node && typeof node === "object" ? this.targets.get(node as AutodevNode) : undefined;
  }

  /** Forgets everything read and re-renders the tree. */
  refresh(): void {
    this.cache.clear();
    this.content.invalidate();
    this.tree.refresh();
    this.refreshed.fire();
  }

  /** Evidence or tournament files changed (heard through the folder registry's debounce): read again. */
  scheduleRefresh(): void {
    this.refresh();
  }

  /** A task's evidence (kept until an evidence or tournament file changes). */
  taskEvidence(folder: AutodevFolder, task: Task): Promise<TaskEvidence> {
    const bundle = typeof task.evidence_bundle === "string" ? task.evidence_bundle : null;
    const key = `${folder.folder.uri.toString()}|${task.id}|${String(task.status)}|${bundle}`;
    const hit = this.cache.get(key);
    if (hit) return hit;
    const value = autodevRequest(this.worker, folder.cwd, {
      type: "taskEvidence",
      taskId: task.id,
      status: String(task.status),
      evidenceBundle: bundle,
    }).then(reviveClone);
    this.cache.set(key, value);
    // A failed read is not kept: the next render asks again.
    value.catch(() => this.cache.get(key) === value && this.cache.delete(key));
    value.then(
      (te) => this.loaded.fire({ folder, te }),
      () => undefined,
    );
    return value;
  }

  /** The evidence nodes of one task. */
  async contribute(folder: AutodevFolder, task: Task, parent: TaskNode): Promise<AutodevNode[]> {
    let te: TaskEvidence;
    try {
      te = await this.taskEvidence(folder, task);
    } catch (e) {
      this.log.error(`evidence of task ${task.id}`, e);
      return [this.node(parent, "failed", errorItem(vscode.l10n.t("evidence could not be read"), errorText(e)))];
    }
    const nodes: AutodevNode[] = [];
    for (const k of te.missing) {
      const status = String(task.status);
      const why = vscode.l10n.t(
        "Task {0} is '{1}', which comes after the {2} gate, but .autodev/evidence/{0}-{2}.json is missing or invalid.",
        task.id,
        status,
        k,
      );
      nodes.push(
        this.node(
          parent,
          `missing|${k}`,
          warningItem(vscode.l10n.t("no valid {0} evidence", k), vscode.l10n.t("status '{0}' implies it", status), why),
        ),
      );
    }
    const ref = te.bundleRef;
    if (ref && !ref.ok) {
      nodes.push(this.node(parent, "ref", errorItem(vscode.l10n.t("evidence_bundle refused"), ref.error)));
    } else if (ref?.ok && !ref.exists) {
      // check's own words (evidence_bundle_dangling) in the tooltip; AutoDev's recorded-but-never-written
      // `{task}-coder.json` resolves to the developer's bundle, which is starred below.
      const why = danglingBundleMessage(task.id, ref) ?? "";
      const item = ref.resolved
        ? warningItem(
            vscode.l10n.t("evidence_bundle → {0}", ref.resolved),
            vscode.l10n.t("recorded as {0}", ref.file),
            why,
          )
        : warningItem(vscode.l10n.t("evidence_bundle missing"), vscode.l10n.t("{0} does not exist", ref.file), why);
      if (ref.resolved) {
        item.command = {
          command: "autodev.openEvidence",
          title: vscode.l10n.t("Open Evidence"),
          arguments: [folder.folder.uri.toString(), task.id, "developer"],
        };
      }
      nodes.push(this.node(parent, "ref", item));
    }
    const rank = (k: string) => (ORDER.includes(k) ? ORDER.indexOf(k) : ORDER.length);
    const valid = te.items.filter((i): i is Extract<EvidenceItem, { ok: true }> => i.ok);
    const rows: Array<{ kind: string; make: () => AutodevNode }> = valid.map((i) => ({
      kind: i.kind,
      make: () => this.bundleNode(folder, parent, te, i, ref?.ok ? ref.resolved : null),
    }));
    if (te.patch) rows.push({ kind: "patch", make: () => this.patchNode(folder, parent, te) });
    rows.sort((a, b) => rank(a.kind) - rank(b.kind));
    nodes.push(...rows.map((r) => r.make()));
    for (const bad of te.items.filter((i) => !i.ok)) {
      nodes.push(
        this.node(parent, `bad|${bad.file}`, errorItem(bad.file, bad.ok ? "" : bad.error, true), {
          folder,
          taskId: task.id,
          file: bad.file,
        }),
      );
    }
    return nodes;
  }

  private node(
    parent: AutodevNode,
    suffix: string,
    item: vscode.TreeItem,
    target?: EvidenceTarget,
    children?: () => AutodevNode[],
  ): AutodevNode {
    const node: AutodevNode = { kind: "extra", id: `${parent.id}|ev|${suffix}`, parent, item, children };
    if (target) this.targets.set(node, target);
    return node;
  }

  private patchNode(folder: AutodevFolder, parent: TaskNode, te: TaskEvidence): AutodevNode {
    const p = te.patch!;
    if (!p.ok) return this.node(parent, `patch|${p.file}`, errorItem(p.file, p.error));
    const info = te.diffs.get("patch");
    if (!info || !info.ok) {
      return this.node(
        parent,
        `patch|${p.file}`,
        errorItem(p.file, info && !info.ok ? info.error : vscode.l10n.t("empty patch"), true),
        { folder, taskId: te.taskId, file: p.file, kind: "patch", source: "patch", diffHash: info?.hash },
      );
    }
    const target = {
      folder,
      taskId: te.taskId,
      kind: "patch",
      file: p.file,
      source: "patch" as const,
      diffHash: info.hash,
    };
    const self: AutodevNode = this.node(
      parent,
      `patch|${p.file}`,
      patchItem(folder, te.taskId, p.file, info.files),
      target,
      () => this.fileNodes(folder, self, te, "patch"),
    );
    return self;
  }

  private fileNodes(folder: AutodevFolder, parent: AutodevNode, te: TaskEvidence, source: PatchSource): AutodevNode[] {
    const info = te.diffs.get(source);
    if (!info) return [];
    if (!info.ok) return [this.node(parent, `diff|${source}`, errorItem(vscode.l10n.t("diff"), info.error))];
    const shown = info.files.slice(0, MAX_FILE_NODES).map((f, i) =>
      this.node(parent, `f|${source}|${i}`, diffFileItem(folder, te.taskId, source, i, f), {
        folder,
        taskId: te.taskId,
        source,
        index: i,
      }),
    );
    const more = info.files.length - shown.length;
    return more > 0
      ? [
          ...shown,
          this.node(
            parent,
            `f|${source}|more`,
            warningItem(vscode.l10n.t("{0} more files", more), vscode.l10n.t("open the diff to see them all")),
          ),
        ]
      : shown;
  }

  private bundleNode(
    folder: AutodevFolder,
    parent: TaskNode,
    te: TaskEvidence,
    i: Extract<EvidenceItem, { ok: true }>,
    starred: string | null,
  ): AutodevNode {
    const e = i.evidence;
    const source: PatchSource | undefined =
      e.kind === "developer" && e.diff
        ? "developer"
        : e.kind === "tournament" && e.final_diff
          ? "tournament"
          : undefined;
    // The developer's diff is reviewed on its bundle's row; a tournament's on its final diff's row.
    const diffHash = source === "developer" ? te.diffs.get("developer")?.hash : undefined;
    const target: EvidenceTarget = { folder, taskId: te.taskId, kind: e.kind, file: i.file, source, diffHash };
    const kids = (): AutodevNode[] => {
      const out: AutodevNode[] = [];
      if (e.kind === "developer") out.push(...this.fileNodes(folder, self, te, "developer"));
      if (e.kind === "review" || e.kind === "critic") {
        e.issues.forEach((text, n) => out.push(this.node(self, `issue|${n}`, issueItem(text, n + 1))));
      }
      if (e.kind === "explore") {
        for (const rel of e.files_referenced) {
          out.push(
            this.node(self, `ref|${rel}`, referencedFileItem(folder, rel), { folder, taskId: te.taskId, relPath: rel }),
          );
        }
      }
      if (e.kind === "tournament") {
        out.push(
          ...this.tournamentNodes(
            folder,
            self,
            te,
            i.file,
            e.history.map((h, n) => describePass(h, n + 1)),
          ),
        );
      }
      if ("output_text" in e && e.output_text) {
        out.push(
          this.node(self, "output", outputItem(folder, te.taskId, e.kind, e.output_text), {
            folder,
            taskId: te.taskId,
            kind: e.kind,
          }),
        );
      }
      return out;
    };
    const hasKids =
      (e.kind === "developer" && !!e.diff) ||
      ((e.kind === "review" || e.kind === "critic") && e.issues.length > 0) ||
      (e.kind === "explore" && e.files_referenced.length > 0) ||
      e.kind === "tournament" ||
      ("output_text" in e && !!e.output_text);
    const self: AutodevNode = this.node(
      parent,
      `b|${i.file}`,
      bundleItem(folder, i.file, e, hasKids, starred === i.file),
      target,
      hasKids ? kids : undefined,
    );
    return self;
  }

  private tournamentNodes(
    folder: AutodevFolder,
    parent: AutodevNode,
    te: TaskEvidence,
    file: string,
    fromEvidence: TournamentPass[],
  ): AutodevNode[] {
    const rec = te.tournaments.get(file);
    const out: AutodevNode[] = [];
    const judges = new Map<number, TournamentPass>();
    for (const r of rec?.results ?? []) if (r.file.ok) judges.set(r.n, r.file.value);
    const fromFolder = rec?.history?.ok ? rec.history.value : null;
    const passes = fromFolder ?? fromEvidence;
    const where = fromFolder ? `tournaments/${rec!.id}/history.json` : vscode.l10n.t("evidence history");
    const shown = new Set<number>();
    passes.forEach((p, n) => {
      if (p.n !== null) shown.add(p.n);
      out.push(
        this.node(
          parent,
          `pass|${n}`,
          passItem(p, where, p.n !== null ? (judges.get(p.n)?.judges ?? p.judges) : p.judges),
        ),
      );
    });
    for (const [n, p] of judges) {
      if (!shown.has(n)) {
        out.push(
          this.node(parent, `result|${n}`, passItem(p, `pass_${String(n).padStart(2, "0")}/result.json`, p.judges)),
        );
      }
    }
    if (rec?.error) out.push(this.node(parent, "t-error", warningItem(vscode.l10n.t("tournament folder"), rec.error)));
    if (rec?.history && !rec.history.ok) {
      out.push(this.node(parent, "t-history", warningItem("history.json", rec.history.error)));
    }
    for (const r of rec?.results ?? []) {
      if (!r.file.ok) {
        out.push(this.node(parent, `t-result|${r.dir}`, warningItem(`${r.dir}/result.json`, r.file.error)));
      }
    }
    const info = te.diffs.get("tournament");
    if (info) {
      const item = info.ok
        ? patchItem(folder, te.taskId, file, info.files, true)
        : errorItem(vscode.l10n.t("final diff"), info.error);
      item.description = undefined;
      item.contextValue = info.ok ? "autodevEvidence.finaldiff.diff" : item.contextValue;
      const finalNode: AutodevNode = this.node(
        parent,
        "final",
        item,
        { folder, taskId: te.taskId, source: "tournament", diffHash: info.hash },
        info.ok ? () => this.fileNodes(folder, finalNode, te, "tournament") : undefined,
      );
      out.push(finalNode);
    }
    return out;
  }
}
