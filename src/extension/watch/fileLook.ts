/**
 * A look at a file from the extension host without Node's `fs`: VS Code's file service
 * (`workspace.fs.stat`) gives its size and modification time, in the signature format the worker's
 * live watch tells (src/core/fs/fileSignatureFormat.ts). Used by the watcher's safety-net look and
 * the echo check of live files; never reads the file.
 */
import * as vscode from "vscode";
import { ABSENT_SIGNATURE, signatureOf } from "../../core/fs/fileSignatureFormat";

/** The file's signature now, or "absent" when it cannot be looked at. */
export async function lookAt(file: vscode.Uri): Promise<string> {
  try {
    return signatureOf(await vscode.workspace.fs.stat(file));
  } catch {
    return ABSENT_SIGNATURE;
  }
}
