import * as vscode from "vscode";

/** How long a reveal waits for VS Code to report the selection it asked for, before asking once more. */
const SELECTION_WAIT_MS = 400;
const SELECTION_POLL_MS = 25;

/**
 * Reveals `node` in `view` and, when asked to select it, makes sure VS Code did. A view that VS Code
 * has just made visible may not have drawn its rows yet; a reveal then expands nothing and selects
 * nothing, and fires no selection event (seen in the integration suite run alone: the second reveal
 * of the same node selects it). So when the selection has not arrived within {@link SELECTION_WAIT_MS}, the reveal is
 * asked once more; never more than twice, so a node VS Code cannot show costs one wait, not a loop.
 */
export async function revealInTree<T extends { id: string }>(
  view: vscode.TreeView<T>,
  node: T,
  options: { select?: boolean; focus?: boolean; expand?: boolean | number } | undefined,
): Promise<void> {
  await view.reveal(node, options);
  if (options?.select === false || (await selected(view, node.id))) return;
  await view.reveal(node, options);
}

async function selected<T extends { id: string }>(view: vscode.TreeView<T>, id: string): Promise<boolean> {
  const until = Date.now() + SELECTION_WAIT_MS;
  for (;;) {
    if (view.selection.some((n) => n.id === id)) return true;
    if (Date.now() >= until) return false;
    await new Promise((resolve) => setTimeout(resolve, SELECTION_POLL_MS));
  }
}
