// Small helpers shared by the integration tests (they run inside the extension host).
import * as assert from "node:assert/strict";
import * as vscode from "vscode";
import type { StateApi } from "../../src/extension/extension";
import type { AutodevApi } from "../../src/extension/sources/autodev/autodevAdapter";
import type { AutodevNode } from "../../src/extension/sources/autodev/autodevNodes";
import type { StateNode } from "../../src/extension/sources/sourceAdapter";
import type { DefaultNode } from "../../src/extension/sources/sourceTreeModel";
import { pollUntil } from "../helpers/poll";

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
  return pollUntil(check, timeoutMs, 100);
}

/** A node of the state tree as the tests look at it: AutoDev's or the default adapter's. */
export type AnyNode = AutodevNode | DefaultNode;

/** The extension's API, activating it first when needed. */
export async function stateApi(): Promise<StateApi> {
  const ext = extension();
  return (ext.isActive ? ext.exports : await ext.activate()) as StateApi;
}

/** AutoDev's handles in the API (its adapter's `api`). */
export function autodevOf(a: StateApi): AutodevApi {
  return a.adapters.autodev as AutodevApi;
}

/** Waits until the workspace has AutoDev folders and every one has been verified (fails after 30 s). */
export async function awaitAutodevVerified(a: StateApi): Promise<void> {
  assert.ok(
    await eventually(
      () => autodevOf(a).folders.folders.length > 0 && autodevOf(a).folders.folders.every((f) => f.report !== null),
      30_000,
    ),
    "folders never verified",
  );
}

/** The children of a state-tree node (the roots for none), typed for the tests. */
export async function childrenOf(a: StateApi, node?: StateNode): Promise<AnyNode[]> {
  return (await a.tree.getChildren(node)) as AnyNode[];
}

/** Prints a measurement among the test results (the launcher shows lines carrying its mark). */
export function report(text: string): void {
  console.log(`${process.env.AUTODEV_IT_MARK ?? ""}      ${text}`);
}
