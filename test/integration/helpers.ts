// Small helpers shared by the integration tests (they run inside the extension host).
import * as vscode from "vscode";

/** The extension's id: `publisher.name` from package.json. */
export const EXTENSION_ID = "autodev-state.autodev-state";

/** The extension under test; throws when VS Code did not load it. */
export function extension(): vscode.Extension<unknown> {
  const ext = vscode.extensions.getExtension(EXTENSION_ID);
  if (!ext) throw new Error(`${EXTENSION_ID} is not loaded`);
  return ext;
}

/** Polls `check` every 100 ms until it returns true or `timeoutMs` passes; returns the last result. */
export async function eventually(check: () => boolean, timeoutMs: number): Promise<boolean> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (check()) return true;
    await new Promise((r) => setTimeout(r, 100));
  }
  return check();
}
