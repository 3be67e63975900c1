/**
 * The adapter of every source without special VS Code needs (agloop, engine_state, a test's fake):
 * it shows what the core `StateSource` returns — the source's tree under one root per folder, its
 * problems, its timeline rows — and runs node targets (`autodev.openSourceTarget`: files, reveals,
 * diffs, texts, confirmed write actions). One instance serves every such kind.
 */
import * as vscode from "vscode";
import { problemCountsText } from "../text/countText";
import type { AdapterHost } from "./adapterHost";
import { DefaultSourceFolder } from "./defaultSourceFolder";
import type { SourceAdapter, SourceFolder, StatusPart } from "./sourceAdapter";
import { SourceActionCommands } from "./sourceActionCommands";
import { SourceTargetOpener } from "./sourceTargetOpener";
import { DefaultNode, SourceTreeModel } from "./sourceTreeModel";

/** `agloop 2 errors` over every folder of one kind (null when there are none). */
function statusPart(folders: readonly DefaultSourceFolder[]): StatusPart | null {
  if (folders.length === 0) return null;
  let errors = 0;
  let warnings = 0;
  let unread = false;
  for (const s of folders) {
    const c = s.counts;
    errors += c.error + (s.error ? 1 : 0);
    warnings += c.warning;
    unread ||= s.problems === null && !s.error;
  }
  // "agloop 2 errors": the source's name (not translated) and its health.
  const health = unread ? vscode.l10n.t("checking…") : problemCountsText(errors, warnings);
  const text = vscode.l10n.t("{0} {1}", folders[0].displayName, health);
  return { text, compact: errors || warnings ? text : null, errors, warnings };
}

/** The default adapters, one per kind, sharing one tree model and one target opener. */
export class DefaultAdapters {
  private readonly model = new SourceTreeModel();
  private readonly byKind = new Map<string, SourceAdapter>();
  /** Opens node targets (exposed for tests). */
  readonly opener: SourceTargetOpener;
  /** The sources' palette commands and their pickers (exposed for tests). */
  readonly actions: SourceActionCommands;

  constructor(private readonly host: AdapterHost) {
    this.actions = new SourceActionCommands(host.folders, (state, action, args, ask) =>
      this.opener.runAction(state, action, args, ask),
    );
    this.opener = new SourceTargetOpener(
      (key) => host.folders.byKey(key),
      host.worker,
      host.docs,
      async (state, localId) => {
        const node = state instanceof DefaultSourceFolder ? this.model.find(state, localId) : undefined;
        if (!node) return false;
        await host.tree.reveal(node, { select: true, focus: true, expand: true });
        return true;
      },
      (state, action) =>
        state instanceof DefaultSourceFolder ? this.actions.choose(state, action) : Promise.resolve(),
    );
    host.commands.registerAll({ "autodev.openSourceTarget": (key, target) => this.opener.open(key, target) });
    this.actions.register(host.commands);
  }

  /** The default adapter of `kind`. */
  adapter(kind: string): SourceAdapter {
    let a = this.byKind.get(kind);
    if (!a) this.byKind.set(kind, (a = this.make(kind)));
    return a;
  }

  private make(kind: string): SourceAdapter {
    const { host, model } = this;
    const own = (folders: readonly SourceFolder[]) =>
      folders.filter((f): f is DefaultSourceFolder => f instanceof DefaultSourceFolder);
    return {
      kind,
      createFolder(folder, detected, settings) {
        const state = new DefaultSourceFolder(folder, detected, host.worker, host.log, settings);
        void state.refresh();
        return state;
      },
      tree: {
        roots(folder) {
          model.retain(own(host.folders.all));
          return folder instanceof DefaultSourceFolder ? [model.root(folder)] : [];
        },
        children: (node) => model.children(node as DefaultNode),
        item: (node, multiFolder) => model.item(node as DefaultNode, multiFolder),
      },
      status: (folders) => statusPart(own(folders)),
    };
  }
}
