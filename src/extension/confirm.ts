/**
 * Questions asked before a change the user cannot take back (accepting a rewritten history,
 * running a source's write action): a modal dialog in the editor, a function the tests replace.
 */
import * as vscode from "vscode";

/** Asks `message` (with `detail`) and resolves true when the user chose `button`. */
export type ConfirmAsk = (message: string, detail: string, button: string) => Promise<boolean>;

/** Asks with a modal warning dialog. */
export const modalAsk: ConfirmAsk = async (message, detail, button) =>
  (await vscode.window.showWarningMessage(message, { modal: true, detail }, button)) === button;
