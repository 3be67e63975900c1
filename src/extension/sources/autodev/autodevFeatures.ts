/**
 * AutoDev's features that the tree's first paint (its roots) does not need: the evidence nodes,
 * documents, badges and reviewed marks, the run-state view and its status item, the live checks of
 * response files. They are made once, on first use (one of their commands, a node's children,
 * the API, the task notes) or right after the first paint, whichever comes first. Their commands
 * are registered at activation with handlers that make them on the first call.
 */
import type { AdapterHost } from "../adapterHost";
import type { AutodevTree } from "./autodevTree";
import { EVIDENCE_COMMAND_IDS } from "./evidence/evidenceCommands";
import { EvidenceFeatures, registerEvidenceFeatures } from "./evidence/evidenceFeatures";
import type { AutodevFolders } from "./folder/autodevFolders";
import type { FolderPicker } from "./folder/folderPicker";
import { REVIEW_MARK_COMMAND_IDS } from "./review/reviewMarkEditor";
import { RunStateFeatures, registerRunStateFeatures } from "./run/runStateFeatures";
import { ResponseValidation } from "./wait/responseValidation";

/** The features, once made. */
export interface AutodevFeatures {
  readonly evidence: EvidenceFeatures;
  /** The run state: running, inline suspension, tournaments, knowledge, config, spec. */
  readonly run: RunStateFeatures;
  /** Live checks of response files while they are edited. */
  readonly responses: ResponseValidation;
}

/** The commands the features answer. */
const FEATURE_COMMAND_IDS = [...EVIDENCE_COMMAND_IDS, ...REVIEW_MARK_COMMAND_IDS, "autodev.openRunTarget"] as const;

/** The features made on first use: `get` makes them (once), `made` is null until then. */
export interface LazyAutodevFeatures {
  get(): AutodevFeatures;
  readonly made: AutodevFeatures | null;
}

/** Registers the features' commands and makes the features on first use or after the first paint. */
export function lazyAutodevFeatures(
  host: AdapterHost,
  parts: { readonly folders: AutodevFolders; readonly tree: AutodevTree; readonly picker: FolderPicker },
  onMade: (features: AutodevFeatures) => void,
): LazyAutodevFeatures {
  let made: AutodevFeatures | null = null;
  const get = (): AutodevFeatures => {
    if (made) return made;
    made = makeFeatures(host, parts);
    onMade(made);
    return made;
  };
  host.commands.registerLazy(FEATURE_COMMAND_IDS, () => {
    const { evidence, run } = get();
    return {
      ...evidence.commands.handlers(),
      ...evidence.markEditor.handlers(),
      "autodev.openRunTarget": (folderUri, target) => run.opener.open(folderUri, target),
    };
  });
  parts.tree.setBeforeChildren(() => void get());
  host.afterPaint(() => void get());
  return {
    get,
    get made() {
      return made;
    },
  };
}

function makeFeatures(
  host: AdapterHost,
  parts: { readonly folders: AutodevFolders; readonly tree: AutodevTree; readonly picker: FolderPicker },
): AutodevFeatures {
  const responses = new ResponseValidation(host.worker);
  host.context.subscriptions.push(responses);
  const evidence = registerEvidenceFeatures(host.context, {
    folders: parts.folders,
    tree: parts.tree,
    docs: host.docs,
    log: host.log,
    picker: parts.picker,
    worker: host.worker,
    onDidChangeCheckbox: host.tree.onDidChangeCheckbox,
  });
  const run = registerRunStateFeatures(host.context, {
    folders: parts.folders,
    worker: host.worker,
    log: host.log,
    docs: host.docs,
  });
  return { evidence, run, responses };
}
